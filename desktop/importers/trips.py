"""Readers of the trip files platforms deliver (Art. 4 §1; issue 15): the pinned CSV and MDS 2.x JSON, with the
optional route points (CSV `ID da viagem;Momento;Lat;Lon` or MDS telemetry).

Passengers are never kept (Art. 4 caput): a CSV column that identifies a passenger is not even parsed (pandas'
`usecols` reads only the pinned columns) and a JSON field that does is removed by the decoder's `object_hook`
as each object is decoded, before the trip is looked at. The reader reports the names dropped, never values; no
error message quotes a cell of a dropped column, and nothing is written to a temporary file.

Parsing is vectorised, chunk by chunk (`CHUNK_ROWS` rows): each chunk comes out as a `TripChunk` of final values
(UTC instants as datetime64[us], local months, integers in cents/metres/hundredths) or as the errors of its
lines (`linha N, coluna X: …`). The caller (services.trips) writes each clean chunk inside one transaction and
refuses the whole file when any chunk had an error.
"""
from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from desktop.domain.clock import TIMEZONE
from desktop.domain.limits import (
    TRIP_MAX_DISTANCE_M,
    TRIP_MAX_DURATION_S,
    TRIP_MAX_FARE_CENTS,
    TripWindow,
    trip_window,
)
from desktop.domain.trips import (
    CSV_COLUMNS,
    FARE_COLUMNS,
    ROUTE_COLUMNS,
    MDS_HAIL_TYPES,
    HeaderMatch,
    hail_key_map,
    header_key,
    is_passenger_field,
    match_header,
)
from desktop.importers.platform_list import csv_error_text
import codecs
from desktop.domain.clock import now
from desktop.domain.trips import DEFAULT_RETENTION_MONTHS, retention_cutoff
import pyarrow.csv as pacsv

CHUNK_ROWS = 20_000
WIDTH_BLOCK = 4 * 1024 * 1024
MAX_ERRORS = 200
MEMO_LIMIT = 100_000   # distinct plates/CPFs remembered per file
_ISO_OFFSET = r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$"
_MONEY = re.compile(r"^-?\d+(\.\d{1,2})?$")
_PLATE = r"^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$"


class TripFileError(Exception):
    """The file cannot be read at all (not CSV/JSON, no header, missing columns): `errors` name the lines."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass
class TripChunk:
    """Clean values of consecutive trips (numpy arrays / lists of the same length)."""

    first_row: int                    # ordinal (1-based) of the chunk's first trip in the file
    external_id: np.ndarray
    plate: np.ndarray
    driver_cpf: np.ndarray
    started_us: np.ndarray            # int64 µs since the epoch, UTC
    ended_us: np.ndarray              # int64, NaT as INT64_MIN -> see `ended_ok`
    ended_ok: np.ndarray
    month: np.ndarray                 # YYYYMM of the local start
    floats: dict[str, np.ndarray]     # origin/destination lat/lon (NaN = none)
    ints: dict[str, pd.Series]        # distance_m, duration_s, fare_* cents, rating hundredths (Int64, NA = none)
    hail_type: np.ndarray

    def __len__(self) -> int:
        return len(self.external_id)


@dataclass
class ReadState:
    format: str = "csv"
    dropped: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    error_count: int = 0
    total_rows: int = 0               # an estimate for progress (lines of the file)
    fare_mismatches: int = 0          # trips whose fare parts do not add up to the total (flagged, not refused)
    fare_mismatch_lines: list[str] = field(default_factory=list)

    def error(self, message: str) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(message)

    def fare_note(self) -> str | None:
        """The import report's line on trips whose fare parts do not add up to the total (issue 25 item 1)."""
        if not self.fare_mismatches:
            return None
        shown = "; ".join(self.fare_mismatch_lines)
        more = f" e mais {self.fare_mismatches - len(self.fare_mismatch_lines)}" \
            if self.fare_mismatches > len(self.fare_mismatch_lines) else ""
        return (f"Atenção: {self.fare_mismatches} viagem(ns) com a soma das partes da tarifa (base, distância, tempo, "
                f"taxa da plataforma, outros) diferente do valor total — {shown}{more}.")


def shown_text(value, limit: int = 40) -> str:
    """A cell quoted in a message: control characters shown as \\xNN (a NUL, a CR or a LF never reach a message,
    a log or the audit log raw) and at most `limit` characters."""
    text = str(value)
    cut = text[:limit]
    cut = "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}"
                  for ch in cut)
    return cut + ("…" if len(text) > limit else "")


# ------------------------------------------------------------------------------------------------ helpers
def _decode_name(content: bytes) -> str:
    """UTF-8 when the whole file decodes as UTF-8 (checked 1 MB at a time: never one long call holding the
    interpreter while the screen waits), else Windows-1252."""

    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(content)
    try:
        for start in range(0, len(content), 1 << 20):
            decoder.decode(view[start:start + (1 << 20)])
        decoder.decode(b"", final=True)
        return "utf-8-sig"
    except UnicodeDecodeError:
        return "cp1252"


def _first_char(content: bytes) -> bytes:
    """The first non-blank byte (b"" for a blank file), without copying the file."""
    for start in range(0, len(content), 1 << 16):
        head = content[start:start + (1 << 16)].lstrip()
        if head:
            return head[:1]
    return b""


def _first_line(content: bytes, encoding: str) -> str:
    head = content[:65536].split(b"\n", 1)[0]
    return head.decode(encoding, errors="replace").rstrip("\r")


def _text(values) -> pa.Array:
    """A column as an Arrow string array without nulls (Arrow's kernels are C++: no Python loop per cell)."""
    arr = pa.array(values, type=pa.string(), from_pandas=True) if not isinstance(values, (pa.Array,
                                                                                       pa.ChunkedArray)) else values
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    return pc.fill_null(arr, "")


