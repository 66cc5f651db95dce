"""Drivers (Art. 8, 12): the wizard's validation, registration with checklist and platforms, stale saves, roles,
the list's accent-insensitive filter and the detail page (issue 4). Each test runs on SQLite and PostgreSQL."""
from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from registry_factories import TODAY, cpf, desk, driver_draft, full_checklist  # noqa: F401 - desk is a fixture

from desktop.errors import PermissionDenied, StaleRecordError, ValidationError, ConflictError
from desktop.services import drivers as svc
from desktop.services.attachments import attach_document
from tests.files import tiny_pdf
from desktop.services.drivers import ChecklistEntry
from desktop.services.platforms import PlatformDraft, create_platform

PDF = tiny_pdf("CNH")


def test_validate_driver_names_every_missing_item_with_its_article():
    draft = driver_draft(checklist=())
    problems = svc.validate_driver(draft, TODAY)
    by_field = {p.field: p for p in problems}
    assert by_field["cnh"].article == "Art. 12, I"
    assert by_field["criminal_record"].article == "Art. 12, IV"
    assert by_field["tax_clearance"].article == "Art. 8, §1, II"
    # conditions must be verified by the office
    assert by_field["no_conviction"].article == "Art. 12, VIII"
    assert by_field["no_traffic_crime"].article == "Art. 12, §1"


def test_validate_driver_complete_draft_has_no_problem():
    assert svc.validate_driver(driver_draft(), TODAY) == []


def test_art12_iv_expired_criminal_record_is_a_problem():
    expired = ChecklistEntry("criminal_record", number="C-1", issued_on=TODAY - timedelta(days=200),
                             expires_on=TODAY - timedelta(days=1))
    problems = svc.validate_driver(driver_draft(checklist=full_checklist(criminal_record=expired)), TODAY)
    assert [(p.field, p.article) for p in problems] == [("criminal_record", "Art. 12, IV")]
    assert "Vencido" in problems[0].message


def test_art12_i_category_a_and_missing_ear_are_refused():
    problems = svc.validate_driver(driver_draft(cnh_category="A", cnh_ear=False), TODAY)
    fields = {p.field for p in problems}
    assert {"cnh_category", "cnh_ear"} <= fields


def test_bad_cpf_blocks_saving(db, desk):
    with pytest.raises(ValidationError) as err:
        svc.register_driver(db, desk.clerk, driver_draft(cpf="123.456.789-00"))
    assert err.value.problems[0].field == "cpf"


def test_register_driver_with_checklist_platform_and_scan(db, desk):
    platform = create_platform(db, desk.clerk, PlatformDraft(cnpj="11.222.333/0001-81", legal_name="Mobi Ltda",
                                                             trade_name="Mobi"))
    scan = attach_document(db, desk.clerk, PDF, "cnh.pdf", "CNH")
    checklist = full_checklist(cnh=ChecklistEntry("cnh", document_id=scan.id, number="123",
                                                  expires_on=TODAY + timedelta(days=400)))
    info = svc.register_driver(db, desk.clerk, driver_draft(name="Conceição Araújo", checklist=checklist,
                                                            platform_ids=(platform.id,)))
    assert info.platform_ids == (platform.id,)
    assert info.cpf_display.count(".") == 2 and "-" in info.cpf_display
    detail = svc.driver_detail(db, desk.fiscal, info.id)
    assert detail.problems == ()
    cnh_line = next(line for line in detail.checklist if line.key == "cnh")
    assert cnh_line.present and cnh_line.document_id == scan.id
    assert cnh_line.checked_by_name == "Ana Atendente"
    assert [d.id for d in detail.documents] == [scan.id]  # the wizard's scan now belongs to the driver
    assert detail.platforms == ((platform.id, "Mobi"),)
    assert any(e.what == "Condutor cadastrado" and e.who == "Ana Atendente" for e in detail.timeline)


def test_duplicate_cpf_is_a_conflict(db, desk):
    number = cpf()
    svc.register_driver(db, desk.clerk, driver_draft(cpf=number))
    with pytest.raises(ConflictError, match="CPF"):
        svc.register_driver(db, desk.clerk, driver_draft(cpf=number, name="Outro"))


def test_fiscal_cannot_register_a_driver(db, desk):
    with pytest.raises(PermissionDenied):
        svc.register_driver(db, desk.fiscal, driver_draft())


def test_stale_save_is_refused_and_nothing_is_lost(db, desk):
    info = svc.register_driver(db, desk.clerk, driver_draft(name="Pedro Alves"))
    first = svc.update_driver(db, desk.clerk, info.id, driver_draft(cpf=info.cpf, name="Pedro Alves Filho"),
                              info.version)
    with pytest.raises(StaleRecordError):
        svc.update_driver(db, desk.manager, info.id, driver_draft(cpf=info.cpf, name="Pedro A."), info.version)
    assert svc.get_driver(db, desk.clerk, info.id).name == "Pedro Alves Filho"
    assert first.version > info.version


