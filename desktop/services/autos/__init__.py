"""Autos de infração (Art. 19, 22; penalties Art. 24-27), by use case:

- `assessment`: the fiscal's form, its problems and what the law proposes for it;
- `commands`: drawing up the numbered auto with its debit in the ledger, cancelling it (Art. 17), keeping files;
- `queries`: one auto with the actions open on it, the list and the infractor's page.

An auto is never deleted. What `domain.assess` proposed is stored beside it (`assessment`); the gestor's decision
(services.autos.process.judge) says which penalties take effect when the decision becomes final (services.penalties).
The names below are the package's public API, importable from `desktop.services.autos` as before.
"""
from __future__ import annotations

from desktop.domain.steps import Action
from desktop.services.autos.assessment import (
    AutoDraft,
    assess_in,
    draft_debtor,
    draft_problems,
    draft_problems_in,
    preview_assessment,
)
from desktop.services.autos.commands import (
    attach_to_auto,
    attach_to_auto_in,
    cancel_auto,
    cancel_auto_in,
    document_ref,
    draw_up_auto,
    draw_up_auto_in,
)
from desktop.services.autos.queries import (
    INFRACTOR_PAGE_LIMIT,
    AutoDetail,
    AutoFilter,
    AutoPage,
    AutoSummary,
    InfractorPage,
    allowed_actions,
    count_autos,
    count_autos_in,
    get_auto,
    get_auto_in,
    get_auto_info,
    infractor_page,
    infractor_page_in,
    list_autos,
    list_autos_in,
)
from desktop.services.enforcement.core import (
    READER_ROLES,
    ZERO,
    Attachment,
    Infractor,
    auto_transition,
    debtor_of,
    require_reader,
    store_attachment,
)
from desktop.services.enforcement.postings import EntryInfo
from desktop.services.enforcement.records import AssessmentView, AutoInfo, DocumentRef, auto_info_in
from desktop.services.enforcement.recurrence import priors_in, reassess_in

AutoAction = Action
"""The name docs/contracts.md gives the actions of an auto: now the domain's `Action` (key, label, article, enabled,
reason, group, roles) built from `desktop.domain.auto_steps`."""

__all__ = [
    "AssessmentView", "Attachment", "AutoAction", "AutoDetail", "AutoDraft", "AutoFilter", "AutoInfo", "AutoPage",
    "AutoSummary", "DocumentRef", "EntryInfo", "INFRACTOR_PAGE_LIMIT", "Infractor", "InfractorPage", "READER_ROLES",
    "ZERO", "allowed_actions", "assess_in", "attach_to_auto", "attach_to_auto_in", "auto_info_in",
    "auto_transition", "cancel_auto", "cancel_auto_in", "count_autos", "count_autos_in", "debtor_of",
    "document_ref", "draft_debtor", "draft_problems", "draft_problems_in", "draw_up_auto", "draw_up_auto_in",
    "get_auto", "get_auto_in", "get_auto_info", "infractor_page", "infractor_page_in", "list_autos",
    "list_autos_in", "preview_assessment", "priors_in", "reassess_in", "require_reader", "store_attachment",
]
