"""The program's one clock (issue 10 item 7): every now/today comes from desktop.domain.clock, in Cuiabá time,
and the tests set it — the suite's result never depends on the day it runs."""
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from desktop.domain import clock
from desktop.domain.dates import TIMEZONE, local_now, local_today

CUIABA = ZoneInfo("America/Cuiaba")


def _all_nows():
    from desktop.models.types import now as model_now
    from desktop.reports.common import now as report_now

    return {"domain.clock.now": clock.now(), "dates.local_now": local_now(), "models.types.now": model_now(),
            "reports.common.now": report_now()}


def test_the_suite_starts_every_test_at_its_instant(suite_clock):
    moment = clock.now()
    assert suite_clock <= moment < suite_clock + timedelta(minutes=5)      # advancing in real time from there
    assert clock.today() == suite_clock.date() == local_today()


@pytest.mark.parametrize("at, today", [
    pytest.param(datetime(2026, 12, 25, 10, 0, tzinfo=CUIABA), date(2026, 12, 25), id="christmas"),
    pytest.param(datetime(2026, 12, 31, 23, 59, tzinfo=CUIABA), date(2026, 12, 31), id="new-years-eve"),
    # 02:30 UTC on 01/01/2027 is still 31/12/2026 in Cuiabá (UTC-4): "today" is Cuiabá's, not the computer's.
    pytest.param(datetime(2027, 1, 1, 2, 30, tzinfo=timezone.utc), date(2026, 12, 31), id="utc-is-converted"),
    pytest.param(datetime(2026, 11, 21, 8, 0), date(2026, 11, 21), id="naive-is-cuiaba"),
])
def test_every_now_of_the_program_follows_the_one_clock(at, today):
    with clock.frozen(at):
        nows = _all_nows()
        assert set(nows.values()) == {clock.now()}, nows
        assert all(n.tzinfo is not None and n.utcoffset() == timedelta(hours=-4) for n in nows.values())
        assert clock.today() == local_today() == today


def test_frozen_puts_the_previous_clock_back_and_may_advance():
    before = clock.current_source()
    with clock.frozen(datetime(2026, 12, 25, 10, 0), advancing=True):
        first = clock.now()
        assert first.date() == date(2026, 12, 25)
        assert clock.now() >= first
    assert clock.current_source() is before


def test_set_clock_returns_the_previous_one_and_reset_goes_back_to_the_system():
    previous = clock.set_clock(clock.fixed(datetime(2030, 5, 6, 7, 8)))
    assert clock.now() == datetime(2030, 5, 6, 7, 8, tzinfo=CUIABA)
    clock.reset_clock()
    assert clock.current_source() is clock.system_now
    clock.set_clock(previous)


def test_a_clock_must_give_aware_date_times():
    clock.set_clock(lambda: datetime(2026, 1, 1, 12, 0))
    with pytest.raises(ValueError, match="fuso"):
        clock.now()
    with pytest.raises(TypeError):
        clock.set_clock("2026-12-25")


def test_one_time_zone_constant():
    from desktop.models.types import LOCAL_TZ
    from desktop.reports.common import TZ
    from desktop.services import auth, backup

    assert TIMEZONE is clock.TIMEZONE is LOCAL_TZ is TZ is auth.TZ is backup.TZ
    assert str(TIMEZONE) == "America/Cuiaba"


def test_the_program_takes_no_date_from_the_environment(monkeypatch):
    """Only code sets the clock: no variable, setting or file can backdate a legal act (the tests' variable,
    DESKTOP_TEST_CLOCK, is read by tests/conftest.py alone)."""
    import pathlib

    monkeypatch.setenv("DESKTOP_TEST_CLOCK", "2001-01-01T00:00")
    clock.reset_clock()
    assert clock.today().year >= 2025
    package = pathlib.Path(clock.__file__).resolve().parents[1]
    assert not [p for p in package.rglob("*.py") if "DESKTOP_TEST_CLOCK" in p.read_text(encoding="utf-8")]
