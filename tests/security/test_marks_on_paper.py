"""Issue 11 on paper: every document printed from a demo database carries "DEMONSTRAÇÃO — SEM VALOR LEGAL" across
the page, and every document's footer carries the short hash of the newest signed audit checkpoint, so a paper
can be matched with the published termo de verificação."""
from __future__ import annotations

import io

from pypdf import PdfReader

from desktop.models import DatabaseMark, now
from desktop.reports import _pdf, records
from desktop.reports.common import DocumentMeta
from desktop.services import audit, checkpoints
from desktop.services.demo import DEMO_LABEL, DEMO_MARK


def _printed_text(db) -> str:
    from reportlab.platypus import Paragraph

    with db.session(write=False) as s:
        header = records.header(s)
    meta = DocumentMeta(number="0001/2026", issued_at=now(), issued_by="Gestora")
    pdf = _pdf.build_story_pdf(header, meta, "Teste", [Paragraph("Corpo do documento.")])
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_issue11_a_real_database_prints_no_demo_mark_and_no_checkpoint_before_the_first(db, configured):
    text = _printed_text(db)
    assert "DEMONSTRAÇÃO" not in text and "ponto de verificação" not in text


def test_issue11_the_footer_carries_the_newest_checkpoint(db, configured):
    checkpoint = checkpoints.make_checkpoint(db, configured)
    assert audit.latest_checkpoint(db).short_hash == checkpoint.short_hash
    assert f"ponto de verificação {checkpoint.short_hash}" in _printed_text(db)


def test_issue11_a_demo_database_marks_every_page(db, configured):
    with db.session() as s:
        s.add(DatabaseMark(key=DEMO_MARK, value="teste", at=now()))
    assert DEMO_LABEL in _printed_text(db)
