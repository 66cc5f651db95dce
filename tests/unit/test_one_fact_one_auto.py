"""One fact, one auto (issue 24 item 10; Art. 19: the auto is the record of the infraction found, drawn up once):
a trip that is the evidence of a live auto is refused for a second one, naming the first; a cancelled (Art. 17) or
annulled auto releases it."""
import pytest

from desktop.domain.trips import RELEASED_AUTO_STATUSES, holds_evidence, one_fact_one_auto
from desktop.domain.workflow import AutoStatus


@pytest.mark.parametrize("status, holds", [
    pytest.param(AutoStatus.DRAWN_UP, True, id="art19-drawn-up-holds-its-trips"),
    pytest.param(AutoStatus.NOTIFIED, True, id="art22-notified-holds"),
    pytest.param(AutoStatus.IN_DEFENSE, True, id="art22-in-defense-holds"),
    pytest.param(AutoStatus.JUDGED, True, id="art22-judged-holds"),
    pytest.param(AutoStatus.FINAL, True, id="art22-final-holds"),
    pytest.param("paid", True, id="paid-holds-given-as-stored-text"),
    pytest.param(AutoStatus.CANCELLED, False, id="art17-cancelled-releases"),
    pytest.param("annulled", False, id="annulled-by-decision-releases"),
])
def test_art19_which_autos_hold_their_trips_as_evidence(status, holds):
    assert holds_evidence(status) is holds


def test_art17_released_statuses_are_cancelled_and_annulled_only():
    assert RELEASED_AUTO_STATUSES == {AutoStatus.CANCELLED, AutoStatus.ANNULLED}


MSG = "Esta viagem já é prova do auto nº {}: um fato, um auto."


@pytest.mark.parametrize("rows, named", [
    pytest.param([], [], id="art19-a-trip-in-no-auto-is-free"),
    pytest.param([(8, "0146/2026", "drawn_up")], ["0146/2026"], id="art19-issue24-ub0008-second-auto-refused"),
    pytest.param([(8, "0146/2026", "cancelled")], [], id="art17-the-cancelled-auto-released-the-trip"),
    pytest.param([(8, "0146/2026", "cancelled"), (8, "0150/2026", "notified")], ["0150/2026"],
                 id="art19-drawn-up-again-after-cancel-names-the-live-one"),
    pytest.param([(8, "0146/2026", "final"), (9, "0146/2026", "final")], ["0146/2026"],
                 id="art19-one-auto-on-two-trips-named-once"),
    pytest.param([(8, "0146/2026", "final"), (9, "0147/2026", "in_defense")], ["0146/2026", "0147/2026"],
                 id="art19-two-trips-two-autos-both-named-in-order"),
])
def test_art19_one_fact_one_auto(rows, named):
    problems = one_fact_one_auto(rows)
    assert [p.message for p in problems] == [MSG.format(n) for n in named]
    assert all(p.field == "evidence_trip_ids" and p.article == "Art. 19" for p in problems)
