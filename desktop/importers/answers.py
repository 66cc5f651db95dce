"""A platform's answer to a data request (Art. 4), cleaned of passengers' data before it is stored.

Art. 4 caput: "garantida a privacidade e a confidencialidade dos dados pessoais dos usuários"; SPEC §3: passengers'
identity is never kept — "not in trips, not in the stored answer to a data request, not in a log" (issue 24 item
11). The answer is read as the trip imports read their files — the header decides, by the same words
(`domain.trips.answer_column_dropped`, built on `is_passenger_field`), and a JSON object loses the passenger's keys
as it is decoded — and only the cleaned file is returned to be kept, with the names of the columns dropped (never
their values).

- CSV (any of ; , tab |, UTF-8 or Windows-1252): rewritten in UTF-8 with the same separator, the dropped columns out.
- JSON (MDS 2.x or any shape): every object loses its passenger keys, at any depth.
- XLSX (recognised by its bytes): every sheet's first row is its header; the dropped columns are left out.
- Anything else (PDF, images, archives) cannot be cleaned column by column and is refused, with a message that
  says which formats are accepted.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass

from desktop.domain.problems import Problem
from desktop.domain.trips import answer_column_dropped
from desktop.errors import ValidationError

ARTICLE = "Art. 4"
FORMATS = "CSV, XLSX ou JSON"


@dataclass(frozen=True, slots=True)
class CleanAnswer:
    content: bytes                 # the file to keep: the passengers' columns are gone
    dropped: tuple[str, ...]       # the names of the columns (or keys) dropped, as written, in order of appearance
    kind: str                      # "csv" | "json" | "xlsx"


def _refuse(message: str) -> ValidationError:
    return ValidationError([Problem("file", message, ARTICLE)])


def _kind(content: bytes, filename: str) -> str:
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if content[:4] == b"PK\x03\x04":
        if ext == "xlsx":
            return "xlsx"
        raise _refuse(f"A resposta «{filename}» é um arquivo compactado: envie-a em {FORMATS}, para que os dados "
                      "dos passageiros sejam descartados antes de guardá-la (Art. 4).")
    head = content.lstrip()[:1]
    if ext == "json" or (head in (b"{", b"[") and ext not in ("csv", "txt")):
        return "json"
    if ext in ("csv", "txt", ""):
        return "csv"
    raise _refuse(f"A resposta «{filename}» não pode ser limpa dos dados dos passageiros: envie-a em {FORMATS} "
                  "(Art. 4: os dados pessoais dos usuários não são guardados).")


def _decode(content: bytes) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")


def _clean_csv(content: bytes) -> CleanAnswer:
    text = _decode(content)
    first = text.split("\n", 1)[0]
    delimiter = max(";,\t|", key=first.count) if any(c in first for c in ";,\t|") else ";"
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        raise _refuse(f"A resposta não pôde ser lida como CSV ({exc}).") from None
    if not rows:
        return CleanAnswer(b"", (), "csv")
    header = rows[0]
    dropped_at = [i for i, name in enumerate(header) if answer_column_dropped(name)]
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    gone = set(dropped_at)
    for row in rows:
        writer.writerow([cell for i, cell in enumerate(row) if i not in gone])
    return CleanAnswer(out.getvalue().encode("utf-8-sig"), tuple(header[i].strip() for i in dropped_at), "csv")


def _clean_json(content: bytes) -> CleanAnswer:
    dropped: dict[str, None] = {}

    def hook(obj: dict) -> dict:
        for key in [k for k in obj if answer_column_dropped(k)]:
            dropped.setdefault(key)
            del obj[key]
        return obj

    try:
        doc = json.loads(_decode(content), object_hook=hook)
    except json.JSONDecodeError as exc:
        raise _refuse(f"A resposta não é um JSON válido (linha {exc.lineno}).") from None
    except RecursionError:
        raise _refuse("A resposta tem níveis demais para ser lida como JSON.") from None
    body = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
    return CleanAnswer(body, tuple(dropped), "json")


def _clean_xlsx(content: bytes) -> CleanAnswer:
    from openpyxl import Workbook, load_workbook  # lazy: openpyxl loads only when an XLSX answer arrives

    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise _refuse(f"A resposta não pôde ser lida como XLSX ({type(exc).__name__}).") from None
    clean = Workbook(write_only=True)
    dropped: dict[str, None] = {}
    try:
        for sheet in book.worksheets:
            target = clean.create_sheet(sheet.title)
            gone: set[int] = set()
            for n, row in enumerate(sheet.iter_rows(values_only=True)):
                if n == 0:
                    for i, name in enumerate(row):
                        if name is not None and answer_column_dropped(str(name)):
                            gone.add(i)
                            dropped.setdefault(str(name).strip())
                target.append([cell for i, cell in enumerate(row) if i not in gone])
    finally:
        book.close()
    out = io.BytesIO()
    clean.save(out)
    return CleanAnswer(out.getvalue(), tuple(dropped), "xlsx")


def clean_answer(content: bytes, filename: str) -> CleanAnswer:
    """The answer without the passengers' columns, and the names dropped. `ValidationError` on field `file` for a
    file that cannot be read or cleaned (Art. 4)."""
    kind = _kind(bytes(content), filename or "")
    if kind == "xlsx":
        return _clean_xlsx(content)
    if kind == "json":
        return _clean_json(content)
    return _clean_csv(content)
