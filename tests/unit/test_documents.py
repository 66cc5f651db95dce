"""Document numbers and plates: validators (Portuguese messages) and formatters (SPEC §1, §4)."""
import pytest

from desktop.domain import (
    collect,
    format_cnpj,
    format_cpf,
    format_plate,
    is_mercosul_plate,
    mask_cpf,
    mercosul_equivalent,
    normalize_cnpj,
    normalize_cpf,
    normalize_plate,
    normalize_renavam,
    validate_cnh,
    validate_cnpj,
    validate_cpf,
    validate_plate,
    validate_renavam,
)


@pytest.mark.parametrize("value", [
    pytest.param("111.444.777-35", id="masked"),
    pytest.param("11144477735", id="digits"),
    pytest.param(" 529.982.247-25 ", id="spaces"),
    pytest.param("704.999.622-06", id="another"),
])
def test_cpf_valid(value):
    assert validate_cpf(value) is None


@pytest.mark.parametrize("value, words", [
    pytest.param("111.444.777-36", "dígitos verificadores", id="wrong-check-digit"),
    pytest.param("111.111.111-11", "dígitos verificadores", id="repeated-digits"),
    pytest.param("111.444.777-3", "11 dígitos", id="too-short"),
    pytest.param("111.444.777-355", "11 dígitos", id="too-long"),
    pytest.param("111.444.777-3A", "11 dígitos", id="letter"),
    pytest.param("", "Informe o CPF", id="empty"),
    pytest.param(None, "Informe o CPF", id="none"),
])
def test_cpf_invalid_names_the_field(value, words):
    problem = validate_cpf(value)
    assert problem.field == "cpf" and words in problem.message


def test_cpf_optional_and_custom_field():
    assert validate_cpf("", required=False) is None
    assert validate_cpf("123", field="lessor_cpf").field == "lessor_cpf"


def test_cpf_formats():
    assert format_cpf("11144477735") == "111.444.777-35"
    assert normalize_cpf("111.444.777-35") == "11144477735"
    assert mask_cpf("123.456.789-09") == "***.456.789-**"
    assert mask_cpf("12") == "***.***.***-**"
    assert format_cpf("123") == "123"


@pytest.mark.parametrize("value", [
    pytest.param("11.222.333/0001-81", id="numeric-masked"),
    pytest.param("11222333000181", id="numeric-digits"),
    pytest.param("12.ABC.345/01DE-35", id="alphanumeric-masked"),
    pytest.param("12abc34501de35", id="alphanumeric-lower-case"),
])
def test_cnpj_valid_including_new_alphanumeric(value):
    assert validate_cnpj(value) is None


@pytest.mark.parametrize("value, words", [
    pytest.param("11.222.333/0001-82", "dígitos verificadores", id="wrong-check-digit"),
    pytest.param("12.ABC.345/01DE-36", "dígitos verificadores", id="alphanumeric-wrong-check-digit"),
    pytest.param("00.000.000/0000-00", "dígitos verificadores", id="zeros"),
    pytest.param("11.222.333/0001", "14 caracteres", id="too-short"),
    pytest.param("12.ABC.345/01DE-3A", "14 caracteres", id="letter-in-check-digits"),
    pytest.param("12.ÁBC.345/01DE-35", "14 caracteres", id="accented-letter"),
    pytest.param("", "Informe o CNPJ", id="empty"),
])
def test_cnpj_invalid(value, words):
    problem = validate_cnpj(value)
    assert problem.field == "cnpj" and words in problem.message


def test_cnpj_formats():
    assert format_cnpj("11222333000181") == "11.222.333/0001-81"
    assert format_cnpj("12abc34501de35") == "12.ABC.345/01DE-35"
    assert normalize_cnpj("12.abc.345/01de-35") == "12ABC34501DE35"


@pytest.mark.parametrize("value, valid", [
    pytest.param("29141777683", True, id="valid"),
    pytest.param("31706690779", True, id="valid-2"),
    pytest.param("29141777684", False, id="wrong-check-digit"),
    pytest.param("11111111111", False, id="repeated"),
    pytest.param("2914177768", False, id="10-digits"),
])
def test_cnh_number(value, valid):
    problem = validate_cnh(value)
    assert (problem is None) is valid
    if problem:
        assert problem.field == "cnh_number"


@pytest.mark.parametrize("value, valid", [
    pytest.param("06360837785", True, id="valid-11-digits"),
    pytest.param("6360837785", True, id="valid-without-leading-zero"),
    pytest.param("35337406815", True, id="valid-2"),
    pytest.param("35337406816", False, id="wrong-check-digit"),
    pytest.param("00000000000", False, id="zeros"),
    pytest.param("1234567", False, id="too-short"),
    pytest.param("", False, id="empty"),
])
def test_renavam(value, valid):
    problem = validate_renavam(value)
    assert (problem is None) is valid
    if problem:
        assert problem.field == "renavam"


def test_renavam_normal_form_has_11_digits():
    assert normalize_renavam("6360837785") == "06360837785"


@pytest.mark.parametrize("value, stored, shown, mercosul", [
    pytest.param("ABC1234", "ABC1234", "ABC-1234", False, id="old"),
    pytest.param("abc-1234", "ABC1234", "ABC-1234", False, id="old-with-hyphen-lower-case"),
    pytest.param("ABC1D23", "ABC1D23", "ABC1D23", True, id="mercosul"),
    pytest.param(" abc1d23 ", "ABC1D23", "ABC1D23", True, id="mercosul-lower-case"),
])
def test_plate_valid_forms(value, stored, shown, mercosul):
    assert validate_plate(value) is None
    assert normalize_plate(value) == stored
    assert format_plate(value) == shown
    assert is_mercosul_plate(value) is mercosul


@pytest.mark.parametrize("value", [
    pytest.param("AB1234", id="two-letters"),
    pytest.param("ABC12345", id="five-digits"),
    pytest.param("ABCD123", id="four-letters"),
    pytest.param("ABC1DD3", id="two-letters-in-the-middle"),
    pytest.param("1BC1234", id="digit-first"),
    pytest.param("ÁBC1234", id="accented"),
    pytest.param("", id="empty"),
])
def test_plate_invalid(value):
    problem = validate_plate(value)
    assert problem.field == "plate" and problem.message


def test_plate_old_and_mercosul_match():
    assert mercosul_equivalent("ABC-1234") == "ABC1C34"
    assert mercosul_equivalent("ABC1C34") == "ABC1C34"


def test_collect_gathers_every_problem():
    problems = collect(validate_cpf("1"), validate_plate("ABC1234"), [validate_cnpj("")], None)
    assert [p.field for p in problems] == ["cpf", "cnpj"]
