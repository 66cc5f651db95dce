"""Pure rules of the platforms' lists (Art. 5, VIII), their reconciliation (Art. 3, 8, 13 XVIII-XIX, 27) and the
24-hour term of data requests (Art. 4, §2): table-driven."""
from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from desktop.domain.dates import TIMEZONE, BusinessCalendar
from desktop.domain.platform_lists import (
    LIST_COLUMNS,
    KnownDriver,
    KnownVehicle,
    Situation,
    countdown_text,
    data_request_due,
    data_request_late,
    delivered_late,
    duplicate_errors,
    findings_of,
    is_list_overdue,
    match_columns,
    next_list_due,
    not_listed,
    reconcile_line,
    validate_line,
)

CAL = BusinessCalendar()
GOOD = {"driver_cpf": "529.982.247-25", "driver_name": "João da Silva", "cnh": "08301661350", "plate": "ABC-1234",
        "renavam": "18609139099", "owner_document": "52998224725", "owner_name": "João da Silva"}


@pytest.mark.parametrize("headers, missing, ignored", [
    (list(LIST_COLUMNS.values()), (), ()),
    (["cpf do condutor", "NOME DO CONDUTOR", "cnh", "placa", "renavam", "CPF/CNPJ DO PROPRIETARIO",
      "nome do proprietario"], (), ()),
    (["  Placa ", "RENAVAM", "CNH", "Nome do  condutor", "CPF do condutor", "Nome do proprietário",
      "CPF/CNPJ do proprietário", "Telefone"], (), ("Telefone",)),
    (["CPF do condutor", "Placa"], ("Nome do condutor", "CNH", "RENAVAM", "CPF/CNPJ do proprietário",
                                    "Nome do proprietário"), ()),
])
def test_art5_viii_columns_match_in_any_order_without_case_or_accents(headers, missing, ignored):
    match = match_columns(headers)
    assert match.missing == missing
    assert match.ignored == ignored


def test_art5_viii_repeated_column_is_named():
    match = match_columns(list(LIST_COLUMNS.values()) + ["placa"])
    assert match.repeated == ("Placa",) and not match.ok


@pytest.mark.parametrize("key, value, column, words", [
    ("driver_cpf", "529.982.247-24", "CPF do condutor", "dígitos verificadores"),
    ("driver_cpf", "", "CPF do condutor", "Informe o CPF"),
    ("cnh", "08301661351", "CNH", "CNH inválido"),
    ("renavam", "18609139098", "RENAVAM", "RENAVAM"),
    ("plate", "AB-12345", "Placa", "ABC1D23"),
    ("owner_document", "123", "CPF/CNPJ do proprietário", "nem um CNPJ"),
    ("owner_document", "11.222.333/0001-00", "CPF/CNPJ do proprietário", "CNPJ"),
    ("driver_name", "  ", "Nome do condutor", "Informe o nome do condutor"),
    ("owner_name", "x" * 201, "Nome do proprietário", "máximo é 200"),
])
def test_art5_viii_each_bad_cell_names_line_and_column(key, value, column, words):
    line, errors = validate_line(7, {**GOOD, key: value})
    assert line is None
    assert [e.column for e in errors] == [column]
    assert str(errors[0]).startswith(f"linha 7, coluna {column}: ") and words in errors[0].message


def test_art5_viii_every_problem_of_a_line_at_once_in_column_order():
    _, errors = validate_line(3, {**GOOD, "driver_cpf": "1", "plate": "x", "renavam": ""})
    assert [e.column for e in errors] == ["CPF do condutor", "Placa", "RENAVAM"]


@pytest.mark.parametrize("plate, stored", [("ABC-1234", "ABC1234"), ("abc1d23", "ABC1D23")])
def test_valid_line_in_normal_form_keeps_leading_zeros(plate, stored):
    line, errors = validate_line(2, {**GOOD, "plate": plate, "driver_cpf": "075.291.703-09"})
    assert errors == [] and line.plate == stored and line.driver_cpf == "07529170309" and line.cnh == "08301661350"


def test_owner_cnpj_accepted():
    line, errors = validate_line(2, {**GOOD, "owner_document": "92.440.268/5995-95"})
    assert not errors and line.owner_document == "92440268599595"


