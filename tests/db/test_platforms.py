"""Platforms (Art. 5-6): registration, municipal registration (Art. 6), APP insurance (Art. 5 X), list and detail
with drivers and vehicles (issue 4). Each test runs on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import timedelta

import pytest
from registry_factories import TODAY, active, desk, driver_draft  # noqa: F401 - desk is a fixture

from desktop.errors import ConflictError, PermissionDenied, StaleRecordError, ValidationError
from desktop.services import platforms as svc
from desktop.services.attachments import attach_document, document_content
from tests.files import tiny_pdf
from desktop.services.drivers import register_driver
from desktop.services.platforms import PlatformDraft

CNPJ_A = "11.222.333/0001-81"
CNPJ_B = "11.444.777/0001-61"


def draft(**kw) -> PlatformDraft:
    base = dict(cnpj=CNPJ_A, legal_name="Mobilidade Chapada Ltda", trade_name="Vai Já", email="contato@vaija.com",
                municipal_registration_number="IM-2026-001", municipal_registration_date=TODAY,
                app_insurance_policy="APP-9", app_insurance_insurer="Seguradora X",
                app_insurance_valid_until=TODAY + timedelta(days=200))
    base.update(kw)
    return PlatformDraft(**base)


def test_art6_registered_platform_is_active_and_unregistered_is_pending(db, desk):
    p = svc.create_platform(db, desk.clerk, draft())
    assert p.status == "active" and p.cnpj_display == CNPJ_A and p.cnpj == "11222333000181"
    q = svc.create_platform(db, desk.clerk, draft(cnpj=CNPJ_B, trade_name="Outra",
                                                  municipal_registration_number=None,
                                                  municipal_registration_date=None))
    assert q.status == "pending" and q.status_label == "Sem inscrição municipal"


def test_bad_cnpj_and_missing_names_are_shown_together():
    problems = {p.field for p in svc.validate_platform(draft(cnpj="11.222.333/0001-00", legal_name="",
                                                             trade_name=" "))}
    assert problems == {"cnpj", "legal_name", "trade_name"}


def test_art5_x_expired_app_insurance_is_a_problem_but_data_is_kept(db, desk):
    old = draft(app_insurance_valid_until=TODAY - timedelta(days=1))
    assert [p.article for p in svc.validate_platform(old, TODAY)] == ["Art. 5, X"]
    assert svc.create_platform(db, desk.clerk, old).app_insurance_valid_until == TODAY - timedelta(days=1)


def test_art6_registration_number_needs_its_date(db, desk):
    with pytest.raises(ValidationError) as err:
        svc.create_platform(db, desk.clerk, draft(municipal_registration_date=None))
    assert err.value.problems[0].article == "Art. 6"


def test_duplicate_cnpj_is_a_conflict(db, desk):
    svc.create_platform(db, desk.clerk, draft())
    with pytest.raises(ConflictError, match="CNPJ"):
        svc.create_platform(db, desk.clerk, draft(municipal_registration_number="IM-2"))


def test_update_and_stale_save(db, desk):
    p = svc.create_platform(db, desk.clerk, draft())
    u = svc.update_platform(db, desk.clerk, p.id, draft(phone="(65) 3301-0000"), p.version)
    assert u.phone == "(65) 3301-0000"
    with pytest.raises(StaleRecordError):
        svc.update_platform(db, desk.clerk, p.id, draft(phone="x"), p.version)


def test_status_decision_is_gestor_only(db, desk):
    p = svc.create_platform(db, desk.clerk, draft())
    with pytest.raises(PermissionDenied):
        svc.set_platform_status(db, desk.clerk, p.id, "suspended", "x", p.version)
    s = svc.set_platform_status(db, desk.manager, p.id, "suspended", "Sem seguro APP", p.version)
    assert s.status_label == "Suspensa"
    assert svc.platform_detail(db, desk.clerk, p.id).timeline[0].detail == "Sem seguro APP"


def test_list_by_name_accents_and_cnpj(db, desk):
    svc.create_platform(db, desk.clerk, draft(trade_name="Ônibus Já"))
    svc.create_platform(db, desk.clerk, draft(cnpj=CNPJ_B, trade_name="Rota Certa", legal_name="Águia Transportes",
                                              municipal_registration_number="IM-2"))
    assert [r.trade_name for r in svc.list_platforms(db, desk.clerk, "onibus").rows] == ["Ônibus Já"]
    assert [r.trade_name for r in svc.list_platforms(db, desk.clerk, "aguia").rows] == ["Rota Certa"]
    assert [r.trade_name for r in svc.list_platforms(db, desk.clerk, "11.444").rows] == ["Rota Certa"]
    assert [r.trade_name for r in svc.list_platforms(db, desk.clerk, "", sort="trade_name").rows] \
        == ["Ônibus Já", "Rota Certa"]
    assert svc.platform_options(db, desk.clerk)[0][1] == "Ônibus Já"


def test_detail_shows_its_drivers_vehicles_and_documents(db, desk):
    p = svc.create_platform(db, desk.clerk, draft())
    driver = register_driver(db, desk.clerk, driver_draft(name="Célia Campos", platform_ids=(p.id,)))
    a = active(db, desk, driver=driver)
    apolice = tiny_pdf("Apólice APP")
    doc = attach_document(db, desk.clerk, apolice, "apolice.pdf", "Apólice APP", platform_id=p.id)
    detail = svc.platform_detail(db, desk.fiscal, p.id)
    assert [d.name for d in detail.drivers] == ["Célia Campos"]
    assert detail.drivers[0].authorization_number == a.number
    assert [v.plate_display for v in detail.vehicles] == [a.plate_display]
    assert [d.filename for d in detail.documents] == ["apolice.pdf"]
    info, content = document_content(db, desk.fiscal, doc.id)
    assert content == apolice and info.mime == "application/pdf"


def test_attachments_refuse_other_formats_and_never_replace(db, desk):
    p = svc.create_platform(db, desk.clerk, draft())
    with pytest.raises(ValidationError, match="PDF, JPG ou PNG"):
        attach_document(db, desk.clerk, b"MZ\x90\x00", "virus.pdf", "Apólice APP", platform_id=p.id)
    with pytest.raises(ValidationError, match="não abre como PDF"):   # issue 11: the "%PDF-" prefix is not enough
        attach_document(db, desk.clerk, b"%PDF-1.4 v1", "a.pdf", "Apólice APP", platform_id=p.id)
    first = attach_document(db, desk.clerk, tiny_pdf("v1"), "a.pdf", "Apólice APP", platform_id=p.id)
    again = attach_document(db, desk.clerk, tiny_pdf("v1"), "a.pdf", "Apólice APP", platform_id=p.id)
    newer = attach_document(db, desk.clerk, tiny_pdf("v2"), "a.pdf", "Apólice APP", platform_id=p.id)
    assert again.id == first.id and newer.id != first.id
    assert len(first.sha256) == 64 and first.sha256 != newer.sha256
    assert [d.id for d in svc.platform_detail(db, desk.clerk, p.id).documents] == [newer.id, first.id]
