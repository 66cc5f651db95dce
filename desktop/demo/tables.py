"""Stage 1 of the demo: the office's small tables — demo staff for every role, UPFM values per year, municipal
holidays and pontos facultativos, the infraction catalogue (Art. 26-27) when empty, inspection places and the
inspectors' schedules, ISSQN classes and the number sequences (kept in `ctx.numbers`, saved by `finish`)."""
from __future__ import annotations

from datetime import date, time, timedelta
from decimal import Decimal

from sqlalchemy import select

from desktop.demo import values as V
from desktop.demo.context import DEMO_PASSWORD, STAFF, STAFF_OFFICES, q2
from desktop.domain import CATALOG, law
from desktop.domain.dates import easter_sunday
from desktop.models import (
    Holiday,
    InfractionCode,
    InspectionPlace,
    InspectorSchedule,
    IssqnClass,
    NumberSequence,
    Parameter,
    User,
)
from desktop.services.auth import hash_password
from desktop.services.holidays import calendar_in
from desktop.services.parameters import parameter_value_in

PLACES = (
    ("Pátio da Secretaria Municipal de Finanças", "Rua Cipriano Curvo, 450 — Centro"),
    ("Posto de Vistoria do Bom Clima", "Avenida Fernando Corrêa da Costa, 1200 — Bom Clima"),
)


def municipal_holidays_for(year: int) -> list[tuple[date, str, str]]:
    """Chapada's own dates of `year` (NOTES: the `holidays` package knows nothing municipal): Carnival, Ash
    Wednesday and Corpus Christi as pontos facultativos (they move with Easter), the patron saint's day."""
    easter = easter_sunday(year)
    return [
        (easter - timedelta(days=48), "Carnaval (segunda-feira)", "ponto_facultativo"),
        (easter - timedelta(days=47), "Carnaval (terça-feira)", "ponto_facultativo"),
        (easter - timedelta(days=46), "Quarta-feira de Cinzas", "ponto_facultativo"),
        (easter + timedelta(days=60), "Corpus Christi", "ponto_facultativo"),
        (date(year, 7, 26), "Dia de Sant'Ana, padroeira do Município", "municipal"),
        (date(year, 10, 28), "Dia do Servidor Público", "ponto_facultativo"),
    ]


def upfm_for_year(year: int) -> Decimal:
    """Demo UPFM values: R$ 112,45 in 2025, corrected ≈ 4,5 % a year."""
    value = Decimal("112.45")
    for _ in range(2025, year):
        value = q2(value * Decimal("1.045"))
    for _ in range(year, 2025):
        value = q2(value / Decimal("1.045"))
    return value


def run(ctx) -> None:
    ctx.staff = staff(ctx)
    parameters(ctx)
    holidays(ctx)
    ctx.calendar = calendar_in(ctx.s)
    ctx.codes = infraction_codes(ctx)
    ctx.places = places(ctx)
    issqn_classes(ctx)
    load_number_sequences(ctx)
    ctx.pools = V.name_pools(ctx.seed)
    # Every table the bulk writer fills: read their highest ids before its thread owns the connection.
    ctx.w.prefetch_ids(("platforms", "drivers", "driver_platforms", "driver_checklist_items", "lessors",
                        "vehicles", "authorizations", "authorization_events", "fees", "payment_guides",
                        "inspections", "inspection_items", "autos", "auto_notifications", "auto_defenses",
                        "auto_judgments", "ledger_entries", "administrative_measures", "course_sessions",
                        "course_attendances", "change_communications"))


def staff(ctx) -> dict[str, int]:
    ids: dict[str, int] = {}
    hashed = None
    for username, full_name, roles in STAFF:
        user = ctx.s.scalar(select(User).where(User.username == username))
        if user is None:
            hashed = hashed or hash_password(DEMO_PASSWORD)
            office, registration = STAFF_OFFICES[username]
            user = User(username=username, full_name=full_name, password_hash=hashed, active=True,
                        failed_logins=0, office=office, registration=registration)
            user.set_roles(roles)
            ctx.s.add(user)
            ctx.s.flush()
        ids[username] = user.id
    admin = ctx.s.scalar(select(User.id).where(User.username == ctx.summary.admin_username))
    ids["admin"] = admin or ids["gabriela.gestora"]
    ctx.gestor = ids["gabriela.gestora"]
    ctx.clerks = [ids["ana.atendente"], ids["joao.atendente"]]
    ctx.inspectors = [ids["vitor.vistoriador"], ids["leticia.vistoriadora"]]
    ctx.fiscal = ids["fabio.fiscal"]
    return ids


