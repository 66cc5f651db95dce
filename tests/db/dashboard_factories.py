"""Rows behind each tile of the home dashboard (issue 16), written through the models, dated around the suite's
clock (Wed 18/11/2026, 10:00 Cuiabá). Shared by the service tests and the GUI tests."""
from __future__ import annotations

import itertools
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import select

from desktop.domain import TIMEZONE
from desktop.models import (Authorization, Auto, CourseAttendance, CourseSession, DataRequest, Driver,
                            InfractionCode, PaymentGuide, Platform, Vehicle)

TODAY = date(2026, 11, 18)
NOW = datetime(2026, 11, 18, 10, 0, tzinfo=TIMEZONE)
_seq = itertools.count(1)


def _n() -> int:
    return next(_seq)


def driver(s, name: str = "", **kw) -> Driver:
    n = _n()
    row = Driver(cpf=f"{80000000000 + n:011d}", name=name or f"Condutor Painel {n}", cnh_category="B", cnh_ear=True,
                 city="Chapada dos Guimarães", uf="MT", **kw)
    s.add(row)
    s.flush()
    return row


def vehicle(s, year: int = 2022) -> Vehicle:
    n = _n()
    row = Vehicle(plate=f"QPN{n % 10000:04d}", renavam=f"{20000000000 + n:011d}", make="Fiat", model="Cronos",
                  manufacture_year=year, model_year=year, doors=4, seats=5,
                  registration_municipality="Chapada dos Guimarães", registration_uf="MT")
    s.add(row)
    s.flush()
    return row


def authorization(s, status: str = "active", year: int = 2022, driver_row=None, **kw) -> Authorization:
    n = _n()
    values = dict(number=f"{n:04d}/2026" if status != "approved" else None, protocol_date=date(2026, 1, 10),
                  activated_on=date(2026, 2, 1) if status != "approved" else None,
                  valid_until=date(2027, 2, 1) if status != "approved" else None,
                  fee_paid_on=date(2026, 2, 1) if status != "approved" else None,
                  inspection_approved_on=date(2026, 1, 20) if status != "approved" else None)
    values.update(kw)
    d = driver_row or driver(s)
    row = Authorization(driver_id=d.id, vehicle_id=vehicle(s, year).id, status=status, **values)
    s.add(row)
    s.flush()
    return row


def auto(s, status: str, driver_id: int, **kw) -> Auto:
    code = s.scalars(select(InfractionCode).order_by(InfractionCode.id).limit(1)).first()
    if code is None:
        code = InfractionCode(code="ART26-III", article="Art. 26, III", description="Descumprir dever do Art. 13",
                              severity="leve", upfm=Decimal("10"), valid_from=date(2025, 6, 4))
        s.add(code)
        s.flush()
    n = _n()
    row = Auto(number=f"{n:04d}/2026", drawn_up_at=NOW - timedelta(days=20), place="Praça Dom Wunibaldo",
               infractor_driver_id=driver_id, infraction_code_id=code.id, code=code.code, description="Fato.",
               status=status, amount_upfm=Decimal("10"), upfm_value=Decimal("5"), amount_reais=Decimal("50"), **kw)
    s.add(row)
    s.flush()
    return row


def platform(s) -> Platform:
    n = _n()
    row = Platform(cnpj=f"{33444555000000 + n:014d}", legal_name=f"Plataforma Painel {n} Ltda",
                   trade_name=f"Painel {n}", status="active")
    s.add(row)
    s.flush()
    return row


def data_request(s, platform_id: int, due_at: datetime) -> DataRequest:
    row = DataRequest(platform_id=platform_id, justification="Apuração de infração", period_start=date(2026, 11, 1),
                      period_end=date(2026, 11, 10), investigation=True, notified_at=due_at - timedelta(hours=24),
                      due_at=due_at, status="sent")
    s.add(row)
    s.flush()
    return row


def guide(s, due_on: date) -> PaymentGuide:
    row = PaymentGuide(number=f"G{_n():05d}/2026", purpose="fee", amount_reais=Decimal("100.00"), due_on=due_on,
                       payer_name="Condutor Painel", status="open")
    s.add(row)
    s.flush()
    return row


def course_absence(s, driver_id: int, held_on: date = date(2026, 11, 10)) -> CourseAttendance:
    session = CourseSession(held_on=held_on, starts_at=datetime.combine(held_on, datetime.min.time(),
                                                                         tzinfo=TIMEZONE),
                            place="Auditório", topic="Direção defensiva", capacity=10, status="held",
                            created_at=NOW)
    s.add(session)
    s.flush()
    row = CourseAttendance(session_id=session.id, driver_id=driver_id, convoked_on=held_on - timedelta(days=10),
                           status="absent", notice_number="0001/2026",
                           notice_joined_on=held_on - timedelta(days=8))   # proven notified (issue 24 item 12)
    s.add(row)
    s.flush()
    return row


def populate(db) -> dict:
    """One or more rows behind every tile; returns the ids the tests look for."""
    ids: dict = {}
    with db.session() as s:
        ids["renewal"] = authorization(s, valid_until=date(2026, 12, 10)).id          # also expiring in 30 days
        authorization(s, valid_until=date(2027, 6, 1), inspection_approved_on=date(2026, 5, 5))  # nothing due
        ids["last_year"] = authorization(s, year=2016, valid_until=date(2026, 12, 31) + timedelta(days=200)).id
        ids["annual"] = authorization(s, inspection_approved_on=date(2025, 11, 5), valid_until=date(2027, 3, 1)).id
        ids["impeded_running"] = authorization(s, status="impeded", regularize_by=date(2026, 11, 20)).id
        ids["impeded_ended"] = authorization(s, status="impeded", regularize_by=date(2026, 11, 10)).id
        ids["convocation"] = authorization(s, status="approved", presentation_deadline=date(2026, 11, 20)).id
        d = driver(s, cnh_expiry=date(2026, 12, 1))
        ids["documents_driver"] = d.id
        ids["defense"] = auto(s, "notified", d.id, defense_deadline=date(2026, 11, 20)).id
        auto(s, "notified", d.id, defense_deadline=date(2026, 12, 20))   # not this week
        ids["appeal"] = auto(s, "judged", d.id, appeal_deadline=date(2026, 11, 22)).id
        ids["judgment"] = auto(s, "in_defense", d.id).id
        p = platform(s)
        ids["platform"] = p.id
        ids["request"] = data_request(s, p.id, NOW + timedelta(hours=5)).id
        data_request(s, p.id, NOW - timedelta(hours=3))
        guide(s, date(2026, 11, 1))
        ids["absence"] = course_absence(s, d.id).id
    return ids
