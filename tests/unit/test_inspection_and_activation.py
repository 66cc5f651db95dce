"""Inspection (Art. 9, 15, 16), activation of an authorization (Art. 9, 10, 15) and suspensions' ends."""
from datetime import date

import pytest

from desktop.domain import (
    INSPECTION_CHECKLIST,
    BusinessCalendar,
    InspectionKind,
    Prior,
    activation_problems,
    assess,
    inspection_problems,
    platform_list_due,
    presentation_deadline,
    regularization_deadline,
)

D = date
PLAIN = BusinessCalendar()
ALL_PASS = {i.key: True for i in INSPECTION_CHECKLIST if i.key != "municipal_sticker"}


def test_spec3_inspection_checklist_cites_every_article():
    cited = {part for item in INSPECTION_CHECKLIST for part in item.article.split("; ")}
    # Art. 15 §ún. VI ("aprovação em vistoria") is the inspection itself, not one of its lines
    expected = {f"Art. 15, parágrafo único, {r}" for r in ("I", "II", "III", "IV", "V", "VII", "VIII")}
    expected |= {"Art. 2, §1", "Art. 2, caput", "Art. 13, XIII", "Art. 13, XIV", "Art. 13, XV", "Art. 14"}
    assert cited == expected
    assert len({i.key for i in INSPECTION_CHECKLIST}) == len(INSPECTION_CHECKLIST)


def test_art16_all_lines_passed_approves():
    assert inspection_problems(ALL_PASS) == []


@pytest.mark.parametrize("item", [pytest.param(i, id=f"{i.article}-{i.key}") for i in INSPECTION_CHECKLIST
                                  if i.key != "municipal_sticker"])
def test_art16_par2_each_failed_line_fails_the_inspection(item):
    [problem] = inspection_problems({**ALL_PASS, item.key: False})
    assert (problem.field, problem.article) == (item.key, item.article)
    assert problem.message.startswith("Reprovado")
    [unchecked] = inspection_problems({k: v for k, v in ALL_PASS.items() if k != item.key})
    assert unchecked.field == item.key and "não verificado" in unchecked.message


def test_art14_sticker_checked_only_when_recorded():
    assert inspection_problems({**ALL_PASS, "municipal_sticker": True}) == []
    [problem] = inspection_problems({**ALL_PASS, "municipal_sticker": False})
    assert problem.article == "Art. 14"
    assert inspection_problems({**ALL_PASS, "wings": True})[0].field == "wings"


@pytest.mark.parametrize("kind, label, article", [
    pytest.param(InspectionKind.INITIAL, "Inicial", "Art. 9", id="art9-initial"),
    pytest.param(InspectionKind.ANNUAL, "Anual", "Art. 16, caput", id="art16-annual"),
    pytest.param(InspectionKind.EXTRAORDINARY, "Extraordinária", "Art. 16, §1", id="art16-par1-extraordinary"),
    pytest.param(InspectionKind.SUBSTITUTION, "Substituição de veículo", "Art. 8, §2", id="art8-par2-substitution"),
    pytest.param(InspectionKind.REINSPECTION, "Revistoria", "Art. 16, §2", id="art16-par2-reinspection"),
])
def test_spec3_inspection_kinds(kind, label, article):
    assert (kind.label, kind.article) == (label, article)


@pytest.mark.parametrize("start, fn, expected", [
    pytest.param(D(2026, 9, 2), presentation_deadline, D(2026, 9, 8), id="art9-5-days-ends-on-07-09"),
    pytest.param(D(2026, 3, 4), presentation_deadline, D(2026, 3, 9), id="art9-5-days"),
    pytest.param(D(2026, 3, 2), regularization_deadline, D(2026, 3, 9), id="art16-par2-5-days-ends-saturday"),
    pytest.param(D(2026, 10, 28), regularization_deadline, D(2026, 11, 3), id="art16-par2-ends-on-finados"),
    pytest.param(D(2026, 1, 5), platform_list_due, D(2026, 3, 6), id="art5-viii-60-days"),
])
def test_terms_of_art9_art16_art5(start, fn, expected):
    assert fn(start, PLAIN) == expected


@pytest.mark.parametrize("fee, inspection, waived, year, fields", [
    pytest.param(D(2026, 3, 1), D(2026, 3, 5), False, 2020, [], id="fee-then-inspection"),
    pytest.param(D(2026, 3, 5), D(2026, 3, 1), False, 2020, [], id="inspection-then-fee"),
    pytest.param(D(2026, 3, 1), None, True, 2020, [], id="art9-par1-inspection-waived"),
    pytest.param(None, D(2026, 3, 1), False, 2020, ["fee_paid_on"], id="art10-no-fee-no-activation"),
    pytest.param(D(2026, 3, 1), None, False, 2020, ["inspection"], id="art15-vi-no-inspection"),
    pytest.param(None, None, False, 2020, ["fee_paid_on", "inspection"], id="neither"),
    pytest.param(D(2026, 3, 20), D(2026, 3, 1), False, 2020, ["fee_paid_on"], id="fee-in-the-future"),
    pytest.param(D(2026, 3, 1), D(2026, 3, 1), False, 2015, ["manufacture_year"], id="art2-par2-too-old"),
])
def test_spec3_activation_needs_fee_and_inspection_in_either_order(fee, inspection, waived, year, fields):
    problems = activation_problems(D(2026, 3, 10), fee, inspection, waived, year)
    assert [p.field for p in problems] == fields
    assert all(p.article for p in problems)


@pytest.mark.parametrize("code, prior, start, end", [
    pytest.param("ART26-IV", True, D(2026, 6, 1), D(2026, 7, 1), id="art26-par1-30-days"),
    pytest.param("ART26-V", False, D(2026, 6, 1), D(2027, 6, 1), id="art24-par-unico-12-months"),
    pytest.param("ART26-VI", False, D(2028, 2, 29), D(2029, 3, 1), id="art26-vi-12-months-from-29-february"),
    pytest.param("ART26-I", False, D(2026, 6, 1), None, id="art26-i-no-suspension"),
])
def test_art24_suspension_ends(code, prior, start, end):
    priors = [Prior(code, D(2026, 1, 1))] if prior else []
    assessment = assess(code, D(2026, 5, 10), priors)
    assert assessment.suspends is (end is not None)
    assert assessment.suspension_end(start) == end