def test_duplicate_pair_old_and_mercosul_plate_is_the_same_pair():
    a, _ = validate_line(2, GOOD)
    b, _ = validate_line(5, {**GOOD, "plate": "ABC1C34"})
    errors = duplicate_errors([a, b])
    assert [str(e) for e in errors] == [
        "linha 5, coluna Placa: O par condutor 529.982.247-25 e placa ABC1C34 já está na linha 2."]


@pytest.mark.parametrize("last, registered, due", [
    (date(2026, 1, 5), None, date(2026, 3, 6)),        # 60 calendar days, a Friday
    (date(2026, 2, 2), None, date(2026, 4, 6)),        # 03/04/2026 is Good Friday -> Monday 06/04
    (None, date(2026, 1, 5), date(2026, 3, 6)),        # first list: from the registration (Art. 6)
    (None, None, None),
])
def test_art5_viii_next_list_due_60_days_after_last(last, registered, due):
    assert next_list_due(last, CAL, registered) == due


@pytest.mark.parametrize("due, today, overdue", [
    (date(2026, 3, 6), date(2026, 3, 6), False),
    (date(2026, 3, 6), date(2026, 3, 7), True),
    (None, date(2026, 3, 7), False),
])
def test_art5_viii_overdue_from_the_day_after(due, today, overdue):
    assert is_list_overdue(due, today) is overdue
    assert delivered_late(today, due) is overdue


NOTIFIED = datetime(2026, 3, 2, 15, 30, tzinfo=TIMEZONE)


@pytest.mark.parametrize("investigation, notified, due", [
    (True, NOTIFIED, NOTIFIED + timedelta(hours=24)),
    (False, NOTIFIED, None),
    (True, None, None),
])
def test_art4_par2_24_hours_from_notification_only_for_investigation(investigation, notified, due):
    assert data_request_due(investigation, notified) == due


@pytest.mark.parametrize("answered, now, late, text", [
    (None, NOTIFIED + timedelta(hours=1), False, "faltam 23:00:00"),
    (None, NOTIFIED + timedelta(hours=25, minutes=2), True, "vencida há 01:02:00"),
    (NOTIFIED + timedelta(hours=23), NOTIFIED + timedelta(hours=30), False, "respondida no prazo"),
    (NOTIFIED + timedelta(hours=24, seconds=1), NOTIFIED + timedelta(hours=30), True, "respondida com atraso"),
])
def test_art4_par2_late_answer_and_countdown(answered, now, late, text):
    due = NOTIFIED + timedelta(hours=24)
    assert data_request_late(due, answered, now) is late
    assert countdown_text(due, answered, now) == text


def test_countdown_without_term():
    assert countdown_text(None, None, NOTIFIED) == "sem prazo legal"
    assert data_request_late(None, None, NOTIFIED) is False


D = KnownDriver(1, "52998224725", "João", "ABC1C34")
V = KnownVehicle(2, "ABC1C34", "52998224725", "52998224725")


@pytest.mark.parametrize("driver, vehicle, owner, situations", [
    (D, V, "52998224725", ()),                                                     # all agrees
    (None, None, "1", (Situation.UNKNOWN_DRIVER, Situation.UNKNOWN_VEHICLE)),      # Art. 3, 27
    (KnownDriver(1, "52998224725", "João", None), KnownVehicle(2, "ABC1C34", None, None), "x",
     (Situation.NO_AUTHORIZATION,)),                                               # request in analysis
    (None, KnownVehicle(2, "ABC1C34", None, None), "x",
     (Situation.UNKNOWN_DRIVER, Situation.NO_AUTHORIZATION)),
    (KnownDriver(1, "52998224725", "João", "QBA1C23"), V, "52998224725", (Situation.PAIR_MISMATCH,)),  # Art. 8
    (D, KnownVehicle(2, "ABC1C34", "11144477735", "52998224725"), "52998224725",
     (Situation.OWNER_MISMATCH,)),                                                 # Art. 13 XVIII
])
def test_reconcile_line_table(driver, vehicle, owner, situations):
    result = reconcile_line("52998224725", "ABC-1234", owner, driver, vehicle)
    assert tuple(f.situation for f in result.findings) == situations
    assert findings_of(result.code) == situations


