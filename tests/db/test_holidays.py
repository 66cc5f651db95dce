"""Municipal holidays feed the business-day calendar of every deadline (SPEC §3; Art. 9, 16 §2)."""
from __future__ import annotations

from datetime import date

import pytest

from desktop.domain import deadline
from desktop.domain.roles import Role
from desktop.errors import ConflictError, PermissionDenied, ValidationError
from desktop.services import audit, holidays


def test_municipal_holiday_moves_an_art16_deadline(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    # Failed inspection on Wednesday 22/07/2026: 5 days → Monday 27/07/2026 (Art. 16, §2).
    assert deadline(date(2026, 7, 22), 5, holidays.calendar(db)) == date(2026, 7, 27)
    added = holidays.add_holiday(db, gestor, date(2026, 7, 27), "Feriado de Sant'Ana (transferido)")
    cal = holidays.calendar(db)
    assert not cal.is_business_day(date(2026, 7, 27))
    assert deadline(date(2026, 7, 22), 5, cal) == date(2026, 7, 28)
    # Removing deactivates, with the reason; the calendar forgets it.
    removed = holidays.remove_holiday(db, gestor, added.id, "Decreto revogado")
    assert not removed.active and removed.removed_reason == "Decreto revogado"
    assert holidays.calendar(db).is_business_day(date(2026, 7, 27))
    listed = holidays.list_holidays(db, 2026)
    assert [(h.day, h.active) for h in listed] == [(date(2026, 7, 27), False)]
    assert audit.verify(db).ok


def test_ponto_facultativo_and_duplicates(db, make_actor):
    admin = make_actor(Role.ADMINISTRADOR)
    h = holidays.add_holiday(db, admin, date(2026, 2, 16), "Carnaval", kind="ponto_facultativo")
    assert h.kind_label == "Ponto facultativo"
    assert not holidays.calendar(db).is_business_day(date(2026, 2, 16))
    with pytest.raises(ConflictError):
        holidays.add_holiday(db, admin, date(2026, 2, 16), "Outro nome")
    with pytest.raises(ValidationError):
        holidays.add_holiday(db, admin, date(2026, 3, 1), "  ")
    with pytest.raises(ValidationError):
        holidays.remove_holiday(db, admin, h.id, "")


def test_clerk_cannot_edit_holidays(db, make_actor):
    with pytest.raises(PermissionDenied):
        holidays.add_holiday(db, make_actor(Role.ATENDENTE), date(2026, 7, 26), "Sant'Ana")


class _Undo(Exception):
    """Raised inside a caller's transaction to roll it back."""


def test_session_forms_join_the_callers_transaction(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    with pytest.raises(_Undo):
        with db.session() as s:
            added = holidays.add_holiday_in(s, gestor, date(2026, 7, 27), "Feriado de Sant'Ana")
            assert added.active
            raise _Undo
    assert holidays.list_holidays(db, 2026) == []
    kept = holidays.add_holiday(db, gestor, date(2026, 7, 27), "Feriado de Sant'Ana")
    with pytest.raises(_Undo):
        with db.session() as s:
            assert not holidays.remove_holiday_in(s, gestor, kept.id, "Decreto revogado").active
            raise _Undo
    assert [h.active for h in holidays.list_holidays(db, 2026)] == [True]
    clerk = make_actor(Role.ATENDENTE)
    with pytest.raises(PermissionDenied):
        with db.session() as s:
            holidays.add_holiday_in(s, clerk, date(2026, 8, 3), "Outro")
