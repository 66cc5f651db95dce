"""Severities and fines (Art. 25), the infraction catalogue (Art. 26-27) and recurrence (SPEC §3)."""
from datetime import date
from decimal import Decimal

import pytest

from desktop.domain import (
    ART13_DUTIES,
    CATALOG,
    AdministrativeMeasure,
    InfractionNotInForce,
    InfractionType,
    NotificationForm,
    Penalty,
    Prior,
    Severity,
    UnknownInfractionCode,
    assess,
    fine_in_reais,
    lookup,
    reais_to_upfm,
    recurrence_window_start,
)

D = date
ON = D(2026, 5, 10)


@pytest.mark.parametrize("severity, upfm, label, article", [
    pytest.param(Severity.LEVE, 10, "Leve", "Art. 25, I", id="art25-i-leve-10"),
    pytest.param(Severity.MEDIA, 20, "Média", "Art. 25, II", id="art25-ii-media-20"),
    pytest.param(Severity.GRAVE, 30, "Grave", "Art. 25, III", id="art25-iii-grave-30"),
    pytest.param(Severity.GRAVISSIMA, 40, "Gravíssima", "Art. 25, IV", id="art25-iv-gravissima-40"),
])
def test_art25_severity_upfm(severity, upfm, label, article):
    assert (severity.upfm, severity.label, severity.article) == (upfm, label, article)
    assert Severity.parse(label) is severity
    assert Severity.parse(severity.value) is severity


def test_art25_unknown_severity():
    with pytest.raises(ValueError):
        Severity.parse("levíssima")


@pytest.mark.parametrize("upfm, value, expected", [
    pytest.param(40, Decimal("4.38"), Decimal("175.20"), id="art25-exact"),
    pytest.param(10, Decimal("3.3345"), Decimal("33.35"), id="half-up-not-half-even"),
    pytest.param(10, Decimal("0.0125"), Decimal("0.13"), id="half-up-at-the-cent"),
    pytest.param(1, Decimal("2.675"), Decimal("2.68"), id="no-float-error"),
    pytest.param(30, Decimal("3.33333"), Decimal("100.00"), id="rounds-down-below-half"),
    pytest.param(Decimal("12.5"), Decimal("10.01"), Decimal("125.13"), id="fractional-upfm"),
])
def test_art25_fine_in_reais_half_up_to_the_cent(upfm, value, expected):
    result = fine_in_reais(upfm, value)
    assert result == expected
    assert result.as_tuple().exponent == -2


def test_money_refuses_floats():
    with pytest.raises(TypeError):
        fine_in_reais(10, 4.38)
    with pytest.raises(TypeError):
        reais_to_upfm(10.0, Decimal("4.38"))


def test_payment_in_reais_converts_back_to_upfm():
    assert reais_to_upfm(fine_in_reais(40, Decimal("4.38")), Decimal("4.38")) == Decimal("40.0000")
    assert reais_to_upfm(Decimal("100.00"), Decimal("3")) == Decimal("33.3333")
    with pytest.raises(ValueError):
        reais_to_upfm(Decimal("1"), Decimal("0"))


@pytest.mark.parametrize("code, article, severity, recurrence_text", [
    pytest.param("ART26-I", "Art. 26, I", Severity.LEVE, "—", id="art26-i"),
    pytest.param("ART26-II", "Art. 26, II", Severity.LEVE, "—", id="art26-ii"),
    pytest.param("ART26-III", "Art. 26, III", Severity.MEDIA, "—", id="art26-iii"),
    pytest.param("ART26-IV", "Art. 26, IV", Severity.GRAVE, "Multa e suspensão da autorização por 30 dias",
                 id="art26-iv"),
    pytest.param("ART26-V", "Art. 26, V", Severity.GRAVISSIMA, "Multa e cassação da autorização", id="art26-v"),
    pytest.param("ART26-VI", "Art. 26, VI", Severity.GRAVE, "—", id="art26-vi"),
    pytest.param("ART27", "Art. 27", Severity.GRAVISSIMA, "Multa e apreensão do veículo até a regularização",
                 id="art27"),
])
def test_spec3_catalogue_table(code, article, severity, recurrence_text):
    entry = CATALOG[code]
    assert (entry.code, entry.article, entry.severity, entry.upfm) == (code, article, severity, severity.upfm)
    assert entry.description and entry.legal_text
    assert entry.recurrence_text == recurrence_text


def test_spec3_catalogue_has_exactly_the_law_codes():
    assert list(CATALOG) == ["ART26-I", "ART26-II", "ART26-III", "ART26-IV", "ART26-V", "ART26-VI", "ART27"]
    assert CATALOG["ART26-III"].needs_art13_item
    assert len(ART13_DUTIES) == 23 and "7 (sete) dias" in ART13_DUTIES["XVIII"]
    assert CATALOG["ART26-V"].penalty_text == "Multa e suspensão da autorização por 12 meses"


