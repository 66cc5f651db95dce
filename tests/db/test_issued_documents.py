"""Issued documents on SQLite and PostgreSQL: numbered, archived with SHA-256, linked to the record; reprints
are the archived bytes with the copy stamp; stickers built from the rows verify, and the database status
(suspended, revoked, replaced vehicle) overrides a valid signature. (Named test_issued_documents.py: the
basename test_documents.py is taken by tests/unit and the suite runs without packages.)"""
from __future__ import annotations

import hashlib
import io
from datetime import date, datetime
from decimal import Decimal

import pytest
from pypdf import PdfReader

from desktop.domain.roles import Role
from desktop.errors import ConflictError, NotFound, PermissionDenied
from desktop.models import (
    Authorization, AuthorizationEvent, Driver, Fee, IssuedDocument, LedgerEntry, PaymentGuide, Vehicle,
)
from desktop.demo.photos import photo_for
from desktop.models.types import LOCAL_TZ
from desktop.reports import febraban
from desktop.services import documents
from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize


def text_of(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())


def _seed(db, febraban_code: str | None = "0123") -> dict:
    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), pix_key="12345678000195",
        febraban_agreement=febraban_code,
    ), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    with db.session() as s:
        drivers, ids = [], {}
        for i, (cpf, name, plate) in enumerate([("52998224725", "Joana Araújo Conceição", "QAB1D23"),
                                                ("11144477735", "Sebastião Gonçalves", "QAB2C02"),
                                                ("39053344705", "Márcia Pires", "QAB3C03")]):
            driver = Driver(cpf=cpf, name=name, cnh_number=f"0123456789{i}", cnh_category="B", cnh_ear=True,
                            address="Rua Cipriano Curvo, 100", district="Centro", city="Chapada dos Guimarães",
                            uf="MT", photo=photo_for(i), photo_mime="image/png")
            vehicle = Vehicle(plate=plate, renavam=f"0012345678{i}", make="Chevrolet", model="Onix 1.0",
                              manufacture_year=2019, model_year=2020, colour="prata", doors=4, seats=5,
                              air_conditioning=True, registration_municipality="Chapada dos Guimarães",
                              registration_uf="MT")
            s.add_all([driver, vehicle])
            s.flush()
            auth = Authorization(number=f"{7 + i:04d}/2026", driver_id=driver.id, vehicle_id=vehicle.id,
                                 status="active", protocol_date=date(2025, 12, 1), fee_paid_on=date(2026, 1, 2),
                                 activated_on=date(2026, 1, 5), valid_until=date(2026, 12, 31),
                                 valid_until_limited_by="term", inspection_approved_on=date(2026, 1, 5))
            s.add(auth)
            s.flush()
            drivers.append((driver.id, vehicle.id, auth.id))
        ids["drivers"] = drivers
        guide = PaymentGuide(number="0009/2026", purpose="fee", amount_reais=Decimal("27.75"),
                             due_on=date(2026, 12, 15), payer_name="Joana Araújo Conceição",
                             payer_document="52998224725", driver_id=drivers[0][0], vehicle_id=drivers[0][1])
        fee = Fee(kind="renewal", vehicle_id=drivers[0][1], authorization_id=drivers[0][2], due_on=date(2026, 12, 15),
                  amount_upfm=Decimal("5"), upfm_value=Decimal("5.55"), amount_reais=Decimal("27.75"),
                  guide_number="0009/2026")
        s.add_all([guide, fee])
        posted = datetime(2026, 3, 14, 23, 0, tzinfo=LOCAL_TZ)
        s.add_all([
            LedgerEntry(infractor_driver_id=drivers[0][0], kind="debit", amount_upfm=Decimal("30"),
                        upfm_value=Decimal("5.55"), amount_reais=Decimal("166.50"), effective_on=date(2026, 3, 14),
                        posted_at=posted),
            LedgerEntry(infractor_driver_id=drivers[0][0], kind="payment", amount_upfm=Decimal("-10"),
                        upfm_value=Decimal("5.55"), amount_reais=Decimal("-55.50"), effective_on=date(2026, 5, 2),
                        posted_at=posted, guide_number="0010/2026"),
        ])
    return ids


@pytest.fixture
def clerk(make_actor):
    return make_actor(Role.ATENDENTE, username="atendente", full_name="Ana Souza")


def test_art14_sticker_is_issued_archived_with_sha256_and_linked_to_the_authorization(db, clerk):
    ids = _seed(db)
    issued = documents.print_sticker(db, clerk, "0007/2026")
    assert issued.info.number == "0001/2026" and issued.info.kind == "sticker"
    assert issued.info.record_type == "authorization" and issued.info.record_id == ids["drivers"][0][2]
    assert issued.info.sha256 == hashlib.sha256(issued.pdf).hexdigest()
    text = text_of(issued.pdf)
    for expected in ("0007/2026", "31/12/2026", "QAB1D23", "(65) 3301-1234", "Art. 14",
                     "Documento nº 0001/2026", "Ana Souza"):
        assert expected in text, expected
    with db.session(write=False) as s:
        row = s.query(IssuedDocument).one()
        assert row.pdf == issued.pdf and row.sha256 == issued.info.sha256
        event = s.query(AuthorizationEvent).filter_by(kind=documents.STICKER_EVENT).one()
        assert event.act_number == "0001/2026" and event.to_status == "active"
    assert documents.archived_bytes(db, clerk, "0001/2026") == issued.pdf
    second = documents.print_credential(db, clerk, "0007/2026")
    assert second.info.number == "0002/2026"                       # no gaps, no repeats
    listed = documents.list_issued(db, clerk, "authorization", ids["drivers"][0][2])
    assert [(d.number, d.kind) for d in listed] == [("0002/2026", "credential"), ("0001/2026", "sticker")]
    assert listed[1].sha256 == issued.info.sha256 and listed[0].kind_label.startswith("Credencial")
    assert [(d.issued_by_name, d.record_label) for d in listed] == [("Ana Souza", "Autorização 0007/2026")] * 2