def test_update_checklist_marks_expired_item_and_detail_shows_it(db, desk):
    info = svc.register_driver(db, desk.clerk, driver_draft())
    expired = ChecklistEntry("tax_clearance", number="CND-9", issued_on=TODAY - timedelta(days=100),
                             expires_on=TODAY - timedelta(days=10))
    detail = svc.update_checklist(db, desk.clerk, info.id, (expired,), info.version)
    assert [(p.field, p.article) for p in detail.problems] == [("tax_clearance", "Art. 8, §1, II")]
    line = next(x for x in detail.checklist if x.key == "tax_clearance")
    assert line.problems and line.number == "CND-9"
    with pytest.raises(StaleRecordError):  # the checklist change moved the driver's version
        svc.update_checklist(db, desk.clerk, info.id, (expired,), info.version)


def test_unchecking_a_line_removes_it(db, desk):
    info = svc.register_driver(db, desk.clerk, driver_draft())
    detail = svc.update_checklist(db, desk.clerk, info.id, (ChecklistEntry("no_conviction", present=False),),
                                  info.version)
    assert [p.field for p in detail.problems] == ["no_conviction"]
    assert detail.problems[0].message.startswith("Não verificado")


@pytest.mark.parametrize("typed", ["joao", "JOÃO", "João da", "joão  da silva"])
def test_list_filter_is_accent_and_case_insensitive(db, desk, typed):
    svc.register_driver(db, desk.clerk, driver_draft(name="João da Silva"))
    svc.register_driver(db, desk.clerk, driver_draft(name="Maria Conceição"))
    page = svc.list_drivers(db, desk.clerk, typed)
    assert [r.name for r in page.rows] == ["João da Silva"] and page.total == 1


def test_list_conceicao_finds_conceicao_by_contains_fallback(db, desk):
    svc.register_driver(db, desk.clerk, driver_draft(name="Maria Conceição"))
    page = svc.list_drivers(db, desk.clerk, "conceicao")
    assert [r.name for r in page.rows] == ["Maria Conceição"]


def test_list_by_cpf_prefix_pages_and_sorts(db, desk):
    number = cpf()
    svc.register_driver(db, desk.clerk, driver_draft(cpf=number, name="Zélia"))
    for name in ("Bruno", "Álvaro", "Carla"):
        svc.register_driver(db, desk.clerk, driver_draft(name=name))
    assert [r.name for r in svc.list_drivers(db, desk.clerk, number[:6]).rows] == ["Zélia"]
    page = svc.list_drivers(db, desk.clerk, "", sort="name", limit=2)
    assert [r.name for r in page.rows] == ["Álvaro", "Bruno"] and page.total == 4 and page.has_more
    page = svc.list_drivers(db, desk.clerk, "", sort="name", descending=True, offset=0, limit=10)
    assert page.rows[0].name == "Zélia"
    with pytest.raises(ValueError):
        svc.list_drivers(db, desk.clerk, "", sort="password_hash")


def test_list_status_filter(db, desk):
    a = svc.register_driver(db, desk.clerk, driver_draft(name="Ativo"))
    b = svc.register_driver(db, desk.clerk, driver_draft(name="Saiu"))
    svc.deregister_driver(db, desk.manager, b.id, "Mudou de município", "Portaria 1/2026", TODAY, b.version)
    assert [r.id for r in svc.list_drivers(db, desk.clerk, status="active").rows] == [a.id]
    assert [r.status_label for r in svc.list_drivers(db, desk.clerk, status="deregistered").rows] == ["Descadastrado"]


def test_art24_deregistration_is_gestor_only(db, desk):
    info = svc.register_driver(db, desk.clerk, driver_draft())
    with pytest.raises(PermissionDenied):
        svc.deregister_driver(db, desk.clerk, info.id, "x", "1", TODAY, info.version)


def test_update_driver_changes_platforms_and_keeps_history(db, desk):
    p1 = create_platform(db, desk.clerk, PlatformDraft(cnpj="11.222.333/0001-81", legal_name="A", trade_name="A"))
    p2 = create_platform(db, desk.clerk, PlatformDraft(cnpj="11.444.777/0001-61", legal_name="B", trade_name="B"))
    info = svc.register_driver(db, desk.clerk, driver_draft(platform_ids=(p1.id,)))
    draft = driver_draft(cpf=info.cpf, name=info.name, platform_ids=(p2.id,), phone="(65) 3333-1111")
    updated = svc.update_driver(db, desk.clerk, info.id, draft, info.version)
    assert updated.platform_ids == (p2.id,)
    timeline = svc.driver_detail(db, desk.clerk, info.id).timeline
    assert timeline[0].what == "Dados do condutor alterados" and "telefone" in timeline[0].detail


def test_photo_round_trip(db, desk):
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 20
    info = svc.register_driver(db, desk.clerk, replace(driver_draft(), photo=png, photo_mime="image/png"))
    assert info.has_photo
    assert svc.driver_photo(db, desk.clerk, info.id) == png


