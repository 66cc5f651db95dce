"""Issue 28 on SQLite and PostgreSQL: who signs an act (Lei 9.784/99, art. 22, § 1º) — users carry office and
matrícula, every act prints them, a routine or the machine's account never signs; the audit termo signed by a
gestor, numbered by the archive, with its zone and the demo mark; laudos numbered one sequence per year; the
convocation that does not give three business days (Lei 9.784/99, art. 26, § 2º) refused."""
from __future__ import annotations

import json
from datetime import date, datetime

import pytest
from test_issued_documents import _seed, _seed_enforcement, text_of

from desktop.domain.roles import Role
from desktop.errors import ConflictError, ValidationError
from desktop.models import Inspection, IssuedDocument, User
from desktop.models.types import LOCAL_TZ
from desktop.services import documents, users
from desktop.services.actors import SYSTEM_ACTOR


def _admin(db):
    from desktop.services.auth import login
    return login(db, "chefe", "senha-forte-2025")


def test_users_have_office_and_registration_validated_and_audited(db):
    _seed(db)
    admin = _admin(db)
    info = users.create_user(db, admin, users.UserDraft(
        "gabi", "Gabriela Curvo de Almeida", frozenset({Role.GESTOR}), "senha-da-gabi-1",
        office=" Secretária Municipal de Finanças ", registration="4.001-7"))
    assert (info.office, info.registration) == ("Secretária Municipal de Finanças", "4.001-7")
    with pytest.raises(ValidationError) as taken:
        users.create_user(db, admin, users.UserDraft("outra", "Outra Pessoa", frozenset({Role.FISCAL}),
                                                     "senha-da-outra-1", office="Fiscal", registration="4.001-7"))
    assert taken.value.problems[0].field == "registration" and "já é de outro usuário" in taken.value.problems[0].message
    with pytest.raises(ValidationError, match="não o nome de acesso"):
        users.create_user(db, admin, users.UserDraft("fabio.fiscal", "Fábio", frozenset({Role.FISCAL}),
                                                     "senha-do-fabio-1", office="Fiscal", registration="fabio.fiscal"))
    with pytest.raises(ValidationError, match="120 caracteres"):
        users.update_user(db, admin, info.id, users.UserDraft("gabi", "Gabriela", frozenset({Role.GESTOR}),
                                                              office="x" * 121), info.version)
    changed = users.update_user(db, admin, info.id, users.UserDraft(
        "gabi", "Gabriela Curvo de Almeida", frozenset({Role.GESTOR}), office="Secretária Adjunta",
        registration="4.001-7"), info.version)
    assert changed.office == "Secretária Adjunta"
    from desktop.models import AuditEntry
    with db.session(write=False) as s:
        entry = s.query(AuditEntry).filter_by(action="user.update").order_by(AuditEntry.id.desc()).first()
        before, after = (json.loads(v) if isinstance(v, str) else v for v in (entry.before, entry.after))
        assert before["office"] == "Secretária Municipal de Finanças"
        assert after["office"] == "Secretária Adjunta" and after["registration"] == "4.001-7"


def test_lei9784_art22_par1_the_certificate_prints_its_real_signer(db, make_actor):
    _seed(db)
    gestora = make_actor(Role.GESTOR, username="gabi", full_name="Gabriela Curvo de Almeida",
                         office="Secretária Municipal de Finanças", registration="4.001-7")
    text = text_of(documents.print_certificate(db, gestora, "0007/2026").pdf)
    assert "Gabriela Curvo de Almeida Secretária Municipal de Finanças — Secretaria Municipal de Finanças " \
           "Matrícula nº 4.001-7" in text
    for impostor in ("Autoridade competente", "Secretário(a) Municipal", "rotina automática"):
        assert impostor not in text