def parameters(ctx) -> None:
    ctx.upfm: dict[int, Decimal] = {}
    for year in range(2025, ctx.today.year + 1):
        row = ctx.s.scalar(select(Parameter).where(
            Parameter.key == "upfm_value", Parameter.valid_from >= date(year, 1, 1),
            Parameter.valid_from <= date(year, 12, 31)).order_by(Parameter.valid_from.desc()).limit(1))
        if row is None:
            value = upfm_for_year(year)
            ctx.s.add(Parameter(key="upfm_value", valid_from=date(year, 1, 1), value=value,
                                note="Dados de demonstração", created_by=ctx.gestor))
        else:
            value = row.value
        ctx.upfm[year] = q2(value) if value == q2(value) else value

    # issue 23 point 10: the fees have no default in the program; the demonstration sets fictitious ones
    for key, value in (("fee.authorization", Decimal("10")), ("fee.renewal", Decimal("10")),
                       ("fee.inspection", Decimal("3"))):
        if ctx.s.scalar(select(Parameter.id).where(Parameter.key == key)) is None:
            ctx.s.add(Parameter(key=key, valid_from=date(2025, 1, 1), value=value, created_by=ctx.gestor,
                                note="Dados de demonstração (valor fictício; o real vem do Código Tributário "
                                     "Municipal)"))
    ctx.s.flush()
    ctx.fee_upfm = {k: parameter_value_in(ctx.s, f"fee.{k}", ctx.today)
                    for k in ("authorization", "renewal", "inspection")}
    ctx.defense_days = int(parameter_value_in(ctx.s, "term.defense_days", ctx.today))
    ctx.appeal_days = int(parameter_value_in(ctx.s, "term.appeal_days", ctx.today))
    ctx.payment_days = int(parameter_value_in(ctx.s, "term.payment_days", ctx.today))


def holidays(ctx) -> None:
    taken = set(ctx.s.scalars(select(Holiday.day).where(Holiday.active.is_(True))))
    for year in range(2025, ctx.today.year + 2):
        for day, name, kind in municipal_holidays_for(year):
            if day not in taken:
                ctx.s.add(Holiday(day=day, name=name, kind=kind, active=True))
                taken.add(day)
    ctx.s.flush()


def infraction_codes(ctx) -> dict[str, tuple[int, str, Decimal]]:
    codes: dict[str, tuple[int, str, Decimal]] = {}
    for code, entry in CATALOG.items():
        row = ctx.s.scalar(select(InfractionCode).where(InfractionCode.code == code)
                           .order_by(InfractionCode.valid_from).limit(1))
        if row is None:
            row = InfractionCode(
                code=code, article=entry.article, description=entry.description,
                severity=entry.severity.value, upfm=Decimal(entry.upfm),
                extra_penalty=entry.penalty_text if getattr(entry, "penalty_text", None) else None,
                recurrence_effect=entry.recurrence_text if entry.has_recurrence_effect else None,
                valid_from=law.LAW_DATE, created_by=ctx.gestor,
            )
            ctx.s.add(row)
            ctx.s.flush()
        codes[code] = (row.id, row.description, Decimal(row.upfm))
    return codes


def places(ctx) -> list[int]:
    ids = []
    for name, address in PLACES:
        place = ctx.s.scalar(select(InspectionPlace).where(InspectionPlace.name == name))
        if place is None:
            place = InspectionPlace(name=name, address=address, active=True)
            ctx.s.add(place)
            ctx.s.flush()
        ids.append(place.id)
    have = set(ctx.s.scalars(select(InspectorSchedule.inspector_id)))
    for k, inspector in enumerate(ctx.inspectors):
        if inspector in have:
            continue
        for weekday in range(5):
            ctx.s.add(InspectorSchedule(inspector_id=inspector, weekday=weekday, start_time=time(8, 0),
                                        end_time=time(12, 0), slot_minutes=30, place_id=ids[k % len(ids)],
                                        valid_from=law.LAW_DATE))
    ctx.s.flush()
    return ids


def issqn_classes(ctx) -> None:
    for code, name, base in (("INTEGRAL", "Dedicação integral", Decimal("4500.00")),
                             ("PARCIAL", "Dedicação parcial", Decimal("2000.00"))):
        if ctx.s.scalar(select(IssqnClass.id).where(IssqnClass.code == code)) is None:
            ctx.s.add(IssqnClass(code=code, name=name, monthly_base=base, active=True, valid_from=law.LAW_DATE,
                                 reason="Classes da demonstração (Art. 11, §1)"))
    ctx.s.flush()


def load_number_sequences(ctx) -> None:
    for row in ctx.s.scalars(select(NumberSequence)):
        ctx.numbers[(row.kind, row.year)] = row.last


def save_number_sequences(ctx) -> None:
    for (kind, year), last in sorted(ctx.numbers.items()):
        row = ctx.s.get(NumberSequence, (kind, year))
        if row is None:
            ctx.s.add(NumberSequence(kind=kind, year=year, last=last))
        elif row.last != last:
            row.last = last
    ctx.s.flush()
