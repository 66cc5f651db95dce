"""What a decision may apply (issue 12 items 1-2), table-driven from the law's words: only the penalties the
catalogue names for the code (Art. 26 V b, VI b), the recurrence rules (Art. 26 §§1-2, Art. 27 parágrafo único)
or a decree code; a partial decision requalifies to a catalogue code whose Art. 25 amount applies; a surplus paid
is a refund, never a credit."""
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from desktop.domain.ledger import EntryKind, LedgerEntry, entry_problems, refund_due
from desktop.domain.penalties import (
    CATALOG,
    VEHICLE_SEIZURE,
    InfractionType,
    Penalty,
    Prior,
    Severity,
    decision_options,
    penalty_choice_problems,
    penalty_options,
    requalification_problems,
)

ON = date(2026, 5, 10)
BEFORE = date(2026, 1, 15)   # inside the 12-month window
LONG_AGO = date(2024, 1, 15)  # outside it
S, C, R = Penalty.SUSPENSION.value, Penalty.CASSATION.value, Penalty.REVOCATION.value


def opts(code, prior=()):
    return [(o.penalty, o.days, o.months, o.article) for o in decision_options(code, ON, prior)]


@pytest.mark.parametrize("code, prior, expected", [
    # Art. 26 I-III: "Penalidade: multa" — nothing beyond the fine, first time or not.
    pytest.param("ART26-I", (), [], id="art26-i-multa-only"),
    pytest.param("ART26-II", (), [], id="art26-ii-impediment-is-immediate-not-a-decision"),
    pytest.param("ART26-III", [Prior("ART26-III", BEFORE)], [], id="art26-iii-recurrence-adds-nothing"),
    # Art. 26 IV "Penalidade: multa"; §1 "Em caso de reincidência ... será suspensa pelo período de 30 dias".
    pytest.param("ART26-IV", (), [], id="art26-iv-first-time-multa-only"),
    pytest.param("ART26-IV", [Prior("ART26-IV", BEFORE)], [(S, 30, 0, "Art. 26, §1")],
                 id="art26-par1-recurrence-suspends-30-days"),
    pytest.param("ART26-IV", [Prior("ART26-IV", LONG_AGO)], [], id="art26-par1-prior-outside-window"),
    pytest.param("ART26-IV", [Prior("ART26-V", BEFORE)], [], id="art26-par1-other-code-is-no-recurrence"),
    # Art. 26 V b "multa e suspensão da autorização pelo período de 12 meses"; §2 "será cassada".
    pytest.param("ART26-V", (), [(S, 0, 12, "Art. 26, V, b; Art. 24, parágrafo único")],
                 id="art26-v-first-time-suspension-12-months-no-cassation"),
    pytest.param("ART26-V", [Prior("ART26-V", BEFORE)],
                 [(S, 0, 12, "Art. 26, V, b; Art. 24, parágrafo único"), (C, 0, 0, "Art. 26, §2")],
                 id="art26-par2-recurrence-of-v-cassation-cites-par2"),
    # Art. 26 VI b "multa e suspensão de autorização pelo período de 12 meses"; no recurrence rule.
    pytest.param("ART26-VI", (), [(S, 0, 12, "Art. 26, VI, b; Art. 24, parágrafo único")],
                 id="art26-vi-suspension-12-months"),
    pytest.param("ART26-VI", [Prior("ART26-VI", BEFORE)], [(S, 0, 12, "Art. 26, VI, b; Art. 24, parágrafo único")],
                 id="art26-vi-recurrence-no-cassation"),
    # Art. 27 "Penalidade: multa"; parágrafo único "reincidência ... multa e apreensão do veículo".
    pytest.param("ART27", (), [], id="art27-first-time-multa-only"),
    pytest.param("ART27", [Prior("ART27", BEFORE)],
                 [(VEHICLE_SEIZURE, 0, 0, "Art. 27, parágrafo único; Art. 24, II, d")],
                 id="art27-par-unico-recurrence-seizes-the-vehicle"),
])
def test_art24_art26_art27_a_decision_applies_only_what_the_catalogue_names(code, prior, expected):
    assert opts(code, prior) == expected


def test_art24_i_revocation_and_deregistration_only_where_a_decree_code_names_them():
    # issue 12 item 2: revocation, cassation and both deregistrations on a first ART26-IV are refused.
    options = decision_options("ART26-IV", ON)
    for penalty in (Penalty.REVOCATION, Penalty.CASSATION, Penalty.DRIVER_DEREGISTRATION,
                    Penalty.VEHICLE_DEREGISTRATION):
        (problem,) = penalty_choice_problems({penalty.value}, options, "ART26-IV")
        assert problem.field == "penalties" and penalty.label in problem.message
        assert "não está prevista" in problem.message
    decree = InfractionType(code="DEC-01", article="Decreto nº 10/2026, art. 5º", description="x",
                            severity=Severity.MEDIA, revocation=True, driver_deregistration=True)
    names = [(o.penalty, o.article) for o in penalty_options(decree, recurrence=False)]
    assert names == [(R, "Decreto nº 10/2026, art. 5º"),
                     (Penalty.DRIVER_DEREGISTRATION.value, "Decreto nº 10/2026, art. 5º")]
    assert penalty_choice_problems({R}, penalty_options(decree, False), "DEC-01") == []


def test_a_penalty_option_reads_in_portuguese_with_its_article():
    (option,) = decision_options("ART26-IV", ON, [Prior("ART26-IV", BEFORE)])
    assert option.text == "Suspensão da autorização por 30 dias (Art. 26, §1)"
    assert type(option).from_dict(option.to_dict()) == option


