"""The vehicle (Art. 2, Art. 8 §1 I and §3 IV, Art. 15) and the valid-until date of an authorization."""
from dataclasses import replace
from datetime import date

import pytest

from desktop.domain import (
    OwnershipMode,
    ValidityLimit,
    VehicleFacts,
    authorization_valid_until,
    explain_valid_until,
    individual_lessor_problem,
    vehicle_last_service_day,
    vehicle_problems,
)

D = date
GOOD = VehicleFacts(doors=4, seats=5, air_conditioning=True, manufacture_year=2020,
                    municipality="Chapada dos Guimarães", uf="MT")
ON = D(2026, 6, 1)


def test_art2_a_compliant_vehicle_has_no_problems():
    assert vehicle_problems(GOOD, ON) == []


@pytest.mark.parametrize("year, on, refused", [
    pytest.param(2016, D(2026, 12, 31), False, id="art2-par2-2016-serves-through-31-12-2026"),
    pytest.param(2016, D(2027, 1, 1), True, id="art2-par2-2016-refused-on-01-01-2027"),
    pytest.param(2016, D(2026, 1, 1), False, id="art2-par2-age-does-not-change-during-the-year"),
    pytest.param(2017, D(2027, 1, 1), False, id="art2-par1-2017-serves-in-2027"),
    pytest.param(2010, D(2026, 6, 1), True, id="art2-par1-16-years-old"),
])
def test_art2_par1_par2_vehicle_age_ends_on_31_december(year, on, refused):
    problems = vehicle_problems(replace(GOOD, manufacture_year=year), on)
    assert [p.field for p in problems] == (["manufacture_year"] if refused else [])
    if refused:
        assert problems[0].article == "Art. 2, §§1-2"
        assert f"31/12/{year + 10}" in problems[0].message


def test_art2_manufacture_year_in_the_future_is_refused():
    [problem] = vehicle_problems(replace(GOOD, manufacture_year=2027), D(2026, 12, 31))
    assert problem.field == "manufacture_year" and "posterior" in problem.message


@pytest.mark.parametrize("year, expected", [
    pytest.param(2016, D(2026, 12, 31), id="art2-par2-2016"),
    pytest.param(2020, D(2030, 12, 31), id="art2-par2-2020"),
])
def test_art2_par2_last_service_day(year, expected):
    assert vehicle_last_service_day(year) == expected


@pytest.mark.parametrize("change, field, article", [
    pytest.param({"seats": 8}, "seats", "Art. 2, caput", id="art2-caput-8-persons-refused"),
    pytest.param({"doors": 2}, "doors", "Art. 2, §1", id="art2-par1-2-doors-refused"),
    pytest.param({"doors": 3}, "doors", "Art. 2, §1", id="art2-par1-3-doors-refused"),
    pytest.param({"air_conditioning": False}, "air_conditioning", "Art. 2, §1; Art. 15, parágrafo único, V",
                 id="art2-par1-no-air-conditioning"),
    pytest.param({"municipality": "Cuiabá"}, "municipality", "Art. 8, §1, I; Art. 15, parágrafo único, VIII",
                 id="art8-par1-i-registered-in-cuiaba"),
    pytest.param({"uf": "GO"}, "uf", "Art. 8, §1, I; Art. 15, parágrafo único, VIII",
                 id="art15-viii-registered-in-another-state"),
    pytest.param({"seats": 1}, "seats", "", id="seats-must-be-informed"),
])
def test_art2_each_requirement_refuses_alone(change, field, article):
    [problem] = vehicle_problems(replace(GOOD, **change), ON)
    assert (problem.field, problem.article) == (field, article)
    assert problem.message


@pytest.mark.parametrize("change", [
    pytest.param({"seats": 7}, id="art2-caput-7-persons-including-driver"),
    pytest.param({"seats": 2}, id="art2-caput-2-persons"),
    pytest.param({"doors": 5}, id="art2-par1-hatchback-5-doors"),
    pytest.param({"municipality": "CHAPADA DOS GUIMARAES"}, id="art8-par1-i-crlv-upper-case-without-accents"),
    pytest.param({"municipality": "  chapada  dos guimarães "}, id="art8-par1-i-extra-spaces"),
    pytest.param({"uf": "mt"}, id="art8-par1-i-uf-lower-case"),
])
def test_art2_accepted_variants(change):
    assert vehicle_problems(replace(GOOD, **change), ON) == []


def test_art2_all_problems_at_once():
    bad = VehicleFacts(doors=2, seats=9, air_conditioning=False, manufacture_year=2000, municipality="Cuiabá",
                       uf="GO")
    fields = [p.field for p in vehicle_problems(bad, ON)]
    assert fields == ["seats", "doors", "air_conditioning", "manufacture_year", "municipality", "uf"]


def test_art8_par1_i_other_home_municipality():
    facts = replace(GOOD, municipality="Cuiabá")
    assert vehicle_problems(facts, ON, home_municipality="Cuiabá", home_uf="MT") == []


@pytest.mark.parametrize("fee_paid_on, year, expected, limit", [
    pytest.param(D(2026, 3, 10), 2020, D(2027, 3, 10), ValidityLimit.TERM, id="art3-par1-12-months"),
    pytest.param(D(2028, 2, 29), 2020, D(2029, 3, 1), ValidityLimit.TERM, id="art3-par1-29-february"),
    pytest.param(D(2026, 3, 10), 2016, D(2026, 12, 31), ValidityLimit.VEHICLE_AGE,
                 id="art2-par2-vehicle-age-limits"),
    pytest.param(D(2026, 1, 1), 2016, D(2026, 12, 31), ValidityLimit.VEHICLE_AGE,
                 id="art2-par2-vehicle-age-one-day-earlier"),
    pytest.param(D(2025, 12, 31), 2016, D(2026, 12, 31), ValidityLimit.TERM, id="art3-par1-both-the-same-day"),
])
def test_art3_par1_valid_until_is_the_earlier_of_term_and_vehicle_age(fee_paid_on, year, expected, limit):
    assert authorization_valid_until(fee_paid_on, year) == expected
    explained = explain_valid_until(fee_paid_on, year)
    assert (explained.valid_until, explained.limited_by) == (expected, limit)
    assert explained.article == limit.article
    assert expected.strftime("%d/%m/%Y") in explained.reason
    assert ("idade máxima" in explained.reason) is (limit is ValidityLimit.VEHICLE_AGE)


def test_art3_par1_shorter_term_and_limit_of_12_months():
    assert authorization_valid_until(D(2026, 3, 10), 2020, months=6) == D(2026, 9, 10)
    with pytest.raises(ValueError):
        authorization_valid_until(D(2026, 3, 10), 2020, months=13)
    assert ValidityLimit.VEHICLE_AGE.label == "idade máxima do veículo"


@pytest.mark.parametrize("already, refused", [
    pytest.param(0, False, id="art8-par3-iv-first-vehicle"),
    pytest.param(2, False, id="art8-par3-iv-third-vehicle"),
    pytest.param(3, True, id="art8-par3-iv-fourth-vehicle-refused"),
])
def test_art8_par3_iv_individual_lessor_at_most_3_vehicles(already, refused):
    problem = individual_lessor_problem(already)
    assert (problem is not None) is refused
    if refused:
        assert problem.article == "Art. 8, §3, IV"


def test_art8_par3_ownership_modes_are_labelled():
    assert [m.article for m in OwnershipMode] == ["Art. 8, §3, I", "Art. 8, §3, II", "Art. 8, §3, III",
                                                  "Art. 8, §3, IV"]
    assert OwnershipMode.INDIVIDUAL_LEASE.label == "Locado de pessoa física"