def test_routines_prepare_a_person_signs(db, make_actor):
    _seed(db)
    with pytest.raises(ConflictError, match="usuário identificado"):
        documents.print_certificate(db, SYSTEM_ACTOR, "0007/2026")
    unnamed = make_actor(Role.GESTOR, username="semcargo", office="", registration="")
    with pytest.raises(ConflictError, match="Administração → Usuários") as refused:
        documents.print_certificate(db, unnamed, "0007/2026")
    assert "cargo e matrícula" in str(refused.value)
    with db.session(write=False) as s:
        assert s.query(IssuedDocument).count() == 0              # nothing archived, no number spent


def test_laudo_numbers_are_one_sequence_per_year_not_database_ids(db, make_actor):
    ids = _seed(db)
    inspector = make_actor(Role.VISTORIADOR, username="vitor", full_name="Vitor Hugo Campos",
                           office="Vistoriador de Veículos", registration="2.001-9")
    first_id, _course = _seed_enforcement(db, ids, inspector.user_id)
    with db.session() as s:                     # ids grow, and an earlier year's laudo does not count
        done = s.get(Inspection, first_id)
        older = Inspection(kind=done.kind, vehicle_id=done.vehicle_id, authorization_id=done.authorization_id,
                           inspector_id=inspector.user_id, place_id=done.place_id, status="done",
                           result="approved", performed_at=datetime(2025, 12, 30, 9, 0, tzinfo=LOCAL_TZ))
        later = Inspection(kind=done.kind, vehicle_id=done.vehicle_id, authorization_id=done.authorization_id,
                           inspector_id=inspector.user_id, place_id=done.place_id, status="done",
                           result="approved", performed_at=datetime(2026, 4, 1, 9, 0, tzinfo=LOCAL_TZ))
        s.add_all([older, later])
        s.flush()
        assert later.id > 1
        later_id = later.id
    first = text_of(documents.print_inspection_report(db, inspector, first_id).pdf)
    second = text_of(documents.print_inspection_report(db, inspector, later_id).pdf)
    assert "LAUDO DE VISTORIA Nº 0001/2026" in first and "LAUDO DE VISTORIA Nº 0002/2026" in second
    assert "Vitor Hugo Campos, Vistoriador de Veículos, matrícula nº 2.001-9" in first
    assert "NÃO CONFORME: Pneu dianteiro gasto" in first
    assert "(horário de Cuiabá, UTC−04:00)" in first


def test_audit_termo_signed_by_a_gestor_numbered_by_the_archive_with_its_zone(db, make_actor):
    from desktop.services import checkpoints
    _seed(db)
    gestora = make_actor(Role.GESTOR, username="gabi", full_name="Gabriela Curvo de Almeida",
                         office="Secretária Municipal de Finanças", registration="4.001-7")
    cp, check, pdf = checkpoints.checkpoint_term(db, gestora)
    text = text_of(pdf)
    with db.session(write=False) as s:
        row = s.query(IssuedDocument).filter_by(kind="audit_term").one()
        assert row.pdf == pdf and row.record_type == "audit_checkpoint" and row.record_id == cp.id
        number = row.number
    assert number == "0001/2026" or number.endswith(f"/{datetime.now(LOCAL_TZ).year}")
    assert f"Documento nº {number}" in text
    assert f"{cp.last_id}/{cp.day.year}" not in text.replace(number, "")      # not the chain's entry number
    assert "Gabriela Curvo de Almeida, Secretária Municipal de Finanças, matrícula nº 4.001-7" in text
    assert "Matrícula nº 4.001-7" in text and "terminal:" not in text
    assert "(horário de Cuiabá, UTC−04:00)" in text
    assert "DEMONSTRAÇÃO" not in text
    with pytest.raises(ConflictError, match="usuário identificado"):
        checkpoints.checkpoint_term(db, SYSTEM_ACTOR)


def test_audit_termo_from_a_demo_database_carries_the_demo_mark(db, make_actor):
    from desktop.models.security import DatabaseMark
    from desktop.services import checkpoints
    _seed(db)
    with db.session() as s:
        s.add(DatabaseMark(key="demo", value="teste", at=datetime.now(LOCAL_TZ)))
    gestora = make_actor(Role.GESTOR, username="gabi", office="Gestora", registration="4.001-7")
    _cp, _check, pdf = checkpoints.checkpoint_term(db, gestora)
    assert "DEMONSTRAÇÃO — SEM VALOR LEGAL" in text_of(pdf)


