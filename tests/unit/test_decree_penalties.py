"""The penalties a decree code names (Art. 29; Art. 24, I): the list a gestor chooses from, each kind with the
article it cites, stored with the code and the only ones a decision on it may apply."""
from __future__ import annotations

from datetime import date

import pytest

from desktop.domain.penalties import (
    Penalty,
    Severity,
    assess,
    decision_options,
    decree_entry,
    decree_penalties_text,
    decree_penalty_kinds,
    decree_penalty_problems,
    penalty_choice_problems,
)

DEC = "Decreto nº 10/2026, art. 5º"


def test_art24_i_the_kinds_a_decree_code_may_name_each_cite_their_letter():
    kinds = {k.penalty: k.article for k in decree_penalty_kinds()}
    assert kinds == {
        Penalty.SUSPENSION.value: "Art. 24, I, b; Art. 24, parágrafo único",
        Penalty.REVOCATION.value: "Art. 24, I, c",
        Penalty.DRIVER_DEREGISTRATION.value: "Art. 24, I, d",
        Penalty.CASSATION.value: "Art. 24, I, e",
        Penalty.VEHICLE_DEREGISTRATION.value: "Art. 24, I, f",
    }
    assert Penalty.FINE.value not in kinds   # Art. 25: the fine always applies
    (suspension,) = [k for k in decree_penalty_kinds() if k.penalty == Penalty.SUSPENSION.value]
    assert suspension.text == "Suspensão da autorização por 12 meses (Art. 24, I, b; Art. 24, parágrafo único)"


@pytest.mark.parametrize("named, expected", [
    pytest.param((), [], id="art25-fine-only"),
    pytest.param(("driver_deregistration", "revocation"),
                 [("revocation", f"{DEC}; Art. 24, I, c", 0), ("driver_deregistration", f"{DEC}; Art. 24, I, d", 0)],
                 id="art24-i-c-d-in-the-domain-order"),
    pytest.param(("suspension",), [("suspension", f"{DEC}; Art. 24, I, b; Art. 24, parágrafo único", 12)],
                 id="art24-par-unico-12-months"),
])
def test_art29_a_decision_on_a_decree_code_offers_exactly_what_it_names(named, expected):
    entry = decree_entry("dec-01", DEC, "Não exibir o QR Code", Severity.MEDIA, named, valid_from=date(2026, 2, 1))
    options = decision_options("DEC-01", date(2026, 3, 2), catalog={"DEC-01": [entry]})
    assert [(o.penalty, o.article, o.months) for o in options] == expected
    # a penalty it does not name is refused (issue 12 item 2)
    assert penalty_choice_problems({Penalty.CASSATION.value}, options, "DEC-01")
    assert assess("DEC-01", date(2026, 3, 2), catalog={"DEC-01": [entry]}).upfm == 20


def test_art26_27_a_law_code_takes_no_other_penalties_and_unknown_kinds_are_refused():
    (law,) = decree_penalty_problems("ART26-IV", ["revocation"], law_code=True)
    assert law.field == "penalties" and "da Lei" in law.message
    (unknown,) = decree_penalty_problems("DEC-01", ["fine"], law_code=False)
    assert "desconhecida" in unknown.message
    (twice,) = decree_penalty_problems("DEC-01", ["revocation", "revocation"], law_code=False)
    assert "uma só vez" in twice.message
    assert decree_penalty_problems("DEC-01", ["cassation"], law_code=False) == []
    assert decree_penalties_text(DEC, ["cassation"]) == f"Cassação da autorização ({DEC}; Art. 24, I, e)"