def test_archive_list_names_who_issued_and_the_record_as_users_know_it(db, clerk, make_actor):
    ids = _seed(db)
    fiscal = make_actor(Role.FISCAL, username="fiscal1", full_name="Marcos Lima")
    _seed_enforcement(db, ids, fiscal.user_id)
    documents.print_sticker(db, clerk, "0007/2026")
    documents.print_guide(db, clerk, "0009/2026")
    documents.print_kind(db, fiscal, "auto", "0003/2026")
    gestor = make_actor(Role.GESTOR, username="gestor1", full_name="Rui Gestor")   # who issues all three kinds
    listed = documents.list_issued(db, gestor)
    assert [(d.kind, d.issued_by_name, d.record_label) for d in listed] == [
        ("auto", "Marcos Lima", "Auto 0003/2026"),
        ("guide", "Ana Souza", "Guia 0009/2026"),
        ("sticker", "Ana Souza", "Autorização 0007/2026")]


def test_reprint_is_the_archived_bytes_with_the_2a_via_stamp_never_a_new_rendering(db, clerk):
    _seed(db)
    issued = documents.print_certificate(db, clerk, "0007/2026")
    copy = documents.reprint(db, clerk, issued.info.number)
    original_pages = [p.extract_text() for p in PdfReader(io.BytesIO(issued.pdf)).pages]
    copy_pages = [p.extract_text() for p in PdfReader(io.BytesIO(copy)).pages]
    assert len(original_pages) == len(copy_pages)
    for old, new in zip(original_pages, copy_pages):
        assert new.startswith(old) and "2ª VIA — reimpressão do documento arquivado" in new[len(old):]
    assert "3ª VIA" in text_of(documents.reprint(db, clerk, issued.info.number))
    with db.session(write=False) as s:
        row = s.query(IssuedDocument).one()
        assert row.copies == 2 and row.pdf == issued.pdf            # the archive never changes
    with db.session() as s:                                          # a tampered archive is refused
        s.query(IssuedDocument).one().pdf = issued.pdf + b"%"
    with pytest.raises(ConflictError, match="integridade"):
        documents.reprint(db, clerk, issued.info.number)
    with pytest.raises(NotFound):
        documents.reprint(db, clerk, "9999/2026")


def test_art3_certificate_from_rows_with_renewal_deadline(db, clerk):
    _seed(db)
    text = text_of(documents.print_certificate(db, clerk, "0007/2026").pdf)
    for expected in ("TERMO DE AUTORIZAÇÃO Nº 0007/2026", "Joana Araújo Conceição", "529.982.247-25", "QAB1D23",
                     "Chevrolet Onix 1.0", "02/01/2026", "31/12/2026", "Art. 3º, § 2º", "aprovada em 05/01/2026",
                     "Art. 8º, § 3º, I"):
        assert expected in text, expected
    # 15 business days before 31/12/2026 (Christmas 25/12 is a national holiday): 09/12/2026
    assert "requerida até 09/12/2026" in text


def test_art13_I_credential_from_rows_masks_cpf(db, clerk):
    _seed(db)
    text = text_of(documents.print_credential(db, clerk, "0008/2026").pdf)
    assert "***.444.777-**" in text and "Sebastião Gonçalves" in text and "QAB2C02" in text
    assert "111.444.777-35" not in text


def test_sticker_batch_of_pending_authorizations_and_none_left_after(db, clerk):
    _seed(db)
    documents.print_sticker(db, clerk, "0007/2026")
    assert documents.pending_sticker_numbers(db, clerk) == ["0008/2026", "0009/2026"]
    batch = documents.print_pending_stickers(db, clerk, layout="sheet")
    text = text_of(batch.pdf)
    assert "0008/2026" in text and "0009/2026" in text and "0007/2026" not in text
    assert documents.pending_sticker_numbers(db, clerk) == []
    with pytest.raises(ConflictError):
        documents.print_pending_stickers(db, clerk)


def test_art3_par1_renewed_authorization_needs_a_new_sticker(db, clerk):
    _seed(db)
    documents.print_pending_stickers(db, clerk)
    with db.session() as s:
        auth = s.query(Authorization).filter_by(number="0008/2026").one()
        auth.fee_paid_on = date(2099, 1, 2)        # a renewal fee paid after the sticker was printed
        auth.valid_until = date(2099, 12, 31)
    assert documents.pending_sticker_numbers(db, clerk) == ["0008/2026"]


