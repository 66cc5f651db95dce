"""The conditions behind the home dashboard's tiles (issue 16), shared by the dashboard (which COUNTs them) and
by the lists a tile opens (which page through the same rows), so the number on a tile and the rows of its list
never disagree. Each condition is a SQLAlchemy expression over one table; dates come from the domain's calendars.

Kept apart from `services.dashboard` so the list services (authorizations, autos, drivers) can import the
conditions without importing the dashboard (which imports them: no cycle). This module imports only models
and domain (the dates of `domain.dashboard`).
"""
from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import and_, exists, func, select, union

from desktop.domain.vehicle import last_service_year_of
from desktop.domain.dashboard import HORIZON_DAYS, Window, window  # noqa: F401 — re-exported for the services
from desktop.domain.workflow import AuthorizationStatus as S
from desktop.domain.workflow import AutoStatus
from desktop.models import Authorization, Auto, Driver, DriverChecklistItem, Inspection, Vehicle

IN_FORCE = (S.ACTIVE.value, S.IMPEDED.value, S.SUSPENDED.value)   # an authorization with a validity running
LIVE_INSPECTION = ("scheduled",)
YEARLY_KINDS = ("annual", "extraordinary")
# The driver's documents that expire (Art. 12, I CNH; IV certidão de antecedentes; IX seguro APP; Art. 8 §1 II
# certidão de débitos municipais).
EXPIRING_REQUIREMENTS = ("cnh", "criminal_record", "app_insurance", "tax_clearance")


# -- authorizations ------------------------------------------------------------------------------------------
def _live_yearly_booking():
    return exists().where(Inspection.authorization_id == Authorization.id, Inspection.status.in_(LIVE_INSPECTION),
                          Inspection.kind.in_(YEARLY_KINDS))


def _any_live_booking():
    return exists().where(Inspection.authorization_id == Authorization.id, Inspection.status.in_(LIVE_INSPECTION))


AUTHORIZATION_DUE = {
    "renewal": "Renovações a pedir (Art. 3, §2)",
    "expiring": "Autorizações vencendo em 30 dias",
    "last_service_year": "Veículos no último ano de serviço (Art. 2)",
    "annual_due": "Vistorias anuais devidas sem agendamento (Art. 16)",
    "convocation": "Convocados para vistoria sem agendamento (Art. 9)",
    "impeded": "Impedidas: prazo de 5 dias para regularizar (Art. 16, §2)",
}


def authorization_condition(due: str, w: Window):
    """The condition on `authorizations` of the list a tile opens (keys of AUTHORIZATION_DUE)."""
    if due == "renewal":
        return and_(Authorization.status.in_(IN_FORCE), Authorization.renewal_requested_on.is_(None),
                    Authorization.valid_until >= w.today, Authorization.valid_until <= w.renewal_valid_until)
    if due == "expiring":
        return and_(Authorization.status.in_(IN_FORCE), Authorization.valid_until >= w.today,
                    Authorization.valid_until <= w.horizon)
    if due == "last_service_year":
        last_year = last_service_year_of(w.today.year)   # serves through 31/12 of year + 10 (Art. 2, §2)
        # coalesce() keeps SQLite (without ANALYZE statistics) from answering by the status index (60,000
        # active rows) instead of the vehicles of that year (≈ 6,000): 97 ms → 10 ms with 100,000 drivers.
        return and_(func.coalesce(Authorization.status, "").in_(IN_FORCE + (S.APPROVED.value,)),
                    Authorization.vehicle_id.in_(select(Vehicle.id).where(Vehicle.manufacture_year == last_year)))
    if due == "annual_due":
        last = func.coalesce(Authorization.inspection_approved_on, Authorization.activated_on)
        return and_(Authorization.status == S.ACTIVE.value, last.is_not(None), last <= w.annual_last_approval,
                    ~_live_yearly_booking())
    if due == "convocation":
        return and_(Authorization.status == S.APPROVED.value, Authorization.presentation_deadline.is_not(None),
                    Authorization.inspection_approved_on.is_(None), Authorization.inspection_waived_on.is_(None),
                    ~_any_live_booking())
    if due == "impeded":
        return and_(Authorization.status == S.IMPEDED.value, Authorization.regularize_by.is_not(None))
    raise ValueError(f"filtro desconhecido: {due!r} (válidos: {', '.join(AUTHORIZATION_DUE)})")


# -- autos ---------------------------------------------------------------------------------------------------
AUTO_DUE = {
    "defense_week": "Prazo de defesa terminando nesta semana (Art. 22, §§1º-2º)",
    "appeal_week": "Prazo de recurso terminando nesta semana (Art. 22, caput)",
    "judgment": "Autos aguardando julgamento (defesa ou recurso apresentados)",
}


def auto_condition(due: str, today: date):
    """The condition on `autos` of the list a tile opens (keys of AUTO_DUE); "this week" ends on Sunday."""
    week_end = today + timedelta(days=6 - today.weekday())
    if due == "defense_week":
        return and_(Auto.status == AutoStatus.NOTIFIED.value, Auto.defense_deadline >= today,
                    Auto.defense_deadline <= week_end)
    if due == "appeal_week":
        return and_(Auto.status == AutoStatus.JUDGED.value, Auto.appeal_deadline >= today,
                    Auto.appeal_deadline <= week_end)
    if due == "judgment":
        return Auto.status.in_((AutoStatus.IN_DEFENSE.value, AutoStatus.IN_APPEAL.value))
    raise ValueError(f"filtro desconhecido: {due!r} (válidos: {', '.join(AUTO_DUE)})")


# -- drivers -------------------------------------------------------------------------------------------------
DRIVER_DUE = {"documents": "Documentos vencendo em 30 dias (CNH, certidões, seguro APP — Art. 12)"}


def driver_condition(due: str, today: date):
    """The condition on `drivers` of the list a tile opens: an expiring document within 30 days."""
    horizon = today + timedelta(days=HORIZON_DAYS)
    if due != "documents":
        raise ValueError(f"filtro desconhecido: {due!r} (válidos: {', '.join(DRIVER_DUE)})")
    items = select(DriverChecklistItem.driver_id).where(
        DriverChecklistItem.requirement.in_(EXPIRING_REQUIREMENTS),
        DriverChecklistItem.expires_on >= today, DriverChecklistItem.expires_on <= horizon)
    cnh = select(Driver.id).where(Driver.cnh_expiry >= today, Driver.cnh_expiry <= horizon)
    # A UNION of two index range scans (not an OR, which makes both databases read every driver).
    return and_(Driver.status == "active", Driver.id.in_(union(cnh, items)))
