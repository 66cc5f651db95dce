"""Issue 28: one citation style on paper (LC 95/1998, art. 10) and the summons term of Lei 9.784/1999,
art. 26, § 2º ("antecedência mínima de três dias úteis quanto à data de comparecimento"), counted as its art. 66
counts (the day of the summons left out)."""
from datetime import date

import pytest

from desktop.domain.citation import article, cite, number
from desktop.domain.dates import BusinessCalendar
from desktop.domain.formatting import mask_cnh
from desktop.domain.summons import (SUMMONS_ARTICLE, SUMMONS_MIN_BUSINESS_DAYS, art26_i_may_follow,
                                    earliest_appearance, summons_problem)


@pytest.mark.parametrize("written, cited", [
    ("Art. 8, §3, I", "Art. 8º, § 3º, I"),            # the issue's own example
    ("Art. 3º, §1º", "Art. 3º, § 1º"),
    ("Art. 26, §1", "Art. 26, § 1º"),                 # from the tenth article on, the cardinal
    ("Art. 16, §2º", "Art. 16, § 2º"),
    ("Art. 10, parágrafo único", "Art. 10, parágrafo único"),
    ("Art. 26, I", "Art. 26, I"),
    ("Art. 13, XVIII", "Art. 13, XVIII"),
    ("arts. 3º e 8º", "arts. 3º e 8º"),
    ("Art. 2º, §§ 1º e 2º", "Art. 2º, §§ 1º e 2º"),
    ("Lei 6.830/80 art. 2 §5", "Lei 6.830/80 art. 2º, § 5º"),
    ("Art. 8°, §3°", "Art. 8º, § 3º"),                # a degree sign typed for the ordinal
    ("CTN art. 202", "CTN art. 202"),
    ("Artigo 5 do regulamento", "Artigo 5 do regulamento"),   # only the abbreviation is a citation
    ("sem citação nenhuma", "sem citação nenhuma"),
])
def test_lc95_art10_one_citation_style(written, cited):
    assert cite(written) == cited


@pytest.mark.parametrize("n, text", [(1, "1º"), (9, "9º"), (10, "10"), (26, "26")])
def test_lc95_art10_ordinal_up_to_the_ninth_cardinal_after(n, text):
    assert number(n) == text


def test_article_builder_cites_its_parts():
    assert article(8, "§3", "I") == "Art. 8º, § 3º, I"
    assert article(26, "§ 1") == "Art. 26, § 1º"


CAL = BusinessCalendar()


@pytest.mark.parametrize("summoned, appear, ok", [
    (date(2026, 12, 2), date(2026, 12, 3), False),    # the case: 02/12 for 03/12 08:00
    (date(2026, 12, 2), date(2026, 12, 4), False),
    (date(2026, 12, 2), date(2026, 12, 7), True),     # Thu 3, Fri 4, Mon 7: the 3rd business day after
    (date(2026, 11, 30), date(2026, 12, 3), True),    # Monday → Thursday
    (date(2026, 11, 30), date(2026, 12, 2), False),
    (date(2026, 12, 23), date(2026, 12, 28), False),  # Christmas and the weekend do not count
    (date(2026, 12, 23), date(2026, 12, 29), True),
])
def test_lei9784_art26_par2_three_business_days_before_appearing(summoned, appear, ok):
    problem = summons_problem(summoned, appear, CAL)
    assert (problem is None) == ok
    assert art26_i_may_follow(summoned, appear, CAL) == ok
    if not ok:
        assert problem.article == SUMMONS_ARTICLE and "três dias úteis" in problem.message
        assert earliest_appearance(summoned, CAL).strftime("%d/%m/%Y") in problem.message


def test_lei9784_art26_par2_a_municipal_holiday_does_not_count():
    cal = BusinessCalendar({date(2026, 12, 3): "Feriado municipal"})
    assert earliest_appearance(date(2026, 11, 30), cal) == date(2026, 12, 4)
    assert SUMMONS_MIN_BUSINESS_DAYS == 3


def test_art26_I_no_fine_without_a_recorded_summons():
    problem = summons_problem(None, date(2026, 12, 10), CAL)
    assert problem is not None and "intimação" in problem.message
    assert not art26_i_may_follow(None, date(2026, 12, 10), CAL)


@pytest.mark.parametrize("raw, masked", [("01234567890", "*******7890"), ("", "—"), (None, "—")])
def test_lgpd_art6_III_cnh_masked_on_the_credential(raw, masked):
    assert mask_cnh(raw) == masked
