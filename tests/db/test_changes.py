"""Change communications (Art. 13 XVIII: 7 days; late ones offered to the fiscal, Art. 26 III) (issue 4)."""
from __future__ import annotations

from datetime import date, time

import pytest
from registry_factories import desk, new_driver, new_vehicle  # noqa: F401 - desk is a fixture

from desktop.domain import data_change_notice_deadline
from desktop.errors import PermissionDenied, ValidationError
from desktop.services import changes as svc
from desktop.services.changes import ChangeDraft
from desktop.services.drivers import driver_detail
from desktop.services.holidays import calendar
from desktop.services.actors import SYSTEM_ACTOR


def test_art13_xviii_communication_within_7_days_is_timely(db, desk):
    d = new_driver(db, desk)
    info = svc.record_change(db, desk.clerk, ChangeDraft("Novo endereço", date(2026, 3, 2), date(2026, 3, 9),
                                                         driver_id=d.id))
    assert info.deadline == data_change_notice_deadline(date(2026, 3, 2), calendar(db)) == date(2026, 3, 9)
    assert not info.late and info.late_text == "No prazo"
    assert svc.late_changes(db, desk.fiscal) == []


def test_art13_xviii_deadline_moves_past_the_weekend(db, desk):
    d = new_driver(db, desk)
    # 07/03/2026 + 7 = 14/03/2026, a Saturday: the term ends on Monday 16/03.
    info = svc.record_change(db, desk.clerk, ChangeDraft("Telefone", date(2026, 3, 7), date(2026, 3, 16),
                                                         driver_id=d.id))
    assert info.deadline == date(2026, 3, 16) and not info.late


def test_art26_iii_late_communication_is_listed_for_the_fiscal(db, desk):
    d, v = new_driver(db, desk), new_vehicle(db, desk)
    svc.record_change(db, desk.clerk, ChangeDraft("Cor do veículo", date(2026, 3, 2), date(2026, 3, 20),
                                                  vehicle_id=v.id))
    svc.record_change(db, desk.clerk, ChangeDraft("E-mail", date(2026, 4, 1), date(2026, 4, 2), driver_id=d.id))
    late = svc.late_changes(db, desk.fiscal)
    assert [(c.what_changed, c.plate_display, c.late) for c in late] == [("Cor do veículo", v.plate_display, True)]
    assert "Art. 13, XVIII" in late[0].late_text
    with pytest.raises(PermissionDenied):
        svc.late_changes(db, desk.clerk)


def test_change_before_its_happening_is_refused_and_detail_lists_changes(db, desk):
    d = new_driver(db, desk)
    with pytest.raises(ValidationError):
        svc.record_change(db, desk.clerk, ChangeDraft("x", date(2026, 3, 5), date(2026, 3, 1), driver_id=d.id))
    with pytest.raises(ValidationError):
        svc.record_change(db, desk.clerk, ChangeDraft("sem sujeito", date(2026, 3, 5), date(2026, 3, 6)))
    svc.record_change(db, desk.clerk, ChangeDraft("Endereço", date(2026, 3, 5), date(2026, 3, 6), driver_id=d.id))
    detail = driver_detail(db, desk.clerk, d.id)
    assert [c.what_changed for c in detail.changes] == ["Endereço"]
    assert any(e.what == "Comunicação de alteração registrada" for e in detail.timeline)
    assert [c.recorded_by_name for c in svc.list_changes(db, desk.fiscal, driver_id=d.id)] == ["Ana Atendente"]


# --- Art. 13 XVIII → Art. 26 III: the auto drawn up from a late communication ---------------------------------

def _late_and_timely(db, desk):
    from tests.db.enforcement_factories import setup_upfm

    setup_upfm(db)
    d = new_driver(db, desk)
    late = svc.record_change(db, desk.clerk, ChangeDraft("Novo endereço", date(2026, 3, 2), date(2026, 3, 20),
                                                         driver_id=d.id))
    timely = svc.record_change(db, desk.clerk, ChangeDraft("Telefone", date(2026, 4, 1), date(2026, 4, 2),
                                                           driver_id=d.id))
    return d, late, timely


def _auto_draft(change, **kw):
    from desktop.services.autos import AutoDraft

    values = dict(on=date(2026, 4, 6), at=time(10, 0), place="Secretaria", code="ART26-III", art13_item="XVIII",
                  description=f"Alteração «{change.what_changed}» comunicada fora do prazo.",
                  driver_id=change.driver_id, change_id=change.id)
    values.update(kw)
    return AutoDraft(**values)