def _np(mask) -> np.ndarray:
    return np.asarray(mask.to_numpy(zero_copy_only=False), dtype=bool)


def _by_unique(values: pa.Array, fn, many=None, memo: dict | None = None) -> np.ndarray:
    """`fn(text) -> value` (or `many(texts) -> values`) applied once per distinct text (CPFs, plates and hail
    types repeat a lot), and once per file with `memo` (the reader's, shared by its chunks)."""
    encoded = pc.dictionary_encode(values)
    distinct = encoded.dictionary.to_pylist()
    if memo is not None:
        new = [v for v in distinct if v not in memo]
        if new:
            values_of_new = list(many(new)) if many else [fn(v) for v in new]
            if len(memo) < MEMO_LIMIT:
                memo.update(zip(new, values_of_new))
            else:   # a file of ever new plates: no unbounded cache (the values are still computed once a chunk)
                memo = {**{v: memo[v] for v in distinct if v in memo}, **dict(zip(new, values_of_new))}
        mapped = np.array([memo[v] for v in distinct] + [None], dtype=object)
    else:
        mapped = np.array((list(many(distinct)) if many else [fn(v) for v in distinct]) + [None], dtype=object)
    codes = encoded.indices.to_numpy(zero_copy_only=False)
    return mapped[codes]


def _cpf_ok(digits: list[str]) -> np.ndarray:
    """CPF check digits, vectorised over a list of digit strings."""
    ok = np.array([len(d) == 11 for d in digits], dtype=bool)
    if not ok.any():
        return ok
    padded = [d if good else "00000000000" for d, good in zip(digits, ok)]
    arr = np.frombuffer("".join(padded).encode("ascii"), dtype=np.uint8).reshape(-1, 11).astype(np.int64) - 48
    d1 = (arr[:, :9] * np.arange(10, 1, -1)).sum(axis=1) * 10 % 11 % 10
    d2 = (arr[:, :10] * np.arange(11, 1, -1)).sum(axis=1) * 10 % 11 % 10
    same = (arr == arr[:, :1]).all(axis=1)
    return ok & (d1 == arr[:, 9]) & (d2 == arr[:, 10]) & ~same


def _cpfs_of(texts: list[str]) -> list[str | None]:
    digits = [re.sub(r"[^0-9]", "", t or "") for t in texts]
    return [d if ok else None for d, ok in zip(digits, _cpf_ok(digits))]


def _plate_of(text: str) -> str | None:
    plate = re.sub(r"[^A-Z0-9]", "", (text or "").upper())
    return plate if re.match(_PLATE, plate) else None


def _hail_of(text: str) -> str | None:
    return hail_key_map().get(header_key(text))


def _nullable_ints(values: np.ndarray, missing: np.ndarray) -> pd.Series:
    return pd.Series(pd.arrays.IntegerArray(np.where(missing, 0, values).astype(np.int64), missing.copy()))


_NUMBER = r"^[+-]?(\d+(\.\d*)?|\.\d+)$"


_CENTS_COMMA = r"^\d{1,13},\d{2}$"      # 12,34 — how platforms write a fare almost always
_WHOLE = r"^\d{1,13}$"


def _all(mask) -> bool:
    return bool(pc.all(mask).as_py())


def _money_cents(values) -> tuple[pd.Series, np.ndarray, np.ndarray]:
    """`1.234,56` or `1234.56` → Int64 cents; (values, bad mask, out-of-range mask). Empty → NA.

    A column whose every cell is `12,34` (or every cell a whole number of reais) becomes cents by Arrow's integer
    cast alone, exact and without the general path's ten kernels; any other column takes the general path. Both
    apply the same limits (`domain.limits`: 0 to TRIP_MAX_FARE a trip): a cell past them is flagged, and its
    value never reaches an integer cast (20 nines no longer overflow to -9223372036854775808)."""
    text = _text(values)
    none_bad = np.zeros(len(text), dtype=bool)
    if len(text) and _all(pc.match_substring_regex(text, _CENTS_COMMA)):
        cents = pc.cast(pc.replace_substring(text, ",", ""), pa.int64()).to_numpy()
        out = cents > TRIP_MAX_FARE_CENTS
        return _nullable_ints(np.where(out, 0, cents), none_bad), none_bad, out
    if len(text) and _all(pc.match_substring_regex(text, _WHOLE)):
        cents = pc.cast(text, pa.int64()).to_numpy() * 100
        out = cents > TRIP_MAX_FARE_CENTS
        return _nullable_ints(np.where(out, 0, cents), none_bad), none_bad, out
    s = pc.utf8_trim_whitespace(pc.replace_substring(text, "R$", ""))
    empty = _np(pc.equal(s, ""))
    brazil = pc.replace_substring(pc.replace_substring(s, ".", ""), ",", ".")
    s = pc.if_else(pc.match_substring(s, ","), brazil, s)
    good = _np(pc.match_substring_regex(s, _MONEY.pattern))
    num = pc.cast(pc.if_else(pa.array(good & ~empty), s, pa.scalar(None, pa.string())), pa.float64())
    floats = num.to_numpy(zero_copy_only=False)
    missing = np.isnan(floats)
    cents = np.rint(np.clip(np.nan_to_num(floats), -1e15, 1e15) * 100)
    out = ~missing & ((cents < 0) | (cents > TRIP_MAX_FARE_CENTS))
    cents[out] = 0
    return _nullable_ints(cents, missing), ~good & ~empty, out