def test_cli_audit_checkpoint_needs_a_named_gestor(db, tmp_path, capsys, monkeypatch):
    from desktop.cli import main
    _seed(db)
    admin = _admin(db)
    users.create_user(db, admin, users.UserDraft("gabi", "Gabriela Curvo de Almeida", frozenset({Role.GESTOR}),
                                                 "senha-da-gabi-1", office="Gestora", registration="4.001-7"))
    out = tmp_path / "termo.pdf"
    assert main(["--db", db.url, "audit", "checkpoint", "--out", str(out)]) == 1
    assert "--user LOGIN" in capsys.readouterr().err
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-errada-1")
    assert main(["--db", db.url, "audit", "checkpoint", "--out", str(out), "--user", "gabi"]) == 1
    assert not out.exists()
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-da-gabi-1")
    assert main(["--db", db.url, "audit", "checkpoint", "--out", str(out), "--user", "gabi"]) == 0
    assert "Gabriela Curvo de Almeida, Gestora, matrícula nº 4.001-7" in text_of(out.read_bytes())


def test_user_row_keeps_office_and_registration(db):
    _seed(db)
    with db.session(write=False) as s:
        admin = s.query(User).filter_by(username="chefe").one()
        assert admin.office == "" and admin.registration == ""    # older rows: empty, filled by the admin


def test_lei9784_art26_par2_inspection_convocation_refused_without_three_business_days(db, make_actor):
    from desktop.domain.dates import local_today
    from desktop.services.holidays import calendar
    ids = _seed(db)
    manager = make_actor(Role.GESTOR, username="gestora", full_name="Gabriela Gestora")
    done_id, _course = _seed_enforcement(db, ids, manager.user_id)
    cal = calendar(db)
    soon_day = cal.add_business_days(local_today(), 2)
    with db.session() as s:
        done = s.get(Inspection, done_id)
        soon = Inspection(kind="extraordinary", vehicle_id=done.vehicle_id, authorization_id=done.authorization_id,
                          inspector_id=manager.user_id, status="scheduled", place_id=done.place_id,
                          scheduled_start=datetime.combine(soon_day, datetime.min.time().replace(hour=8),
                                                           tzinfo=LOCAL_TZ))
        s.add(soon)
        s.flush()
        soon_id = soon.id
    with pytest.raises(ValidationError) as refused:
        documents.print_notice(db, manager, "inspection_convocation", str(soon_id))
    assert "três dias úteis" in refused.value.problems[0].message
    assert cal.add_business_days(local_today(), 3).strftime("%d/%m/%Y") in refused.value.problems[0].message


def test_art13_I_credential_qr_checks_at_the_register_and_names_its_holder(db, make_actor):
    from desktop.signing import sign_credential
    from desktop.services.setup import signing_private_key
    _seed(db)
    clerk = make_actor(Role.ATENDENTE, username="ana", full_name="Ana Souza")
    issued = documents.print_credential(db, clerk, "0007/2026")
    text = text_of(issued.pdf)
    assert "***.982.247-**" in text and "*******7890" in text and "01234567890" not in text
    payload = sign_credential(signing_private_key(db), "0007/2026", "QAB1D23", date(2026, 12, 31),
                              "***.982.247-**", "*******7890")
    check = documents.check_sticker(db, payload, today=date(2026, 12, 1))
    assert check.status == "valid", check.message_pt
    with db.session() as s:                         # no photo, no credential (Art. 13, I: pessoal)
        from desktop.models import Authorization, Driver
        auth = s.query(Authorization).filter_by(number="0008/2026").one()
        s.get(Driver, auth.driver_id).photo = None
    with pytest.raises(ConflictError, match="foto"):
        documents.print_credential(db, clerk, "0008/2026")
