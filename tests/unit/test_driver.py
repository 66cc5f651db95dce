"""The driver's checklist: Art. 12, I-IX and §1; Art. 8, §1, II. Every item missing or expired blocks approval."""
from dataclasses import replace
from datetime import date

import pytest

from desktop.domain import (
    CHECKLIST_BY_KEY,
    DRIVER_CHECKLIST,
    DriverFacts,
    Evidence,
    ItemKind,
    checklist_status,
    driver_problems,
    gravissima_window,
    is_accepted_cnh_category,
)

D = date
ON = D(2026, 6, 1)
PROTOCOL = D(2026, 5, 20)
FUTURE = D(2027, 1, 1)

DOCUMENTS = {
    "cnh": Evidence(True, FUTURE),
    "commitment": Evidence(True),
    "inss": Evidence(True),
    "criminal_record": Evidence(True, FUTURE),
    "medical_certificate": Evidence(True),
    "residence_proof": Evidence(True),
    "app_insurance": Evidence(True, FUTURE),
    "tax_clearance": Evidence(True, FUTURE),
}
GOOD = DriverFacts(protocol_date=PROTOCOL, documents=DOCUMENTS, cnh_category="B", cnh_ear=True,
                   residence_municipality="Chapada dos Guimarães")

DOCUMENT_ITEMS = [i for i in DRIVER_CHECKLIST if i.kind is ItemKind.DOCUMENT]
EXPIRING_ITEMS = [i for i in DOCUMENT_ITEMS if i.has_expiry]


def without(key):
    return replace(GOOD, documents={k: v for k, v in DOCUMENTS.items() if k != key})


def with_doc(key, evidence):
    return replace(GOOD, documents={**DOCUMENTS, key: evidence})


def test_art12_complete_driver_has_no_problems():
    assert driver_problems(GOOD, ON) == []
    assert all(problems == [] for _, problems in checklist_status(GOOD, ON))


def test_art12_checklist_lists_every_item_of_the_law_in_order():
    assert [i.article for i in DRIVER_CHECKLIST] == [
        "Art. 12, I", "Art. 12, II", "Art. 12, III", "Art. 12, IV", "Art. 12, V", "Art. 12, VI", "Art. 12, VII",
        "Art. 12, VIII", "Art. 12, IX", "Art. 12, §1", "Art. 8, §1, II"]
    assert {i.key for i in EXPIRING_ITEMS} == {"cnh", "criminal_record", "app_insurance", "tax_clearance"}
    assert all(i.label for i in DRIVER_CHECKLIST)
    assert CHECKLIST_BY_KEY["criminal_record"].has_expiry


@pytest.mark.parametrize("item", [pytest.param(i, id=f"{i.article}-{i.key}-missing") for i in DOCUMENT_ITEMS])
def test_art12_each_missing_document_blocks_approval(item):
    [problem] = driver_problems(without(item.key), ON)
    assert (problem.field, problem.article) == (item.key, item.article)
    assert problem.message.startswith("Falta")


@pytest.mark.parametrize("item", [pytest.param(i, id=f"{i.article}-{i.key}-not-presented")
                                  for i in DOCUMENT_ITEMS])
def test_art12_a_line_marked_not_presented_counts_as_missing(item):
    problems = driver_problems(with_doc(item.key, Evidence(present=False)), ON)
    assert [(p.field, p.article) for p in problems] == [(item.key, item.article)]


@pytest.mark.parametrize("item", [pytest.param(i, id=f"{i.article}-{i.key}-expired") for i in EXPIRING_ITEMS])
def test_art12_each_expired_document_blocks_approval(item):
    [problem] = driver_problems(with_doc(item.key, Evidence(True, D(2026, 5, 31))), ON)
    assert (problem.field, problem.article) == (item.key, item.article)
    assert "Vencido em 31/05/2026" in problem.message


@pytest.mark.parametrize("item", [pytest.param(i, id=f"{i.article}-{i.key}-valid-through-today")
                                  for i in EXPIRING_ITEMS])
def test_art12_a_document_valid_through_the_day_is_accepted(item):
    assert driver_problems(with_doc(item.key, Evidence(True, ON)), ON) == []


@pytest.mark.parametrize("item", [pytest.param(i, id=f"{i.article}-{i.key}-no-validity")
                                  for i in EXPIRING_ITEMS])
def test_art12_iv_validity_must_be_informed(item):
    [problem] = driver_problems(with_doc(item.key, Evidence(True, None)), ON)
    assert problem.field == item.key and "validade" in problem.message