def _decimal(values) -> tuple[pd.Series, np.ndarray, np.ndarray]:
    """A decimal number with `.` or `,` → float Series; (values, bad mask, empty mask).

    A column of plain numbers (no comma, no blank: coordinates, metres, seconds) is cast by Arrow at once when
    every cell is a finite number; otherwise, or when one cell is not, the general path names each bad cell."""
    text = _text(values)
    if len(text) and not pc.any(pc.or_(pc.match_substring(text, ","), pc.equal(text, ""))).as_py():
        try:
            num = pc.cast(text, pa.float64())
        except pa.ArrowInvalid:
            num = None
        if num is not None and _all(pc.is_finite(num)):
            none = np.zeros(len(text), dtype=bool)
            return pd.Series(num.to_numpy(zero_copy_only=False)), none, none
    s = pc.replace_substring(pc.utf8_trim_whitespace(text), ",", ".")
    empty = _np(pc.equal(s, ""))
    good = _np(pc.match_substring_regex(s, _NUMBER))
    num = pc.cast(pc.if_else(pa.array(good), s, pa.scalar(None, pa.string())), pa.float64())
    floats = num.to_numpy(zero_copy_only=False)
    infinite = np.isinf(floats)            # "1e999" matches the pattern and casts to infinity
    if infinite.any():
        floats = np.where(infinite, np.nan, floats)
        good = good & ~infinite
    return pd.Series(floats), ~good & ~empty, empty


def _bounded_ints(num: pd.Series, limit: float, scale: float = 1) -> tuple[pd.Series, np.ndarray]:
    """`num * scale` rounded to Int64 where 0 ≤ num ≤ limit; (values, out-of-range mask). A value out of range is
    NA before the cast (1e300 metres can no longer end in "cannot safely cast non-equivalent float64 to int64")."""
    values = num.to_numpy(dtype=float, na_value=np.nan)
    out = ~np.isnan(values) & ((values < 0) | (values > limit))
    if out.any():
        values = np.where(out, np.nan, values)
    return pd.Series(np.rint(values * scale) if scale != 1 else np.rint(values)).astype("Int64"), out


def _instants(values) -> tuple[pd.Series, np.ndarray, np.ndarray]:
    """DD/MM/AAAA HH:MM:SS (Cuiabá) or ISO 8601 with an offset → UTC Series; (utc, bad, empty)."""
    s = pc.utf8_trim_whitespace(_text(values))
    empty = _np(pc.equal(s, ""))
    local = pc.strptime(s, format="%d/%m/%Y %H:%M:%S", unit="s", error_is_null=True)
    # strptime rolls 31/02 over to 03/03: a date is valid only if it prints back the same
    day = pc.cast(pc.if_else(pc.is_null(local), "0", pc.utf8_slice_codeunits(s, 0, 2)), pa.int64())
    month = pc.cast(pc.if_else(pc.is_null(local), "0", pc.utf8_slice_codeunits(s, 3, 5)), pa.int64())
    same = pc.and_(pc.equal(pc.day(local), day), pc.equal(pc.month(local), month))
    local = pc.if_else(pc.fill_null(same, False), local, pa.scalar(None, local.type))
    naive = pd.Series(pc.cast(local, pa.timestamp("us")).to_numpy(zero_copy_only=False)).astype("datetime64[us]")
    utc = naive.dt.tz_localize(TIMEZONE, ambiguous="NaT", nonexistent="NaT").dt.tz_convert("UTC")
    iso = utc.isna().to_numpy() & ~empty
    if iso.any():
        text = pd.Series(s.to_numpy(zero_copy_only=False), dtype=object)[iso]
        text = text[text.str.match(_ISO_OFFSET)]
        if len(text):
            utc = utc.copy()
            utc[text.index] = pd.to_datetime(text, format="ISO8601", utc=True, errors="coerce").dt.as_unit("us")
    bad = utc.isna().to_numpy() & ~empty
    return utc, bad, empty


class _Checker:
    """Collects the errors of one chunk, in the order of the lines."""

    def __init__(self, label_of, columns: dict[str, str]):
        self.label_of = label_of
        self.columns = columns
        self.found: list[tuple[int, int, str]] = []
        self.order = {k: i for i, k in enumerate(columns)}

    def add(self, mask, key: str, message: str) -> None:
        mask = np.asarray(mask, dtype=bool)
        if mask.any():
            for i in np.flatnonzero(mask)[:MAX_ERRORS]:
                self.found.append((int(i), self.order.get(key, 0), f"{self.label_of(i)}, coluna «{self.columns[key]}»: "
                                                               f"{message}"))

    def messages(self) -> list[str]:
        return [m for _, _, m in sorted(self.found)]


_CONTROL = "[\\x00-\\x1f\\x7f-\\x{9f}]"   # RE2: NUL, tab, CR, LF and the other control characters


def default_window() -> TripWindow:
    """The window of a reader not told one: the default retention period back from the program's clock."""

    moment = now()
    return trip_window(moment, retention_cutoff(moment.date(), DEFAULT_RETENTION_MONTHS))


def _instant_out(instants: pd.Series, window: TripWindow) -> tuple[np.ndarray, np.ndarray]:
    """(before the window, after it) of UTC instants (NaT is neither)."""
    us = instants.dt.tz_localize(None).to_numpy(dtype="datetime64[us]").astype(np.int64)
    ok = instants.notna().to_numpy()
    return ok & (us < window.earliest_us), ok & (us > window.latest_us)


def _frame_to_chunk(frame, label_of, first_row: int, state: ReadState,
                    memo: dict | None = None, window: TripWindow | None = None) -> TripChunk | None:
    """Validate a chunk of text columns (CSV_COLUMNS keys) and convert it; None when it had errors. A value that
    could still not be converted (a bug of a check above) refuses the chunk's lines, in Portuguese, instead of
    ending the import in an English traceback."""
    try:
        return _checked_chunk(frame, label_of, first_row, state, memo, window or default_window())
    except (OverflowError, ValueError, TypeError, ArithmeticError, pa.ArrowException) as exc:
        n = len(frame["external_id"])
        state.error(f"{label_of(0)} a {label_of(n - 1)}: valores que não puderam ser convertidos "
                    f"({type(exc).__name__}); confira números e datas dessas linhas.")
        return None


