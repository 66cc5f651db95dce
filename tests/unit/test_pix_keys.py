"""desktop.domain.pix: the PIX key as the BR Code carries it (issue 12 item 14; BCB, Manual do BR Code and
Manual Operacional do DICT: CPF/CNPJ digits only, phone +55 and digits, e-mail lower case, random key as given)."""
from __future__ import annotations

import pytest

from desktop.domain.pix import (MAX_PIX_KEY_LENGTH, PixKeyKind, normalize_pix_key, pix_key_kind,
                                pix_key_problems)

EVP = "123e4567-e89b-12d3-a456-426614174000"

# (typed, kind, key in the BR Code)
GOOD = [
    ("03.507.548/0001-10", PixKeyKind.CNPJ, "03507548000110"),      # the key of the issue
    ("03507548000110", PixKeyKind.CNPJ, "03507548000110"),
    ("  12.345.678/0001-95 ", PixKeyKind.CNPJ, "12345678000195"),
    ("12.abc.345/01de-35", PixKeyKind.CNPJ, "12ABC34501DE35"),      # the alphanumeric CNPJ
    ("123.456.789-09", PixKeyKind.CPF, "12345678909"),
    ("12345678909", PixKeyKind.CPF, "12345678909"),
    ("123456789-09", PixKeyKind.CPF, "12345678909"),
    ("+55 (65) 99999-1234", PixKeyKind.PHONE, "+5565999991234"),
    ("+5565999991234", PixKeyKind.PHONE, "+5565999991234"),
    ("(65) 99999-1234", PixKeyKind.PHONE, "+5565999991234"),
    ("65 3301-1234", PixKeyKind.PHONE, "+556533011234"),
    ("(65)3301-1234", PixKeyKind.PHONE, "+556533011234"),
    ("Financas@Chapada.MT.gov.br", PixKeyKind.EMAIL, "financas@chapada.mt.gov.br"),
    ("financas@chapadadosguimaraes.mt.gov.br", PixKeyKind.EMAIL, "financas@chapadadosguimaraes.mt.gov.br"),
    (EVP, PixKeyKind.EVP, EVP),
    (EVP.upper(), PixKeyKind.EVP, EVP.upper()),                     # a random key as the bank gave it
]


@pytest.mark.parametrize(("typed", "kind", "key"), GOOD)
def test_issue12_item14_a_good_key_goes_into_the_br_code_in_its_normal_form(typed, kind, key):
    assert pix_key_kind(typed) is kind
    assert pix_key_problems(typed) == []
    assert normalize_pix_key(typed) == key
    assert normalize_pix_key(key) == key  # idempotent: a stored key stays as it is


@pytest.mark.parametrize("typed", ["", "   ", None])
def test_no_key_is_no_problem_the_pix_key_is_optional(typed):
    assert pix_key_problems(typed) == []
    assert normalize_pix_key(typed) == ""
    assert pix_key_kind(typed) is None


# (typed, words the message must contain)
BAD = [
    ("03.507.548/0001-11", ("Chave PIX (CNPJ)", "dígitos verificadores")),
    ("123.456.789-00", ("Chave PIX (CPF)", "dígitos verificadores")),
    ("11111111111", ("Chave PIX (CPF)",)),
    ("+1 202 555 0143", ("só telefones do Brasil", "+55")),
    ("+55 65 9999", ("DDD e o número",)),
    ("(20) 99999-1234", ("DDD 20 não existe",)),
    ("(65) 89999-1234", ("celular", "começa com 9")),
    ("(65) 9999-1234", ("fixo",)),
    ("financas@", ("Chave PIX (e-mail) inválida",)),
    ("financas@prefeitura", ("Chave PIX (e-mail) inválida",)),
    ("nome da prefeitura", ("Chave PIX não reconhecida", "CPF", "CNPJ", "telefone", "e-mail", "aleatória")),
    ("123e4567-e89b-12d3-a456", ("Chave PIX não reconhecida",)),
    ("a" * 70 + "@x.com.br", (f"no máximo {MAX_PIX_KEY_LENGTH} caracteres",)),
]


@pytest.mark.parametrize(("typed", "words"), BAD)
def test_issue12_item14_a_bad_key_is_refused_with_a_message_naming_the_field(typed, words):
    problems = pix_key_problems(typed)
    assert len(problems) == 1
    [problem] = problems
    assert problem.field == "pix_key"
    assert "Chave PIX" in problem.message or "chave PIX" in problem.message
    for word in words:
        assert word in problem.message


def test_the_field_name_is_the_callers():
    [problem] = pix_key_problems("nada", field="municipality.pix_key")
    assert problem.field == "municipality.pix_key"


def test_a_refused_key_is_not_rewritten_so_the_user_sees_what_was_typed():
    assert normalize_pix_key("  nome da prefeitura ") == "nome da prefeitura"
    assert normalize_pix_key("+1 202 555 0143") == "+1 202 555 0143"
