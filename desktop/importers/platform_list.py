"""Reader and validator of a platform's 60-day list (Art. 5, VIII; format in docs/platform-list-format.md).

`read_platform_list(content, filename)` never raises on bad input: it returns a `ParsedList` whose `errors` name
every problem of every line (`linha N, coluna X: …`); the list may be stored only when there is none.

- XLSX (recognised by its bytes, not its name): the first sheet, every cell read as text (pandas + openpyxl).
- CSV: UTF-8 with or without BOM, or Windows-1252; `;` or `,` as separator (the one of the header row). Lines are
  split by the standard `csv` module rather than pandas' tokenizer, which stops at the first line with the wrong
  number of cells; here every such line is named. Every cell stays text: a CPF that starts with 0 keeps its zero.
"""
from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass

from desktop.domain.platform_lists import (
    LIST_COLUMNS,
    LineError,
    ListLine,
    duplicate_errors,
    match_columns,
    validate_lines,
)

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_ERRORS = 5000  # beyond this many the report says how many more there are
_ZIP_MAGIC = b"PK\x03\x04"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # the old binary .xls


@dataclass(frozen=True, slots=True)
class ParsedList:
    lines: tuple[ListLine, ...]
    errors: tuple[str, ...]
    ignored_columns: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()          # what the reader did that the user should know (sheet used, encoding)
    error_count: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors


def _refused(message: str, notes: tuple[str, ...] = ()) -> ParsedList:
    return ParsedList((), (message,), notes=notes, error_count=1)


def _decode(content: bytes) -> tuple[str, str] | None:
    for encoding, label in (("utf-8-sig", "UTF-8"), ("cp1252", "Windows-1252")):
        try:
            return content.decode(encoding), label
        except UnicodeDecodeError:
            continue
    return None


def _delimiter(header: str) -> str:
    """`;` or `,`, the separator of the header row (`csv.Sniffer`, quotes understood); `;` when the header has
    neither (one column: the report then names the missing ones)."""
    try:
        return csv.Sniffer().sniff(header, delimiters=";,").delimiter
    except csv.Error:
        return ";"
def csv_error_text(exc: Exception) -> str:
    """The Portuguese of the csv module's errors (the line is named by the caller; issue 25 item 3: "field larger
    than field limit (131072)" was quoted in English). Shared with the trip reader."""
    text = str(exc)
    m = re.search(r"field larger than field limit \((\d+)\)", text)
    if m:
        limit = f"{int(m.group(1)):,}".replace(",", ".")
        return f"uma célula passa de {limit} caracteres, o limite de uma célula; o arquivo não pode ser lido."
    if "new-line character seen in unquoted field" in text:
        return "quebra de linha fora de aspas dentro de uma célula; o arquivo não pode ser lido."
    if "NUL" in text or "line contains NUL" in text:
        return "a linha contém o caractere nulo (NUL); o arquivo não pode ser lido."
    return "aspas ou separadores desencontrados; o arquivo não pode ser lido como CSV."


def _csv_rows(content: bytes) -> tuple[list[tuple[int, list[str]]], tuple[str, ...]] | str:
    decoded = _decode(content)
    if decoded is None:
        return ("linha 1: o arquivo não está em UTF-8 nem em Windows-1252; salve-o como CSV UTF-8 "
                "ou envie em XLSX.")
    text, encoding = decoded
    if "\x00" in text:
        return "linha 1: o arquivo tem bytes nulos: não é um CSV de texto (salve como CSV UTF-8 ou XLSX)."
    delimiter = _delimiter(text.split("\n", 1)[0])
    rows: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    start = 1
    try:
        for cells in reader:
            rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        return f"linha {start}: o arquivo não pôde ser lido como CSV: {csv_error_text(exc)}"
    return rows, (f"CSV em {encoding}, separador «{delimiter}».",)


# An XLSX is a zip: its declared sizes (`ZipInfo.file_size`, which Python's zipfile never reads past) say how much
# XML it would inflate to before anything is inflated (issue 25 item 3: 0.49 MB of zip expanding to 111 MB of sheet
# XML held the importer 111 s). A real list of 20,000 drivers is a few MB of XML, compressed about 10 times.
MAX_XLSX_UNCOMPRESSED = 64 * 1024 * 1024
MAX_XLSX_RATIO = 100           # uncompressed / compressed, for a member larger than RATIO_FROM_BYTES
RATIO_FROM_BYTES = 1024 * 1024
MAX_XLSX_ROWS = 200_000