def _checked_chunk(frame, label_of, first_row: int, state: ReadState, memo: dict | None,
                   window: TripWindow) -> TripChunk | None:
    frame = dict(frame)
    n = len(frame["external_id"])
    for key in CSV_COLUMNS:
        if key not in frame:
            frame[key] = pa.nulls(n, pa.string())
    check = _Checker(label_of, CSV_COLUMNS)
    ext_arr = pc.utf8_trim_whitespace(_text(frame["external_id"]))
    ext = pd.Series(ext_arr.to_numpy(zero_copy_only=False), dtype=object)
    check.add(_np(pc.equal(ext_arr, "")), "external_id", "o identificador da viagem é obrigatório.")
    check.add(_np(pc.greater(pc.utf8_length(ext_arr), 80)), "external_id", "o identificador tem mais de 80 "
                                                                         "caracteres.")
    check.add(_np(pc.match_substring_regex(ext_arr, _CONTROL)), "external_id",
              "o identificador contém um caractere de controle (NUL, tabulação, quebra de linha), que não pode ser "
              "gravado.")
    dup_here = ext.duplicated(keep="first") & ext.ne("")
    check.add(dup_here.to_numpy(), "external_id", "viagem repetida no arquivo.")
    memo = {} if memo is None else memo
    plate = _by_unique(_text(frame["plate"]), _plate_of, memo=memo.setdefault("plate", {}))
    check.add(pd.isna(plate), "plate", "placa inválida (AAA0A00 ou AAA0000).")
    cpf = _by_unique(_text(frame["driver_cpf"]), None, _cpfs_of, memo=memo.setdefault("cpf", {}))
    check.add(pd.isna(cpf), "driver_cpf", "CPF do condutor inválido.")
    started, bad, empty = _instants(frame["started_at"])
    check.add(bad, "started_at", "data-hora inválida (DD/MM/AAAA HH:MM:SS ou ISO 8601 com fuso).")
    check.add(empty, "started_at", "a data-hora de início é obrigatória.")
    early, late = _instant_out(started, window)
    check.add(early, "started_at", f"início anterior a {window.earliest_text}, fora do prazo de retenção dos dados "
                                   "de viagens (Art. 4).")
    check.add(late, "started_at", f"início posterior ao momento da importação ({window.latest_text}).")
    ended, bad_end, _ = _instants(frame["ended_at"])
    check.add(bad_end, "ended_at", "data-hora inválida (DD/MM/AAAA HH:MM:SS ou ISO 8601 com fuso).")
    check.add((ended < started).fillna(False).to_numpy(), "ended_at", "o fim é anterior ao início.")
    _, end_late = _instant_out(ended, window)
    check.add(end_late, "ended_at", f"fim posterior ao momento da importação ({window.latest_text}).")
    too_long = ((ended - started) > pd.Timedelta(seconds=TRIP_MAX_DURATION_S)).fillna(False).to_numpy()
    check.add(too_long & ~end_late, "ended_at", "o fim é mais de 24 horas depois do início.")
    floats: dict[str, np.ndarray] = {}
    for key, limit in (("origin_lat", 90), ("origin_lon", 180), ("destination_lat", 90), ("destination_lon", 180)):
        num, bad, _ = _decimal(frame[key])
        out = (num.abs() > limit).fillna(False).to_numpy()
        check.add(bad | out, key, f"coordenada inválida (graus decimais entre -{limit} e {limit}).")
        floats[key] = num.to_numpy(dtype=float, na_value=np.nan)
    ints: dict[str, pd.Series] = {}
    for key, limit, words in (("distance_m", TRIP_MAX_DISTANCE_M, "de 0 a 1.000.000 metros"),
                              ("duration_s", TRIP_MAX_DURATION_S, "de 0 a 86.400 segundos")):
        num, bad, _ = _decimal(frame[key])
        ints[key], out = _bounded_ints(num, limit)
        check.add(bad, key, "número inválido (inteiro, sem unidades).")
        check.add(out & ~bad, key, f"valor fora do limite aceito ({words}).")
    for key in FARE_COLUMNS:
        cents, bad, out = _money_cents(frame[key])
        check.add(bad, key, "valor inválido (use 1.234,56 ou 1234.56).")
        check.add(out, key, "valor fora do limite aceito (de 0,00 a 10.000,00 por viagem).")
        if key == "fare_total":
            check.add(cents.isna().to_numpy() & ~bad & ~out, key, "o valor total é obrigatório.")
        ints[key] = cents
    rating, bad, _ = _decimal(frame["rating"])
    ints["rating"], out = _bounded_ints(rating, 5, 100)
    check.add(bad | out, "rating", "avaliação inválida (de 0 a 5).")
    if "mds_hail" in frame:
        mds = pd.Series(_text(frame["mds_hail"]).to_numpy(zero_copy_only=False), dtype=object)
        hail = mds.where(mds.isin(MDS_HAIL_TYPES))
        check.add((mds.ne("") & hail.isna()).to_numpy(), "hail",
                  "hail_type inválido (street_hail, phone_dispatch, phone, text ou app).")
        hail = hail.astype(object).where(hail.notna(), None).to_numpy(dtype=object)
    else:
        hail = _by_unique(_text(frame["hail"]), _hail_of, memo=memo.setdefault("hail", {}))
        check.add(pd.isna(hail), "hail", "tipo de chamada inválido (aplicativo ou via pública).")
    errors = check.messages()
    if errors:
        for message in errors:
            state.error(message)
        return None
    _flag_fare_parts(ints, label_of, state)
    local = started.dt.tz_convert(TIMEZONE)
    month = (local.dt.year * 100 + local.dt.month).to_numpy(dtype=np.int64)
    started_us = started.dt.tz_localize(None).to_numpy(dtype="datetime64[us]").astype(np.int64)
    ended_ok = ended.notna().to_numpy()
    ended_us = ended.dt.tz_localize(None).to_numpy(dtype="datetime64[us]").astype(np.int64)
    return TripChunk(first_row, ext.to_numpy(dtype=object), plate, cpf, started_us, ended_us, ended_ok, month,
                     floats, ints, hail)


