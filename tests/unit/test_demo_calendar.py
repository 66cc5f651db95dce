"""Easter and the demo's municipal dates: Carnival and Corpus Christi move with Easter (desktop.domain.dates)."""
from __future__ import annotations

from datetime import date

import pytest

from desktop.demo.tables import municipal_holidays_for
from desktop.domain.dates import easter_sunday


@pytest.mark.parametrize("year, easter", [
    (2024, date(2024, 3, 31)),
    (2025, date(2025, 4, 20)),
    (2026, date(2026, 4, 5)),
    (2027, date(2027, 3, 28)),
    (2038, date(2038, 4, 25)),     # the latest possible date
    (2285, date(2285, 3, 22)),     # the earliest possible date
])
def test_easter_sunday(year, easter):
    assert easter_sunday(year) == easter


@pytest.mark.parametrize("year, day, name, kind", [
    (2026, date(2026, 2, 16), "Carnaval (segunda-feira)", "ponto_facultativo"),
    (2026, date(2026, 2, 17), "Carnaval (terça-feira)", "ponto_facultativo"),
    (2026, date(2026, 2, 18), "Quarta-feira de Cinzas", "ponto_facultativo"),
    (2026, date(2026, 6, 4), "Corpus Christi", "ponto_facultativo"),
    (2026, date(2026, 7, 26), "Dia de Sant'Ana, padroeira do Município", "municipal"),
    (2025, date(2025, 3, 3), "Carnaval (segunda-feira)", "ponto_facultativo"),
    (2025, date(2025, 6, 19), "Corpus Christi", "ponto_facultativo"),
    (2027, date(2027, 10, 28), "Dia do Servidor Público", "ponto_facultativo"),
])
def test_demo_municipal_dates(year, day, name, kind):
    assert (day, name, kind) in municipal_holidays_for(year)