def test_only_active_authorizations_get_stickers(db, clerk):
    _seed(db)
    with db.session() as s:
        s.query(Authorization).filter_by(number="0009/2026").one().status = "expired"
    with pytest.raises(ConflictError, match="Expirada"):
        documents.print_sticker(db, clerk, "0009/2026")
    with pytest.raises(NotFound):
        documents.print_sticker(db, clerk, "0404/2026")


def test_art14_check_sticker_valid_then_suspended_revoked_and_replaced_vehicle(db, clerk):
    from desktop.reports.common import DocumentMeta
    from desktop.domain.sticker_check import CASSADA, REPLACED
    from desktop.signing import FORGED, REVOKED, SUSPENDED, VALID
    ids = _seed(db)
    meta = DocumentMeta("0001/2026", datetime(2026, 11, 29, 10, 0, tzinfo=LOCAL_TZ))
    payload = documents.sticker_for_authorization(db, clerk, "0007/2026", meta).items[0].qr_payload
    today = date(2026, 11, 29)
    assert documents.check_sticker(db, payload, today).status == VALID
    preview = documents.sticker_for_authorization(db, clerk, "0007/2026")
    assert preview.meta.number.startswith("prévia") and preview.items[0].plate == "QAB1D23"
    assert documents.check_sticker(db, payload.replace("QAB1D23", "QAB9D99"), today).status == FORGED
    with db.session() as s:
        auth = s.query(Authorization).filter_by(number="0007/2026").one()
        auth.status, auth.suspended_until = "suspended", date(2027, 11, 29)
    check = documents.check_sticker(db, payload, today)
    assert check.status == SUSPENDED and "SUSPENSA até 29/11/2027" in check.message_pt and "Art. 24" in check.message_pt
    with db.session() as s:
        s.query(Authorization).filter_by(number="0007/2026").one().status = "revoked"
    check = documents.check_sticker(db, payload, today)
    assert check.status == REVOKED and "REVOGADA" in check.message_pt
    with db.session() as s:
        s.query(Authorization).filter_by(number="0007/2026").one().status = "cassada"
    check = documents.check_sticker(db, payload, today)                # issue 12 item 11: not "REVOGADO"
    assert check.status == CASSADA and "CASSADA" in check.message_pt and "REVOGAD" not in check.message_pt
    with db.session() as s:
        auth = s.query(Authorization).filter_by(number="0007/2026").one()
        auth.status = "active"
        new_vehicle = Vehicle(plate="RST4E56", renavam="00999999999", make="Fiat", model="Cronos",
                              manufacture_year=2022, model_year=2022, colour="preto", doors=4, seats=5,
                              air_conditioning=True, registration_municipality="Chapada dos Guimarães",
                              registration_uf="MT")
        s.add(new_vehicle)
        s.flush()
        s.add(AuthorizationEvent(authorization_id=auth.id, kind="substitution", from_status="active",
                                 to_status="active", at=datetime(2026, 11, 1, 9, 0, tzinfo=LOCAL_TZ),
                                 effective_on=date(2026, 11, 1), old_vehicle_id=auth.vehicle_id,
                                 new_vehicle_id=new_vehicle.id))
        auth.vehicle_id = new_vehicle.id                       # Art. 8 §2: substitution
    check = documents.check_sticker(db, payload, today)
    assert check.status == REPLACED and "RST4E56" in check.message_pt and "Art. 8º, §2º" in check.message_pt
    assert ids


def test_issue11_a_validly_signed_sticker_whose_data_is_not_the_registers_is_adulterado(db, clerk):
    """The attack of issue 11 item 3: with the key, a sticker given five more years, another plate or a number the
    register does not have still has a valid signature; the check against the register refuses each."""
    from desktop.domain.sticker_check import TAMPERED, VALID
    from desktop.services.setup import signing_private_key
    from desktop.signing import sign_sticker
    _seed(db)
    key, today = signing_private_key(db), date(2026, 11, 29)
    assert documents.check_sticker(db, sign_sticker(key, "0007/2026", "QAB1D23", date(2026, 12, 31)),
                                   today).status == VALID
    for number, plate, until in (("0007/2026", "QAB1D23", date(2032, 12, 31)),   # five more years
                                 ("0007/2026", "ZZZ9Z99", date(2026, 12, 31)),   # another plate
                                 ("0404/2026", "QAB1D23", date(2026, 12, 31))):  # a number not in the register
        check = documents.check_sticker(db, sign_sticker(key, number, plate, until), today)
        assert check.status == TAMPERED and "ADULTERADO" in check.message_pt, (number, plate, until)
        assert (check.number, check.plate, check.valid_until) == (number, plate, until)


def test_issue11_offline_check_shows_the_signed_data_and_asks_to_confirm(db, clerk):
    from desktop.domain.sticker_check import UNCONFIRMED
    from desktop.services.setup import signing_private_key
    from desktop.signing import FORGED, sign_sticker
    _seed(db)
    public = documents.sticker_public_key(db)
    text = sign_sticker(signing_private_key(db), "0007/2026", "QAB1D23", date(2026, 12, 31))
    check = documents.check_sticker_offline(text, public, date(2026, 11, 29))
    assert check.status == UNCONFIRMED and "CONFIRME A SITUAÇÃO ATUAL" in check.message_pt
    assert (check.number, check.plate, check.valid_until) == ("0007/2026", "QAB1D23", date(2026, 12, 31))
    assert documents.check_sticker_offline(text.replace("QAB1D23", "QAB1D24"), public).status == FORGED


