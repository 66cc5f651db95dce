"""The home dashboard (issue 16): one tile per item, for the user's roles, counted in SQL and equal to the list
the tile opens, with the last timely day the law gives."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from dashboard_factories import NOW, TODAY, populate

from desktop.domain.dates import renewal_request_deadline
from desktop.domain.roles import Role
from desktop.services import dashboard as svc
from desktop.services.authorizations import list_authorizations
from desktop.services.autos import AutoFilter, count_autos, list_autos
from desktop.services.courses import unjustified_absences
from desktop.services.drivers import list_drivers
from desktop.services.holidays import calendar
from desktop.services.inspections import annual_due
from desktop.services.documents import pending_sticker_numbers
from desktop.services.actors import SYSTEM_ACTOR


@pytest.fixture
def people(make_actor):
    return {role: make_actor(role) for role in Role}


def test_tiles_follow_the_roles(db, people):
    clerk = svc.dashboard(db, people[Role.ATENDENTE], NOW)
    assert "renewal" in clerk.keys and "stickers" in clerk.keys
    assert "judgment" not in clerk.keys and "checkpoint" not in clerk.keys
    fiscal = svc.dashboard(db, people[Role.FISCAL], NOW)
    assert {"changes", "defense_week", "appeal_week", "judgment", "data_requests", "course_absences"} <= set(
        fiscal.keys)
    assert "renewal" not in fiscal.keys
    assert svc.dashboard(db, people[Role.GESTOR], NOW).keys == svc.TILE_KEYS
    assert svc.dashboard(db, people[Role.ADMINISTRADOR], NOW).keys == ("checkpoint", "backup")


def test_an_empty_database_shows_every_tile_at_zero(db, people):
    board = svc.dashboard(db, people[Role.GESTOR], NOW)
    assert all(t.count == 0 for t in board.tiles if t.key not in ("checkpoint", "backup"))
    assert board.tile("renewal").severity == svc.OK
    # No audit checkpoint was ever signed: the gestor must see it.
    assert board.tile("checkpoint").severity == svc.DANGER


def test_art3_par2_renewal_tile_counts_the_list_it_opens_and_gives_the_last_timely_day(db, people):
    ids = populate(db)
    gestor = people[Role.GESTOR]
    tile = svc.dashboard(db, gestor, NOW).tile("renewal")
    page = list_authorizations(db, gestor, due="renewal")
    assert tile.count == page.total == 1 and page.rows[0].id == ids["renewal"]
    assert tile.deadline == renewal_request_deadline(date(2026, 12, 10), calendar(db))
    assert tile.target.module == "autorizacoes" and tile.target.filter["due"] == "renewal"
    assert tile.article == "Art. 3, §2"


def test_authorization_tiles_equal_their_lists(db, people):
    ids = populate(db)
    gestor = people[Role.GESTOR]
    board = svc.dashboard(db, gestor, NOW)
    for key, due, expected in (("expiring", "expiring", {ids["renewal"]}),
                               ("last_service_year", "last_service_year", {ids["last_year"]}),
                               ("convocation", "convocation", {ids["convocation"]}),
                               ("impeded", "impeded", {ids["impeded_running"], ids["impeded_ended"]})):
        page = list_authorizations(db, gestor, due=due)
        assert {r.id for r in page.rows} == expected, key
        assert board.tile(key).count == page.total == len(expected), key
    # Art. 2 §2: a 2016 vehicle serves through 31/12/2026.
    assert board.tile("last_service_year").deadline == date(2026, 12, 31)
    # Art. 9: the 5 days to present the vehicle end on 20/11.
    assert board.tile("convocation").deadline == date(2026, 11, 20)
    # Art. 16 §2: one term running (ends 20/11), one ended (an Art. 26, II candidate) → danger.
    impeded = board.tile("impeded")
    assert impeded.deadline == date(2026, 11, 20) and impeded.severity == svc.DANGER and "1 com prazo" in impeded.detail


def test_art16_annual_inspections_due_count_equals_the_annual_list(db, people):
    ids = populate(db)
    gestor = people[Role.GESTOR]
    listed = annual_due(db, gestor, TODAY.year, TODAY.month)
    assert [d.authorization_id for d in listed] == [ids["annual"]]
    assert svc.dashboard(db, gestor, NOW).tile("annual_due").count == 1


def test_art22_defense_and_appeal_terms_ending_this_week_and_autos_awaiting_judgment(db, people):
    ids = populate(db)
    gestor = people[Role.GESTOR]
    board = svc.dashboard(db, gestor, NOW)
    for key, expected in (("defense_week", ids["defense"]), ("appeal_week", ids["appeal"]),
                          ("judgment", ids["judgment"])):
        listed = list_autos(db, SYSTEM_ACTOR, AutoFilter(due=key)).items
        assert [a.id for a in listed] == [expected], key
        assert board.tile(key).count == count_autos(db, SYSTEM_ACTOR, AutoFilter(due=key)) == 1, key
    assert board.tile("defense_week").deadline == date(2026, 11, 20)
    assert board.tile("defense_week").severity == svc.WARNING   # within 3 days


def test_art4_par2_data_requests_carry_the_deadline_for_the_countdown(db, people):
    ids = populate(db)
    tile = svc.dashboard(db, people[Role.FISCAL], NOW).tile("data_requests")
    assert tile.count == 2 and "1 sem resposta" in tile.detail
    assert tile.deadline_at == NOW + timedelta(hours=5)
    assert tile.severity == svc.DANGER
    assert tile.target.module == "plataformas" and tile.target.filter["platform_id"] == ids["platform"]


def test_art12_driver_documents_expiring_in_30_days(db, people):
    ids = populate(db)
    clerk = people[Role.ATENDENTE]
    page = list_drivers(db, clerk, due="documents")
    assert [r.id for r in page.rows] == [ids["documents_driver"]]
    assert svc.dashboard(db, clerk, NOW).tile("driver_documents").count == 1


def test_fines_and_guides_overdue_stickers_and_course_absences(db, people):
    populate(db)
    gestor = people[Role.GESTOR]
    board = svc.dashboard(db, gestor, NOW)
    assert board.tile("overdue").count == 1 and "1 guia" in board.tile("overdue").detail
    assert board.tile("stickers").count == len(pending_sticker_numbers(db, gestor)) > 0
    assert board.tile("course_absences").count == len(unjustified_absences(db, gestor)) == 1


def test_counts_are_sql_counts_not_lists(db, people, monkeypatch):
    """The dashboard never builds the lists it counts (issue 16: counts must be SQL COUNTs)."""
    from desktop.services import changes, courses, ledger
    from desktop.services.inspections import annual

    def refuse(*_a, **_k):
        raise AssertionError("a list was built to count it")

    for module, name in ((annual, "annual_due_in"), (ledger, "overdue_list_in"), (changes, "late_changes_in"),
                         (courses, "unjustified_absences_in")):
        monkeypatch.setattr(module, name, refuse)
    populate(db)
    assert svc.dashboard(db, people[Role.GESTOR], NOW).tile("annual_due").count == 1


def test_a_reader_without_roles_is_refused(db):
    from desktop.errors import PermissionDenied
    from desktop.services.actors import Actor

    with pytest.raises(PermissionDenied):
        svc.dashboard(db, Actor(None, "x", "X"), NOW)


def test_backup_tile_says_whether_the_days_copy_was_made(db, people, tmp_path, monkeypatch):
    """Issue 17: the day's automatic copy shows on the dashboard (an alert when not configured or failed)."""
    from desktop.services import auto_backup

    gestor = people[Role.GESTOR]
    monkeypatch.setenv("DESKTOP_SETTINGS_FILE", str(tmp_path / "settings.json"))   # no folder chosen yet
    monkeypatch.setattr(auto_backup, "pg_dump_available", lambda: True)
    tile = svc.dashboard(db, gestor, NOW).tile("backup")
    assert tile.severity == svc.DANGER and "não configuradas" in tile.detail
    assert tile.target.module == "administracao" and tile.target.filter["tab"] == "backups"
    monkeypatch.setattr(auto_backup, "configured_folder", lambda: tmp_path)
    if db.is_sqlite:
        outcome = auto_backup.run_auto_backup(db, gestor, folder=tmp_path, on=NOW.date())
        assert outcome.status == auto_backup.DONE, outcome.message
        tile = svc.dashboard(db, gestor, NOW).tile("backup")
        assert tile.severity == svc.OK and tile.deadline == NOW.date()
    monkeypatch.setattr(auto_backup, "pg_dump_available", lambda: False)
    if db.is_postgresql:
        tile = svc.dashboard(db, gestor, NOW).tile("backup")
        assert tile.severity == svc.INFO and "DBA" in tile.detail


