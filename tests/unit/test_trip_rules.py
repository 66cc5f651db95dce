"""The pure rules of trip data (desktop.domain.trips; issue 15), table-driven, with the law's words:
Art. 4 caput ("garantida a privacidade e a confidencialidade dos dados pessoais dos usuários"), Art. 7 (embarque
diretamente em vias públicas vedado), Art. 8 (um veículo por um condutor), Art. 13 XIX ("somente o veículo cadastrado
para este fim"), Art. 16 §2 ("não podendo realizar serviços de transporte durante o prazo de regularização"),
Art. 24 parágrafo único (suspensão: afastamento do condutor e do veículo), Art. 26 II e IV, Art. 27 (transporte
ilegal)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest

from desktop.domain.clock import TIMEZONE
from desktop.domain.trips import (
    CSV_COLUMNS,
    AuthorizationSpan,
    ClassBase,
    TripFacts,
    TripInfraction,
    hail_type_of,
    is_passenger_field,
    match_header,
    nearest_class,
    parse_month,
    project,
    published_count,
    retention_cutoff,
    scale_bar_m,
    trip_infractions,
)


@pytest.mark.parametrize("name, passenger", [
    ("Nome do passageiro", True), ("NOME DO PASSAGEIRO", True), ("CPF do passageiro", True),
    ("Telefone", True), ("telefone do usuário", True), ("E-mail", True), ("email", True), ("e-mail do cliente", True),
    ("Passenger name", True), ("rider_id", True), ("passenger_id", True), ("user_phone", True),
    ("Celular", True), ("Passageiro", True), ("Usuário", True), ("customer", True),
    ("passenger_count", False), ("Observação", False), ("Bairro de origem", False), ("trip_id", False),
    ("Placa", False), ("duration", False),
])
def test_art4_caput_columns_that_identify_a_passenger(name, passenger):
    assert is_passenger_field(name) is passenger


def test_art4_header_in_any_order_case_and_accents_insensitive_the_rest_dropped_or_ignored():
    pinned = list(CSV_COLUMNS.values())
    shuffled = [h.upper() for h in reversed(pinned)]
    shuffled[0] = "tipo de chamada"
    shuffled[3] = "AVALIACAO" if shuffled[3] == "AVALIAÇÃO" else shuffled[3]
    match = match_header(["Nome do passageiro", *shuffled, "Observação", "CPF do passageiro"])
    assert match.ok and set(match.positions) == set(CSV_COLUMNS)
    assert match.positions["hail"] == 1 and match.dropped == ("Nome do passageiro", "CPF do passageiro")
    assert match.ignored == ("Observação",)
    # "CPF do condutor" is pinned: never taken for a passenger's CPF
    assert match.positions["driver_cpf"] == 1 + shuffled.index("CPF DO CONDUTOR")


def test_missing_and_repeated_pinned_columns():
    pinned = list(CSV_COLUMNS.values())
    match = match_header([h for h in pinned if h != "Placa"] + ["Início"])
    assert match.missing == ("Placa",) and match.repeated == ("Início",) and not match.ok


@pytest.mark.parametrize("text, stored", [
    ("aplicativo", "app"), ("Aplicativo", "app"), ("via pública", "street_hail"), ("VIA PUBLICA", "street_hail"),
    ("street_hail", "street_hail"), ("phone_dispatch", "phone_dispatch"), ("táxi", None), ("", None),
])
def test_art7_hail_type(text, stored):
    assert hail_type_of(text) == stored


AT = datetime(2026, 11, 18, 9, 0, tzinfo=TIMEZONE)


def span(aid, driver, vehicle, *changes):
    return AuthorizationSpan(aid, driver, vehicle, tuple(
        (datetime(2026, 11, d, 0, 0, tzinfo=TIMEZONE), s) for d, s in changes))


# (case, trip driver, trip vehicle, hail, spans, expected kinds)
CASES = [
    ("Art. 8: o condutor no veículo da sua autorização ativa", 1, 10, "app",
     [span(1, 1, 10, (1, "active"))], []),
    ("Art. 7, Art. 26 IV: embarque na via pública", 1, 10, "street_hail",
     [span(1, 1, 10, (1, "active"))], [TripInfraction.STREET_HAIL]),
    ("Art. 27: autorização ativa só depois da viagem", 1, 10, "app",
     [span(1, 1, 10, (20, "active"))], [TripInfraction.NO_AUTHORIZATION]),
    ("Art. 27: autorização expirada antes da viagem", 1, 10, "app",
     [span(1, 1, 10, (1, "active"), (10, "expired"))], [TripInfraction.NO_AUTHORIZATION]),
    ("Art. 27: condutor fora do cadastro", None, 10, "app",
     [span(1, 2, 10, (1, "active"))], [TripInfraction.NO_AUTHORIZATION]),
    ("Art. 8, 13 XIX: condutor autorizado em veículo que não é o seu", 1, 11, "app",
     [span(1, 1, 10, (1, "active")), span(2, 2, 11, (1, "active"))], [TripInfraction.NOT_HIS_VEHICLE]),
    ("Art. 8, 13 XIX: veículo fora do cadastro", 1, None, "app",
     [span(1, 1, 10, (1, "active"))], [TripInfraction.NOT_HIS_VEHICLE]),
    ("Art. 16 §2, Art. 26 II: durante o prazo de regularização", 1, 10, "app",
     [span(1, 1, 10, (1, "active"), (15, "impeded"))], [TripInfraction.IMPEDED]),
    ("Art. 16 §2: regularizado antes da viagem", 1, 10, "app",
     [span(1, 1, 10, (1, "active"), (10, "impeded"), (15, "active"))], []),
    ("Art. 24 par. único, Art. 27: durante a suspensão", 1, 10, "app",
     [span(1, 1, 10, (1, "active"), (12, "suspended"))], [TripInfraction.SUSPENDED]),
    ("Art. 7 e Art. 27 juntos", None, None, "street_hail", [],
     [TripInfraction.STREET_HAIL, TripInfraction.NO_AUTHORIZATION]),
]


@pytest.mark.parametrize("case, driver, vehicle, hail, spans, kinds", CASES, ids=[c[0] for c in CASES])
def test_art7_art8_art13_xix_art16_par2_art24_art27_what_a_trip_shows(case, driver, vehicle, hail, spans, kinds):
    found = trip_infractions(TripFacts(1, AT, hail, driver, vehicle), spans)
    assert [r.kind for r in found] == kinds


def test_each_rule_draws_up_with_its_catalogue_code_and_article():
    from desktop.domain.penalties import CATALOG
    from desktop.domain.trips import RULES

    assert {k: (r.code, r.art13_item) for k, r in RULES.items()} == {
        TripInfraction.NO_AUTHORIZATION: ("ART27", None), TripInfraction.NOT_HIS_VEHICLE: ("ART26-III", "XIX"),
        TripInfraction.IMPEDED: ("ART26-II", None), TripInfraction.SUSPENDED: ("ART27", None),
        TripInfraction.STREET_HAIL: ("ART26-IV", None)}
    assert all(r.code in CATALOG for r in RULES.values())
    assert "Art. 7" in RULES[TripInfraction.STREET_HAIL].article


@pytest.mark.parametrize("count, published", [(0, -1), (1, -1), (9, -1), (10, 10), (11, 11), (12345, 12345)])
def test_mds_reports_k_anonymity_below_10_is_minus_one(count, published):
    assert published_count(count) == published


@pytest.mark.parametrize("amount, code", [("1800", "PAR"), ("3000", "PAR"), ("3001", "INT"), ("9000", "INT"),
                                          ("0", "PAR")])
def test_art11_par1_nearest_class_tie_goes_to_the_lower_base(amount, code):
    classes = [ClassBase("INT", "Integral", Decimal("4000")), ClassBase("PAR", "Parcial", Decimal("2000"))]
    assert nearest_class(Decimal(amount), classes).code == code
    assert nearest_class(Decimal(amount), []) is None


@pytest.mark.parametrize("today, months, cutoff", [
    (date(2026, 11, 18), 24, date(2024, 11, 18)), (date(2026, 3, 31), 1, date(2026, 2, 28)),
    (date(2026, 1, 15), 1, date(2025, 12, 15)), (date(2028, 2, 29), 12, date(2027, 2, 28)),
])
def test_retention_cutoff(today, months, cutoff):
    assert retention_cutoff(today, months) == cutoff


def test_route_geometry_scale_and_month():
    xy = project([(-15.46, -55.75), (-15.45, -55.75)])
    assert abs((xy[1][1] - xy[0][1]) - 1111.95) < 1.0 and abs(xy[0][0]) < 1e-6
    assert [scale_bar_m(w) for w in (30, 400, 2000, 9000, 45000)] == [5, 100, 500, 2000, 10000]
    assert parse_month("2026-11") == (2026, 11)
    assert parse_month("11/2026") == (2026, 11)      # one parser with ISSQN's (issue 22 point 3)
    with pytest.raises(ValueError, match="AAAA-MM"):
        parse_month("2026/11")
