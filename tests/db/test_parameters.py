"""Dated parameters (STYLE habits; SPEC §3): a new row per change, the value on a date, ranges of the law."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desktop.domain.roles import Role
from desktop.errors import ConflictError, NotFound, PermissionDenied, ValidationError
from desktop.services import parameters as P


def test_catalog_keys_labels_and_units():
    assert set(P.PARAMETERS) >= {
        "upfm_value", "fee.authorization", "fee.renewal", "fee.inspection", "term.defense_days",
        "term.appeal_days", "term.payment_days", "issqn_rate_percent", "recurrence.window_months", "issqn_pro_rata",
        "issqn_due_day",
        # issue 13: guides (when a fine's guide is issued, due terms) and late charges with NO default
        "fine_guide_when", "guide.fee_days", "guide.fine_days", "late.fine_percent", "late.interest_percent",
        "term.list_regularization_days", "trip_retention_months"}   # issue 14: the notice for an overdue list (Art. 24, II, a)
    assert P.PARAMETERS["late.fine_percent"].default is None and P.PARAMETERS["late.interest_percent"].default is None
    # issue 23 point 10: the fees are the Código Tributário Municipal's — no invented installation default
    assert all(P.PARAMETERS[f"fee.{k}"].default is None for k in ("authorization", "renewal", "inspection"))
    assert P.PARAMETERS["guide.fee_days"].default == 30 and P.PARAMETERS["fine_guide_when"].default == 0
    assert P.PARAMETERS["upfm_value"].unit == "R$" and P.PARAMETERS["issqn_rate_percent"].unit == "%"
    # issue 13: no rate is invented — SPEC §3 "Taxes" leaves it to the Código Tributário Municipal
    assert P.PARAMETERS["issqn_rate_percent"].default is None
    assert P.PARAMETERS["term.defense_days"].default == 15 and P.PARAMETERS["term.appeal_days"].default == 15
    assert P.PARAMETERS["term.payment_days"].default == 30
    assert P.PARAMETERS["recurrence.window_months"].default == 12
    assert P.PARAMETERS["upfm_value"].label == "Valor da UPFM"


def test_value_on_a_date_is_the_latest_row_not_after_it(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    assert P.parameter_value(db, "term.defense_days", date(2026, 1, 1)) == 15      # catalog default
    P.set_parameter(db, gestor, "term.defense_days", date(2026, 3, 1), 20, "Decreto 10/2026")
    P.set_parameter(db, gestor, "term.defense_days", date(2026, 9, 1), 30, "Decreto 55/2026")
    assert P.parameter_value(db, "term.defense_days", date(2026, 2, 28)) == 15
    assert P.parameter_value(db, "term.defense_days", date(2026, 3, 1)) == 20
    assert P.parameter_value(db, "term.defense_days", date(2026, 8, 31)) == 20
    assert P.parameter_value(db, "term.defense_days", date(2027, 1, 1)) == 30
    history = P.list_parameters(db, "term.defense_days")
    assert [(h.valid_from, h.value, h.note) for h in history] == [
        (date(2026, 9, 1), 30, "Decreto 55/2026"), (date(2026, 3, 1), 20, "Decreto 10/2026")]
    assert history[0].created_by == gestor.username and history[0].unit == "dias"


def test_rows_are_never_overwritten(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    P.set_parameter(db, gestor, "fee.authorization", date(2026, 1, 1), Decimal("12"))
    with pytest.raises(ConflictError) as exc:
        P.set_parameter(db, gestor, "fee.authorization", date(2026, 1, 1), Decimal("13"))
    assert "01/01/2026" in str(exc.value) and "não são alterados" in str(exc.value)
    with pytest.raises(ConflictError) as exc:
        P.set_parameter(db, gestor, "fee.authorization", date(2025, 12, 1), Decimal("13"))
    assert "histórico não é reescrito" in str(exc.value)
    assert P.parameter_value(db, "fee.authorization", date(2026, 6, 1)) == 12


def test_art25_upfm_value_by_year_with_clear_error(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    P.set_upfm_value(db, gestor, 2026, Decimal("117.51"))
    P.set_upfm_value(db, gestor, 2025, Decimal("112.45"))      # a missing earlier year may still be entered
    assert P.upfm_value(db, 2026) == Decimal("117.51")
    assert P.upfm_value(db, 2025) == Decimal("112.45")
    with pytest.raises(NotFound) as exc:
        P.upfm_value(db, 2024)
    assert "2024" in str(exc.value) and "UPFM" in str(exc.value)
    with pytest.raises(ValidationError):
        P.set_upfm_value(db, gestor, 2027, Decimal("0"))


def test_iss_rate_between_2_and_5_percent_lc116_lc157(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    for bad in (Decimal("1.99"), Decimal("5.01")):
        with pytest.raises(ValidationError) as exc:
            P.set_parameter(db, gestor, "issqn_rate_percent", date(2026, 1, 1), bad)
        assert exc.value.problems[0].field == "value"
        assert "LC 116/2003" in exc.value.problems[0].article
    assert P.set_parameter(db, gestor, "issqn_rate_percent", date(2026, 1, 1), "2,5").value == Decimal("2.5")
    with pytest.raises(ValidationError):
        P.set_parameter(db, gestor, "term.appeal_days", date(2026, 1, 1), Decimal("10.5"))


def test_only_gestor_or_administrador_set_parameters(db, make_actor):
    for role in (Role.ATENDENTE, Role.FISCAL, Role.VISTORIADOR):
        with pytest.raises(PermissionDenied):
            P.set_parameter(db, make_actor(role), "fee.renewal", date(2026, 1, 1), 5)
    assert P.set_parameter(db, make_actor(Role.ADMINISTRADOR), "fee.renewal", date(2026, 1, 1), 5).value == 5


def test_current_parameters_show_defaults_and_values(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    P.set_upfm_value(db, gestor, 2026, Decimal("117.51"))
    current = {p.key: p for p in P.current_parameters(db, date(2026, 5, 1))}
    assert current["upfm_value"].value == Decimal("117.51")
    assert current["issqn_pro_rata"].valid_from is None and current["issqn_pro_rata"].value == 0
    assert "issqn_rate_percent" not in current   # no default: not shown as if it had a value


class _Undo(Exception):
    """Raised inside a caller's transaction to roll it back."""


def test_session_forms_join_the_callers_transaction(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    with pytest.raises(_Undo):
        with db.session() as s:
            P.set_parameter_in(s, gestor, "term.defense_days", date(2026, 3, 1), 20, "Decreto 10/2026")
            assert P.set_upfm_value_in(s, gestor, 2026, "117,51").value == Decimal("117.51")
            assert P.parameter_value_in(s, "term.defense_days", date(2026, 3, 1)) == 20
            raise _Undo
    assert P.list_parameters(db) == []
    clerk = make_actor(Role.ATENDENTE)
    with pytest.raises(PermissionDenied):
        with db.session() as s:
            P.set_upfm_value_in(s, clerk, 2026, "117,51")
