"""The reader/validator of the 60-day lists (Art. 5, VIII): every kind of broken file is refused whole with every
line named; a fuzz test feeds random bytes and random cells and always gets a message, never an exception."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.domain.platform_lists import LIST_COLUMNS
from desktop.importers.platform_list import read_platform_list, validate_rows

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "lista-plataforma-exemplo.csv"
HEADER = list(LIST_COLUMNS.values())
ROW_A = ["529.982.247-25", "João da Silva", "08301661350", "ABC-1234", "18609139099", "52998224725", "João da Silva"]
ROW_B = ["07529170309", "Maria Souza", "42366712751", "QBA1C23", "68426846566", "92.440.268/5995-95", "Locadora"]


def csv_bytes(rows, sep=";", encoding="utf-8") -> bytes:
    return ("\r\n".join(sep.join(r) for r in rows) + "\r\n").encode(encoding)


def xlsx_bytes(*sheets) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_published_example_file_reads_clean():
    parsed = read_platform_list(EXAMPLE.read_bytes(), EXAMPLE.name)
    assert parsed.ok and len(parsed.lines) == 5
    assert parsed.lines[1].driver_cpf.startswith("0")  # a CPF with a leading 0 keeps it


@pytest.mark.parametrize("sep, encoding, bom", [(";", "utf-8", False), (",", "utf-8", False),
                                                (";", "utf-8", True), (";", "cp1252", False)])
def test_csv_separators_and_encodings(sep, encoding, bom):
    data = csv_bytes([HEADER, ROW_A, ROW_B], sep=sep, encoding=encoding)
    parsed = read_platform_list((b"\xef\xbb\xbf" if bom else b"") + data)
    assert parsed.ok, parsed.errors
    assert [line.driver_name for line in parsed.lines] == ["João da Silva", "Maria Souza"]
    assert parsed.lines[1].driver_cpf == "07529170309"


@pytest.mark.parametrize(("header", "sep"), [
    (";".join(HEADER), ";"),
    (",".join(HEADER), ","),
    (",".join(f'"{h}"' for h in HEADER), ","),     # quoted, as spreadsheets save it
    (";".join(f'"{h}"' for h in HEADER), ";"),
    ("CPF do condutor", ";"),                       # one column: no separator to find
])
def test_the_separator_is_the_header_rows(header, sep):
    """issue 22 point 3: `csv.Sniffer` on the header row finds what the count of `;` and `,` found."""
    from desktop.importers.platform_list import _delimiter

    assert _delimiter(header) == sep


def test_a_comma_inside_a_semicolon_file_stays_in_its_cell():
    row = ["529.982.247-25", "Silva, João da", "08301661350", "ABC-1234", "18609139099", "52998224725", "Silva, J."]
    parsed = read_platform_list(csv_bytes([HEADER, row], sep=";"))
    assert parsed.ok, parsed.errors
    assert parsed.lines[0].driver_name == "Silva, João da"
    assert "separador «;»" in " ".join(parsed.notes)


def test_other_columns_ignored_and_named():
    parsed = read_platform_list(csv_bytes([HEADER + ["Telefone", "Cidade"], ROW_A + ["65 9999", "Cuiabá"]]))
    assert parsed.ok and parsed.ignored_columns == ("Telefone", "Cidade")


def test_missing_columns_named_in_the_header_line():
    parsed = read_platform_list(csv_bytes([["CPF do condutor", "Placa", "Outra"], ["52998224725", "ABC1234", ""]]))
    assert not parsed.ok and parsed.lines == ()
    assert parsed.errors == tuple(
        f"linha 1, coluna {name}: coluna obrigatória ausente no cabeçalho (veja o formato publicado da lista)."
        for name in ("Nome do condutor", "CNH", "RENAVAM", "CPF/CNPJ do proprietário", "Nome do proprietário"))


def test_every_error_of_every_line_not_the_first_only():
    bad1 = list(ROW_A)
    bad1[0] = "529.982.247-24"        # CPF check digit
    bad1[2] = "08301661351"           # CNH check digit
    bad2 = list(ROW_B)
    bad2[3] = "AB12345"               # plate
    bad2[4] = "68426846565"           # RENAVAM check digit
    bad2[5] = "123"                   # owner neither CPF nor CNPJ
    bad3 = list(ROW_A)
    bad3[1] = ""                      # empty required cell
    parsed = read_platform_list(csv_bytes([HEADER, bad1, bad2, bad3, ROW_B, ROW_B]))
    assert not parsed.ok and parsed.lines == ()
    where = [e.split(":")[0] for e in parsed.errors]
    assert where == ["linha 2, coluna CPF do condutor", "linha 2, coluna CNH", "linha 3, coluna Placa",
                     "linha 3, coluna RENAVAM", "linha 3, coluna CPF/CNPJ do proprietário",
                     "linha 4, coluna Nome do condutor", "linha 6, coluna Placa"]
    assert "já está na linha 5" in parsed.errors[-1]


def test_line_with_too_many_cells_is_named():
    parsed = read_platform_list(csv_bytes([HEADER, ROW_A + ["", "sobra"]]))
    assert parsed.errors == ("linha 2: a linha tem 9 células e o cabeçalho 7.",)


def test_xlsx_first_sheet_and_text_cells():
    data = xlsx_bytes(("Lista", [HEADER, ROW_A, ROW_B]), ("Rascunho", [["nada"]]))
    parsed = read_platform_list(data, "lista.xlsx")
    assert parsed.ok, parsed.errors
    assert parsed.lines[1].driver_cpf == "07529170309"
    assert any("primeira aba" in n and "Lista" in n for n in parsed.notes)


def test_xlsx_numeric_cpf_cell_without_its_zero_is_refused():
    # A spreadsheet that stored the CPF as a number lost its leading zero: that is a wrong CPF, said so.
    parsed = read_platform_list(xlsx_bytes(("L", [HEADER, [7529170309] + ROW_B[1:]])))
    assert not parsed.ok and parsed.errors[0].startswith("linha 2, coluna CPF do condutor: CPF deve ter 11")


@pytest.mark.parametrize("content, words", [
    (b"", "vazio"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, ".xls"),
    (b"PK\x03\x04garbage", "corrompido"),
    (b"\x81\x8d\x8f\x90\x9d;;;\n", "UTF-8 nem em Windows-1252"),
    (b"a;b\x00;c\n", "bytes nulos"),
    (csv_bytes([HEADER]), "nenhuma linha"),
])
def test_files_that_are_not_a_list(content, words):
    parsed = read_platform_list(content)
    assert not parsed.ok and parsed.lines == () and words in parsed.errors[0]
    assert parsed.errors[0].startswith("linha ")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_fuzz_random_bytes_always_a_message_never_an_exception(content):
    parsed = read_platform_list(content)
    assert parsed.ok is (not parsed.errors)
    assert parsed.errors or parsed.lines  # never silent
    if not parsed.ok:
        assert parsed.lines == ()
        assert all(e.startswith("linha ") for e in parsed.errors if not e.startswith("…"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.text(max_size=20), min_size=0, max_size=9), min_size=0, max_size=8),
       st.booleans())
def test_fuzz_random_cells_always_a_message_never_an_exception(cells, with_header):
    rows = ([HEADER] if with_header else []) + cells
    parsed = validate_rows([(i + 1, r) for i, r in enumerate(rows)])
    if not parsed.ok:
        assert parsed.lines == ()
    else:
        assert parsed.lines