@pytest.mark.parametrize("situation, label, article", [
    (Situation.NO_AUTHORIZATION, "sem autorização", "Art. 3; Art. 27"),
    (Situation.PAIR_MISMATCH, "par diferente da autorização", "Art. 8; Art. 13, XIX"),
    (Situation.OWNER_MISMATCH, "proprietário diferente", "Art. 13, XVIII"),
    (Situation.UNKNOWN_VEHICLE, "veículo desconhecido", "Art. 3; Art. 27"),
    (Situation.UNKNOWN_DRIVER, "condutor desconhecido", "Art. 3; Art. 27"),
    (Situation.NOT_LISTED, "autorizado fora das listas", "Art. 5, VIII"),
])
def test_situation_labels_are_the_pinned_ones(situation, label, article):
    assert (situation.label, situation.article) == (label, article)


def test_every_code_a_line_can_get_fits_the_discrepancy_column():
    worst = reconcile_line("52998224725", "ABC1234", "1", None, None).code
    mixed = reconcile_line("52998224725", "ABC1234", "1", KnownDriver(1, "52998224725", "J", "QBA1C23"),
                           KnownVehicle(2, "ABC1C34", "2", "11144477735")).code
    assert len(worst) <= 40 and len(mixed) <= 40


def test_art5_viii_authorized_driver_on_no_list():
    other = KnownDriver(3, "11144477735", "Ana", "QBA1C23")
    found = not_listed([D, other, KnownDriver(4, "22233344405", "Sem", None)], {"52998224725"})
    assert [f.situation for f in found] == [Situation.NOT_LISTED]
    assert "Ana" in found[0].detail and "QBA1C23" in found[0].detail


# --- issue 14 (leftovers): the whole-list validator is the line validator, only faster -------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402
from validate_docbr import CNH as _DocbrCNH, CPF as _DocbrCPF, RENAVAM as _DocbrRENAVAM  # noqa: E402

from desktop.domain.documents import cnh_digits_ok, cpf_digits_ok, renavam_digits_ok  # noqa: E402
from desktop.domain.platform_lists import (  # noqa: E402
    validate_line,
    validate_lines,
)

_eleven = st.text(alphabet="0123456789", min_size=11, max_size=11)


@settings(max_examples=2000, deadline=None)
@given(digits=_eleven)
def test_art5_viii_fast_check_digits_agree_with_validate_docbr(digits):
    assert cpf_digits_ok(digits) == _DocbrCPF().validate(digits)
    assert cnh_digits_ok(digits) == _DocbrCNH().validate(digits)
    assert renavam_digits_ok(digits) == (_DocbrRENAVAM().validate(digits) and digits != "0" * 11)


def test_art5_viii_fast_check_digits_accept_generated_documents():
    for _ in range(500):
        assert cpf_digits_ok(_DocbrCPF().generate())
        assert cnh_digits_ok(_DocbrCNH().generate())
        renavam = _DocbrRENAVAM().generate()
        assert renavam_digits_ok(renavam) or renavam == "0" * 11


def _generated(make, n=40):
    import random

    random.seed(14)
    return [make() for _ in range(n)]


_CPFS, _CNHS, _RENAVAMS = (_generated(_DocbrCPF().generate), _generated(_DocbrCNH().generate),
                           _generated(_DocbrRENAVAM().generate))
