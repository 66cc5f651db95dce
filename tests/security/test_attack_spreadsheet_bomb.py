"""Issue 25 item 3: an XLSX zip bomb (a few hundred KB expanding to over 100 MB of sheet XML) tied the importer up for
minutes before it said the header was wrong. The zip's directory is read first (declared sizes, ratio) and the sheet
is streamed header first (openpyxl read-only): refused in under a second, in Portuguese, naming line 1. The CSV
reader's "field larger than field limit (131072)" comes out in Portuguese too."""
from __future__ import annotations

import io
import time
import zipfile

import pytest

from desktop.domain.platform_lists import LIST_COLUMNS
from desktop.importers.platform_list import read_platform_list

HEADER = list(LIST_COLUMNS.values())
ROW = ["529.982.247-25", "João da Silva", "08301661350", "ABC-1234", "18609139099", "52998224725", "João da Silva"]


def _workbook(rows) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _with_sheet_xml(workbook: bytes, sheet_xml: bytes) -> bytes:
    """The same workbook with its first sheet's XML replaced (deflated), as an attacker's script writes it."""
    source = zipfile.ZipFile(io.BytesIO(workbook))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            data = sheet_xml if info.filename == "xl/worksheets/sheet1.xml" else source.read(info.filename)
            target.writestr(info.filename, data)
    return out.getvalue()


def _bomb(rows: int) -> bytes:
    """A sheet whose first row is not the header, followed by `rows` rows of the same cell: ~1 KB per row."""
    cell = '<c t="inlineStr"><is><t>' + "A" * 1000 + "</t></is></c>"
    body = "".join(f'<row r="{i}">{cell}</row>' for i in range(1, rows + 1))
    xml = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
           f'spreadsheetml/2006/main"><sheetData>{body}</sheetData></worksheet>').encode()
    return _with_sheet_xml(_workbook([["x"]]), xml)


@pytest.mark.parametrize("rows", [110_000, 20_000])
def test_issue25_item3_an_xlsx_bomb_is_refused_in_under_a_second(rows):
    content = _bomb(rows)
    assert len(content) < 2 * 1024 * 1024
    began = time.perf_counter()
    parsed = read_platform_list(content, "bomba.xlsx")
    elapsed = time.perf_counter() - began
    assert elapsed < 1.0, elapsed
    assert not parsed.ok and parsed.lines == ()
    assert parsed.errors[0].startswith("linha 1: a planilha XLSX")
    assert "MB" in parsed.errors[0] or "compactada além do normal" in parsed.errors[0]


def test_issue25_item3_a_wrong_header_is_refused_before_the_other_rows_are_read():
    """Under the limits, a sheet without the pinned columns is refused on its first row (streamed)."""
    rows = [["Coluna qualquer", "Outra"]] + [[f"linha {i}", "x" * 50] for i in range(30_000)]
    content = _workbook(rows)
    began = time.perf_counter()
    parsed = read_platform_list(content, "errada.xlsx")
    assert time.perf_counter() - began < 1.0
    assert not parsed.ok and all(e.startswith("linha 1") for e in parsed.errors)
    assert any("coluna obrigatória ausente" in e for e in parsed.errors)


def test_issue25_item3_a_real_list_still_reads():
    parsed = read_platform_list(_workbook([HEADER, ROW]), "lista.xlsx")
    assert parsed.ok, parsed.errors
    assert parsed.lines[0].driver_cpf == "52998224725"


def test_issue25_item3_the_csv_field_limit_is_said_in_portuguese():
    content = (";".join(HEADER) + "\r\n" + ";".join(ROW) + "\r\n" + '"' + "A" * 200_000 + '";' +
               ";".join(ROW[1:]) + "\r\n").encode("utf-8")
    parsed = read_platform_list(content, "lista.csv")
    assert not parsed.ok
    assert parsed.errors[0].startswith("linha 3:") and "passa de 131.072 caracteres" in parsed.errors[0]
    assert "field larger" not in parsed.errors[0]