def xlsx_bomb_problem(content: bytes) -> str | None:
    """Why this zip must not be inflated (too large once uncompressed, or compressed past any real workbook's
    ratio), or None. Reads only the zip's directory."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            infos = archive.infolist()
    # zipfile's own refusals of a hostile or damaged archive; RuntimeError covers an encrypted member and a
    # compression method zipfile does not know (a crafted member)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, RuntimeError):
        return "linha 1: o arquivo parece compactado mas está corrompido."
    total = sum(max(i.file_size, 0) for i in infos)
    mb = 1024 * 1024
    if total > MAX_XLSX_UNCOMPRESSED:
        return (f"linha 1: a planilha XLSX se expande para {total // mb} MB ao ser aberta; o máximo é "
                f"{MAX_XLSX_UNCOMPRESSED // mb} MB. Envie a lista em CSV ou salve-a de novo no Excel.")
    for info in infos:
        if info.file_size > RATIO_FROM_BYTES and info.file_size > MAX_XLSX_RATIO * max(info.compress_size, 1):
            return (f"linha 1: a planilha XLSX está compactada além do normal ({info.filename}: "
                    f"{info.file_size // max(info.compress_size, 1)} vezes); ela não será aberta. Salve-a de novo "
                    "no Excel ou envie a lista em CSV.")
    return None


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _xlsx_rows(content: bytes) -> tuple[list[tuple[int, list[str]]], tuple[str, ...]] | str:
    """The first sheet's rows as text, streamed (openpyxl read-only): the header row is read and checked first, so
    a workbook without the pinned columns is refused before its other rows are inflated."""
    problem = xlsx_bomb_problem(content)
    if problem is not None:
        return problem
    from openpyxl import load_workbook  # lazy: openpyxl loads only when this runs (start-up cost)

    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable workbook is a message, never a crash
        return f"linha 1: o arquivo XLSX não pôde ser lido ({exc.__class__.__name__}); salve-o de novo no Excel."
    try:
        names = book.sheetnames
        if not names:
            return "linha 1: a planilha não tem nenhuma aba."
        rows: list[tuple[int, list[str]]] = []
        try:
            for number, values in enumerate(book[names[0]].iter_rows(values_only=True), start=1):
                cells = [_cell_text(v) for v in values]
                if not rows and not any(c.strip() for c in cells):
                    continue   # blank rows above the header
                rows.append((number, cells))
                if len(rows) == 1:
                    match = match_columns(cells)
                    if match.missing:   # refused on its header: the rest of the sheet is never inflated
                        break
                if len(rows) > MAX_XLSX_ROWS:
                    return (f"linha {number}: a planilha passa de {MAX_XLSX_ROWS:,} linhas; divida a lista."
                            .replace(",", "."))
        except Exception as exc:  # noqa: BLE001 - a broken sheet is a message, never a crash
            return (f"linha {len(rows) + 1}: o arquivo XLSX não pôde ser lido ({exc.__class__.__name__}); salve-o "
                    "de novo no Excel.")
    finally:
        book.close()
    notes = (f"XLSX: lida a primeira aba, «{names[0]}»"
             + (f" (as outras {len(names) - 1} foram ignoradas)." if len(names) > 1 else "."),)
    return rows, notes


def read_platform_list(content: bytes, filename: str = "") -> ParsedList:
    """Read and validate a whole list; every error of every line, or the clean lines."""
    content = bytes(content or b"")
    if not content.strip():
        return _refused("linha 1: o arquivo está vazio.")
    if len(content) > MAX_FILE_BYTES:
        return _refused(f"linha 1: o arquivo tem {len(content) // (1024 * 1024)} MB; o máximo é "
                        f"{MAX_FILE_BYTES // (1024 * 1024)} MB.")
    if content.startswith(_OLE_MAGIC):
        return _refused("linha 1: planilha no formato antigo do Excel (.xls); salve como XLSX ou CSV.")
    if content.startswith(_ZIP_MAGIC):
        read = _xlsx_rows(content) if zipfile.is_zipfile(io.BytesIO(content)) else \
            "linha 1: o arquivo parece compactado mas está corrompido."
    else:
        read = _csv_rows(content)
    if isinstance(read, str):
        return _refused(read)
    rows, notes = read
    return validate_rows(rows, notes)


def validate_rows(rows: list[tuple[int, list[str]]], notes: tuple[str, ...] = ()) -> ParsedList:
    """Validate rows already split in cells: (file line, cells), the first one being the header."""
    rows = [(n, cells) for n, cells in rows if any(str(c).strip() for c in cells)]
    if not rows:
        return _refused("linha 1: o arquivo não tem cabeçalho nem linhas.", notes)
    header_line, header = rows[0]
    match = match_columns([str(c) for c in header])
    errors: list[LineError] = []
    for name in match.missing:
        errors.append(LineError(header_line, name, "coluna obrigatória ausente no cabeçalho "
                                                   "(veja o formato publicado da lista)."))
    for name in match.repeated:
        errors.append(LineError(header_line, name, "coluna repetida no cabeçalho."))
    if errors:
        return _finish((), errors, match.ignored, notes)
    if len(rows) == 1:
        return _finish((), [LineError(header_line, "", "a lista não tem nenhuma linha além do cabeçalho.")],
                       match.ignored, notes)
    width = len(header)
    numbers: list[int] = []
    kept: list[list[str]] = []
    for number, cells in rows[1:]:
        if len(cells) > width and any(str(c).strip() for c in cells[width:]):
            errors.append(LineError(number, "", f"a linha tem {len(cells)} células e o cabeçalho {width}."))
            continue
        if len(cells) < width:
            cells = list(cells) + [""] * (width - len(cells))
        numbers.append(number)
        kept.append(cells)
    # Column by column (issue 14: 20,000 lines ≤ 3 s): each distinct value of a column is checked once.
    columns = {key: [str(cells[i]) for cells in kept] for key, i in match.positions.items()}
    lines, problems = validate_lines(numbers, columns)
    errors.extend(problems)
    errors.extend(duplicate_errors(lines))
    return _finish(tuple(lines), errors, match.ignored, notes)


def _finish(lines, errors: list[LineError], ignored, notes) -> ParsedList:
    if not errors:
        return ParsedList(tuple(lines), (), tuple(ignored), tuple(notes), 0)
    errors.sort(key=lambda e: (e.line, list(LIST_COLUMNS.values()).index(e.column) if e.column else -1))
    shown = [str(e) for e in errors[:MAX_ERRORS]]
    if len(errors) > MAX_ERRORS:
        shown.append(f"… e mais {len(errors) - MAX_ERRORS} erros.")
    return ParsedList((), tuple(shown), tuple(ignored), tuple(notes), len(errors))