def test_contains_fallback_total_is_capped_and_marked_inexact(db, desk, monkeypatch):
    for first in ("Ana", "Bia", "Cid", "Davi"):
        svc.register_driver(db, desk.clerk, driver_draft(name=f"{first} da Silva"))
    monkeypatch.setattr(svc, "FALLBACK_COUNT_CAP", 3)
    page = svc.list_drivers(db, desk.clerk, "silva", limit=2)
    assert [r.name for r in page.rows] == ["Ana da Silva", "Bia da Silva"]
    assert (page.total, page.exact) == (3, False)
    assert svc.list_drivers(db, desk.clerk, "silva", limit=2, anywhere=False).total == 0
    exact = svc.list_drivers(db, desk.clerk, "da s", limit=10)  # "da silva" is no name's start either
    assert exact.total == 4 and exact.exact


def test_issue12_item22_scans_kept_by_the_wizard_are_stored_on_finish_and_linked(db, desk):
    from sqlalchemy import func, select

    from desktop.models import Document
    from desktop.services.registry.scans import Scan

    def documents():
        with db.session(write=False) as s:
            return s.scalar(select(func.count()).select_from(Document))

    scan = Scan(PDF, "antecedentes.pdf")
    lines = tuple(replace(e, scan=scan) if e.key == "criminal_record" else e for e in full_checklist())
    with pytest.raises(ValidationError):             # the draft is checked before anything is stored
        svc.register_driver(db, desk.clerk, driver_draft(cpf="123", checklist=lines))
    assert documents() == 0
    info = svc.register_driver(db, desk.clerk, driver_draft(checklist=lines))
    detail = svc.driver_detail(db, desk.clerk, info.id)
    line = next(x for x in detail.checklist if x.key == "criminal_record")
    assert line.document_id and [d.kind for d in detail.documents] == ["criminal_record"] and documents() == 1


class _Undo(Exception):
    """Raised inside a caller's transaction to roll it back."""


def _document_count(db) -> int:
    from sqlalchemy import func, select

    from desktop.models import Document

    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(Document))


def test_refused_registration_leaves_no_scan_behind(db, desk):
    from desktop.services.registry.scans import Scan

    number = cpf()
    svc.register_driver(db, desk.clerk, driver_draft(cpf=number))
    checklist = full_checklist(cnh=ChecklistEntry("cnh", number="123", expires_on=TODAY + timedelta(days=400),
                                                  scan=Scan(PDF, "cnh.pdf")))
    with pytest.raises(ConflictError, match="CPF"):
        svc.register_driver(db, desk.clerk, driver_draft(cpf=number, name="Outro", checklist=checklist))
    assert _document_count(db) == 0
    info = svc.register_driver(db, desk.clerk, driver_draft(checklist=checklist))
    assert [d.filename for d in svc.driver_detail(db, desk.fiscal, info.id).documents] == ["cnh.pdf"]
    assert _document_count(db) == 1


def test_attachment_session_forms_join_the_callers_transaction(db, desk):
    from desktop.services import attachments

    with pytest.raises(_Undo):
        with db.session() as s:
            doc = attachments.attach_document_in(s, desk.clerk, PDF, "cnh.pdf", "CNH")
            assert attachments.document_content_in(s, desk.clerk, doc.id)[1] == PDF
            raise _Undo
    assert _document_count(db) == 0
    info = svc.register_driver(db, desk.clerk, driver_draft())
    doc = attachments.attach_document(db, desk.clerk, PDF, "cnh.pdf", "CNH", driver_id=info.id)
    with db.session(write=False) as s:
        assert [d.id for d in attachments.list_documents_in(s, desk.fiscal, driver_id=info.id)] == [doc.id]


def test_issue28_art13_I_the_desks_registration_and_edit_require_the_photo(db, desk):
    """The wizard's drafts say the photo is required: a new driver, or an edit while none is stored, is refused
    without one, naming the field; with the photo it is saved and the edit of a driver with a photo needs none."""
    from desktop.demo.photos import photo_for

    with pytest.raises(ValidationError) as refused:
        svc.register_driver(db, desk.clerk, driver_draft(photo_required=True))
    assert [p.field for p in refused.value.problems] == ["photo"] and "Art. 13, I" in str(refused.value.problems[0])
    info = svc.register_driver(db, desk.clerk, driver_draft(photo_required=True, photo=photo_for(1),
                                                               photo_mime="image/png"))
    assert info.has_photo
    edited = svc.update_driver(db, desk.clerk, info.id, driver_draft(cpf=info.cpf, name="João da Silva Filho"),
                               info.version)
    assert edited.has_photo and edited.name == "João da Silva Filho"
    bare = svc.register_driver(db, desk.clerk, driver_draft(name="Sem Foto"))     # an import's way: allowed
    with pytest.raises(ValidationError, match="foto"):
        svc.update_driver(db, desk.clerk, bare.id, driver_draft(cpf=bare.cpf, name="Sem Foto", photo_required=True),
                          bare.version)
