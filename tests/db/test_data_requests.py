"""Requests for data to a platform (Art. 4): justified, with the period and the fields of §1 I-VII; the 24-hour
term of §2 from the notification date-time; the answer with its date-time and file; a late answer flagged.
Each test runs on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import timedelta

import pytest
from registry_factories import TODAY, desk  # noqa: F401 - desk is a fixture
from sqlalchemy import select

from desktop.domain import local_now
from desktop.errors import ConflictError, PermissionDenied, ValidationError
from desktop.models.registry import Document
from desktop.services import data_requests as svc
from desktop.services import platforms
from desktop.services.data_requests import DataRequestDraft
from desktop.services.platforms import PlatformDraft


@pytest.fixture
def platform(db, desk):
    return platforms.create_platform(db, desk.clerk, PlatformDraft(
        cnpj="11.222.333/0001-81", legal_name="Mobilidade Chapada Ltda", trade_name="Vai Já",
        municipal_registration_number="IM-1", municipal_registration_date=TODAY - timedelta(days=30)))


def draft(platform, **kw) -> DataRequestDraft:
    base = dict(platform_id=platform.id, justification="Denúncia de cobrança acima da tarifa.",
                period_start=TODAY - timedelta(days=30), period_end=TODAY - timedelta(days=1),
                want_rating=False, other_data="registro de cancelamentos", investigation=True,
                narrowing_reason="A denúncia é de cobrança: a avaliação do serviço não serve à apuração.")
    base.update(kw)
    return DataRequestDraft(**base)


def test_art4_caput_and_par1_every_problem_at_once(db, desk, platform):
    with pytest.raises(ValidationError) as err:
        svc.create_data_request(db, desk.fiscal, draft(
            platform, justification=" ", period_end=TODAY - timedelta(days=60), want_origin_destination=False,
            want_time_distance=False, want_route=False, want_driver=False, want_fare=False, other_data=""))
    assert {p.field for p in err.value.problems} == {"justification", "period_end", "fields"}
    with pytest.raises(PermissionDenied):
        svc.create_data_request(db, desk.clerk, draft(platform))


def test_art4_par2_24_hours_from_notification_countdown_and_late_answer(db, desk, platform):
    r = svc.create_data_request(db, desk.fiscal, draft(platform))
    assert r.status == "draft" and r.due_at is None and r.fields == ("I", "II", "III", "IV", "V", "VII")
    assert [a.key for a in r.actions if a.enabled] == ["notify", "print", "cancel"]
    notified = local_now() - timedelta(hours=25)
    r = svc.notify_data_request(db, desk.fiscal, r.id, notified, r.version)
    assert r.due_at == notified + timedelta(hours=24) and r.late and r.countdown.startswith("vencida há 01:")
    with pytest.raises(ConflictError, match="Registrar notificação"):
        svc.notify_data_request(db, desk.fiscal, r.id, notified, r.version)
    r = svc.answer_data_request(db, desk.fiscal, r.id, local_now() - timedelta(minutes=5), b"viagem;origem\n",
                                "C:\\respostas\\dados.csv", r.version)
    assert r.status == "answered" and r.late and r.countdown == "respondida com atraso"
    with db.session(write=False) as s:
        doc = s.get(Document, r.answer_document_id)
        assert doc.filename == "dados.csv" and doc.platform_id == platform.id and doc.mime == "text/csv"
    assert [x.id for x in svc.data_requests_of(db, desk.clerk, platform.id)] == [r.id]


def test_art4_par2_answered_in_time_and_open_within_term(db, desk, platform):
    notified = local_now() - timedelta(hours=2)
    r = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=notified))
    assert r.status == "sent" and not r.late and r.countdown.startswith("faltam 21:")
    r = svc.answer_data_request(db, desk.fiscal, r.id, local_now(), b'{"viagens": []}', "a.json", r.version)
    assert not r.late and r.countdown == "respondida no prazo"


def test_art4_caput_the_stored_answer_keeps_no_passengers_data_and_says_what_was_dropped(db, desk, platform):
    """Issue 24 item 11: the answer CSV with "Nome/CPF/Telefone do passageiro" was stored as delivered ("Maria
    Souza", "529.982.247-25" in the stored document). Art. 4 caput; SPEC §3: passengers' identity is never kept,
    "not in the stored answer to a data request". Only the cleaned file is kept; the audit names the columns."""
    from desktop.models import AuditEntry

    r = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=local_now() - timedelta(hours=2)))
    delivered = ("ID da viagem;Nome do passageiro;CPF do passageiro;Telefone do passageiro;CPF do condutor\r\n"
                 "UB-1;Maria Souza;529.982.247-25;(65) 99999-0000;111.444.777-35\r\n").encode("utf-8")
    r = svc.answer_data_request(db, desk.fiscal, r.id, local_now(), delivered, "resposta.csv", r.version)
    assert r.answer_dropped == ("Nome do passageiro", "CPF do passageiro", "Telefone do passageiro")
    with db.session(write=False) as s:
        doc = s.get(Document, r.answer_document_id)
        stored = doc.content
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "data_request.answer")).one()
        logged = str(entry.after)
    for value in (b"Maria Souza", b"529.982.247-25", b"99999-0000"):
        assert value not in stored
    assert b"111.444.777-35" in stored and b"UB-1" in stored      # the driver's data (Art. 4, par. 1) stays
    assert "Nome do passageiro" in logged and "Maria" not in logged and "529.982" not in logged
    with pytest.raises(ValidationError) as err:      # a PDF cannot be cleaned column by column: refused
        other = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=local_now()))
        svc.answer_data_request(db, desk.fiscal, other.id, local_now(), b"%PDF-1.7", "resposta.pdf", other.version)
    assert err.value.problems[0].field == "file" and "CSV, XLSX ou JSON" in err.value.problems[0].message


def test_request_without_investigation_has_no_term(db, desk, platform):
    r = svc.create_data_request(db, desk.fiscal, draft(platform, investigation=False,
                                                       notified_at=local_now() - timedelta(days=5)))
    assert r.due_at is None and not r.late and r.countdown == "sem prazo legal"


def test_answer_needs_file_and_a_sane_date_and_cancel_needs_reason(db, desk, platform):
    r = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=local_now() - timedelta(hours=1)))
    with pytest.raises(ValidationError) as err:
        svc.answer_data_request(db, desk.fiscal, r.id, local_now() - timedelta(hours=3), b"", "", r.version)
    assert {p.field for p in err.value.problems} == {"answered_at", "file"}
    with pytest.raises(ValidationError):
        svc.cancel_data_request(db, desk.fiscal, r.id, " ", r.version)
    r = svc.cancel_data_request(db, desk.fiscal, r.id, "Enviada por engano", r.version)
    assert r.status == "cancelled" and not any(a.enabled for a in r.actions if a.key != "print")


def test_ofício_prints_through_the_documents_service(db, desk, platform):
    from io import BytesIO

    from decimal import Decimal

    from pypdf import PdfReader

    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), pix_key="12345678000195",
    ), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    r = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=local_now() - timedelta(hours=1)))
    issued = svc.print_data_request(db, desk.fiscal, r.id)
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(issued.pdf)).pages)
    assert "REQUISIÇÃO DE DADOS" in text and "Mobilidade Chapada" in text
    # issue 24 item 12: the ofício says which of §1 I-VI it leaves out, and why
    flat = " ".join(text.split())
    assert "Não se requisitam os dados VI do § 1º: A denúncia é de cobrança" in flat


def test_art4_par1_all_six_by_default_narrowing_needs_a_written_reason(db, desk, platform):
    """Issue 24 item 12: a request could be made with fewer than Art. 4 §1 I-VI. The six are the default; leaving
    any out needs a written reason, kept with the request."""
    full = svc.create_data_request(db, desk.fiscal, DataRequestDraft(
        platform_id=platform.id, justification="Apuração de denúncia.", period_start=TODAY - timedelta(days=30),
        period_end=TODAY - timedelta(days=1)))
    assert full.fields == ("I", "II", "III", "IV", "V", "VI") and full.narrowing_reason is None
    with pytest.raises(ValidationError) as err:
        svc.create_data_request(db, desk.fiscal, draft(platform, want_route=False, narrowing_reason=" "))
    [problem] = err.value.problems
    assert problem.field == "narrowing_reason" and "III, VI" in problem.message and problem.article == "Art. 4, §1"
    narrowed = svc.create_data_request(db, desk.fiscal, draft(platform, want_route=False,
                                                              narrowing_reason="O trajeto já consta do relatório."))
    assert narrowed.fields == ("I", "II", "IV", "V", "VII")
    assert narrowed.narrowing_reason == "O trajeto já consta do relatório."


def test_demo_requests_answered_open_and_late(db, desk, platform):
    from desktop.services.actors import SYSTEM_ACTOR

    with db.session() as s:
        assert svc.make_demo_data_requests_in(s, SYSTEM_ACTOR) == {"requests": 4}
    rows = svc.data_requests_of(db, desk.clerk, platform.id)
    assert sorted((r.status, r.late) for r in rows) == [
        ("answered", False), ("answered", True), ("sent", False), ("sent", True)]
    with db.session(write=False) as s:
        assert s.execute(select(Document)).first() is None


def test_issue14_requests_get_their_own_number_series_printed_on_the_oficio(db, desk, platform):
    from decimal import Decimal
    from io import BytesIO

    from pypdf import PdfReader

    from desktop.services import numbering
    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), pix_key="12345678000195",
    ), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    with db.session() as s:   # another series moving does not move this one
        numbering.next_number(s, "document", 2026)
    first = svc.create_data_request(db, desk.fiscal, draft(platform))
    with pytest.raises(ValidationError):   # refused: no number consumed
        svc.create_data_request(db, desk.fiscal, draft(platform, justification=""))
    second = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=local_now() - timedelta(hours=1)))
    assert (first.number, second.number) == ("0001/2026", "0002/2026")
    assert [r.number for r in svc.data_requests_of(db, desk.clerk, platform.id)] == ["0002/2026", "0001/2026"]
    assert svc.get_data_request(db, desk.clerk, first.id).number == "0001/2026"
    issued = svc.print_data_request(db, desk.fiscal, second.id)
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(issued.pdf)).pages)
    assert "REQUISIÇÃO DE DADOS Nº 0002/2026" in text.replace("\n", " ")


def test_issue22_the_status_is_the_domains_enum_and_awaiting_follows_the_24_hours(db, desk, platform):
    """domain/data_requests.py: the service moves the status through the machine and says which requests the
    screen's countdown follows (notified, unanswered), so the screen never compares a status."""
    from desktop.domain.data_requests import DataRequestStatus

    r = svc.create_data_request(db, desk.fiscal, draft(platform))
    assert r.status is DataRequestStatus.DRAFT and not r.awaiting
    r = svc.notify_data_request(db, desk.fiscal, r.id, local_now() - timedelta(hours=1), r.version)
    assert r.status is DataRequestStatus.SENT and r.awaiting
    assert [a.key for a in r.actions if a.enabled] == ["answer", "print", "cancel"]
    r = svc.cancel_data_request(db, desk.fiscal, r.id, "Requisição feita em duplicidade.", r.version)
    assert r.status is DataRequestStatus.CANCELLED and not r.awaiting and r.countdown == "cancelada"
    assert not any(a.enabled for a in r.actions)
    with pytest.raises(ConflictError, match="Cancelar"):
        svc.cancel_data_request(db, desk.fiscal, r.id, "de novo", r.version)


def test_art4_par2_a_late_request_offers_the_auto_by_the_decrees_code(db, desk, platform):
    """Issue 24 item 12: a late request offered no next step. The law types no fine for it (Art. 22: penalties "no
    Decreto regulamentador"), so the late request offers the auto against the platform with the code left to the
    fiscal; once the gestor added a decree code citing Art. 4, that code comes with it; on time, the step says why
    not."""
    from desktop.domain.penalties import Severity
    from desktop.services import catalog
    from desktop.services.catalog import CodeDraft

    late = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=local_now() - timedelta(hours=30)))
    on_time = svc.create_data_request(db, desk.fiscal, draft(platform, notified_at=local_now() - timedelta(hours=2)))
    [step] = [a for a in late.actions if a.key == "late_auto"]
    assert late.late and step.enabled and late.late_code is None          # offered: the fiscal chooses the code
    catalog.ensure_catalog(db)
    catalog.add_code(db, desk.manager, CodeDraft(
        code="DEC-09", article="Decreto nº 10/2026, art. 9º (Lei, Art. 4º, §2º)", severity=Severity.LEVE,
        description="Plataforma que não entrega no prazo os dados requisitados", valid_from=TODAY - timedelta(days=60)))
    late = svc.get_data_request(db, desk.fiscal, late.id)
    [step] = [a for a in late.actions if a.key == "late_auto"]
    assert step.enabled and late.late_code == "DEC-09" and "Art. 4, §2" in step.article
    on_time = svc.get_data_request(db, desk.fiscal, on_time.id)
    [step] = [a for a in on_time.actions if a.key == "late_auto"]
    assert not step.enabled and "não está em atraso" in step.reason and on_time.late_code is None
    [step] = [a for a in svc.get_data_request(db, desk.clerk, late.id).actions if a.key == "late_auto"]
    assert not step.enabled                                 # only the fiscal draws up autos


