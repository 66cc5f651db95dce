"""Courses and lectures (Art. 12, §2; issue 16): session → convocation within the capacity → notice → attendance →
an excused absence with its document, an unjustified one offered as an Art. 26, III candidate (Art. 13, XVI)."""
from __future__ import annotations

import io
from datetime import date, time, timedelta

import pytest
from dashboard_factories import authorization, auto

from desktop.domain import local_today
from desktop.domain.roles import Role
from desktop.errors import ConflictError, PermissionDenied, ValidationError
from desktop.services import courses as svc
from desktop.services.courses import SessionDraft


@pytest.fixture
def people(make_actor):
    return {role: make_actor(role) for role in Role}


def _png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, "PNG")
    return buffer.getvalue()


def _session(db, actor, capacity=2, held_on=date(2026, 11, 25)):
    return svc.create_session(db, actor, SessionDraft(held_on, time(14), "Auditório da Prefeitura",
                                                      "Direção defensiva", capacity, "Equipe da Secretaria",
                                                      time(17)))


def _drivers(db):
    with db.session() as s:
        new = authorization(s, activated_on=date(2026, 6, 1)).driver_id                # new driver (≤ 12 months)
        old = authorization(s, activated_on=date(2024, 3, 1))
        auto(s, "drawn_up", old.driver_id)                                            # an auto 20 days ago
        veteran = authorization(s, activated_on=date(2023, 5, 1)).driver_id
        return new, old.driver_id, veteran


def test_art12_par2_session_needs_date_place_topic_and_capacity(db, people):
    with pytest.raises(ValidationError) as refused:
        svc.create_session(db, people[Role.ATENDENTE], SessionDraft(date(2026, 11, 1), time(14), "", "", 0))
    assert {p.field for p in refused.value.problems} == {"held_on", "place", "topic", "capacity"}
    with pytest.raises(PermissionDenied):
        _session(db, people[Role.FISCAL])
    info = _session(db, people[Role.ATENDENTE])
    assert info.number == f"{info.id:04d}/2026" and info.starts_at.hour == 14 and info.ends_at.hour == 17


def test_art12_par2_convocation_filters_new_drivers_and_drivers_with_autos(db, people):
    new, with_auto, veteran = _drivers(db)
    clerk = people[Role.ATENDENTE]
    with db.session(write=False) as s:
        assert svc.convocation_count_in(s, clerk, "new") == 1
        assert svc.convocation_count_in(s, clerk, "autos") == 1
        assert svc.convocation_count_in(s, clerk, "all") == 3
    info = _session(db, clerk, capacity=5)
    assert svc.convoke(db, clerk, info.id, "new").convoked == 1
    assert [a.driver_id for a in svc.attendances(db, clerk, info.id)] == [new]
    result = svc.convoke(db, clerk, info.id, "autos")
    assert result.convoked == 1 and {a.driver_id for a in svc.attendances(db, clerk, info.id)} == {new, with_auto}


def test_art12_par2_capacity_is_respected(db, people):
    _drivers(db)
    clerk = people[Role.ATENDENTE]
    info = _session(db, clerk, capacity=2)
    result = svc.convoke(db, clerk, info.id, "all")
    assert (result.convoked, result.left_out) == (2, 1)
    again = svc.convoke(db, clerk, info.id, "all")
    assert (again.convoked, again.already, again.left_out) == (0, 2, 1)
    assert svc.get_session(db, clerk, info.id).convoked == 2


def test_art12_par2_notice_is_printed_numbered_and_the_list_exported(db, people, tmp_path):
    from decimal import Decimal

    from pypdf import PdfReader

    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55")),
        AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    _drivers(db)
    clerk = people[Role.ATENDENTE]
    info = _session(db, clerk, capacity=3)
    svc.convoke(db, clerk, info.id, "all")
    issued = svc.print_convocation_notice(db, clerk, info.id)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(issued.pdf)).pages)
    assert "NOTIFICAÇÃO DE CONVOCAÇÃO" in text and "Art. 26, III" in text
    assert len(PdfReader(io.BytesIO(issued.pdf)).pages) == 3
    # issue 28 point 1: the notices' own series, printed and written on each convocation — never the document's
    # NNNN/AAAA, which an auto's number could repeat
    assert {a.notice_number for a in svc.attendances(db, clerk, info.id)} == {"NT-0001/2026"}
    assert "NOTIFICAÇÃO DE CONVOCAÇÃO Nº NT-0001/2026" in text
    path = tmp_path / "convocados.csv"
    assert svc.export_convocation_list(db, clerk, info.id, path) == 3
    assert "Direção defensiva" in path.read_text(encoding="utf-8-sig")


