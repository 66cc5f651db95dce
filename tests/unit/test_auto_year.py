"""The year of an auto is the year of its lavratura, in Cuiabá's time (Art. 25; SPEC §3: "an auto's amount in reais
uses the value of the year the auto was drawn up (lavrado)"; issue 24 item 9): it numbers the auto NNNN/AAAA and
chooses the UPFM value of its fine."""
from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from desktop.domain import auto_year

CUIABA = ZoneInfo("America/Cuiaba")
UTC = timezone.utc


@pytest.mark.parametrize("infraction_on, lavrado_at, year", [
    pytest.param(date(2025, 12, 31), datetime(2026, 1, 1, 0, 10, tzinfo=CUIABA), 2026,
                 id="art25-fact-31-12-2025-23h30-drawn-up-01-01-2026-00h10-is-2026"),
    pytest.param(date(2025, 12, 31), datetime(2026, 1, 1, 3, 30, tzinfo=UTC), 2025,
                 id="art25-2026-01-01T03h30Z-is-31-12-2025-23h30-in-cuiaba-so-2025"),
    pytest.param(date(2025, 12, 31), datetime(2026, 1, 1, 4, 0, tzinfo=UTC), 2026,
                 id="art25-2026-01-01T04h00Z-is-midnight-in-cuiaba-so-2026"),
    pytest.param(date(2025, 12, 20), datetime(2026, 1, 5, 9, 0, tzinfo=CUIABA), 2026,
                 id="art25-issue24-fact-20-12-2025-drawn-up-05-01-2026-is-2026"),
    pytest.param(date(2026, 5, 10), datetime(2026, 5, 10, 14, 0, tzinfo=CUIABA), 2026,
                 id="art25-drawn-up-on-the-spot-same-year"),
    pytest.param(date(2025, 12, 31), None, 2025, id="art25-no-lavratura-recorded-the-infraction-year"),
])
def test_art25_the_auto_year_is_the_year_of_the_lavratura_in_cuiaba(infraction_on, lavrado_at, year):
    assert auto_year(infraction_on, lavrado_at) == year


def test_art25_a_naive_lavratura_moment_is_refused():
    with pytest.raises(ValueError, match="fuso"):
        auto_year(date(2025, 12, 31), datetime(2026, 1, 1, 0, 10))


def test_art25_a_lavratura_is_a_moment_not_a_day():
    with pytest.raises(TypeError):
        auto_year(date(2025, 12, 31), date(2026, 1, 1))
