"""A platform's answer to a data request is kept without its passengers' data (Art. 4 caput: "garantida a
privacidade e a confidencialidade dos dados pessoais dos usuários"; SPEC §3: passengers' identity is never kept,
"not in the stored answer to a data request"; issue 24 item 11)."""
import io
import json

import pytest

from desktop.domain.trips import answer_column_dropped
from desktop.errors import ValidationError
from desktop.importers.answers import clean_answer


@pytest.mark.parametrize("name, dropped", [
    pytest.param("Nome do passageiro", True, id="art4-passenger-name-dropped"),
    pytest.param("CPF do passageiro", True, id="art4-passenger-cpf-dropped"),
    pytest.param("Telefone do passageiro", True, id="art4-passenger-phone-dropped"),
    pytest.param("E-mail do passageiro", True, id="art4-passenger-email-dropped"),
    pytest.param("rider_id", True, id="art4-mds-rider-id-dropped"),
    pytest.param("CPF", True, id="art4-a-bare-cpf-may-be-a-passengers-dropped"),
    pytest.param("CPF do condutor", False, id="art4-par1-the-pinned-driver-cpf-kept"),
    pytest.param("Nome do condutor", False, id="art4-par1-the-drivers-name-kept"),
    pytest.param("Telefone do motorista", False, id="art4-par1-the-drivers-phone-kept"),
    pytest.param("Nome do usuário do motorista", True, id="art4-a-user-of-the-driver-is-a-passenger-dropped"),
    pytest.param("passenger_count", False, id="art4-a-count-identifies-nobody"),
    pytest.param("ID da viagem", False, id="art4-par1-trip-columns-kept"),
    pytest.param("Origem", False, id="art4-par1-origin-kept"),
])
def test_art4_caput_which_columns_of_an_answer_are_passengers_data(name, dropped):
    assert answer_column_dropped(name) is dropped


ISSUE_CSV = ("ID da viagem;Nome do passageiro;CPF do passageiro;Telefone do passageiro;CPF do condutor;Valor\r\n"
             "UB-1;Maria Souza;529.982.247-25;(65) 99999-0000;111.444.777-35;23,50\r\n")


def test_art4_caput_the_issue_csv_loses_the_passengers_columns_and_says_which():
    clean = clean_answer(ISSUE_CSV.encode("cp1252"), "resposta.csv")
    text = clean.content.decode("utf-8-sig")
    assert clean.kind == "csv"
    assert clean.dropped == ("Nome do passageiro", "CPF do passageiro", "Telefone do passageiro")
    assert "Maria Souza" not in text and "529.982.247-25" not in text and "99999" not in text
    assert text.splitlines() == ["ID da viagem;CPF do condutor;Valor", "UB-1;111.444.777-35;23,50"]


def test_art4_caput_json_loses_the_passengers_keys_at_any_depth():
    doc = {"version": "2.0", "data": {"trips": [{"trip_id": "UB-1", "driver_id": "111.444.777-35",
                                                 "passenger": {"name": "Maria Souza"},
                                                 "trip_attributes": {"passenger_count": 1, "rider_phone": "65 9"}}]}}
    clean = clean_answer(json.dumps(doc).encode(), "resposta.json")
    back = json.loads(clean.content)
    assert "Maria Souza" not in clean.content.decode() and set(clean.dropped) == {"name", "passenger", "rider_phone"}
    assert back["data"]["trips"][0] == {"trip_id": "UB-1", "driver_id": "111.444.777-35",
                                        "trip_attributes": {"passenger_count": 1}}


def test_art4_caput_xlsx_loses_the_passengers_columns():
    from openpyxl import Workbook, load_workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["ID da viagem", "Nome do passageiro", "Placa"])
    sheet.append(["UB-1", "Maria Souza", "QBX0002"])
    raw = io.BytesIO()
    book.save(raw)
    clean = clean_answer(raw.getvalue(), "resposta.xlsx")
    rows = list(load_workbook(io.BytesIO(clean.content)).worksheets[0].iter_rows(values_only=True))
    assert clean.dropped == ("Nome do passageiro",) and rows == [("ID da viagem", "Placa"), ("UB-1", "QBX0002")]


@pytest.mark.parametrize("content, filename", [
    pytest.param(b"%PDF-1.7 ...", "resposta.pdf", id="art4-a-pdf-cannot-be-cleaned"),
    pytest.param(b"PK\x03\x04...", "resposta.zip", id="art4-an-archive-cannot-be-cleaned"),
    pytest.param(b"{not json", "resposta.json", id="art4-a-broken-json-cannot-be-read"),
])
def test_art4_caput_an_answer_that_cannot_be_cleaned_is_refused_naming_the_field(content, filename):
    with pytest.raises(ValidationError) as err:
        clean_answer(content, filename)
    assert err.value.problems[0].field == "file" and err.value.problems[0].article == "Art. 4"


@pytest.mark.parametrize("left_out, reason, problem", [
    pytest.param((), None, False, id="art4-par1-all-six-need-no-reason"),
    pytest.param(("want_rating",), None, True, id="art4-par1-leaving-vi-out-needs-a-reason"),
    pytest.param(("want_rating",), "  ", True, id="art4-par1-a-blank-reason-is-no-reason"),
    pytest.param(("want_route", "want_rating"), "O trajeto não serve à apuração.", False,
                 id="art4-par1-a-written-reason-allows-narrowing"),
])
def test_art4_par1_a_request_asks_all_six_unless_it_says_why(left_out, reason, problem):
    from desktop.domain.platform_lists import DATA_FIELDS, left_out_fields, narrowing_problems

    wanted = {key: key not in left_out for key in DATA_FIELDS}
    problems = narrowing_problems(wanted, reason)
    assert bool(problems) is problem
    assert left_out_fields(wanted) == tuple(DATA_FIELDS[k][0] for k in DATA_FIELDS if k in left_out)
    if problem:
        assert problems[0].field == "narrowing_reason" and problems[0].article == "Art. 4, §1"