def test_art26_iii_auto_from_a_late_change_links_it_and_leaves_the_fiscal_queue(db, desk):
    from sqlalchemy import select

    from desktop.models import AuditEntry
    from desktop.services import autos

    d, late, _ = _late_and_timely(db, desk)
    assert [c.id for c in svc.late_changes(db, desk.fiscal)] == [late.id]
    info = autos.draw_up_auto(db, desk.fiscal, _auto_draft(late))
    assert info.code == "ART26-III" and info.art13_item == "XVIII" and info.driver_id == d.id
    assert svc.late_changes(db, desk.fiscal) == []
    linked = [c for c in svc.list_changes(db, desk.fiscal, driver_id=d.id) if c.id == late.id][0]
    assert linked.auto_id == info.id and linked.auto_number == info.number
    assert svc.page_changes(db, desk.fiscal, status="late_open").total == 0
    with db.session(write=False) as s:
        actions = s.execute(select(AuditEntry.action).where(AuditEntry.entity == "change_communication",
                                                            AuditEntry.entity_id == str(late.id))).scalars().all()
    assert "change.auto" in actions


def test_art26_iii_auto_refuses_a_change_already_linked_or_communicated_in_time(db, desk):
    from desktop.services import autos

    d, late, timely = _late_and_timely(db, desk)
    first = autos.draw_up_auto(db, desk.fiscal, _auto_draft(late))
    with pytest.raises(ValidationError) as again:
        autos.draw_up_auto(db, desk.fiscal, _auto_draft(late))
    assert any(p.field == "change_id" and first.number in p.message for p in again.value.problems)
    with pytest.raises(ValidationError) as in_time:
        autos.draw_up_auto(db, desk.fiscal, _auto_draft(timely))
    assert any(p.field == "change_id" and "no prazo" in p.message for p in in_time.value.problems)
    assert autos.count_autos(db, SYSTEM_ACTOR, autos.AutoFilter(driver_id=d.id)) == 1   # nothing saved by the refusals


def test_art26_iii_auto_from_a_change_must_be_art13_xviii_against_its_driver(db, desk):
    from desktop.services import autos

    _, late, _ = _late_and_timely(db, desk)
    other = new_driver(db, desk)
    with pytest.raises(ValidationError) as wrong:
        autos.draw_up_auto(db, desk.fiscal, _auto_draft(late, art13_item="VII", driver_id=other.id))
    fields = {p.field for p in wrong.value.problems}
    assert {"art13_item", "driver_id"} <= fields
    assert [c.id for c in svc.late_changes(db, desk.fiscal)] == [late.id]


def test_art13_xviii_changes_page_filters_counts_and_pages(db, desk):
    d, late, timely = _late_and_timely(db, desk)
    v = new_vehicle(db, desk)
    svc.record_change(db, desk.clerk, ChangeDraft("Cor do veículo", date(2026, 5, 4), date(2026, 5, 5),
                                                  vehicle_id=v.id))
    page = svc.page_changes(db, desk.fiscal, limit=2)
    assert page.total == 3 and len(page.rows) == 2 and page.has_more
    assert [c.what_changed for c in page.rows] == ["Cor do veículo", "Telefone"]   # newest communication first
    assert [c.id for c in svc.page_changes(db, desk.fiscal, offset=2, limit=2).rows] == [late.id]
    assert [c.id for c in svc.page_changes(db, desk.fiscal, status="late").rows] == [late.id]
    assert svc.page_changes(db, desk.fiscal, status="on_time").total == 2
    assert [c.id for c in svc.page_changes(db, desk.fiscal, status="late_open").rows] == [late.id]
    assert svc.page_changes(db, desk.clerk, text="endereco").total == 1          # accent-insensitive
    assert svc.page_changes(db, desk.clerk, text=v.plate_display.lower()).total == 1
    with pytest.raises(PermissionDenied):
        svc.page_changes(db, desk.clerk, status="late_open")


def test_art17_cancelled_auto_returns_the_late_change_to_the_fiscal_for_a_new_auto(db, desk):
    from desktop.services import autos

    _, late, _ = _late_and_timely(db, desk)
    wrong = autos.draw_up_auto(db, desk.fiscal, _auto_draft(late))
    autos.cancel_auto(db, desk.manager, wrong.id, "Data do fato digitada errada", wrong.version)
    back = svc.late_changes(db, desk.fiscal)
    assert [c.id for c in back] == [late.id] and back[0].auto_cancelled and back[0].awaiting_auto
    assert [c.id for c in svc.page_changes(db, desk.fiscal, status="late_open").rows] == [late.id]
    right = autos.draw_up_auto(db, desk.fiscal, _auto_draft(late))
    assert right.number != wrong.number
    linked = svc.page_changes(db, desk.fiscal, status="late").rows[0]
    assert (linked.auto_number, linked.auto_cancelled, linked.awaiting_auto) == (right.number, False, False)
    assert svc.late_changes(db, desk.fiscal) == []
    with pytest.raises(ValidationError):                      # a live auto still blocks a second one
        autos.draw_up_auto(db, desk.fiscal, _auto_draft(late))