def test_art22_par1_correspondence_tiles_equal_the_lists_they_open(db, people):
    """Issue 26: notices waiting to be sent, ARs out for more than 30 days, e-mails with no answer in the term and
    autos whose AR came back for the edital — each tile's count is its list on the Correspondência screen."""
    from desktop.domain.correspondence import DispatchForm
    from desktop.services import correspondence as desk
    from tests.db.correspondence_factories import SmtpSink, at, auto_with_notice
    from tests.files import tiny_pdf

    fiscal, gestor = people[Role.FISCAL], people[Role.GESTOR]
    at(date(2026, 10, 1))
    late_auto, late_notice = auto_with_notice(db, fiscal, date(2026, 9, 30))
    late = desk.register_auto_notice(db, fiscal, late_auto.id, late_notice.info.id)
    back_auto, back_notice = auto_with_notice(db, fiscal, date(2026, 9, 30))
    back = desk.register_auto_notice(db, fiscal, back_auto.id, back_notice.info.id)
    mail_auto, mail_notice = auto_with_notice(db, fiscal, date(2026, 9, 30), email_address="x@example.com")
    mailed = desk.register_auto_notice(db, fiscal, mail_auto.id, mail_notice.info.id, DispatchForm.ELECTRONIC)
    desk.day_batch(db, fiscal)
    with SmtpSink() as sink:
        desk.send_email(db, fiscal, mailed.code, desk.SmtpSettings("127.0.0.1", sink.port, "none",
                                                                   sender="fiscal@chapada.example"))
    at(date(2026, 10, 5))
    desk.receive(db, fiscal, back.code, received_on=date(2026, 10, 5), returned="mudou-se",
                 proof=("ar.pdf", tiny_pdf("AR devolvido"), "application/pdf"))
    wait_auto, wait_notice = auto_with_notice(db, fiscal, date(2026, 10, 5))
    desk.register_auto_notice(db, fiscal, wait_auto.id, wait_notice.info.id)
    at(date(2026, 11, 18))
    board = svc.dashboard(db, gestor)
    for key, status in (("dispatch_waiting", "pending"), ("ars_overdue", "ars_overdue"),
                        ("emails_unanswered", "unanswered"), ("for_edital", "for_edital")):
        tile = board.tile(key)
        page = desk.dispatch_page(db, gestor, status)
        assert tile.count == page.total == 1, key
        assert tile.target.module == "correspondencia" and tile.target.filter["status"] == status
        assert tile.severity != svc.OK
    assert desk.dispatch_page(db, gestor, "ars_overdue").rows[0].code == late.code
    assert desk.dispatch_page(db, gestor, "unanswered").rows[0].actions == ("receive", "post")
    assert "for_edital" in svc.dashboard(db, fiscal).keys
    assert "for_edital" not in svc.dashboard(db, people[Role.ATENDENTE]).keys