def test_art13_xvi_absence_without_justification_becomes_an_art26_iii_candidate(db, people):
    new, with_auto, veteran = _drivers(db)
    clerk, fiscal = people[Role.ATENDENTE], people[Role.FISCAL]
    info = _session(db, clerk, capacity=5, held_on=date(2026, 11, 18))
    svc.convoke(db, clerk, info.id, "all")
    held = svc.record_attendance(db, clerk, info.id, [new], info.version)
    assert (held.present, held.absent, held.status) == (1, 2, "held")
    absent = {a.driver_id: a for a in svc.attendances(db, clerk, info.id)}
    # A justified absence, with its document (the attachment policy refuses an empty file).
    with pytest.raises(ValidationError):
        svc.justify_absence(db, clerk, absent[veteran].id, "Atestado médico", b"", "x.png", absent[veteran].version)
    excused = svc.justify_absence(db, clerk, absent[veteran].id, "Atestado médico", _png(), "atestado.png",
                                  absent[veteran].version)
    assert excused.status == "excused" and excused.justification_document_id is not None
    # issue 24 item 12 (Art. 22 §2): no absence is offered before the proof of its convocation notice is joined
    assert svc.unjustified_absences(db, fiscal) == []
    with pytest.raises(ValidationError, match="Imprima antes"):
        svc.join_convocation_proof(db, clerk, absent[with_auto].id, local_today(), absent[with_auto].version)
    with db.session() as s:   # what printing the notice does (print_convocation_notice's after-step)
        svc.record_notice_numbers_in(s, info.id, "0007/2026")
    absent = {a.driver_id: a for a in svc.attendances(db, clerk, info.id)}
    with pytest.raises(ValidationError, match="futura"):
        svc.join_convocation_proof(db, clerk, absent[with_auto].id, local_today() + timedelta(days=1),
                                   absent[with_auto].version)
    svc.join_convocation_proof(db, clerk, absent[with_auto].id, local_today(), absent[with_auto].version)
    candidates = svc.unjustified_absences(db, fiscal)
    assert [c.driver_id for c in candidates] == [with_auto]
    assert candidates[0].code == "ART26-III" and candidates[0].art13_item == "XVI"
    with db.session(write=False) as s:
        assert svc.unjustified_absence_count_in(s, fiscal) == 1
    with pytest.raises(PermissionDenied):
        svc.unjustified_absences(db, clerk)
    courses = svc.courses_of_driver(db, clerk, new)
    assert [(c.session_number, c.status_label) for c in courses] == [(info.number, "Presente")]


def test_attendance_is_not_recorded_before_the_session_day(db, people):
    _drivers(db)
    clerk = people[Role.ATENDENTE]
    info = _session(db, clerk, held_on=date(2026, 11, 18) + timedelta(days=7))
    svc.convoke(db, clerk, info.id, "all")
    with pytest.raises(ValidationError):
        svc.record_attendance(db, clerk, info.id, [], info.version)
    held = svc.record_attendance  # a held session takes no more convocations
    assert held is not None
    with pytest.raises(ConflictError):
        with db.session() as s:
            from desktop.models import CourseSession

            s.get(CourseSession, info.id).status = "held"
        svc.convoke(db, clerk, info.id, "all")