@pytest.mark.parametrize("current, new, upfm, fragment", [
    pytest.param("ART26-IV", "ART26-III", 30, None, id="art25-grave-to-media-lowers"),
    pytest.param("ART26-V", "ART26-VI", 40, None, id="art25-gravissima-to-grave"),
    pytest.param("ART26-IV", "ART26-VI", 30, None, id="art25-same-amount-other-code"),
    pytest.param("ART26-IV", "ART26-V", 30, "aumentaria a multa", id="never-raises-the-fine"),
    pytest.param("ART26-IV", "ART26-IV", 30, "código diferente", id="another-code"),
])
def test_art25_requalification_takes_the_amount_of_the_new_code(current, new, upfm, fragment):
    problems = requalification_problems(CATALOG[current], CATALOG[new], ON, Decimal(upfm))
    if fragment is None:
        assert problems == []
    else:
        assert [p.field for p in problems] == ["requalified_code"] and fragment in problems[0].message


def test_art25_requalification_to_a_code_not_in_force_on_the_infraction_date():
    closed = replace(CATALOG["ART26-III"], valid_until=date(2026, 1, 1))
    (problem,) = requalification_problems(CATALOG["ART26-IV"], closed, ON, Decimal(30))
    assert "não estava em vigor em 10/05/2026" in problem.message


@pytest.mark.parametrize("upfm, reais, expected", [
    pytest.param(Decimal("-10"), Decimal("-31.25"), (Decimal(10), Decimal("31.25")), id="credit-is-refunded"),
    pytest.param(Decimal(0), Decimal(0), None, id="settled-nothing-owed-back"),
    pytest.param(Decimal(5), Decimal("15.63"), None, id="still-owing"),
])
def test_issue12_item7_a_balance_below_zero_is_a_refund_never_a_credit(upfm, reais, expected):
    assert refund_due(upfm, reais) == expected


@pytest.mark.parametrize("kind, amount, ok", [
    (EntryKind.REFUND, Decimal(10), True), (EntryKind.REFUND, Decimal(-10), False),
    (EntryKind.REQUALIFICATION, Decimal(-10), True), (EntryKind.REQUALIFICATION, Decimal(10), False),
])
def test_refund_and_requalification_entries_have_a_sign_and_a_reason(kind, amount, ok):
    assert (entry_problems(LedgerEntry(kind, ON, amount, "motivo")) == []) is ok
    assert any(p.field == "reason" for p in entry_problems(LedgerEntry(kind, ON, amount, "")))
    assert kind.label in ("Restituição devida", "Requalificação (Art. 25)")


# issue 24 item 6: each sentence of the penalty notice comes from the case it prints.
from desktop.domain.penalties import PenaltyOption as _Option, penalty_notice_clauses  # noqa: E402


@pytest.mark.parametrize("decided, expected", [
    pytest.param((), (), id="art25-a-fine-alone-prints-no-suspension-sentence"),
    pytest.param((_Option("suspension", "Art. 26, V, b; Art. 24, parágrafo único", months=12),),
                 ("A suspensão por 12 meses implica o recolhimento da autorização e o afastamento do condutor e do "
                  "veículo pelo período fixado (Art. 26, V, b; Art. 24, parágrafo único).",),
                 id="art24-par-unico-12-months-cites-its-own-article-not-art26-par1"),
    pytest.param((_Option("suspension", "Art. 26, §1", days=30),),
                 ("A suspensão por 30 dias implica o recolhimento da autorização e o afastamento do condutor e do "
                  "veículo pelo período fixado (Art. 26, §1).",), id="art26-par1-30-days"),
    pytest.param((_Option("cassation", "Art. 26, §2"),),
                 ("A cassação extingue a autorização, que deve ser devolvida (Art. 26, §2).",), id="art26-par2"),
    pytest.param((_Option("vehicle_seizure", "Art. 27, parágrafo único; Art. 24, II, d"),),
                 ("O veículo fica apreendido até a regularização; as despesas de remoção e estada são do condutor "
                  "(Art. 27, parágrafo único; Art. 24, II, d; Art. 28).",), id="art27-par-unico-and-art28"),
])
def test_art24_art26_art27_penalty_notice_sentences_come_from_the_decided_penalties(decided, expected):
    assert penalty_notice_clauses(decided) == expected


# issue 24 item 7: Art. 26, III — "descumprir qualquer dos deveres previstos no Art. 13": the requalification names
# the inciso (I-XXIII).
from desktop.domain.penalties import CATALOG as _CATALOG, requalified_art13_item_problems  # noqa: E402


@pytest.mark.parametrize("code, drawn_item, item, fields", [
    pytest.param("ART26-III", None, None, ["art13_item"], id="art26-iii-asks-the-inciso"),
    pytest.param("ART26-III", None, "XXIV", ["art13_item"], id="art13-has-23-incisos"),
    pytest.param("ART26-III", None, "xii", [], id="art13-xii-named"),
    pytest.param("ART26-III", "VII", None, [], id="already-recorded-in-the-auto"),
    pytest.param("ART26-I", None, None, [], id="other-codes-name-no-inciso"),
])
def test_art26_iii_art13_a_requalification_to_iii_names_the_duty(code, drawn_item, item, fields):
    problems = requalified_art13_item_problems(_CATALOG[code], drawn_item, item)
    assert [p.field for p in problems] == fields
    assert all("Art. 13" in p.article for p in problems)