def test_dam_guide_from_payment_guide_row_with_barcode_saved(db, clerk):
    _seed(db)
    issued = documents.print_guide(db, clerk, "0009/2026")
    text = text_of(issued.pdf)
    for expected in ("0009/2026", "R$ 27,75", "15/12/2026", "Taxa de renovação", "5,00 UPFM × R$ 5,55",
                     "Autorização nº 0007/2026", "QAB1D23", "529.982.247-25", "Pague com PIX"):
        assert expected in text, expected
    with db.session(write=False) as s:
        barcode = s.query(PaymentGuide).filter_by(number="0009/2026").one().barcode
    assert febraban.is_valid_barcode(barcode) and barcode[:3] == "816" and barcode[15:19] == "0123"
    assert febraban.format_typed_line(febraban.typed_line(barcode)) in text


def test_dam_guide_needs_the_febraban_code_of_the_municipality(db, clerk):
    _seed(db, febraban_code=None)
    with pytest.raises(ConflictError, match="código FEBRABAN"):
        documents.print_guide(db, clerk, "0009/2026")
    with db.session(write=False) as s:
        assert s.query(IssuedDocument).count() == 0


def test_statement_from_the_append_only_ledger(db, clerk):
    _seed(db)
    issued = documents.print_statement(db, clerk, "529.982.247-25", as_of=date(2026, 11, 29))
    text = text_of(issued.pdf)
    for expected in ("EXTRATO DO INFRATOR", "Joana Araújo Conceição", "30,00", "10,00", "20,00 UPFM", "R$ 111,00",
                     "DAM nº 0010/2026", "29/11/2026"):
        assert expected in text, expected
    assert issued.info.record_type == "driver"


def test_roles_are_checked_in_the_service(db, make_actor):
    _seed(db)
    inspector = make_actor(Role.VISTORIADOR, username="vist")
    with pytest.raises(PermissionDenied):
        documents.print_sticker(db, inspector, "0007/2026")
    with pytest.raises(PermissionDenied):
        documents.issue_document(db, inspector, "guide", ("payment_guide", 1), b"%PDF-1.4 fake")


def test_issue_document_archives_given_bytes_and_writes_the_audit_log(db, clerk):
    from desktop.models import AuditEntry
    _seed(db)
    pdf = b"%PDF-1.4\n% teste\n"
    info = documents.issue_document(db, clerk, "notice", ("auto", 5), pdf)
    assert info.sha256 == hashlib.sha256(pdf).hexdigest() and info.record_id == 5
    with db.session(write=False) as s:
        entry = s.query(AuditEntry).filter_by(action="document.issue").one()
        assert info.sha256 in entry.after and info.number in entry.after
    with pytest.raises(ValueError):
        documents.issue_document(db, clerk, "notice", ("auto", 5), b"not a pdf")


def test_print_kind_refuses_unknown_kinds_and_bad_ids(db, clerk):
    from desktop.errors import DesktopError
    _seed(db)
    with pytest.raises(DesktopError, match="data de publicação"):
        documents.print_kind(db, clerk, "edital", "0001/2026")
    with pytest.raises(DesktopError, match="Tipo de documento desconhecido"):
        documents.print_kind(db, clerk, "poster", "0001/2026")
    assert documents.print_kind(db, clerk, "sticker", "0007/2026").info.kind == "sticker"


def _clerk_at_the_terminal(db, monkeypatch, password: str = "senha-da-ana-1") -> None:
    """A named atendente whose password the terminal asks (issue 28): getpass is fed, as a person types it."""
    from desktop.services import users
    from desktop.services.auth import login
    users.create_user(db, login(db, "chefe", "senha-forte-2025"), users.UserDraft(
        "ana.souza", "Ana Souza", frozenset({Role.ATENDENTE, Role.FISCAL}), "senha-da-ana-1", office="Agente Administrativa",
        registration="1.234-5"))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": password)