_cells = {
    "driver_cpf": st.one_of(st.sampled_from(_CPFS), st.sampled_from([_DocbrCPF().mask(c) for c in _CPFS]),
                            _eleven, st.text(max_size=14), st.just("")),
    "driver_name": st.one_of(st.just("Maria da Silva"), st.just("  Ana   Lúcia "), st.just(""),
                             st.text(max_size=5), st.just("x" * 201)),
    "cnh": st.one_of(st.sampled_from(_CNHS), _eleven, st.text(max_size=12)),
    "plate": st.one_of(st.sampled_from(["ABC1234", "abc-1234", "ABC1D23", "ABC-1D23", " qbc1j23 ", "AB1234",
                                        "ÁBC1234", "ABC12345", ""]), st.text(max_size=8)),
    "renavam": st.one_of(st.sampled_from(_RENAVAMS), _eleven, st.just("123456789"),
                         st.text(max_size=12)),
    "owner_document": st.one_of(st.sampled_from(_CPFS), st.just("11.222.333/0001-81"),
                                st.just("11222333000181"), _eleven, st.text(max_size=18), st.just("")),
    "owner_name": st.one_of(st.just("Locadora Serra Ltda"), st.just(""), st.text(max_size=5)),
}


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.fixed_dictionaries(_cells), min_size=1, max_size=12))
def test_art5_viii_whole_list_validation_equals_line_by_line(rows):
    numbers = list(range(2, 2 + len(rows)))
    expected_lines, expected_errors = [], []
    for number, cells in zip(numbers, rows):
        line, errors = validate_line(number, cells)
        if line is None:
            expected_errors.extend(errors)
        else:
            expected_lines.append(line)
    columns = {key: [cells[key] for cells in rows] for key in _cells}
    lines, errors = validate_lines(numbers, columns)
    assert lines == expected_lines
    assert errors == expected_errors


# --- issue 14 (leftovers): CNH and RENAVAM compared where the register has them (Art. 5, VIII; Art. 13, XVIII) ---

from desktop.domain.platform_lists import KnownDriver as _KD, KnownVehicle as _KV  # noqa: E402
from desktop.domain.platform_lists import reconcile_line as _reconcile, stored_findings  # noqa: E402


@pytest.mark.parametrize("register_cnh, listed_cnh, register_renavam, listed_renavam, expected", [
    ("02650306461", "02650306461", "00123456789", "00123456789", ()),
    ("02650306461", "98765432100", "00123456789", "00123456789", (Situation.CNH_MISMATCH,)),
    ("02650306461", "02650306461", "00123456789", "123456789", ()),                   # 9 digits: same RENAVAM
    ("02650306461", "02650306461", "00123456789", "61744376706", (Situation.RENAVAM_MISMATCH,)),
    (None, "98765432100", None, "61744376706", ()),          # the register has neither: nothing to compare
    ("02650306461", None, "00123456789", None, ()),          # the list has neither
])
def test_art5_viii_cnh_and_renavam_differ_from_the_register(register_cnh, listed_cnh, register_renavam,
                                                          listed_renavam, expected):
    driver = _KD(1, "52998224725", "João", "QBA1C23", register_cnh)
    vehicle = _KV(2, "QBA1C23", "52998224725", "52998224725", register_renavam)
    result = _reconcile("52998224725", "QBA1C23", "52998224725", driver, vehicle, listed_cnh, listed_renavam)
    assert tuple(f.situation for f in result.findings) == expected
    for f in result.findings:
        assert f.article == "Art. 5, VIII; Art. 13, XVIII"
    # what is stored on the row reads back as the same findings
    assert stored_findings(result.code, result.details) == result.findings


# --- Art. 24, II, a: the law types no fine for a late list; a decree code citing Art. 5, VIII is offered -------

from desktop.domain.platform_lists import cites_late_list, late_list_code  # noqa: E402


@pytest.mark.parametrize("article, cites", [
    ("Art. 5º, VIII", True),
    ("Decreto nº 10/2026, art. 7º (Lei, Art. 5, VIII)", True),
    ("Lei 2.103/2025, artigo 5º, inciso VIII", True),
    ("art.5 VIII", True),
    ("Art. 5, I", False),                   # another duty of the platform
    ("Art. 5, VII", False),
    ("Art. 15, VIII", False),              # another article
    ("Art. 26, III", False),
    ("", False),
    (None, False),
])
def test_art24_which_catalogue_articles_cite_the_60_day_list(article, cites):
    assert cites_late_list(article) is cites


def test_art24_the_first_code_citing_art5_viii_is_offered_none_otherwise():
    assert late_list_code([("ART26-I", "Art. 26, I"), ("DEC-07", "Decreto 10/2026 (Art. 5º, VIII)"),
                           ("DEC-08", "Art. 5, VIII")]) == "DEC-07"
    assert late_list_code([("ART26-I", "Art. 26, I"), ("ART27", "Art. 27")]) is None
