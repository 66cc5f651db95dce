"""Dated parameters: the numbers the decree and the tax code set (STYLE habits; SPEC §3 Taxes, Infractions).

Every value is a row valid from a date; a change is a NEW row (nothing is overwritten), so an auto drawn up in
2026 keeps the UPFM value of 2026 forever and an old deadline keeps the term it had. The value on a date is the
row with the greatest `valid_from` on or before it, falling back to the catalog default.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from desktop.domain.formatting import format_date, format_decimal, format_money
from desktop.domain.limits import year_problems
from desktop.domain.money import round_cents, round_places
from desktop.domain.problems import Problem
from desktop.domain.roles import PARAMETER_ROLES
from desktop.domain.taxes import ISS_MAX_RATE, ISS_MIN_RATE
from desktop.errors import ConflictError, NotFound, ValidationError
from sqlalchemy import select
from desktop.models.admin import Parameter, User
from sqlalchemy import func

# Lei nº 2.103/2025 was published on 04/06/2025 (Art. 30): the defaults written at set-up are valid from then,
# so that any later date can carry a new value.
LAW_IN_FORCE = date(2025, 6, 4)


@dataclass(frozen=True, slots=True)
class ParameterSpec:
    """One entry of the catalog. `default` is used when no row exists (None: a value must be entered).

    `minimum`/`maximum` bound the value (inclusive); `integer` refuses fractions; `article` is the legal basis
    shown next to the field."""

    key: str
    label: str
    unit: str
    default: Decimal | None
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    integer: bool = False
    article: str = ""
    help: str = ""


PARAMETERS: dict[str, ParameterSpec] = {
    spec.key: spec
    for spec in (
        ParameterSpec(
            "upfm_value", "Valor da UPFM", "R$", None, minimum=Decimal("0.01"), maximum=Decimal("100000"),
            article="Art. 25",
            help="Valor em reais de uma Unidade Padrão Fiscal do Município, por ano. A multa de um auto usa o "
                 "valor do ano em que foi lavrado.",
        ),
        ParameterSpec(
            # issue 23 point 10: the law leaves the fees to the Código Tributário Municipal — no invented default;
            # until the gestor sets them (with the law/decree in the note) no fee guide is issued.
            "fee.authorization", "Taxa de autorização", "UPFM", None, minimum=Decimal("0"),
            maximum=Decimal("1000"), article="Art. 10; Art. 15, parágrafo único, VII",
            help="Taxa do Código Tributário Municipal recolhida antes da autorização, por veículo. Sem valor "
                 "padrão: informe o valor e, na observação, a lei ou o decreto que o fixa.",
        ),
        ParameterSpec(
            "fee.renewal", "Taxa de renovação", "UPFM", None, minimum=Decimal("0"),
            maximum=Decimal("1000"), article="Art. 3, §2; Art. 10",
            help="Taxa do Código Tributário Municipal da renovação. Sem valor padrão (informe a lei ou o decreto).",
        ),
        ParameterSpec(
            "fee.inspection", "Taxa de vistoria", "UPFM", None, minimum=Decimal("0"),
            maximum=Decimal("1000"), article="Art. 9; Art. 16",
            help="Taxa do Código Tributário Municipal da vistoria. Sem valor padrão (informe a lei ou o decreto).",
        ),
        ParameterSpec(
            "term.defense_days", "Prazo de defesa", "dias", Decimal("15"), minimum=Decimal("1"),
            maximum=Decimal("365"), integer=True, article="Art. 22, §§1º e 2º",
            help="Conta-se da juntada do comprovante de notificação aos autos.",
        ),
        ParameterSpec(
            "term.appeal_days", "Prazo de recurso", "dias", Decimal("15"), minimum=Decimal("1"),
            maximum=Decimal("365"), integer=True, article="Art. 22",
        ),
        ParameterSpec(
            "term.payment_days", "Prazo de pagamento da multa", "dias", Decimal("30"), minimum=Decimal("1"),
            maximum=Decimal("365"), integer=True, article="Art. 13, XXI",
        ),
        ParameterSpec(
            "term.list_regularization_days", "Prazo para regularizar a lista em atraso", "dias", Decimal("5"),
            minimum=Decimal("1"), maximum=Decimal("60"), integer=True, article="Art. 5, VIII; Art. 24, II, a",
            help="Prazo dado à plataforma na notificação para regularização quando a lista de 60 dias não foi "
                 "entregue (a lei não fixa prazo; o decreto pode fixar).",
        ),
        ParameterSpec(
            "recurrence.window_months", "Janela de reincidência", "meses", Decimal("12"), minimum=Decimal("1"),
            maximum=Decimal("60"), integer=True, article="Art. 26, §§1º e 2º; Art. 27, parágrafo único",
        ),
        # ISSQN (Art. 11; issue 13). The rate has NO default: SPEC §3 "Taxes" says it is set in parameters within
        # 2-5 %, and the Código Tributário Municipal, not this program, fixes it.
        ParameterSpec(
            "issqn_rate_percent", "Alíquota do ISSQN", "%", None, minimum=ISS_MIN_RATE, maximum=ISS_MAX_RATE,
            article="Art. 11; LC 116/2003, item 16.02 e art. 8º, II; LC 157/2016 (art. 8º-A)",
            help=f"Entre {ISS_MIN_RATE} % (mínimo da LC 157/2016) e {ISS_MAX_RATE} % (máximo da LC 116/2003), "
                 "como fixar o Código "
                 "Tributário Municipal. Sem valor cadastrado a estimativa mensal não é calculada.",
        ),
        ParameterSpec(
            "issqn_pro_rata", "ISSQN proporcional aos dias (1 = sim, 0 = mês cheio)", "0/1", Decimal("0"),
            minimum=Decimal("0"), maximum=Decimal("1"), integer=True, article="Art. 11, §1",
            help="0: o veículo ativo em qualquer dia do mês paga o mês inteiro; 1: proporcional aos "
                 "dias em que a autorização esteve ativa.",
        ),
        ParameterSpec(
            "issqn_due_day", "Dia de vencimento do ISSQN (mês seguinte)", "dia", Decimal("10"),
            minimum=Decimal("1"), maximum=Decimal("28"), integer=True, article="Art. 11",
            help="A guia da competência vence neste dia do mês seguinte, ou no dia útil seguinte.",
        ),
        ParameterSpec(
            "trip_retention_months", "Prazo de retenção dos dados de viagens", "meses", Decimal("24"),
            minimum=Decimal("1"), maximum=Decimal("120"), integer=True, article="Art. 4 (LGPD, art. 15 e 16)",
            help="Viagens iniciadas há mais tempo são apagadas pela rotina do dia, exceto as que são prova em "
                 "um auto de infração.",
        ),
    )
}

# Issue 13 (services.guides): when a fine's guide is issued, the terms of the guides, and the late charges of the
# Código Tributário Municipal — these two with NO default (nothing is invented: while unset, a reissued guide
# keeps its original amount and the screen says so).
PARAMETERS.update({spec.key: spec for spec in (
    ParameterSpec(
        "fine_guide_when", "Guia da multa: 0 = após a notificação, 1 = após a decisão definitiva", "0/1",
        Decimal("0"), minimum=Decimal("0"), maximum=Decimal("1"), integer=True, article="Art. 22; Art. 25",
        help="Quando a guia (DAM) de uma multa pode ser emitida. O pagamento não encerra o prazo de recurso.",
    ),
    ParameterSpec(
        "guide.fee_days", "Vencimento da guia de taxa", "dias", Decimal("30"), minimum=Decimal("1"),
        maximum=Decimal("365"), integer=True, article="Art. 10; Art. 15, VII",
        help="Dias após a emissão; cai no dia útil seguinte quando vence em fim de semana ou feriado.",
    ),
    ParameterSpec(
        "guide.fine_days", "Vencimento da guia de multa", "dias", Decimal("30"), minimum=Decimal("1"),
        maximum=Decimal("365"), integer=True, article="Art. 13, XXI; Art. 25",
        help="Dias após a emissão; cai no dia útil seguinte quando vence em fim de semana ou feriado.",
    ),
    ParameterSpec(
        "late.fine_percent", "Multa de mora (Código Tributário Municipal)", "%", None, minimum=Decimal("0"),
        maximum=Decimal("100"), article="Código Tributário Municipal",
        help="Percentual sobre o valor original de uma guia paga após o vencimento. Sem valor cadastrado, a guia "
             "reemitida mantém o valor original.",
    ),
    ParameterSpec(
        "late.interest_percent", "Juros de mora ao mês (Código Tributário Municipal)", "%", None,
        minimum=Decimal("0"), maximum=Decimal("100"), article="Código Tributário Municipal",
        help="Percentual por mês ou fração de atraso, sobre o valor original. Sem valor cadastrado, a guia "
             "reemitida mantém o valor original.",
    ),
)})

# Issue 28 point 4: the term to contest the estimated ISSQN lançamento — the Código Tributário Municipal's, with NO
# default (nothing is invented: while unset, the notice of lançamento is refused and says where to set it).
PARAMETERS["issqn.contest_days"] = ParameterSpec(
    "issqn.contest_days", "Prazo de impugnação do lançamento do ISSQN (Código Tributário Municipal)", "dias", None,
    minimum=Decimal("1"), maximum=Decimal("365"), integer=True, article="Art. 11, §1º; CTN, art. 145",
    help="Dias contados do recebimento da notificação de lançamento do ISSQN estimado, como fixar o Código "
         "Tributário Municipal.")

# Issue 26 (services.correspondence): an e-mailed notice with no answer after these days offers the post.
PARAMETERS["dispatch.email_answer_days"] = ParameterSpec(
    "dispatch.email_answer_days", "E-mail sem resposta: dias até oferecer o correio", "dias", Decimal("10"),
    minimum=Decimal("1"), maximum=Decimal("90"), integer=True, article="Art. 22, §1º, V e VI",
    help="Sem a resposta (prova de recebimento) neste prazo, o programa oferece a carta com AR.")

EDITOR_ROLES = PARAMETER_ROLES.edit


@dataclass(frozen=True, slots=True)
class ParameterValue:
    key: str
    label: str
    unit: str
    valid_from: date | None   # None: the catalog default (no row stored)
    value: Decimal
    note: str
    created_by: str            # user name of who entered it ("" for a default)
    id: int | None = None


def spec_of(key: str) -> ParameterSpec:
    try:
        return PARAMETERS[key]
    except KeyError:
        raise NotFound(f"Parâmetro desconhecido: {key}.") from None


def format_value(value: Decimal, unit: str) -> str:
    """`R$ 1.234,56`, `5,00 %`, `15 dias` — as the screens and messages show a parameter."""
    if unit == "R$":
        return format_money(value, nbsp=True)
    text = format_decimal(value)
    return text if unit == "0/1" else f"{text} {unit}"


_fmt_date = format_date


def validate(key: str, valid_from: object, value: object) -> list[Problem]:
    """Problems of a new parameter value (empty when it may be saved)."""
    problems: list[Problem] = []
    spec = PARAMETERS.get(key)
    if spec is None:
        return [Problem("key", f"Parâmetro desconhecido: {key}.")]
    if not isinstance(valid_from, date):
        problems.append(Problem("valid_from", "Informe a data de início da vigência."))
    elif not 2000 <= valid_from.year <= 2999:
        problems.append(Problem("valid_from", "Data de início da vigência fora do intervalo aceito (2000–2999)."))
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value).strip().replace(",", "."))
        if isinstance(value, float):
            raise InvalidOperation
        if not number.is_finite():
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        problems.append(Problem("value", f"{spec.label}: valor numérico inválido ({value!r})."))
        return problems
    if spec.integer and number != number.to_integral_value():
        problems.append(Problem("value", f"{spec.label}: informe um número inteiro de {spec.unit}."))
    if spec.minimum is not None and number < spec.minimum:
        problems.append(Problem(
            "value", f"{spec.label}: o valor mínimo é {format_value(spec.minimum, spec.unit)}.", spec.article))
    if spec.maximum is not None and number > spec.maximum:
        problems.append(Problem(
            "value", f"{spec.label}: o valor máximo é {format_value(spec.maximum, spec.unit)}.", spec.article))
    if key == "upfm_value" and number <= 0:
        problems.append(Problem("value", "O valor da UPFM deve ser maior que zero.", spec.article))
    return problems


def _to_decimal(value) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value).strip().replace(",", "."))


def _row_value(row) -> ParameterValue:
    spec = PARAMETERS.get(row.key)
    return ParameterValue(
        key=row.key, label=spec.label if spec else row.key, unit=spec.unit if spec else "",
        valid_from=row.valid_from, value=_normalize(row.value, spec), note=row.note or "",
        created_by=row.creator_username or "", id=row.id,
    )


def _normalize(value: Decimal, spec: ParameterSpec | None) -> Decimal:
    """Drop the storage scale: 10.000000 → 10, 2.500000 → 2.5, R$ 120.500000 → 120.50."""
    if spec is not None and spec.integer or value == value.to_integral_value():
        if spec is not None and spec.unit == "R$":
            return round_cents(value)
        return round_places(value, 0)
    if spec is not None and spec.unit == "R$" and value == round_cents(value):
        return round_cents(value)
    return value.normalize()


def _select_rows():

    return (
        select(Parameter.id, Parameter.key, Parameter.valid_from, Parameter.value, Parameter.note,
               User.username.label("creator_username"))
        .outerjoin(User, User.id == Parameter.created_by)
    )


def list_parameters(db, key: str | None = None) -> list[ParameterValue]:
    """Every stored row (all keys, or one), by key and then newest first; history included."""

    stmt = _select_rows().order_by(Parameter.key, Parameter.valid_from.desc())
    if key is not None:
        stmt = stmt.where(Parameter.key == key)
    with db.session(write=False) as s:
        return [_row_value(r) for r in s.execute(stmt)]


def current_parameters(db, on: date) -> list[ParameterValue]:
    """One line per catalog entry with the value in force on `on` (the default when nothing was entered).

    For `upfm_value` the line is the value of the year of `on` (or of the latest year entered before it)."""

    out: list[ParameterValue] = []
    with db.session(write=False) as s:
        for key, spec in PARAMETERS.items():
            row = s.execute(
                _select_rows().where(Parameter.key == key, Parameter.valid_from <= on)
                .order_by(Parameter.valid_from.desc()).limit(1)
            ).first()
            if row is not None:
                out.append(_row_value(row))
            elif spec.default is not None:
                out.append(ParameterValue(key, spec.label, spec.unit, None, spec.default, "Valor padrão", ""))
    return out


def set_parameter_in(session, actor, key: str, valid_from: date, value, note: str = "") -> ParameterValue:
    """Same as `set_parameter` inside the transaction the caller opened
    (the role check and the audit record included)."""

    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.permissions import require_role  # lazy: SQLAlchemy loads once the database is used (start-up)

    require_role(actor, *EDITOR_ROLES)
    problems = validate(key, valid_from, value)
    if problems:
        raise ValidationError(problems)
    spec = PARAMETERS[key]
    number = _to_decimal(value)
    note = (note or "").strip()
    same = session.scalar(select(Parameter.id).where(Parameter.key == key, Parameter.valid_from == valid_from))
    if same is not None:
        current = session.get(Parameter, same)
        raise ConflictError(
            f"{spec.label}: já existe um valor vigente a partir de {_fmt_date(valid_from)} "
            f"({format_value(_normalize(current.value, spec), spec.unit)}). Os valores não são alterados: "
            f"cadastre o novo valor com outra data de início."
        )
    latest = session.scalar(select(func.max(Parameter.valid_from)).where(Parameter.key == key))
    if latest is not None and valid_from < latest:
        year_free = key == "upfm_value" and session.scalar(
            select(func.count()).select_from(Parameter).where(
                Parameter.key == key,
                Parameter.valid_from >= date(valid_from.year, 1, 1),
                Parameter.valid_from <= date(valid_from.year, 12, 31),
            )
        ) == 0
        if not year_free:
            raise ConflictError(
                f"{spec.label}: já há valor vigente a partir de {_fmt_date(latest)}. Um novo valor deve "
                f"valer a partir dessa data ou depois — o histórico não é reescrito."
            )
    row = Parameter(key=key, valid_from=valid_from, value=number, note=note, created_by=actor.user_id)
    session.add(row)
    session.flush()
    audit.record(session, actor, "parameter.set", "parameter", str(row.id), None,
                 {"key": key, "valid_from": valid_from.isoformat(), "value": str(number), "note": note})
    result = ParameterValue(key, spec.label, spec.unit, valid_from, _normalize(number, spec), note,
                            actor.username, row.id)
    return result


def set_parameter(db, actor, key: str, valid_from: date, value, note: str = "") -> ParameterValue:
    """Record a new value of `key` valid from `valid_from` (gestor or administrador). Never overwrites: the
    same key and date twice is refused, and so is a date before the latest one already recorded (which would
    rewrite the past); the UPFM value may still be entered for a year that has none."""
    with db.session() as s:
        return set_parameter_in(s, actor, key, valid_from, value, note)


def set_upfm_value_in(session, actor, year: int, value, note: str = "") -> ParameterValue:
    """Same as `set_upfm_value`, inside the transaction the caller opened."""
    problems = year_problems("year", "ano da UPFM", year)  # issue 12 item 21: year=0 is a message, not a crash
    if problems:
        raise ValidationError(problems)
    year = int(str(year).strip())
    return set_parameter_in(session, actor, "upfm_value", date(year, 1, 1), value, note)


def set_upfm_value(db, actor, year: int, value, note: str = "") -> ParameterValue:
    """The UPFM value of a year (valid from 1 January of that year)."""
    with db.session() as s:
        return set_upfm_value_in(s, actor, year, value, note)


def parameter_value_in(session, key: str, on: date) -> Decimal:
    """Same as `parameter_value`, inside a session another service already opened."""

    spec = spec_of(key)
    value = session.scalar(
        select(Parameter.value).where(Parameter.key == key, Parameter.valid_from <= on)
        .order_by(Parameter.valid_from.desc()).limit(1)
    )
    if value is None:
        if spec.default is None:
            raise NotFound(f"{spec.label}: nenhum valor cadastrado vigente em {_fmt_date(on)}.")
        return spec.default
    return _normalize(value, spec)


def parameter_value(db, key: str, on: date) -> Decimal:
    """The value of `key` in force on `on`: the row with the greatest valid_from ≤ on, else the default."""
    with db.session(write=False) as s:
        return parameter_value_in(s, key, on)


def upfm_value_in(session, year: int) -> Decimal:

    value = session.scalar(
        select(Parameter.value).where(
            Parameter.key == "upfm_value",
            Parameter.valid_from >= date(year, 1, 1),
            Parameter.valid_from <= date(year, 12, 31),
        ).order_by(Parameter.valid_from.desc()).limit(1)
    )
    if value is None:
        raise NotFound(
            f"Não há valor da UPFM cadastrado para {year}. Peça ao gestor que cadastre o valor de {year} em "
            f"Administração → Parâmetros (Art. 25)."
        )
    return round_cents(value) if value == round_cents(value) else value


def upfm_value(db, year: int) -> Decimal:
    """R$ per UPFM in `year` (Art. 25: fines in UPFM; reais use the value of the year the auto was drawn up)."""
    with db.session(write=False) as s:
        return upfm_value_in(s, year)


def seed_defaults(session, actor, valid_from: date = LAW_IN_FORCE) -> None:
    """Rows of every catalog default (set-up). Keys that already have a row are left alone."""

    existing = set(session.scalars(select(Parameter.key).distinct()))
    for key, spec in PARAMETERS.items():
        if spec.default is None or key in existing:
            continue
        session.add(Parameter(key=key, valid_from=valid_from, value=spec.default,
                              note="Valor padrão da instalação", created_by=actor.user_id))


def late_percents_in(session, on: date) -> tuple[Decimal | None, Decimal | None]:
    """The late charges of the Código Tributário Municipal in force on `on` (multa de mora %, juros de mora % a.m.),
    None where the gestor has not set them (no default: the law leaves them to the CTM)."""
    out = []
    for key in ("late.fine_percent", "late.interest_percent"):
        try:
            out.append(parameter_value_in(session, key, on))
        except NotFound:
            out.append(None)
    return out[0], out[1]