def test_cli_print_sticker_guide_pending_batch_and_reprint(db, tmp_path, capsys, monkeypatch):
    from desktop.cli import main
    _seed(db)
    _clerk_at_the_terminal(db, monkeypatch)
    out = tmp_path / "adesivo.pdf"
    # issue 28: the terminal issues acts only for a named user, never for the machine's account
    assert main(["print", "sticker", "--id", "0007/2026", "--out", str(out), "--db", db.url]) == 1
    assert "--user LOGIN" in capsys.readouterr().err and not out.exists()
    assert main(["print", "sticker", "--id", "0007/2026", "--out", str(out), "--db", db.url,
                 "--user", "ana.souza"]) == 0
    assert "Ana Souza" in text_of(out.read_bytes())
    assert "0007/2026" in text_of(out.read_bytes())
    assert "documento nº 0001/2026 arquivado" in capsys.readouterr().out
    batch = tmp_path / "lote.pdf"
    assert main(["--db", db.url, "print", "sticker", "--all-pending", "--out", str(batch), "--user", "ana.souza"]) == 0
    text = text_of(batch.read_bytes())
    assert "0008/2026" in text and "0009/2026" in text and "0007/2026" not in text
    dam = tmp_path / "dam"
    assert main(["print", "guide", "--id", "0009/2026", "--out", str(dam), "--db", db.url, "--user", "ana.souza"]) == 0
    assert "R$ 27,75" in text_of((tmp_path / "dam.pdf").read_bytes())
    copy = tmp_path / "copia.pdf"
    assert main(["print", "reprint", "--id", "0001/2026", "--out", str(copy), "--db", db.url,
                 "--user", "ana.souza"]) == 0
    assert "2ª VIA" in text_of(copy.read_bytes())
    assert main(["print", "edital", "--id", "02/04/2026", "--out", str(tmp_path / "e.pdf"), "--db", db.url,
                 "--user", "ana.souza"]) == 1
    assert "Nenhuma notificação por edital" in capsys.readouterr().err
    assert main(["print", "guide", "--all-pending", "--out", str(tmp_path / "x.pdf"), "--db", db.url]) == 1
    again = tmp_path / "de-novo.pdf"                                   # issue 12 item 17: the reason is kept
    assert main(["print", "sticker", "--id", "0007/2026", "--reason", "damaged", "--out", str(again),
                 "--db", db.url, "--user", "ana.souza"]) == 0
    with db.session(write=False) as s:
        event = s.query(AuthorizationEvent).filter_by(kind=documents.STICKER_EVENT).order_by(
            AuthorizationEvent.id.desc()).first()
        assert "nova emissão por dano" in event.reason


def _seed_enforcement(db, ids, agent_id):
    from desktop.models import (
        AdministrativeMeasure, Auto, CourseAttendance, CourseSession, InfractionCode, Inspection, InspectionItem,
        InspectionPlace,
    )
    driver_id, vehicle_id, auth_id = ids["drivers"][0]
    with db.session() as s:
        code = InfractionCode(code="ART26-IV", article="Art. 26, IV",
                              description="Embarque de usuário diretamente na via pública", severity="grave",
                              upfm=Decimal(30), valid_from=date(2025, 1, 1))
        s.add(code)
        s.flush()
        auto = Auto(number="0003/2026", drawn_up_at=datetime(2026, 3, 14, 22, 40, tzinfo=LOCAL_TZ),
                    place="Praça Dom Wunibaldo", infractor_driver_id=driver_id, vehicle_id=vehicle_id,
                    authorization_id=auth_id, infraction_code_id=code.id, code="ART26-IV",
                    description="Condutora oferecendo corrida a turistas na praça.", agent_id=agent_id,
                    amount_upfm=Decimal(30), upfm_value=Decimal("5.55"), amount_reais=Decimal("166.50"))
        s.add(auto)
        s.flush()
        s.add(AdministrativeMeasure(auto_id=auto.id, driver_id=driver_id, vehicle_id=vehicle_id,
                                    kind="regularization_notice", applied_on=date(2026, 3, 14)))
        place = InspectionPlace(name="Pátio da Secretaria")
        s.add(place)
        s.flush()
        inspection = Inspection(kind="annual", vehicle_id=vehicle_id, authorization_id=auth_id, inspector_id=agent_id,
                                place_id=place.id, status="done", result="failed",
                                performed_at=datetime(2026, 3, 13, 9, 0, tzinfo=LOCAL_TZ),
                                regularize_by=date(2026, 3, 18), notes="Retorno com pneu trocado.")
        s.add(inspection)
        s.flush()
        s.add_all([InspectionItem(inspection_id=inspection.id, item_key="four_doors", passed=True),
                   InspectionItem(inspection_id=inspection.id, item_key="no_damage", passed=False,
                                  note="Pneu dianteiro gasto")])
        course = CourseSession(held_on=date(2026, 12, 3), starts_at=datetime(2026, 12, 3, 14, 0, tzinfo=LOCAL_TZ),
                               place="Auditório da Prefeitura", topic="Atendimento a pessoas com deficiência",
                               instructor="Regina Campos", capacity=30)
        s.add(course)
        s.flush()
        for i, (d_id, _v, _a) in enumerate(ids["drivers"]):
            s.add(CourseAttendance(session_id=course.id, driver_id=d_id, convoked_on=date(2026, 11, 20),
                                   status="absent" if i == 2 else "convoked"))
        return inspection.id, course.id


def test_art19_auto_from_rows_two_copies_and_art22_notice(db, clerk, make_actor):
    from desktop.models import Auto
    ids = _seed(db)
    fiscal = make_actor(Role.FISCAL, username="fiscal1", full_name="Marcos Lima")
    _seed_enforcement(db, ids, fiscal.user_id)
    issued = documents.print_kind(db, fiscal, "auto", "0003/2026")
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(issued.pdf)).pages]
    assert len(pages) == 2 and "Via do processo" in pages[0] and "Via do infrator" in pages[1]
    for page in pages:
        for expected in ("AUTO DE INFRAÇÃO Nº 0003/2026", "14/03/2026 às 22:40", "Art. 26, IV", "QAB1D23",
                         "R$ 166,50", "Marcos Lima", "Matrícula nº M-", "Joana Araújo Conceição", "529.982.247-25",
                         "15 dias", "Art. 22, § 2º", "Condutora oferecendo corrida"):
            assert expected in page, expected
    notice = documents.print_kind(db, fiscal, "notice", "0003/2026")
    text = text_of(notice.pdf)
    assert "NOTIFICAÇÃO DE AUTUAÇÃO" in text and "0003/2026" in text and "Art. 22" in text
    assert notice.info.record_type == "auto"
    with pytest.raises(PermissionDenied):
        documents.print_auto(db, make_actor(Role.VISTORIADOR, username="v2"), "0003/2026")
    with db.session() as s:
        auto = s.query(Auto).one()
        auto.status, auto.cancel_reason = "cancelled", "erro de digitação"
    # issue 28 item 1: an issued act is its archived original — the cancelled auto prints as its 2ª via, marked
    again = documents.print_auto(db, fiscal, "0003/2026")
    assert again.info.number == issued.info.number and again.info.copies == 1
    text = text_of(again.pdf)
    assert "2ª VIA" in text and "AUTO CANCELADO" in text and "Via do infrator" in text
    with db.session(write=False) as s:
        from desktop.models import IssuedDocument
        assert s.query(IssuedDocument).filter_by(kind="auto").count() == 1       # no new rendering archived


