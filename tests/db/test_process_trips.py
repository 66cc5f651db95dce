"""One fact, one auto (issue 24 item 10; Art. 19), on SQLite and PostgreSQL: a trip that is already the evidence of
a live auto is refused for a second one, naming the first; the auto keeps the moment of its lavratura beside the
fact's date (issue 24 item 9) and prints both."""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from registry_factories import TODAY, active, desk  # noqa: F401
from sqlalchemy import select
from trip_factories import make_platform, trip, trips_csv

from desktop.services.actors import SYSTEM_ACTOR
from desktop.errors import ValidationError
from desktop.models import Driver, MunicipalitySettings, Vehicle
from desktop.models.platforms import TripRow
from desktop.services import trips as svc


def test_art19_one_trip_one_auto_the_second_is_refused_naming_the_first(db, desk):
    from enforcement_factories import draft, setup_upfm

    from desktop.services import autos
    from desktop.services.documents import printing

    setup_upfm(db)
    with db.session() as s:
        s.add(MunicipalitySettings(id=1, name="Chapada dos Guimarães", uf="MT", ouvidoria_phone="(65) 3301-1234",
                                   secretariat="Secretaria Municipal de Finanças"))
    p = make_platform(db, desk.clerk)
    a = active(db, desk)
    with db.session(write=False) as s:
        cpf_a, plate_a = s.get(Driver, a.driver_id).cpf, s.get(Vehicle, a.vehicle_id).plate
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(
        trip("UB-0008", plate_a, cpf_a, start="18/11/2026 08:00:00", end="", hail="via pública"),
        trip("UB-0009", plate_a, cpf_a, start="18/11/2026 09:00:00", end="", hail="via pública")), "v.csv")
    with db.session(write=False) as s:
        ids = {r.external_id: r.id for r in s.scalars(select(TripRow))}
    first = autos.draw_up_auto(db, desk.fiscal, draft("ART26-IV", TODAY, driver_id=a.driver_id,
                                                      evidence_trip_ids=(ids["UB-0008"],)))
    with pytest.raises(ValidationError) as err:
        autos.draw_up_auto(db, desk.fiscal, draft("ART26-IV", TODAY, driver_id=a.driver_id,
                                                  evidence_trip_ids=(ids["UB-0008"],)))
    assert err.value.problems[0].field == "evidence_trip_ids"
    assert f"auto nº {first.number}" in err.value.problems[0].message
    assert err.value.problems[0].article == "Art. 19"
    assert [a_.number for a_ in autos.list_autos(db, SYSTEM_ACTOR).items] == [first.number]     # nothing half-saved
    other = autos.draw_up_auto(db, desk.fiscal, draft("ART26-IV", TODAY, driver_id=a.driver_id,
                                                      evidence_trip_ids=(ids["UB-0009"],)))
    # a cancelled auto no longer holds its trip: the fact may be drawn up again, correctly
    autos.cancel_auto(db, desk.manager, first.id, "Auto lavrado contra o condutor errado", first.version)
    again = autos.draw_up_auto(db, desk.fiscal, draft("ART26-IV", TODAY, driver_id=a.driver_id,
                                                      evidence_trip_ids=(ids["UB-0008"],)))
    assert again.number != first.number and other.number != first.number
    # the list of trips with an infraction shows each trip's auto: the live one, not the cancelled first
    shown = {f.trip.external_id: f.auto_number for f in svc.infractions(db, desk.fiscal, 2026, 11).findings}
    assert shown == {"UB-0008": again.number, "UB-0009": other.number}
    # issue 24 item 9: the lavratura is stored and printed beside the infraction's date-time
    pdf = printing.print_auto(db, desk.fiscal, again.number).pdf
    text = " ".join(" ".join(pg.extract_text().split()) for pg in PdfReader(io.BytesIO(pdf)).pages)
    assert "Data e hora da infração" in text and "Lavrado em" in text


def test_art9_art16_par2_the_convocation_cites_its_kind_and_asks_only_what_applies(db, make_actor):
    """Issue 24 item 8: an initial inspection (Art. 9) printed 'Art. 16, §1º; Art. 26, I', asked for the sticker
    handed out only after approval (Art. 14) and threatened the Art. 26, I fine to an applicant (Art. 20); a
    re-inspection cited §1 instead of §2."""
    from datetime import datetime

    from desktop.domain.roles import Role
    from desktop.models import Inspection
    from desktop.models.types import LOCAL_TZ
    from desktop.services import documents
    from tests.db.test_issued_documents import _seed, _seed_enforcement, text_of

    ids = _seed(db)
    manager = make_actor(Role.GESTOR, username="gestora24", full_name="Gabriela Gestora")
    inspection_id, _course = _seed_enforcement(db, ids, manager.user_id)
    texts = {}
    for kind in ("initial", "reinspection", "annual"):
        with db.session() as s:
            row = Inspection(kind=kind, vehicle_id=ids["drivers"][0][1], authorization_id=ids["drivers"][0][2],
                             status="scheduled", scheduled_start=datetime(2026, 12, 10, 9, 30, tzinfo=LOCAL_TZ),
                             place_id=s.get(Inspection, inspection_id).place_id)
            s.add(row)
            s.flush()
            code = str(row.id)
        texts[kind] = text_of(documents.print_notice(db, manager, "inspection_convocation", code).pdf)
        with db.session() as s:   # one scheduled at a time for the vehicle
            s.get(Inspection, int(code)).status = "cancelled"
    assert "(Art. 9º da Lei" in texts["initial"] and "Art. 16, § 1º" not in texts["initial"]   # one citation style
    assert "Art. 26, I" not in texts["initial"] and "adesivo municipal afixado" not in texts["initial"]
    assert "entregue após a aprovação (Art. 14)" in texts["initial"]
    assert "Art. 16, § 2º" in texts["reinspection"] and "Art. 26, I" in texts["reinspection"]
    assert "Art. 16, caput" in texts["annual"] and "adesivo municipal afixado" in texts["annual"]
