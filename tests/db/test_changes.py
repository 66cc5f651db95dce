"""Change communications (Art. 13 XVIII: 7 days; late ones offered to the fiscal, Art. 26 III) (issue 4)."""
from __future__ import annotations

from datetime import date

import pytest
from registry_factories import desk, new_driver, new_vehicle  # noqa: F401 - desk is a fixture

from desktop.domain import data_change_notice_deadline
from desktop.errors import PermissionDenied, ValidationError
from desktop.services import changes as svc
from desktop.services.changes import ChangeDraft
from desktop.services.drivers import driver_detail
from desktop.services.holidays import calendar


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