# (code, prior?) -> (upfm, suspension_days, suspension_months, cassation, seizure, impediment, extra article)
CASES = [
    ("ART26-I", False, (10, 0, 0, False, False, False), ()),
    ("ART26-I", True, (10, 0, 0, False, False, False), ()),
    ("ART26-II", False, (10, 0, 0, False, False, True), ("Art. 16, §2",)),
    ("ART26-II", True, (10, 0, 0, False, False, True), ("Art. 16, §2",)),
    ("ART26-III", False, (20, 0, 0, False, False, False), ()),
    ("ART26-III", True, (20, 0, 0, False, False, False), ()),
    ("ART26-IV", False, (30, 0, 0, False, False, False), ()),
    ("ART26-IV", True, (30, 30, 0, False, False, False), ("Art. 26, §1",)),
    ("ART26-V", False, (40, 0, 12, False, False, False), ("Art. 24, parágrafo único",)),
    ("ART26-V", True, (40, 0, 12, True, False, False), ("Art. 24, parágrafo único", "Art. 26, §2")),
    ("ART26-VI", False, (30, 0, 12, False, False, False), ("Art. 24, parágrafo único",)),
    ("ART26-VI", True, (30, 0, 12, False, False, False), ("Art. 24, parágrafo único",)),
    ("ART27", False, (40, 0, 0, False, False, False), ()),
    ("ART27", True, (40, 0, 0, False, True, False), ("Art. 27, parágrafo único", "Art. 24, II, d")),
]


@pytest.mark.parametrize("code, recurrent, expected, extra_articles", [
    pytest.param(*case, id=f"{case[0].lower()}-{'recurrence' if case[1] else 'first'}") for case in CASES
])
def test_art26_art27_penalties_with_and_without_recurrence(code, recurrent, expected, extra_articles):
    prior = [Prior(code, D(2025, 11, 1))] if recurrent else []
    a = assess(code, ON, prior)
    assert (a.upfm, a.suspension_days, a.suspension_months, a.cassation, a.vehicle_seizure,
            a.impediment) == expected
    assert a.recurrence is recurrent
    assert a.code == code and a.severity is CATALOG[code].severity
    entry = CATALOG[code]
    assert a.articles == (entry.article, entry.severity.article, *extra_articles)


def test_art26_par1_recurrence_of_street_boarding_suspends_30_days_not_12_months():
    # Art. 24, parágrafo único says 12 months; Art. 26 §1 is the specific rule and wins (SPEC §3).
    a = assess("ART26-IV", ON, [Prior("ART26-IV", D(2026, 1, 5))])
    assert (a.suspension_days, a.suspension_months) == (30, 0)
    assert "Art. 24, parágrafo único" not in a.articles
    assert a.penalty_text == "Multa de 30 UPFM e suspensão da autorização por 30 dias"


@pytest.mark.parametrize("on, prior_on, recurrent", [
    pytest.param(D(2026, 5, 10), D(2025, 5, 10), True, id="exactly-at-the-window-edge"),
    pytest.param(D(2026, 5, 10), D(2025, 5, 9), False, id="one-day-outside-the-window"),
    pytest.param(D(2026, 5, 10), D(2026, 5, 9), True, id="the-day-before"),
    pytest.param(D(2026, 5, 10), D(2026, 5, 10), False, id="the-same-day-is-not-before"),
    pytest.param(D(2026, 5, 10), D(2026, 6, 1), False, id="a-later-infraction-is-not-a-prior"),
    pytest.param(D(2028, 2, 29), D(2027, 2, 28), True, id="29-february-window-clamped-edge"),
    pytest.param(D(2028, 2, 29), D(2027, 2, 27), False, id="29-february-window-clamped-outside"),
])
def test_spec3_recurrence_window_of_12_months(on, prior_on, recurrent):
    for code in CATALOG:
        assert assess(code, on, [Prior(code, prior_on)]).recurrence is recurrent


def test_spec3_recurrence_needs_the_same_code():
    a = assess("ART26-IV", ON, [Prior("ART26-VI", D(2026, 1, 1)), Prior("ART27", D(2026, 2, 1))])
    assert not a.recurrence and a.suspension_days == 0


def test_spec3_recurrence_window_is_a_parameter():
    prior = [Prior("ART27", D(2024, 6, 1))]
    assert not assess("ART27", ON, prior).recurrence
    a = assess("ART27", ON, prior, window_months=24)
    assert a.recurrence and a.vehicle_seizure and a.window_start == D(2024, 5, 10)
    assert a.recurrent_priors == (prior[0],)
    assert recurrence_window_start(D(2026, 3, 31), 1) == D(2026, 2, 28)


def test_spec3_codes_compare_without_case_or_spaces():
    a = assess(" art26-iv ", ON, [Prior("Art26-IV", D(2026, 1, 1))])
    assert a.code == "ART26-IV" and a.recurrence


def test_unknown_code_is_a_value_error():
    with pytest.raises(UnknownInfractionCode) as info:
        assess("ART99", ON)
    assert isinstance(info.value, ValueError)
    assert "ART99" in str(info.value)