def test_art16_par2_inspection_report_and_art12_par2_attendance_list_from_rows(db, make_actor):
    ids = _seed(db)
    manager = make_actor(Role.GESTOR, username="gestora", full_name="Gabriela Gestora")
    inspection_id, course_id = _seed_enforcement(db, ids, manager.user_id)
    text = text_of(documents.print_kind(db, manager, "inspection", str(inspection_id)).pdf)
    for expected in ("LAUDO DE VISTORIA", "REPROVADO", "18/03/2026", "Art. 16, § 2º", "Quatro portas",
                     "NÃO CONFORME", "Pneu dianteiro gasto", "Art. 13, XIV", "QAB1D23", "Pátio da Secretaria",
                     "Gabriela Gestora", "Retorno com pneu trocado"):
        assert expected in text, expected
    text = text_of(documents.print_kind(db, manager, "attendance", str(course_id)).pdf)
    for expected in ("LISTA DE PRESENÇA", "Art. 12, § 2º", "03/12/2026 às 14:00", "Regina Campos",
                     "Joana Araújo Conceição", "Sebastião Gonçalves", "Márcia Pires", "Ausente", "***.982.247-**",
                     "0007/2026", "3 / 30"):
        assert expected in text, expected
    from desktop.errors import DesktopError
    with pytest.raises(DesktopError, match="número interno"):
        documents.print_kind(db, manager, "inspection", "0001/2026")


def test_art4_par2_data_request_from_row_with_24_hours(db, make_actor):
    from desktop.models import DataRequest, Platform
    _seed(db)
    fiscal = make_actor(Role.FISCAL, username="fiscal2", full_name="Marcos Lima")
    with db.session() as s:
        platform = Platform(cnpj="11222333000181", legal_name="Rota Certa Tecnologia Ltda", trade_name="Rota Certa",
                            address="Av. Paulista, 1000, São Paulo–SP")
        s.add(platform)
        s.flush()
        s.add(DataRequest(number="0002/2026", platform_id=platform.id, justification="Apuração de denúncia (Art. 7º).",
                          period_start=date(2026, 3, 1), period_end=date(2026, 3, 15), want_rating=False,
                          want_route=False, other_data="placa do veículo", investigation=True,
                          notified_at=datetime(2026, 3, 16, 10, 15, tzinfo=LOCAL_TZ), status="sent"))
    text = text_of(documents.print_kind(db, fiscal, "data_request", "0002/2026").pdf)
    for expected in ("REQUISIÇÃO DE DADOS Nº 0002/2026", "Rota Certa Tecnologia Ltda", "11.222.333/0001-81",
                     "até 17/03/2026 às 10:15", "Art. 4º, § 2º", "placa do veículo", "origem e destino"):
        assert expected in text, expected
    assert "mapa do trajeto" not in text and "avaliação, pelo usuário" not in text


def test_art22_par1_edital_from_notifications_by_edital(db, make_actor):
    from desktop.models import Auto, AutoNotification
    ids = _seed(db)
    fiscal = make_actor(Role.FISCAL, username="fiscal3", full_name="Marcos Lima")
    _seed_enforcement(db, ids, fiscal.user_id)
    with db.session() as s:
        auto = s.query(Auto).one()
        s.add_all([AutoNotification(auto_id=auto.id, addressee="driver", form="notice_board", sent_on=date(2026, 4, 2)),
                   AutoNotification(auto_id=auto.id, addressee="driver", form="official_gazette",
                                    sent_on=date(2026, 4, 2)),
                   AutoNotification(auto_id=auto.id, addressee="driver", form="direct", sent_on=date(2026, 3, 20))])
    issued = documents.print_kind(db, fiscal, "edital", "02/04/2026")
    text = text_of(issued.pdf)
    for expected in ("EDITAL DE NOTIFICAÇÃO Nº " + issued.info.number, "Art. 22, § 1º, II, IV", "02/04/2026",
                     "0003/2026", "***.982.247-**", "QAB1D23", "R$ 166,50", "Total de autos relacionados: 1"):
        assert expected in text, expected
    assert "529.982.247-25" not in text
    with pytest.raises(NotFound):
        documents.print_kind(db, fiscal, "edital", "20/03/2026")     # direct notice is not an edital