def _flag_fare_parts(ints: dict[str, pd.Series], label_of, state: ReadState) -> None:
    """Trips whose fare parts (any given) do not add up to the total: counted and named on the import report, not
    refused (a platform may leave a part out)."""
    parts = [ints[k] for k in FARE_COLUMNS if k != "fare_total"]
    given = np.zeros(len(ints["fare_total"]), dtype=bool)
    total = np.zeros(len(given), dtype=np.int64)
    for part in parts:
        given |= part.notna().to_numpy()
        total += part.fillna(0).to_numpy(dtype=np.int64)
    if not given.any():
        return
    wrong = given & (total != ints["fare_total"].fillna(0).to_numpy(dtype=np.int64))
    room = 10 - len(state.fare_mismatch_lines)
    if room > 0:
        state.fare_mismatch_lines.extend(str(label_of(int(i))) for i in np.flatnonzero(wrong)[:room])
    state.fare_mismatches += int(wrong.sum())


# ------------------------------------------------------------------------------------------------ CSV
class TripReader:
    """`for chunk in reader:` yields clean chunks; afterwards `state.errors` says whether the file is refused."""

    def __init__(self, content: bytes, filename: str = "", chunk_rows: int | None = None,
                 window: TripWindow | None = None):
        self.content = bytes(content or b"")
        self.filename = filename
        self.chunk_rows = chunk_rows or CHUNK_ROWS
        self.window = window or default_window()   # the instants a trip may have (domain.limits.trip_window)
        self.state = ReadState()
        stripped = _first_char(self.content)
        if not stripped:
            raise TripFileError(["linha 1: o arquivo está vazio."])
        self.state.format = "mds" if stripped in (b"{", b"[") else "csv"
        if self.state.format == "csv":
            self._open_csv()
        else:
            self._open_mds()

    # -- CSV
    def _open_csv(self) -> None:
        self.encoding = _decode_name(self.content)
        header = _first_line(self.content, self.encoding).lstrip("\ufeff")
        self.sep = ";" if header.count(";") >= header.count(",") else ","
        names = [h.strip().strip('"') for h in header.split(self.sep)]
        match: HeaderMatch = match_header(names)
        self.state.dropped = list(match.dropped)
        self.state.ignored = list(match.ignored)
        problems = [f"linha 1, coluna «{name}»: coluna obrigatória ausente no cabeçalho." for name in match.missing]
        problems += [f"linha 1, coluna «{name}»: coluna repetida no cabeçalho." for name in match.repeated]
        if problems:
            raise TripFileError(problems)
        self.match = match
        self.width = len(names)
        sample = self.content[:1 << 20]
        self.state.total_rows = max(int(len(self.content) / (len(sample) / max(sample.count(b"\n"), 1))) - 1, 1)
        self.state.notes.append(f"CSV ({'UTF-8' if self.encoding.startswith('utf') else 'Windows-1252'}), "
                                f"separador «{self.sep}».")

    def _check_widths(self) -> np.ndarray:
        """Every line must have the header's number of cells (a reader would otherwise drop or pad cells
        silently): the separators of each line are counted with numpy (the csv module when the file has
        quotes). Returns the file line number of each data row (blank lines skipped), for the messages."""
        sep = self.sep.encode()
        want = self.width
        if b'"' in self.content:
            import csv  # local: imported only on this branch

            numbers = []
            reader = csv.reader(io.StringIO(self.content.decode(self.encoding), newline=""), delimiter=self.sep)
            start = 1
            try:
                for cells in reader:
                    if start > 1 and cells:
                        if len(cells) != want:
                            self.state.error(f"linha {start}: a linha tem {len(cells)} células e o cabeçalho "
                                             f"{want}.")
                        numbers.append(start)
                    start = reader.line_num + 1
            except csv.Error as exc:
                self.state.error(f"linha {start}: {csv_error_text(exc)}")
            return np.array(numbers, dtype=np.int64)
        rows, total, position, size = [], 0, 0, len(self.content)
        wrong_count = 0
        while position < size:   # in blocks of whole lines: bounded memory, short numpy calls (the UI thread runs)
            end = self.content.find(b"\n", min(position + WIDTH_BLOCK, size))
            end = size if end < 0 else end + 1
            data = np.frombuffer(self.content, dtype=np.uint8, count=end - position, offset=position)
            ends = np.flatnonzero(data == 10)
            if not len(ends) or ends[-1] != len(data) - 1:
                ends = np.append(ends, len(data))
            starts = np.concatenate(([0], ends[:-1] + 1))
            lengths = ends - starts
            has_cr = np.zeros(len(ends), dtype=bool)
            nonempty = lengths > 0
            has_cr[nonempty] = data[np.minimum(ends[nonempty] - 1, len(data) - 1)] == 13
            blank = (lengths - has_cr) == 0
            is_sep = (data == sep[0]).astype(np.int32)
            per_line = np.add.reduceat(is_sep, starts) if len(data) else np.zeros(0, dtype=np.int64)
            per_line[lengths == 0] = 0
            numbers = np.arange(total + 1, total + len(ends) + 1)
            wrong = ~blank & (per_line != want - 1) & (numbers > 1)
            for index in np.flatnonzero(wrong):
                wrong_count += 1
                if wrong_count <= MAX_ERRORS:
                    self.state.error(f"linha {numbers[index]}: a linha tem {per_line[index] + 1} células e o "
                                     f"cabeçalho {want}.")
            rows.append(numbers[~blank])
            total += len(ends)
            position = end
        if wrong_count > MAX_ERRORS:
            self.state.error_count += wrong_count - MAX_ERRORS
        lines = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        return lines[lines > 1]

    def _unnamed_width_error(self) -> str:
        """Arrow saw a line of the wrong width that the count of separators per line did not: a carriage return
        alone inside a line (Arrow ends the line there). Names its line."""
        bare = re.search(rb"\r(?!\n)", self.content)
        if bare is not None:
            line = self.content.count(b"\n", 0, bare.start()) + 1
            return (f"linha {line}: um retorno de carro (CR) no meio da linha, fora de aspas; o arquivo não pode "
                    "ser lido como CSV.")
        return "o arquivo não pôde ser lido como CSV (linhas com células a mais ou a menos)."

    def _csv_chunks(self) -> Iterator[TripChunk]:
        """Clean chunks of the CSV. A file without quotes (the usual case) is not scanned beforehand: Arrow's
        reader reports a line whose cells do not match the header (`invalid_row_handler`, which is not told the
        line's number nor ever handed its text here), and only then — or when a cell has an error — are the lines
        counted to name them (`_check_widths`). A file with quotes is checked line by line first (the csv module
        knows where a quoted line ends)."""

        by_index = {i: key for key, i in self.match.positions.items()}
        quoted = b'"' in self.content
        lines: list[np.ndarray] = []
        if quoted:
            lines.append(self._check_widths())
            if self.state.errors:
                return  # the file is refused on its shape: its cells are not read at all

        def line_numbers() -> np.ndarray:
            """File line of each data row Arrow reads (it skips blank lines), counted once, when first needed."""
            if not lines:
                lines.append(self._check_widths())
            return lines[0]

        wrong_width: list[int] = []

        def on_invalid_row(row) -> str:
            wrong_width.append(1)
            return "skip"

        names = [f"c{i}" for i in range(self.width)]
        per_row = len(self.content) / max(self.state.total_rows, 1)
        # about `chunk_rows` rows per batch; never past what Arrow's 32-bit block size holds (a file of a few
        # 10 MB lines made the estimate overflow it: "value too large to convert to int32_t")
        block = min(max(1024, int(self.chunk_rows * per_row * 1.05)), 1 << 28)
        wanted = [f"c{i}" for i in sorted(by_index)]
        memo: dict = {}
        try:
            reader = pacsv.open_csv(
                io.BytesIO(self.content),
                read_options=pacsv.ReadOptions(column_names=names, skip_rows=1, block_size=block, use_threads=False,
                                               encoding="utf8" if self.encoding.startswith("utf") else "cp1252"),
                parse_options=pacsv.ParseOptions(delimiter=self.sep, newlines_in_values=quoted,
                                                 invalid_row_handler=None if quoted else on_invalid_row),
                convert_options=pacsv.ConvertOptions(include_columns=wanted,
                                                     column_types={n: pa.string() for n in wanted},
                                                     strings_can_be_null=False, quoted_strings_can_be_null=False))
            offset = 0
            for batch in reader:
                if wrong_width:
                    line_numbers()   # names every line whose cells do not match the header
                    if not self.state.errors:
                        self.state.error(self._unnamed_width_error())
                    return
                n = batch.num_rows
                if not n:
                    continue
                rows = np.arange(offset, offset + n)
                offset += n
                cols = {by_index[int(name[1:])]: batch.column(name) for name in batch.schema.names}
                # a row is blank only if its trip id is (a required cell): the other cells are looked at only then
                blank = _np(pc.equal(pc.utf8_trim_whitespace(_text(cols["external_id"])), ""))
                if blank.any():
                    for column in cols.values():
                        blank &= _np(pc.equal(pc.utf8_trim_whitespace(_text(column)), ""))
                if blank.any():
                    keep = pa.array(~blank)
                    cols = {k: pc.filter(v, keep) for k, v in cols.items()}
                    rows = rows[~blank]
                if not len(rows):
                    continue
                chunk = _frame_to_chunk(cols, lambda i, rows=rows: f"linha {line_numbers()[rows[i]]}",
                                        int(rows[0]) + 1, self.state, memo, self.window)
                if chunk is not None:
                    yield chunk
            if wrong_width:
                line_numbers()
                if not self.state.errors:
                    self.state.error(self._unnamed_width_error())
        except (pa.ArrowInvalid, UnicodeDecodeError):
            self.state.error("o arquivo não pôde ser lido como CSV (aspas, separadores ou codificação "
                             "desencontrados).")

    # -- MDS 2.x
    def _open_mds(self) -> None:
        dropped: set[str] = set()
        hook = _dropping_passenger_fields(dropped)

        try:
            text = self.content.decode("utf-8-sig")
            doc = _json_loads(text, hook)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            line = getattr(exc, "lineno", 1)
            raise TripFileError([f"linha {line}: o arquivo não é um JSON válido do MDS."]) from None
        except RecursionError:
            raise TripFileError([_too_deep(self.content)]) from None
        del text
        self.state.dropped = sorted(dropped)
        version = str(doc.get("version", "")) if isinstance(doc, dict) else ""
        trips = doc.get("data", {}).get("trips") if isinstance(doc, dict) and isinstance(doc.get("data"), dict) \
            else None
        if not version.startswith("2.") or not isinstance(trips, list):
            raise TripFileError(['linha 1: esperado MDS 2.x: {"version": "2.x", "data": {"trips": [...]}}.'])
        self.trips = trips
        self.state.total_rows = len(trips)
        self.state.notes.append(f"MDS {version} (passenger services), {len(trips)} viagens.")

    def _mds_chunks(self) -> Iterator[TripChunk]:
        ignored: set[str] = set()
        known = {"trip_id", "start_time", "end_time", "start_location", "end_location", "duration", "distance",
                 "trip_attributes", "fare_attributes", "actual_cost", "currency", "vehicle_attributes",
                 "provider_id", "device_id", "vehicle_id", "journey_id", "rating"}
        for start in range(0, len(self.trips), self.chunk_rows):
            part = self.trips[start:start + self.chunk_rows]
            rows = []
            for i, t in enumerate(part):
                if not isinstance(t, dict):
                    t = {}
                ignored.update(k for k in t if k not in known)
                rows.append(_mds_row(t))
            frame = pd.DataFrame(rows, dtype=str)
            labels = np.array([f"viagem nº {start + i + 1} (trip_id {shown_text(r['external_id']) or '?'})"
                               for i, r in enumerate(rows)], dtype=object)
            cur = frame["currency"]
            bad_cur = ~cur.isin(["BRL", ""])
            for i in np.flatnonzero(bad_cur.to_numpy()):
                self.state.error(f"{labels[i]}, campo «currency»: moeda «{shown_text(cur.iloc[i], 10)}» "
                                 "(esperado BRL).")
            cols = {k: pa.array(frame[k].astype(object).tolist(), type=pa.string()) for k in frame.columns
                    if k != "currency"}
            chunk = _frame_to_chunk(cols, lambda i, labels=labels: labels[i], start + 1, self.state,
                                    window=self.window)
            if chunk is not None and not bad_cur.any():
                yield chunk
        self.state.ignored = sorted(ignored)

    def __iter__(self) -> Iterator[TripChunk]:
        return self._csv_chunks() if self.state.format == "csv" else self._mds_chunks()