DECREE = InfractionType(
    code="DEC-01", article="Decreto nº 1/2026, art. 5", description="Não exibir o adesivo (Art. 14)",
    severity=Severity.MEDIA, recurrence_suspension_months=12, valid_from=D(2026, 1, 1),
)


def test_art29_decree_codes_are_catalogue_entries_the_gestor_adds():
    a = assess("DEC-01", ON, catalog={"DEC-01": DECREE})
    assert (a.code, a.upfm, a.suspension_months, a.recurrence) == ("DEC-01", 20, 0, False)
    b = assess("dec-01", ON, [Prior("DEC-01", D(2026, 2, 1))], catalog={"DEC-01": DECREE})
    assert b.recurrence and b.suspension_months == 12
    # the law's codes stay available next to the extra ones
    assert assess("ART26-I", ON, catalog={"DEC-01": DECREE}).upfm == 10
    assert lookup("DEC-01", {"DEC-01": DECREE}) is DECREE
    with pytest.raises(UnknownInfractionCode):
        assess("DEC-01", ON)


def test_art29_decree_code_not_in_force_before_its_date():
    with pytest.raises(InfractionNotInForce) as info:
        assess("DEC-01", D(2025, 12, 31), catalog={"DEC-01": DECREE})
    assert "31/12/2025" in str(info.value)


def test_assessment_fine_in_reais_uses_the_upfm_value():
    assert assess("ART26-V", ON).fine_in_reais(Decimal("4.38")) == Decimal("175.20")


def test_art24_and_art22_lists_are_labelled():
    assert [p.article for p in Penalty] == [f"Art. 24, I, {c}" for c in "abcdef"]
    assert [m.article for m in AdministrativeMeasure] == [f"Art. 24, II, {c}" for c in "abcd"]
    assert [f.article for f in NotificationForm] == [f"Art. 22, §1, {r}" for r in
                                                     ("I", "II", "III", "IV", "V", "VI")]
    assert Penalty.CASSATION.label == "Cassação da autorização"


def test_art29_a_replaced_code_uses_the_version_in_force_on_the_infraction_date():
    from dataclasses import replace

    old = replace(DECREE, valid_from=D(2026, 1, 1), valid_until=D(2026, 6, 30))
    new = replace(DECREE, severity=Severity.GRAVE, valid_from=D(2026, 7, 1), valid_until=None)
    catalog = {"DEC-01": [old, new]}
    assert assess("DEC-01", D(2026, 6, 30), catalog=catalog).upfm == 20
    assert assess("DEC-01", D(2026, 7, 1), catalog=catalog).upfm == 30
    with pytest.raises(InfractionNotInForce):
        assess("DEC-01", D(2025, 12, 1), catalog=catalog)


def test_assessment_round_trips_through_json():
    import json

    from desktop.domain import Assessment

    a = assess("ART26-V", ON, [Prior("ART26-V", D(2025, 12, 1))])
    data = json.loads(json.dumps(a.to_dict()))
    assert data["severity"] == "gravissima" and data["cassation"] is True
    assert Assessment.from_dict(data) == a


# SPEC §3 (Recurrence): "The prior counts only if its decision was already final on the new infraction's date"
# (issue 24 item 5: a prior in defense on the new date, final later, made the new auto a 30-day suspension of
# Art. 26, §1 with its flag false).
@pytest.mark.parametrize("code, prior_on, prior_final_on, recurrent, suspension_days", [
    pytest.param("ART26-IV", D(2026, 3, 1), D(2026, 4, 1), True, 30, id="art26-par1-final-before-the-new-fact"),
    pytest.param("ART26-IV", D(2026, 3, 1), ON, True, 30, id="art26-par1-final-on-the-new-day"),
    pytest.param("ART26-IV", D(2026, 3, 1), D(2026, 6, 1), False, 0, id="art26-par1-still-in-defense-that-day"),
    pytest.param("ART26-IV", D(2026, 3, 1), None, True, 30, id="art26-par1-final-day-unknown-counts"),
])
def test_spec3_art26_par1_prior_counts_only_if_final_on_the_new_infraction_date(code, prior_on, prior_final_on,
                                                                               recurrent, suspension_days):
    a = assess(code, ON, [Prior(code, prior_on, prior_final_on)])
    assert a.recurrence is recurrent
    assert a.suspension_days == suspension_days          # the flag and the penalty agree
    assert ("Art. 26, §1" in a.articles) is recurrent


def test_spec3_art26_par2_cassation_needs_the_prior_aggression_final_on_the_new_date():
    not_yet = assess("ART26-V", ON, [Prior("ART26-V", D(2026, 2, 1), D(2026, 5, 11))])
    assert not not_yet.recurrence and not not_yet.cassation
    final = assess("ART26-V", ON, [Prior("ART26-V", D(2026, 2, 1), D(2026, 3, 20))])
    assert final.recurrence and final.cassation