def test_notices_by_kind_from_rows(db, make_actor):
    from desktop.models import Auto, AutoJudgment, Inspection
    ids = _seed(db)
    manager = make_actor(Role.GESTOR, username="gestora2", full_name="Gabriela Gestora")
    inspection_id, _course = _seed_enforcement(db, ids, manager.user_id)
    text = text_of(documents.print_notice(db, manager, "renewal_reminder", "0007/2026").pdf)
    assert "AVISO DE VENCIMENTO" in text and "09/12/2026" in text and "31/12/2026" in text
    text = text_of(documents.print_notice(db, manager, "regularization", str(inspection_id)).pdf)
    assert "NOTIFICAÇÃO PARA REGULARIZAÇÃO" in text and "18/03/2026" in text and "Pneu dianteiro gasto" in text
    with pytest.raises(ConflictError, match="não está agendada"):
        documents.print_notice(db, manager, "inspection_convocation", str(inspection_id))
    with db.session() as s:
        s.add(Inspection(kind="annual", vehicle_id=ids["drivers"][0][1], authorization_id=ids["drivers"][0][2],
                         status="scheduled", scheduled_start=datetime(2026, 12, 10, 9, 30, tzinfo=LOCAL_TZ),
                         place_id=s.get(Inspection, inspection_id).place_id))
        s.flush()
        scheduled = s.query(Inspection).filter_by(status="scheduled").one().id
    text = text_of(documents.print_notice(db, manager, "inspection_convocation", str(scheduled)).pdf)
    assert "CONVOCAÇÃO PARA VISTORIA" in text and "10/12/2026 às 09:30" in text and "Art. 26, I" in text
    with pytest.raises(ConflictError, match="julgamento"):
        documents.print_notice(db, manager, "penalty", "0003/2026")
    with db.session() as s:
        auto = s.query(Auto).one()
        auto.payment_deadline = date(2026, 5, 20)
        s.add(AutoJudgment(auto_id=auto.id, decided_on=date(2026, 4, 20), decided_by=manager.user_id,
                           outcome="partly_upheld", reduced_upfm=Decimal("20"), reasoning="Redução parcial."))
    text = text_of(documents.print_notice(db, manager, "penalty", "0003/2026").pdf)
    assert "NOTIFICAÇÃO DE PENALIDADE" in text and "20/05/2026" in text and "R$ 111,00" in text
    # issue 28 point 2: the deciding authority named with office and matrícula, never the name alone
    assert "da autoridade administrativa (Gabriela Gestora, Gestor, matrícula nº M-" in text


class _FakeState:
    """The TaskState protocol of desktop.background without Qt: progress, and a cancel after `stop_after` calls."""

    class Cancelled(Exception):
        pass

    def __init__(self, stop_after=None):
        self.calls, self.stop_after = [], stop_after

    def progress(self, done, total=0, text=""):
        self.calls.append((done, total, text))

    def check(self):
        if self.stop_after is not None and len(self.calls) >= self.stop_after:
            raise self.Cancelled()


def test_sticker_batch_job_reports_progress_and_cancel_leaves_nothing(db, clerk):
    from desktop.domain.dates import local_today
    from desktop.services.numbering import peek_last
    _seed(db)
    cancelled = _FakeState(stop_after=2)
    with pytest.raises(_FakeState.Cancelled):
        documents.pending_stickers_job(cancelled, db, clerk, layout="page", workers=1)
    assert documents.pending_sticker_numbers(db, clerk) == ["0007/2026", "0008/2026", "0009/2026"]
    with db.session(write=False) as s:
        assert s.query(IssuedDocument).count() == 0 and peek_last(s, "document", local_today().year) == 0
    state = _FakeState()
    issued = documents.pending_stickers_job(state, db, clerk, layout="page", workers=1)
    assert issued.info.number.startswith("0001/")
    assert state.calls[0][0] == 0 and state.calls[-1][:2] == (3, 3)
    assert any("Página 3 de 3" in text for _d, _t, text in state.calls)
    assert f"documento nº {issued.info.number}" in state.calls[-1][2]
    assert documents.pending_sticker_numbers(db, clerk) == []


# ---------------------------------------------------------------------------------------------------- numbering
def _numbered_pdf(meta) -> bytes:
    """A one-line PDF that prints its own document number (what every real document does in its footer)."""
    from reportlab.pdfgen.canvas import Canvas
    buffer = io.BytesIO()
    c = Canvas(buffer)
    c.drawString(72, 720, f"Documento nº {meta.number}")
    c.showPage()
    c.save()
    return buffer.getvalue()


def test_spec4_pdf_renders_outside_the_write_transaction_and_a_number_taken_meanwhile_is_re_rendered(db, clerk):
    """While one document renders, another desk issues a document (a write): the render holds no transaction,
    so the other desk is not blocked; the first then re-renders with the number now next, and each archived
    PDF prints its own number."""
    _seed(db)
    inner: list = []
    renders: list[str] = []

    def render(meta):
        renders.append(meta.number)
        if not inner:   # the other desk, in the middle of this render
            inner.append(documents.issue_document(db, clerk, "notice", ("authorization", 1), _numbered_pdf))
        return _numbered_pdf(meta)

    outer = documents.issue_document(db, clerk, "notice", ("authorization", 1), render)
    assert inner[0].number == "0001/2026" and outer.number == "0002/2026"
    assert renders == ["0001/2026", "0002/2026"]                   # rendered again with the number it got
    for info in (inner[0], outer):
        assert f"Documento nº {info.number}" in text_of(documents.archived_bytes(db, clerk, info.number))