def test_art4_par1_a_request_about_one_driver_and_vehicle_prints_them(db, desk, platform):
    """Issue 24 item 12: the new data request had no field for a driver or a vehicle although the manual promises
    it ("período, condutor ou veículo, motivo"). Both are kept, shown and printed; an unknown one is refused."""
    from io import BytesIO

    from pypdf import PdfReader
    from registry_factories import new_driver, new_vehicle

    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize
    from decimal import Decimal

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), pix_key="12345678000195",
    ), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    driver, vehicle = new_driver(db, desk), new_vehicle(db, desk)
    with pytest.raises(ValidationError) as err:
        svc.create_data_request(db, desk.fiscal, draft(platform, driver_id=999_999, vehicle_id=999_999))
    assert {p.field for p in err.value.problems} == {"driver_id", "vehicle_id"}
    r = svc.create_data_request(db, desk.fiscal, draft(platform, driver_id=driver.id, vehicle_id=vehicle.id))
    assert (r.driver_id, r.vehicle_id) == (driver.id, vehicle.id) and r.driver_name and r.plate
    text = " ".join(" ".join(pg.extract_text().split())
                    for pg in PdfReader(BytesIO(svc.print_data_request(db, desk.fiscal, r.id).pdf)).pages)
    assert f"Condutor {r.driver_name}" in text and f"Veículo (placa) {r.plate}" in text
