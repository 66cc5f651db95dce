"""Trip files for the tests of issue 15: the pinned CSV (with passenger columns that must never be kept), MDS 2.x
JSON and route points."""
from __future__ import annotations

import json
from datetime import timedelta

from registry_factories import TODAY

from desktop.domain.trips import CSV_COLUMNS
from desktop.services import platforms
from desktop.services.platforms import PlatformDraft

HEADER = list(CSV_COLUMNS.values())
PASSENGER_NAME = "Zuleica Passageira Quixabeira"
PASSENGER_CPF = "39053344705"
PASSENGER_PHONE = "65999887766"
PASSENGER_EMAIL = "zuleica.quixabeira@example.org"
PASSENGER_HEADER = ["Nome do passageiro", "CPF do passageiro", "Telefone do usuário", "E-mail", "Rider ID"]
PASSENGER_CELLS = [PASSENGER_NAME, PASSENGER_CPF, PASSENGER_PHONE, PASSENGER_EMAIL, "RID-QX-7781"]


def make_platform(db, actor, cnpj="11.222.333/0001-81", name="Vai Já"):
    return platforms.create_platform(db, actor, PlatformDraft(
        cnpj=cnpj, legal_name=f"{name} Mobilidade Ltda", trade_name=name,
        municipal_registration_number=f"IM-{cnpj}", municipal_registration_date=TODAY - timedelta(days=300)))


def trip(ext, plate, cpf, start="18/11/2026 08:00:00", end="18/11/2026 08:20:00", total="25,50", hail="aplicativo",
         km_m="5300", secs="1200", base="5,00", dist="12,00", time_="6,00", fee="2,50", other="0", rating="4,8",
         origin=("-15,4600", "-55,7500"), dest=("-15,4300", "-55,7100")) -> dict:
    return {"ID da viagem": ext, "Placa": plate, "CPF do condutor": cpf, "Início": start, "Fim": end,
            "Origem lat": origin[0], "Origem lon": origin[1], "Destino lat": dest[0], "Destino lon": dest[1],
            "Distância (m)": km_m, "Duração (s)": secs, "Valor total (R$)": total, "Tarifa base (R$)": base,
            "Valor por distância (R$)": dist, "Valor por tempo (R$)": time_, "Taxa da plataforma (R$)": fee,
            "Outros (R$)": other, "Avaliação": rating, "Tipo de chamada": hail}


def trips_csv(*trips: dict, header=None, passengers=True, extra=("Observação", "ok")) -> bytes:
    header = list(header or HEADER)
    cols = (PASSENGER_HEADER if passengers else []) + header + ([extra[0]] if extra else [])
    lines = [";".join(cols)]
    for t in trips:
        cells = (PASSENGER_CELLS if passengers else []) + [t.get(h, "") for h in header] + \
            ([extra[1]] if extra else [])
        lines.append(";".join(cells))
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def mds_trip(ext, plate, cpf, start_ms, minutes=20, cost=2550, hail="app", passenger=True) -> dict:
    t = {"trip_id": ext, "start_time": start_ms, "end_time": start_ms + minutes * 60000, "duration": minutes * 60,
         "distance": 4200, "actual_cost": cost, "currency": "BRL",
         "start_location": {"lat": -15.46, "lng": -55.75}, "end_location": {"lat": -15.43, "lng": -55.71},
         "vehicle_attributes": {"license_plate": plate},
         "trip_attributes": {"hail_type": hail, "driver_id": cpf, "passenger_count": 1},
         "fare_attributes": {"base_rate": 500, "commission": 300, "tolls": 100}}
    if passenger:
        t["trip_attributes"]["passenger_name"] = PASSENGER_NAME
        t["trip_attributes"]["rider_phone"] = PASSENGER_PHONE
        t["passenger_email"] = PASSENGER_EMAIL
    return t


def mds_json(*trips) -> bytes:
    return json.dumps({"version": "2.0.0", "data": {"trips": list(trips)}}).encode("utf-8")


def routes_csv(*points) -> bytes:
    return ("ID da viagem;Momento;Lat;Lon\n" + "\n".join(";".join(p) for p in points) + "\n").encode("utf-8")


def kill_when(proc, seen_enough) -> list[str]:
    """Read `proc`'s output lines until `seen_enough(parts)` (the line split) says so, then SIGKILL it; returns the
    lines read. The import-killed-mid-way tests (one transaction: zero trips afterwards)."""
    import signal

    seen: list[str] = []
    try:
        for line in proc.stdout:
            seen.append(line.strip())
            if seen_enough(line.split()):
                proc.send_signal(signal.SIGKILL)
                break
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return seen