def test_spec4_two_desks_issuing_at_once_numbers_unique_gap_free_each_pdf_its_own_number(db, clerk):
    import threading
    _seed(db)
    barrier = threading.Barrier(2, timeout=30)
    results: dict[str, list] = {"0007/2026": [], "0008/2026": []}
    errors: list[BaseException] = []

    def desk(number: str) -> None:
        try:
            barrier.wait()
            for _ in range(4):
                results[number].append(documents.print_certificate(db, clerk, number))
        except BaseException as error:  # noqa: BLE001 — reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=desk, args=(n,)) for n in results]
    for t in threads:
        t.start()
    for t in threads:
        t.join(240)
    assert not errors, errors
    issued = [i for batch in results.values() for i in batch]
    numbers = sorted(i.info.number for i in issued)
    assert numbers == [f"{n:04d}/2026" for n in range(1, 9)]      # unique and gap-free
    for item in issued:
        text = text_of(documents.archived_bytes(db, clerk, item.info.number))
        assert f"Documento nº {item.info.number}" in text
    with db.session(write=False) as s:
        assert s.query(IssuedDocument).count() == 8


def test_issue12_20_numbers_past_9999_keep_their_order_in_the_pending_batch(db, clerk):
    _seed(db)
    with db.session() as s:
        for old, new in (("0007/2026", "10000/2026"), ("0008/2026", "9999/2026"), ("0009/2026", "0010/2025")):
            s.query(Authorization).filter_by(number=old).one().number = new
    assert documents.pending_sticker_numbers(db, clerk) == ["0010/2025", "9999/2026", "10000/2026"]


def test_issue12_17_a_document_in_force_is_found_and_a_new_issue_keeps_its_reason(db, clerk):
    from desktop.models import AuditEntry
    _seed(db)
    assert documents.current_document(db, clerk, "sticker", "0007/2026") is None
    batch = documents.print_pending_stickers(db, clerk)              # one PDF, linked to 0007/2026
    in_force = documents.current_document(db, clerk, "sticker", "0008/2026")
    assert in_force is not None and in_force.number == batch.info.number
    assert documents.current_document(db, clerk, "credential", "0008/2026") is None
    credential = documents.print_credential(db, clerk, "0008/2026")
    assert documents.current_document(db, clerk, "credential", "0008/2026").number == credential.info.number
    again = documents.print_kind(db, clerk, "sticker", "0008/2026", reason="lost")
    assert documents.current_document(db, clerk, "sticker", "0008/2026").number == again.info.number
    with db.session(write=False) as s:
        event = s.query(AuthorizationEvent).filter_by(kind=documents.STICKER_EVENT, act_number=again.info.number).one()
        assert "nova emissão por extravio" in event.reason
        entry = s.query(AuditEntry).filter_by(action="document.issue").order_by(AuditEntry.id.desc()).first()
        assert "extravio" in str(entry.after)
    with pytest.raises(ValueError):
        documents.print_kind(db, clerk, "credential", "0008/2026", reason="porque sim")
    with db.session() as s:                                          # a renewal: the old ones are out of date
        s.query(Authorization).filter_by(number="0008/2026").one().fee_paid_on = date(2099, 1, 2)
    assert documents.current_document(db, clerk, "sticker", "0008/2026") is None
    assert documents.current_document(db, clerk, "credential", "0008/2026") is None
    assert documents.current_document(db, clerk, "guide", "0009/2026") is None


def test_issue12_17_a_new_sticker_supersedes_the_old_one_at_the_check(db, clerk):
    """Art. 14: the sticker issued again (lost) supersedes the previous one; the check of the old one, with the
    number printed on it, says "substituído pelo adesivo nº …" (looked up in the register at check time)."""
    from desktop.domain import sticker_check as sc
    from desktop.services.setup import signing_private_key
    from desktop.signing import sign_sticker

    _seed(db)
    first = documents.print_sticker(db, clerk, "0008/2026")
    second = documents.print_kind(db, clerk, "sticker", "0008/2026", reason="lost")
    with db.session(write=False) as s:
        auth = s.query(Authorization).filter_by(number="0008/2026").one()
        plate = s.get(Vehicle, auth.vehicle_id).plate
        until = auth.valid_until
    text = sign_sticker(signing_private_key(db), "0008/2026", plate, until)
    today = date(2026, 11, 18)
    old = documents.check_sticker(db, text, today, sticker_number=first.info.number)
    assert old.status == sc.SUPERSEDED
    assert f"SUBSTITUÍDO pelo adesivo nº {second.info.number}" in old.message_pt and "extravio" in old.message_pt
    new = documents.check_sticker(db, text, today, sticker_number=second.info.number)
    assert new.status == sc.VALID
    plain = documents.check_sticker(db, text, today)
    assert plain.status == sc.VALID and f"o que vale é o nº {second.info.number}" in plain.message_pt
    stranger = documents.check_sticker(db, text, today, sticker_number="0999/2026")
    assert stranger.status == sc.TAMPERED