@pytest.mark.parametrize("category, accepted", [
    pytest.param("B", True, id="art12-i-category-b"),
    pytest.param("C", True, id="art12-i-category-c"),
    pytest.param("D", True, id="art12-i-category-d"),
    pytest.param("E", True, id="art12-i-category-e"),
    pytest.param("AB", True, id="art12-i-category-ab"),
    pytest.param("AC", True, id="art12-i-category-ac"),
    pytest.param("AD", True, id="art12-i-category-ad"),
    pytest.param("AE", True, id="art12-i-category-ae"),
    pytest.param(" ab ", True, id="art12-i-category-lower-case"),
    pytest.param("A", False, id="art12-i-category-a-motorcycle-refused"),
    pytest.param("ACC", False, id="art12-i-category-acc-refused"),
    pytest.param("X", False, id="art12-i-unknown-category-refused"),
])
def test_art12_i_cnh_category_b_or_higher(category, accepted):
    assert is_accepted_cnh_category(category) is accepted
    problems = driver_problems(replace(GOOD, cnh_category=category), ON)
    assert [(p.field, p.article) for p in problems] == ([] if accepted else [("cnh_category", "Art. 12, I")])


def test_art12_i_cnh_category_must_be_informed():
    [problem] = driver_problems(replace(GOOD, cnh_category=""), ON)
    assert problem.field == "cnh_category"


def test_art12_i_cnh_without_ear_remark_is_refused():
    [problem] = driver_problems(replace(GOOD, cnh_ear=False), ON)
    assert (problem.field, problem.article) == ("cnh_ear", "Art. 12, I")
    assert "exerce atividade remunerada" in problem.message


def test_art12_vi_residence_outside_the_municipality():
    [problem] = driver_problems(replace(GOOD, residence_municipality="Cuiabá"), ON)
    assert (problem.field, problem.article) == ("residence_proof", "Art. 12, VI")
    assert driver_problems(replace(GOOD, residence_municipality="CHAPADA DOS GUIMARAES"), ON) == []
    assert driver_problems(replace(GOOD, residence_municipality=None), ON) == []


@pytest.mark.parametrize("infraction_on, refused", [
    pytest.param(D(2026, 1, 10), True, id="art12-vii-inside-12-months"),
    pytest.param(D(2025, 5, 20), True, id="art12-vii-exactly-12-months-before-protocol"),
    pytest.param(D(2025, 5, 19), False, id="art12-vii-one-day-outside"),
    pytest.param(D(2026, 5, 20), True, id="art12-vii-on-the-protocol-date"),
    pytest.param(D(2026, 5, 25), False, id="art12-vii-after-the-protocol-not-counted"),
])
def test_art12_vii_no_gravissima_in_the_12_months_before_the_protocol(infraction_on, refused):
    problems = driver_problems(replace(GOOD, gravissima_infractions=(infraction_on,)), ON)
    assert [(p.field, p.article) for p in problems] == ([("no_gravissima", "Art. 12, VII")] if refused else [])
    if refused:
        assert infraction_on.strftime("%d/%m/%Y") in problems[0].message


def test_art12_vii_window_clamps_29_february():
    assert gravissima_window(D(2028, 2, 29)) == (D(2027, 2, 28), D(2028, 2, 29))


@pytest.mark.parametrize("change, field, article", [
    pytest.param({"disqualifying_conviction": True}, "no_conviction", "Art. 12, VIII", id="art12-viii-conviction"),
    pytest.param({"traffic_crime_conviction": True}, "no_traffic_crime", "Art. 12, §1",
                 id="art12-par1-ctb-303-306"),
])
def test_art12_viii_and_par1_convictions(change, field, article):
    [problem] = driver_problems(replace(GOOD, **change), ON)
    assert (problem.field, problem.article) == (field, article)


def test_art12_every_problem_at_once_and_grouped_by_line():
    facts = DriverFacts(protocol_date=PROTOCOL, documents={"cnh": Evidence(True, D(2020, 1, 1))}, cnh_category="A",
                        gravissima_infractions=(D(2026, 1, 1),), disqualifying_conviction=True,
                        traffic_crime_conviction=True)
    problems = driver_problems(facts, ON)
    articles = {p.article for p in problems}
    assert {i.article for i in DRIVER_CHECKLIST} <= articles
    status = dict((item.key, probs) for item, probs in checklist_status(facts, ON))
    assert {p.field for p in status["cnh"]} == {"cnh", "cnh_category", "cnh_ear"}
    assert all(status[key] for key in status)


@pytest.mark.parametrize("has_photo, required, refused", [
    (False, True, True),     # the desk registers a driver: the credential (Art. 13, I) needs the photo
    (True, True, False),
    (False, False, False),   # an import or the demo: refused later, at the credential
    (True, False, False),
])
def test_art13_I_the_desk_registers_a_driver_only_with_the_photo_the_credential_carries(has_photo, required, refused):
    from desktop.domain.driver import PHOTO_ARTICLE, photo_problem

    problem = photo_problem(has_photo, required)
    assert (problem is not None) is refused
    if refused:
        assert problem.field == "photo" and problem.article == PHOTO_ARTICLE == "Art. 13, I"
        assert "pessoal e intransferível" in problem.message
