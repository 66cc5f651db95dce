"""The trip file readers (desktop.importers.trips; issue 15) without a database: the pinned CSV in its variants
(date-times in Cuiabá or ISO 8601 with offset, amounts 1.234,56 or 1234.56, Windows-1252), the passenger columns
never parsed (Art. 4 caput), MDS 2.x JSON with its passenger fields removed while decoding, and route points."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from desktop.domain.trips import CSV_COLUMNS
from desktop.importers.trips import TripFileError, TripReader, read_routes

HEADER = ";".join(CSV_COLUMNS.values())


def line(**values) -> str:
    base = {"ID da viagem": "T1", "Placa": "ABC1D23", "CPF do condutor": "529.982.247-25",
            "Início": "18/11/2026 08:00:00", "Fim": "", "Valor total (R$)": "10,00", "Tipo de chamada": "aplicativo"}
    base.update(values)
    return ";".join(base.get(h, "") for h in CSV_COLUMNS.values())


def read(*lines, header=HEADER, encoding="utf-8"):
    reader = TripReader(("\n".join([header, *lines]) + "\n").encode(encoding))
    chunks = list(reader)
    return reader.state, chunks


def us(chunk):
    return [np.datetime64(int(v), "us").astype(str) for v in chunk.started_us]


@pytest.mark.parametrize("start, utc", [
    ("18/11/2026 08:00:00", "2026-11-18T12:00:00.000000"),           # Cuiabá is UTC-4
    ("2026-11-18T08:00:00-04:00", "2026-11-18T12:00:00.000000"),
    ("2026-11-18T12:00:00Z", "2026-11-18T12:00:00.000000"),
    ("2026-11-18T09:00:00-03:00", "2026-11-18T12:00:00.000000"),
])
def test_date_times_in_cuiaba_or_iso_with_offset(start, utc):
    state, chunks = read(line(**{"Início": start}))
    assert not state.errors and us(chunks[0]) == [utc]


@pytest.mark.parametrize("start", ["2026-11-18T08:00:00", "31/02/2026 08:00:00", "18/11/2026", "amanhã"])
def test_date_time_without_offset_or_impossible_names_the_line(start):
    state, _ = read(line(), line(**{"ID da viagem": "T2", "Início": start}))
    assert state.errors == ["linha 3, coluna «Início»: data-hora inválida (DD/MM/AAAA HH:MM:SS ou ISO 8601 com "
                            "fuso)."]


@pytest.mark.parametrize("text, cents", [("1.234,56", 123456), ("1234.56", 123456), ("1234,5", 123450),
                                         ("R$ 12,00", 1200), ("0", 0), ("7", 700)])
def test_amounts_in_both_notations(text, cents):
    state, chunks = read(line(**{"Valor total (R$)": text}))
    assert not state.errors and int(chunks[0].ints["fare_total"].iloc[0]) == cents


@pytest.mark.parametrize("text", ["1.234.56", "12,345", "dez", "1e3"])
def test_bad_amounts_refused(text):
    state, _ = read(line(**{"Valor total (R$)": text}))
    assert state.errors and "coluna «Valor total (R$)»" in state.errors[0]


def test_passenger_columns_are_never_parsed_and_windows_1252_reads():
    header = "Nome do passageiro;" + HEADER + ";Observação"
    state, chunks = read("José Passageiro;" + line() + ";nota", header=header, encoding="cp1252")
    assert state.dropped == ["Nome do passageiro"] and state.ignored == ["Observação"]
    assert chunks[0].external_id.tolist() == ["T1"]
    assert "José Passageiro" not in repr(chunks[0].__dict__)


def test_header_without_a_pinned_column_is_refused_at_once():
    with pytest.raises(TripFileError, match="«Placa»: coluna obrigatória ausente"):
        TripReader((HEADER.replace("Placa;", "") + "\n").encode())


def test_mds_passenger_fields_removed_while_decoding():
    doc = {"version": "2.0.0", "data": {"trips": [{
        "trip_id": "M1", "start_time": 1795003200000, "end_time": 1795004400000, "actual_cost": 1050,
        "currency": "BRL", "vehicle_attributes": {"license_plate": "ABC1D23"},
        "trip_attributes": {"hail_type": "street_hail", "driver_id": "52998224725", "passenger_count": 2,
                            "rider_name": "Maria"},
        "rider": {"email": "m@example.org"}}]}}
    reader = TripReader(json.dumps(doc).encode())
    chunks = list(reader)
    assert not reader.state.errors and reader.state.format == "mds"
    assert set(reader.state.dropped) == {"rider", "rider_name", "email"}
    assert "Maria" not in repr(reader.trips) and "example.org" not in repr(reader.trips)
    assert chunks[0].hail_type.tolist() == ["street_hail"] and int(chunks[0].ints["fare_total"].iloc[0]) == 1050


def test_routes_csv_and_its_errors():
    ok = read_routes(b"ID da viagem;Momento;Lat;Lon\nT1;18/11/2026 08:00:00;-15,46;-55,75\n")
    assert ok.errors == [] and ok.external_id == ["T1"] and ok.lat.tolist() == [-15.46]
    bad = read_routes(b"ID da viagem;Momento;Lat;Lon\nT1;ontem;-95;-55,75\n")
    assert "rotas, linha 2, coluna «Momento»" in bad.errors[0] and "rotas, linha 2, coluna «Lat»" in bad.errors[1]


# -- naming the line without counting lines beforehand (the unquoted file's fast path) ----------------------------
def read_chunked(text: str, chunk_rows: int = 2):
    reader = TripReader(text.encode(), chunk_rows=chunk_rows)
    chunks = list(reader)
    return reader.state, chunks


def test_a_bad_cell_after_blank_lines_names_its_file_line():
    rows = [line(**{"ID da viagem": f"T{i}"}) for i in range(1, 6)]
    rows[3] = line(**{"ID da viagem": "T4", "Placa": "12345"})
    text = "\n".join([HEADER, rows[0], "", rows[1], "", "", rows[2], rows[3], rows[4]]) + "\n"
    state, _ = read_chunked(text)
    assert state.errors == ["linha 8, coluna «Placa»: placa inválida (AAA0A00 ou AAA0000)."]


@pytest.mark.parametrize("chunk_rows", [1, 2, 1000])
def test_lines_with_cells_missing_or_extra_are_named_wherever_they_fall(chunk_rows):
    rows = [line(**{"ID da viagem": f"T{i}"}) for i in range(1, 61)]   # Arrow reads it in blocks of 1 KiB
    rows[2] = rows[2] + ";a mais"
    rows[50] = rows[50].rsplit(";", 1)[0]
    width = len(CSV_COLUMNS)
    state, chunks = read_chunked("\n".join([HEADER, *rows]) + "\n", chunk_rows)
    assert state.errors == [f"linha 4: a linha tem {width + 1} células e o cabeçalho {width}.",
                            f"linha 52: a linha tem {width - 1} células e o cabeçalho {width}."]
    only_late = [line(**{"ID da viagem": f"T{i}"}) for i in range(1, 61)]
    only_late[50] = only_late[50] + ";"
    state, _ = read_chunked("\n".join([HEADER, *only_late]) + "\n", chunk_rows)
    assert state.errors == [f"linha 52: a linha tem {width + 1} células e o cabeçalho {width}."]


def test_quoted_file_counts_its_lines_first_and_reads_quoted_cells():
    rows = [line(**{"ID da viagem": '"T;1"'}), line(**{"ID da viagem": "T2", "Placa": '"ABC1D2"'})]
    state, _ = read_chunked("\n".join([HEADER, *rows]) + "\n")
    assert state.errors == ["linha 3, coluna «Placa»: placa inválida (AAA0A00 ou AAA0000)."]
    state, chunks = read_chunked("\n".join([HEADER, rows[0]]) + "\n")
    assert not state.errors and chunks[0].external_id.tolist() == ["T;1"]


def test_plates_and_cpfs_repeated_across_chunks_are_checked_once_and_stay_right():
    rows = [line(**{"ID da viagem": f"T{i}", "Placa": "ABC1D23" if i % 2 else "abc-1234"}) for i in range(1, 9)]
    rows.append(line(**{"ID da viagem": "T9", "CPF do condutor": "111.111.111-11"}))
    state, chunks = read_chunked("\n".join([HEADER, *rows]) + "\n", chunk_rows=2)
    assert state.errors == ["linha 10, coluna «CPF do condutor»: CPF do condutor inválido."]
    state, chunks = read_chunked("\n".join([HEADER, *rows[:8]]) + "\n", chunk_rows=2)
    assert [p for c in chunks for p in c.plate.tolist()] == ["ABC1D23", "ABC1234"] * 4
    assert {p for c in chunks for p in c.driver_cpf.tolist()} == {"52998224725"}


# -- a whole column in the usual notation takes Arrow's cast at once; any other cell, the general path -----------
@pytest.mark.parametrize("column, cents", [
    (["12,34", "0,07", "9999,99"], [1234, 7, 999999]),                # every cell 12,34: the integer cast
    (["12", "0", "7"], [1200, 0, 700]),                                # every cell whole reais
    (["12,34", "1.234,56", "7"], [1234, 123456, 700]),                 # mixed: the general path
    (["12,34", "", "5,5"], [1234, None, 550]),                         # a blank fare component stays blank
])
def test_a_column_of_amounts_reads_the_same_by_either_path(column, cents):
    rows = [line(**{"ID da viagem": f"T{i}", "Valor por tempo (R$)": v}) for i, v in enumerate(column)]
    state, chunks = read(*rows)
    assert not state.errors
    got = chunks[0].ints["fare_time"]
    assert [None if pd.isna(v) else int(v) for v in got] == cents


def test_a_column_of_plain_numbers_with_one_bad_cell_names_that_cell():
    rows = [line(**{"ID da viagem": f"T{i}", "Origem lat": lat, "Distância (m)": "5300"})
            for i, lat in enumerate(["-15.46", "-15.47", "-15,48", "quinze"])]
    state, chunks = read(*rows[:3])
    assert not state.errors and chunks[0].floats["origin_lat"].tolist() == [-15.46, -15.47, -15.48]
    assert chunks[0].ints["distance_m"].tolist() == [5300, 5300, 5300]
    state, _ = read(*rows[:2], rows[3])
    assert state.errors == ["linha 4, coluna «Origem lat»: coordenada inválida (graus decimais entre -90 e 90)."]
    state, _ = read(line(**{"Origem lat": "-95.1"}))
    assert state.errors == ["linha 2, coluna «Origem lat»: coordenada inválida (graus decimais entre -90 e 90)."]
