"""Trip data in the demo (issue 15; Art. 4): the 30 days before `today` of trips for each active platform, made by
its drivers with an active authorization, imported through the real path (`services.trips.import_trips`, the
pinned CSV with passenger columns the reader drops), so the Viagens screens have something to show:
- most trips by app, a few street hails (Art. 7, Art. 26 IV);
- a few trips by a driver in a vehicle not his (Art. 8, 13 XIX) and by CPFs with no authorization (Art. 27);
- route points for some trips (a line wandering from the origin to the destination near the town's centre).
Reproducible by seed; at most `MAX_TRIPS` trips, whatever the size of the demo."""
from __future__ import annotations

import math
import random
from datetime import date, datetime, time, timedelta

from sqlalchemy import select

from desktop.domain.clock import TIMEZONE
from desktop.domain.trips import CSV_COLUMNS
from desktop.models import Authorization, Driver, DriverPlatform, Vehicle
from desktop.domain.clock import today as clock_today
from desktop.models.platforms import TripRow

CENTRE = (-15.4606, -55.7497)   # Praça Dom Wunibaldo, Chapada dos Guimarães
MAX_TRIPS = 6000
TRIPS_PER_PAIR = (4, 14)
PASSENGER_COLUMNS = ("Nome do passageiro", "Telefone do passageiro")   # dropped by the reader, never stored


def _cpf(rng: random.Random) -> str:
    base = [rng.randrange(10) for _ in range(9)]
    for size in (9, 10):
        digit = sum(d * w for d, w in zip(base, range(size + 1, 1, -1))) * 10 % 11 % 10
        base.append(digit)
    return "".join(map(str, base))


def _money(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d}"


def _pairs(session):

    rows = session.execute(
        select(DriverPlatform.platform_id, Driver.cpf, Vehicle.plate)
        .join(Driver, Driver.id == DriverPlatform.driver_id)
        .join(Authorization, Authorization.driver_id == Driver.id)
        .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
        .where(Authorization.status == "active").order_by(DriverPlatform.platform_id, Driver.cpf)).all()
    by_platform: dict[int, list[tuple[str, str]]] = {}
    for pid, cpf, plate in rows:
        by_platform.setdefault(pid, []).append((cpf, plate))
    return by_platform


def build_files(by_platform: dict[int, list[tuple[str, str]]], today: date, seed: int = 2025):
    """{platform_id: (trips CSV bytes, routes CSV bytes)} for the 30 days before `today` (never after the program's
    clock: the import refuses a trip that starts after now, issue 25 item 1)."""

    today = min(today, clock_today())
    rng = random.Random(seed)
    header = [*PASSENGER_COLUMNS, *CSV_COLUMNS.values()]
    budget = MAX_TRIPS
    files = {}
    all_plates = [plate for pairs in by_platform.values() for _, plate in pairs]
    for pid, pairs in sorted(by_platform.items()):
        lines, points = [";".join(header)], ["ID da viagem;Momento;Lat;Lon"]
        n = 0
        for k, (cpf, plate) in enumerate(pairs):
            for j in range(rng.randint(*TRIPS_PER_PAIR)):
                if budget <= 0:
                    break
                budget -= 1
                n += 1
                ext = f"P{pid}-{n:06d}"
                day = today - timedelta(days=rng.randint(1, 30))
                start = datetime.combine(day, time(rng.randint(6, 22), rng.randint(0, 59)), tzinfo=TIMEZONE)
                secs = rng.randint(300, 2400)
                metres = int(secs * rng.uniform(4, 11))
                driver, vehicle = cpf, plate
                if k % 17 == 3 and j == 0 and len(all_plates) > 1:      # Art. 8, 13 XIX
                    vehicle = rng.choice([p for p in all_plates if p != plate])
                if k % 23 == 5 and j == 0:                              # Art. 27: no authorization
                    driver = _cpf(rng)
                hail = "via pública" if rng.random() < 0.03 else "aplicativo"
                angle = rng.uniform(0, 2 * math.pi)
                origin = (CENTRE[0] + rng.uniform(-0.01, 0.01), CENTRE[1] + rng.uniform(-0.01, 0.01))
                dest = (origin[0] + math.sin(angle) * metres / 111_000 * 0.7,
                        origin[1] + math.cos(angle) * metres / 108_000 * 0.7)
                base, per_km, per_min = 500, 180, 35
                dist_fare, time_fare = per_km * metres // 1000, per_min * secs // 60
                total = base + dist_fare + time_fare
                fee = total * 25 // 100
                rating = "" if rng.random() < 0.2 else f"{rng.choice((3.5, 4, 4.5, 4.8, 5)):.1f}".replace(".", ",")
                end = start + timedelta(seconds=secs)
                cells = {"ID da viagem": ext, "Placa": vehicle, "CPF do condutor": driver,
                         "Início": start.strftime("%d/%m/%Y %H:%M:%S"), "Fim": end.strftime("%d/%m/%Y %H:%M:%S"),
                         "Origem lat": f"{origin[0]:.6f}", "Origem lon": f"{origin[1]:.6f}",
                         "Destino lat": f"{dest[0]:.6f}", "Destino lon": f"{dest[1]:.6f}",
                         "Distância (m)": str(metres), "Duração (s)": str(secs), "Valor total (R$)": _money(total),
                         "Tarifa base (R$)": _money(base), "Valor por distância (R$)": _money(dist_fare),
                         "Valor por tempo (R$)": _money(time_fare), "Taxa da plataforma (R$)": _money(fee),
                         "Outros (R$)": "0", "Avaliação": rating, "Tipo de chamada": hail}
                passenger = ["Passageiro(a) da demonstração", f"65 9{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"]
                lines.append(";".join(passenger + [cells[h] for h in CSV_COLUMNS.values()]))
                if hail == "via pública" or n % 25 == 1:                # route points for some trips
                    steps = 8
                    for s in range(steps + 1):
                        f = s / steps
                        wobble = math.sin(f * math.pi * 2) * 0.0015
                        lat = origin[0] + (dest[0] - origin[0]) * f + wobble
                        lon = origin[1] + (dest[1] - origin[1]) * f - wobble
                        at = start + timedelta(seconds=secs * f)
                        points.append(f"{ext};{at.strftime('%d/%m/%Y %H:%M:%S')};{lat:.6f};{lon:.6f}")
        if n:
            files[pid] = (("\r\n".join(lines) + "\r\n").encode("utf-8"),
                          ("\n".join(points) + "\n").encode("utf-8") if len(points) > 1 else None)
    return files


def make_demo_trips(db, today: date, seed: int = 2025) -> dict[str, int]:
    """Import the demo's trip files (one per active platform). Returns {"trips": n, "route_points": m}."""
    from desktop.services import trips  # lazy: loaded only when a demo is made
    from desktop.services.actors import SYSTEM_ACTOR  # lazy: SQLAlchemy loads once the database is used (start-up)

    with db.session(write=False) as s:
        by_platform = _pairs(s)
        done = set(s.execute(select(TripRow.platform_id).distinct()).scalars())
    by_platform = {pid: pairs for pid, pairs in by_platform.items() if pid not in done}  # a second load adds none
    made = {"trips": 0, "route_points": 0}
    for pid, (content, routes) in build_files(by_platform, today, seed).items():
        report = trips.import_trips(db, SYSTEM_ACTOR, pid, content, f"viagens-demo-plataforma-{pid}.csv", routes,
                                    f"rotas-demo-plataforma-{pid}.csv")
        made["trips"] += report.trips
        made["route_points"] += report.route_points
    return made
