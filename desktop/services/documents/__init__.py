"""Issued documents (SPEC §3 "Documents to print"; issue 7), by use case:

- `archive`: numbering and archiving (rendered outside the write transaction), reprints, the archive list;
- `stickers`: the sticker, its preview and the batch of pending stickers;
- `printing`: every other document (credential, certificate, guide, statement, auto, notices, laudo, attendance,
  edital, data request), each built from the database by its own `desktop.reports.<kind>.build_context`;
- `reissue`: whether a sticker, credential or termo in force exists before issuing another (2ª via or a reason);
- `sticker_check`: a scanned sticker against its signature and the register;
- `dispatch`: `print_kind`, what `python -m desktop print KIND --id NUMBER` and the Relatórios page call.

Every name imported from `desktop.services.documents` before the split is re-exported here. ReportLab is
imported only when a document is rendered (the GUI imports this package at start-up).
"""
from desktop.services.documents.archive import (
    ALL_ROLES, DOCUMENT_KINDS, ISSUE_ROLES, RECORD_NAMES, REISSUE_REASONS, Issued, IssuedInfo, IssuedSummary,
    RecordRef,
    archived_bytes, issue_document, issue_in_session, issue_rendered, list_issued, municipality_header, reprint,
    sha256_hex,
)
from desktop.services.documents.dispatch import kinds_help, print_kind
from desktop.services.documents.printing import (
    NOTICE_KINDS, print_attendance_list, print_auto, print_autuacao_notice, print_certificate, print_credential,
    print_data_request, print_divida_ativa_certificate, print_edital, print_guide, print_inspection_report,
    print_notice, print_statement,
)
from desktop.services.documents.reissue import REISSUABLE_KINDS, current_document
from desktop.services.documents.sticker_check import (check_sticker, check_sticker_keeping_key, check_sticker_offline,
                                                      sticker_public_key)
from desktop.services.documents.stickers import (
    STICKER_EVENT, pending_sticker_numbers, pending_stickers_job, print_pending_stickers, print_sticker,
    sticker_for_authorization,
)

__all__ = [
    "ALL_ROLES", "DOCUMENT_KINDS", "ISSUE_ROLES", "NOTICE_KINDS", "RECORD_NAMES", "REISSUABLE_KINDS",
    "REISSUE_REASONS", "STICKER_EVENT", "Issued", "current_document",
    "IssuedInfo", "IssuedSummary", "RecordRef", "archived_bytes", "check_sticker", "check_sticker_keeping_key", "check_sticker_offline",
    "issue_document",
    "issue_in_session", "issue_rendered", "kinds_help", "list_issued", "municipality_header",
    "pending_sticker_numbers", "pending_stickers_job", "print_attendance_list", "print_auto",
    "print_autuacao_notice", "print_certificate", "print_credential", "print_data_request",
    "print_divida_ativa_certificate", "print_edital",
    "print_guide", "print_inspection_report", "print_kind", "print_notice", "print_pending_stickers",
    "print_statement", "print_sticker", "reprint", "sha256_hex", "sticker_for_authorization", "sticker_public_key",
]