def test_issue22_the_services_return_the_steps_the_screen_draws(db, people):
    """domain/courses.py: a planned session with convocations offers convoke and record to the front desk; once
    held it takes no more convocations but its list may be recorded again; the fiscal sees the steps disabled with
    the role that would enable them. Attendance: an excused absence is final."""
    from desktop.domain.courses import AttendanceStatus, SessionStatus
    from desktop.domain.steps import find_action, is_enabled

    new, with_auto, veteran = _drivers(db)
    clerk, fiscal = people[Role.ATENDENTE], people[Role.FISCAL]
    info = _session(db, clerk, capacity=5, held_on=date(2026, 11, 18))
    assert info.status is SessionStatus.PLANNED
    assert is_enabled(info.actions, "convoke") and not is_enabled(info.actions, "record")   # nobody convoked yet
    assert find_action(info.actions, "record").reason == "nenhum condutor foi convocado para esta turma"
    svc.convoke(db, clerk, info.id, "all")
    info = svc.get_session(db, clerk, info.id)
    assert {a.key for a in info.actions if a.enabled} == {"convoke", "notice", "export", "attendance_list", "record",
                                                          "justify"}
    seen_by_fiscal = svc.get_session(db, fiscal, info.id)
    assert not any(a.enabled for a in seen_by_fiscal.actions)
    assert find_action(seen_by_fiscal.actions, "convoke").reason == "exige o perfil Atendente ou Gestor"
    held = svc.record_attendance(db, clerk, info.id, [new], info.version)
    assert held.status is SessionStatus.HELD
    assert not is_enabled(held.actions, "convoke") and is_enabled(held.actions, "record")
    again = svc.record_attendance(db, clerk, info.id, [new, veteran], held.version)   # a correction of the list
    assert (again.status, again.present, again.absent) == (SessionStatus.HELD, 2, 1)
    items = {a.driver_id: a for a in svc.attendances(db, clerk, info.id)}
    assert items[new].present and items[new].status is AttendanceStatus.PRESENT
    assert is_enabled(items[with_auto].actions, "justify") and not is_enabled(items[new].actions, "justify")
    excused = svc.justify_absence(db, clerk, items[with_auto].id, "Atestado médico", _png(), "atestado.png",
                                  items[with_auto].version)
    assert excused.status is AttendanceStatus.EXCUSED
    assert not is_enabled(excused.actions, "mark") and not is_enabled(excused.actions, "justify")
    with pytest.raises(ConflictError):
        svc.convoke(db, clerk, info.id, "all")   # a held session takes no more convocations
def test_lei9784_art26_par2_convocation_needs_three_business_days_and_is_signed(db, people):
    """Issue 28: the summons precedes the day to appear by at least three business days (Lei 9.784/99, art. 26,
    § 2º; the day of the notice not counted); a notice for a session sooner is refused, naming the first day
    possible. The notice printed names who convokes, with office and matrícula (art. 22, § 1º)."""
    from decimal import Decimal

    from pypdf import PdfReader

    from desktop.domain.dates import local_today
    from desktop.services.holidays import calendar
    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55")),
        AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    _drivers(db)
    clerk = people[Role.ATENDENTE]
    cal = calendar(db)
    soon = _session(db, clerk, capacity=3, held_on=cal.add_business_days(local_today(), 2))
    svc.convoke(db, clerk, soon.id, "all")
    with pytest.raises(ValidationError) as refused:
        svc.print_convocation_notice(db, clerk, soon.id)
    problem = refused.value.problems[0]
    first = cal.add_business_days(local_today(), 3)
    assert "três dias úteis" in problem.message and first.strftime("%d/%m/%Y") in problem.message
    assert problem.article == "Lei 9.784/99, art. 26, §2º"
    assert all(a.notice_number is None for a in svc.attendances(db, clerk, soon.id))     # nothing issued
    in_term = _session(db, clerk, capacity=3, held_on=first)
    svc.convoke(db, clerk, in_term.id, "all")
    issued = svc.print_convocation_notice(db, clerk, in_term.id)
    text = " ".join("".join(p.extract_text() for p in PdfReader(io.BytesIO(issued.pdf)).pages).split())
    assert "antecedência mínima de três dias úteis" in text and "art. 26, § 2º" in text
    assert "Matrícula nº" in text and "Autoridade competente" not in text and "Secretaria Municipal Ciente" not in text


def test_issue26_the_convocation_enters_the_dispatch_register_once_for_each_driver_it_convokes(db, people):
    """Art. 12, §2 with Art. 22, §1: the convocation of a session is one printed notice with a page per driver; the
    correspondence desk offers one line per convoked driver, and each registered copy has its own code."""
    from decimal import Decimal

    from desktop.domain.correspondence import DispatchForm, code_is_valid
    from desktop.services import correspondence
    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55")),
        AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    _drivers(db)
    clerk, fiscal = people[Role.ATENDENTE], people[Role.FISCAL]
    info = _session(db, clerk, capacity=3)
    svc.convoke(db, clerk, info.id, "all")
    issued = svc.print_convocation_notice(db, clerk, info.id)
    lines = [n for n in correspondence.printed_notices(db, fiscal) if n.issued_document_id == issued.info.id]
    convoked = {a.driver_id for a in svc.attendances(db, clerk, info.id)}
    assert {int(n.addressee.split(":")[1]) for n in lines} == convoked and len(lines) == 3
    assert all(n.case_label.startswith("Curso de 25/11/2026") for n in lines)
    codes = [correspondence.register_printed(db, fiscal, issued.info.id, n.addressee, DispatchForm.DIRECT).code
             for n in lines]
    assert len(set(codes)) == 3 and all(code_is_valid(c) for c in codes)
    assert not [n for n in correspondence.printed_notices(db, fiscal) if n.issued_document_id == issued.info.id]