def _dropping_passenger_fields(dropped: set[str]):
    """The JSON object hook that removes every field identifying a passenger from each object as it is decoded
    (LGPD; Art. 4, §3), adding the removed field names to `dropped` (the import report lists them)."""
    def hook(obj: dict) -> dict:
        for key in [k for k in obj if is_passenger_field(k)]:
            dropped.add(key)
            del obj[key]
        return obj
    return hook


def _json_loads(text: str, hook):
    """json.loads where NaN, Infinity and -Infinity (which JSON does not have, and Python's decoder takes) stay
    the texts they are: each is then refused as an invalid number in its trip's field, never turned into a float
    that no integer holds ("cannot convert float infinity to integer")."""
    return json.loads(text, object_hook=hook, parse_constant=str)


MAX_JSON_DEPTH = 64


def _too_deep(content: bytes) -> str:
    """The message for a JSON nested past what the decoder follows (RecursionError): the line where the nesting
    passes MAX_JSON_DEPTH levels (MDS 2.x has at most 5)."""
    depth, in_string, escaped = 0, False, False
    for match in re.finditer(rb'[\[\]{}"\\]', content[:1 << 24]):
        ch = match.group()
        if in_string:
            if escaped:
                escaped = False
            elif ch == b"\\":
                escaped = True
            elif ch == b'"':
                in_string = False
            continue
        if ch == b'"':
            in_string = True
        elif ch in (b"[", b"{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = content.count(b"\n", 0, match.start()) + 1
                return (f"linha {line}: o JSON tem mais de {MAX_JSON_DEPTH} níveis de listas e objetos aninhados "
                        "(o MDS 2.x tem no máximo 5); o arquivo não é um JSON do MDS.")
        elif ch in (b"]", b"}"):
            depth -= 1
    return "linha 1: o JSON tem níveis de listas e objetos aninhados demais; o arquivo não é um JSON do MDS."


def _num_text(value) -> str:
    if value is None or value == "":
        return ""
    return str(value)


def _cents_text(value) -> str:
    if value is None or value == "":
        return ""
    try:
        cents = int(value)
    except (TypeError, ValueError, OverflowError):
        return "x"  # refused as an invalid amount
    if abs(cents) > 10 ** 15:
        return "x"
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _ms_text(value) -> str:
    if value is None or value == "":
        return ""
    try:
        ms = int(value)
    except (TypeError, ValueError, OverflowError):
        return "x"
    if not _MS_MIN <= ms <= _MS_MAX:
        return "x"   # a 21-digit timestamp: refused as an invalid instant (never OutOfBoundsDatetime)
    return pd.Timestamp(ms, unit="ms", tz="UTC").isoformat()


_MS_MIN = -2_208_988_800_000   # 01/01/1900 (domain.limits.MIN_DATE)
_MS_MAX = 4_133_980_799_000    # 31/12/2100


_MDS_FARE = {"base_rate": "fare_base", "base_fare": "fare_base", "distance_rate": "fare_distance",
             "distance_fare": "fare_distance", "time_rate": "fare_time", "time_fare": "fare_time",
             "commission": "fare_platform", "platform_fee": "fare_platform", "service_fee": "fare_platform"}


def _mds_row(t: dict) -> dict:
    """One MDS trip as the CSV's text columns. Amounts in `fare_attributes` are minor units, like actual_cost."""
    attrs = t.get("trip_attributes") if isinstance(t.get("trip_attributes"), dict) else {}
    vehicle = t.get("vehicle_attributes") if isinstance(t.get("vehicle_attributes"), dict) else {}
    fares = t.get("fare_attributes") if isinstance(t.get("fare_attributes"), dict) else {}
    start = t.get("start_location") if isinstance(t.get("start_location"), dict) else {}
    end = t.get("end_location") if isinstance(t.get("end_location"), dict) else {}
    parts: dict[str, int] = {}
    other = 0
    for key, value in fares.items():
        try:
            cents = int(value)
            if abs(cents) > 10 ** 15:
                raise ValueError(key)
        except (TypeError, ValueError, OverflowError):
            parts["fare_other"] = "x"  # type: ignore[assignment]
            continue
        target = _MDS_FARE.get(key)
        if target:
            parts[target] = parts.get(target, 0) + cents
        else:
            other += cents
    if other or ("fare_other" not in parts and fares):
        parts["fare_other"] = parts.get("fare_other", 0) + other if parts.get("fare_other") != "x" else "x"
    hail = str(attrs.get("hail_type") or "")
    return {
        "external_id": _num_text(t.get("trip_id")),
        "plate": _num_text(vehicle.get("license_plate")),
        "driver_cpf": _num_text(attrs.get("driver_id")),
        "started_at": _ms_text(t.get("start_time")),
        "ended_at": _ms_text(t.get("end_time")),
        "origin_lat": _num_text(start.get("lat")), "origin_lon": _num_text(start.get("lng")),
        "destination_lat": _num_text(end.get("lat")), "destination_lon": _num_text(end.get("lng")),
        "distance_m": _num_text(t.get("distance")), "duration_s": _num_text(t.get("duration")),
        "fare_total": _cents_text(t.get("actual_cost")),
        **{k: (_cents_text(v) if v != "x" else "x") for k, v in parts.items()},
        "rating": _num_text(attrs.get("rating", t.get("rating"))),
        "hail": "", "mds_hail": hail,
        "currency": str(t.get("currency") or ""),
    }


# ------------------------------------------------------------------------------------------------ routes
@dataclass
class RoutePoints:
    external_id: list[str]
    at_us: np.ndarray
    lat: np.ndarray
    lon: np.ndarray
    errors: list[str]
    dropped: list[str]

    def __len__(self) -> int:
        return len(self.external_id)


def read_routes(content: bytes) -> RoutePoints:
    """Route points: CSV `ID da viagem;Momento;Lat;Lon` or MDS telemetry ({"data": {"telemetry": [...]}})."""
    content = bytes(content or b"")
    if not _first_char(content):
        return RoutePoints([], np.array([], dtype=np.int64), np.array([]), np.array([]),
                           ["rotas, linha 1: o arquivo está vazio."], [])
    if _first_char(content) == b"{":
        dropped: set[str] = set()
        hook = _dropping_passenger_fields(dropped)

        try:
            doc = _json_loads(content.decode("utf-8-sig"), hook)
            points = doc["data"]["telemetry"]
            if not isinstance(points, list):
                raise TypeError("telemetry")
        except RecursionError:
            return RoutePoints([], np.array([], dtype=np.int64), np.array([]), np.array([]),
                               ["rotas, " + _too_deep(content)], [])
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
            return RoutePoints([], np.array([], dtype=np.int64), np.array([]), np.array([]),
                               ['rotas, linha 1: esperado MDS telemetry {"data": {"telemetry": [...]}}.'], [])
        rows = []
        for p in points:
            p = p if isinstance(p, dict) else {}
            ids = p.get("trip_ids") or ([p["trip_id"]] if p.get("trip_id") else [])
            loc = p.get("location") if isinstance(p.get("location"), dict) else {}
            for trip_id in ids:
                rows.append({"external_id": str(trip_id), "at": _ms_text(p.get("timestamp")),
                             "lat": _num_text(loc.get("lat")), "lon": _num_text(loc.get("lng"))})
        frame = pd.DataFrame(rows, columns=["external_id", "at", "lat", "lon"], dtype=str)
        labels = np.array([f"rotas, ponto nº {i + 1}" for i in range(len(frame))], dtype=object)
        return _route_frame(frame, labels, sorted(dropped))
    encoding = _decode_name(content)
    header = _first_line(content, encoding).lstrip("\ufeff")
    sep = ";" if header.count(";") >= header.count(",") else ","
    names = [h.strip() for h in header.split(sep)]
    match = match_header(names, ROUTE_COLUMNS)
    if not match.ok:
        return RoutePoints([], np.array([], dtype=np.int64), np.array([]), np.array([]),
                           [f"rotas, linha 1, coluna «{n}»: coluna obrigatória ausente ou repetida."
                            for n in (*match.missing, *match.repeated)], list(match.dropped))
    by_index = {i: key for key, i in match.positions.items()}
    try:
        frame = pd.read_csv(io.BytesIO(content), sep=sep, header=None, skiprows=1, names=list(range(len(names))),
                            usecols=sorted(by_index), dtype="string[pyarrow]", keep_default_na=False, na_filter=False,
                            encoding=encoding, engine="c").rename(columns=by_index)
    except pd.errors.ParserError as exc:
        m = re.search(r"line (\d+)", str(exc))
        return RoutePoints([], np.array([], dtype=np.int64), np.array([]), np.array([]),
                           [f"rotas, linha {m.group(1) if m else '?'}: número de células diferente do cabeçalho."],
                           list(match.dropped))
    labels = np.array([f"rotas, linha {i + 2}" for i in range(len(frame))], dtype=object)
    return _route_frame(frame.fillna(""), labels, list(match.dropped))


def _route_frame(frame: pd.DataFrame, labels: np.ndarray, dropped: list[str]) -> RoutePoints:
    check = _Checker(lambda i: labels[i], ROUTE_COLUMNS)
    ext_arr = pc.utf8_trim_whitespace(_text(frame["external_id"]))
    check.add(_np(pc.equal(ext_arr, "")), "external_id", "o identificador da viagem é obrigatório.")
    ext = pd.Series(ext_arr.to_numpy(zero_copy_only=False), dtype=object)
    at, bad, empty = _instants(frame["at"])
    check.add(bad | empty, "at", "data-hora inválida (DD/MM/AAAA HH:MM:SS ou ISO 8601 com fuso).")
    lat, bad_lat, e1 = _decimal(frame["lat"])
    lon, bad_lon, e2 = _decimal(frame["lon"])
    check.add(bad_lat | e1 | (lat.abs() > 90).fillna(False).to_numpy(), "lat", "latitude inválida.")
    check.add(bad_lon | e2 | (lon.abs() > 180).fillna(False).to_numpy(), "lon", "longitude inválida.")
    errors = check.messages()
    if errors:
        return RoutePoints([], np.array([], dtype=np.int64), np.array([]), np.array([]), errors, dropped)
    at_us = at.dt.tz_localize(None).to_numpy(dtype="datetime64[us]").astype(np.int64)
    return RoutePoints(ext.tolist(), at_us, lat.to_numpy(dtype=float), lon.to_numpy(dtype=float), [], dropped)
