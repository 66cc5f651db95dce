"""Issue 25 items 1 and 2: hostile trip files, on SQLite AND PostgreSQL. Each value past the limits of
`domain.limits` (amounts, instants, distances, durations) and each input that used to end in "Erro inesperado
(OverflowError…)" is refused in Portuguese, naming the line (or the trip of an MDS file), with nothing stored —
and both databases refuse the same bytes."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "db"))

from trip_factories import make_platform, mds_json, mds_trip, trip, trips_csv  # noqa: E402

from desktop.domain.roles import Role  # noqa: E402
from desktop.errors import ValidationError  # noqa: E402
from desktop.models.platforms import TripImport, TripRow  # noqa: E402
from desktop.services import trips as svc  # noqa: E402

PLATE, CPF = "ABC1D23", "52998224725"
START_MS = 1_795_003_200_000          # 18/11/2026 08:00 (Cuiabá), before the suite's clock
ENGLISH = re.compile(r"Error|Overflow|cannot|convert|OutOfBounds|Recursion|int32|float64|Character|Erro inesperado")


@pytest.fixture
def fiscal(make_actor):
    return make_actor(Role.FISCAL, Role.GESTOR, username="fiscal-ataque")


def _stored(db) -> tuple[int, int]:
    with db.session(write=False) as s:
        return (s.scalar(select(func.count()).select_from(TripRow)),
                s.scalar(select(func.count()).select_from(TripImport)))


def _refused(db, actor, content: bytes, where: str, words: str) -> str:
    platform = make_platform(db, actor)
    with pytest.raises(ValidationError) as exc:
        svc.import_trips(db, actor, platform.id, content, "ataque.csv")
    message = str(exc.value)
    assert "nada foi gravado" in message and where in message and words in message, message
    assert not ENGLISH.search(message), message
    assert _stored(db) == (0, 0)
    return message


def _mds(**changes) -> bytes:
    t = mds_trip("M1", PLATE, CPF, START_MS)
    t.update(changes)
    return json.dumps({"version": "2.0.0", "data": {"trips": [t]}}, allow_nan=True).encode("utf-8")


# -- item 1: values past the limits -------------------------------------------------------------------------------
@pytest.mark.parametrize("cells, column, words", [
    ({"total": "99999999999999999999"}, "Valor total (R$)", "fora do limite"),      # overflowed to -2^63
    ({"total": "1000000000000000000"}, "Valor total (R$)", "fora do limite"),
    ({"total": "10000000000000000,00"}, "Valor total (R$)", "fora do limite"),
    ({"total": "-25,40"}, "Valor total (R$)", "fora do limite"),
    ({"total": "10.000,01"}, "Valor total (R$)", "fora do limite"),
    ({"base": "-1,00"}, "Tarifa base (R$)", "fora do limite"),
    ({"start": "01/01/1800 08:00:00", "end": ""}, "Início", "prazo de retenção"),
    ({"start": "01/01/9999 08:00:00", "end": ""}, "Início", "posterior ao momento da importação"),
    ({"start": "9999-01-01T08:00:00-04:00", "end": ""}, "Início", "posterior ao momento da importação"),
    ({"start": "18/11/2026 08:00:00", "end": "01/01/9999 08:00:00"}, "Fim", "posterior ao momento"),
    ({"start": "16/11/2026 08:00:00", "end": "18/11/2026 08:00:00"}, "Fim", "mais de 24 horas"),
    ({"km_m": "1e300"}, "Distância (m)", "fora do limite"),
    ({"km_m": "1000001"}, "Distância (m)", "fora do limite"),
    ({"secs": "86401"}, "Duração (s)", "fora do limite"),
    ({"rating": "1e300"}, "Avaliação", "avaliação inválida"),
])
def test_issue25_item1_values_past_the_limits_are_refused_naming_line_and_column(db, fiscal, cells, column, words):
    content = trips_csv(trip("T1", PLATE, CPF), trip("T2", PLATE, CPF, **cells))
    message = _refused(db, fiscal, content, f"linha 3, coluna «{column}»", words)
    assert "linha 2" not in message


def test_issue25_item1_a_fare_at_the_ceiling_is_stored(db, fiscal):
    platform = make_platform(db, fiscal)
    report = svc.import_trips(db, fiscal, platform.id, trips_csv(
        trip("T1", PLATE, CPF, total="10.000,00", base="10.000,00", dist="0", time_="0", fee="0", other="0")), "t.csv")
    assert report.trips == 1 and _stored(db) == (1, 1)


def test_issue25_item1_fare_parts_that_do_not_add_up_are_flagged_on_the_report(db, fiscal):
    platform = make_platform(db, fiscal)
    report = svc.import_trips(db, fiscal, platform.id, trips_csv(
        trip("T1", PLATE, CPF), trip("T2", PLATE, CPF, total="99,00"), trip("T3", PLATE, CPF)), "t.csv")
    assert report.trips == 3
    flagged = [n for n in report.notes if n.startswith("Atenção:")]
    assert len(flagged) == 1 and "1 viagem(ns)" in flagged[0] and "linha 3" in flagged[0], flagged
    assert flagged[0] in report.summary()


def test_issue25_item1_the_mds_amounts_and_instants_have_the_same_limits(db, fiscal):
    _refused(db, fiscal, _mds(actual_cost=10 ** 20), "viagem nº 1", "Valor total (R$)»: valor inválido")


# -- item 2: inputs that ended in "Erro inesperado (…)" in English ------------------------------------------------
def test_issue25_item2_a_10_mb_line_is_refused_naming_it(db, fiscal):
    content = trips_csv(trip("T1", PLATE, CPF), trip("T2", PLATE, CPF, other="1" * 10_000_000))
    _refused(db, fiscal, content, "linha 3, coluna «Outros (R$)»", "fora do limite")


def test_issue25_item2_a_10_mb_trip_id_is_refused_naming_it(db, fiscal):
    content = trips_csv(trip("T1", PLATE, CPF), trip("T" * 10_000_000, PLATE, CPF))
    message = _refused(db, fiscal, content, "linha 3, coluna «ID da viagem»", "mais de 80 caracteres")
    assert len(message) < 2_000


def test_issue25_item2_a_quoted_cell_past_the_csv_field_limit_is_refused_in_portuguese(db, fiscal):
    content = trips_csv(trip("T1", PLATE, CPF), trip("T2", PLATE, CPF, other='"' + "1" * 300_000 + '"'))
    _refused(db, fiscal, content, "linha 3", "passa de 131.072 caracteres")


@pytest.mark.parametrize("field, value, column, words", [
    ("distance", 1e300, "Distância (m)", "fora do limite"),       # "cannot safely cast non-equivalent float64"
    ("distance", float("inf"), "Distância (m)", "número inválido"),
    ("duration", float("nan"), "Duração (s)", "número inválido"),
    ("actual_cost", float("nan"), "Valor total (R$)", "valor inválido"),
    ("actual_cost", float("inf"), "Valor total (R$)", "valor inválido"),   # "cannot convert float infinity"
    ("actual_cost", float("-inf"), "Valor total (R$)", "valor inválido"),
    ("start_time", 10 ** 20, "Início", "data-hora inválida"),     # a 21-digit timestamp: OutOfBoundsDatetime
    ("start_time", float("inf"), "Início", "data-hora inválida"),
    ("end_time", 10 ** 20, "Fim", "data-hora inválida"),
])
def test_issue25_item2_mds_nan_infinity_and_huge_numbers_name_the_trip(db, fiscal, field, value, column, words):
    _refused(db, fiscal, _mds(**{field: value}), f"viagem nº 1 (trip_id M1), coluna «{column}»", words)


def test_issue25_item2_mds_fare_attributes_of_infinity_are_refused(db, fiscal):
    _refused(db, fiscal, _mds(fare_attributes={"base_rate": float("inf")}), "viagem nº 1", "valor inválido")


def test_issue25_item2_deeply_nested_json_is_refused_naming_the_line(db, fiscal):
    content = b'{"version": "2.0.0",\n"data": {"trips": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}}"
    _refused(db, fiscal, content, "linha 2", "níveis de listas e objetos aninhados")


@pytest.mark.parametrize("bad, words", [
    ("T\x001", "coluna «ID da viagem»: o identificador contém um caractere de controle"),   # raw NUL on PG
    ("T\x1b1", "coluna «ID da viagem»: o identificador contém um caractere de controle"),
    ('"T\x001"', "coluna «ID da viagem»: o identificador contém um caractere de controle"),
    ("T\r1", "retorno de carro (CR) no meio da linha"),
])
def test_issue25_item2_a_control_character_in_a_trip_id_is_refused_on_both_databases(db, fiscal, bad, words):
    _refused(db, fiscal, trips_csv(trip("T0", PLATE, CPF), trip(bad, PLATE, CPF)), "linha 3", words)


def test_issue25_item2_a_nul_in_an_mds_trip_id_is_refused_and_not_quoted_raw(db, fiscal):
    message = _refused(db, fiscal, mds_json(mds_trip("M\x001", PLATE, CPF, START_MS)), "viagem nº 1",
                       "caractere de controle")
    assert "\x00" not in message and "M\\x001" in message


def test_issue25_item2_a_hostile_currency_is_not_echoed_whole(db, fiscal):
    message = _refused(db, fiscal, _mds(currency="X" * 100_000 + "\r\n"), "viagem nº 1", "esperado BRL")
    assert len(message) < 1_000
