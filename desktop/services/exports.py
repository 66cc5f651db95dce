"""Exports to spreadsheets (issue 2): `.csv` as Brazilian Excel opens it (UTF-8 with BOM, `;` separator, dates
dd/mm/aaaa, decimal comma) or `.xlsx` (openpyxl, typed cells).

The column headers are a contract with the office's spreadsheets: they live in the `*_HEADERS` constants below
and the tests pin them. Add columns at the END only; never rename one.

Rows are streamed from Core selects (`yield_per`), never loaded as ORM objects, so 100,000 authorizations export
in a few seconds with flat memory. Every export is written to the audit log — who exported which list, how many
rows, to which file (SPEC §4, LGPD: exports of personal data are logged).
"""
from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from desktop.domain.cells import csv_text, looks_like_formula
from desktop.domain.money import round_cents
from desktop.domain.formatting import (
    format_cep,
    format_cnpj,
    format_cpf,
    format_date,
    format_datetime,
    format_document,
    format_plate,
    local_datetime,
)
from desktop.domain.roles import LIST_EXPORT_ROLES, Role
from desktop.errors import ValidationError
from desktop.domain.problems import Problem
import desktop.domain as domain
from desktop.domain import OwnershipMode
from sqlalchemy import select
from desktop.models import Platform as P
from desktop.models import Driver as D
from desktop.domain import vehicle_last_service_day
from desktop.models import Lessor as L
from desktop.models import Vehicle as V
from desktop.models import Authorization as A
from desktop.models import Inspection as I
from desktop.models import User as U
from desktop.models import Auto
from desktop.services.enforcement.core import code_in_force_column, fine_columns
from desktop.models import LedgerEntry as E
import tempfile

PLATFORM_HEADERS = (
    "CNPJ", "Razão social", "Nome fantasia", "Situação", "Inscrição municipal", "Data da inscrição",
    "Apólice APP", "Seguradora APP", "APP válida até", "Contato", "Telefone", "E-mail", "Endereço",
)
DRIVER_HEADERS = (
    "CPF", "Nome", "Nascimento", "Endereço", "Bairro", "Município", "UF", "CEP", "Telefone", "E-mail",
    "CNH", "Categoria", "Validade da CNH", "EAR", "NIT", "Situação", "Descadastrado em",
)
VEHICLE_HEADERS = (
    "Placa", "RENAVAM", "Chassi", "Marca", "Modelo", "Ano de fabricação", "Ano do modelo", "Cor", "Portas",
    "Lugares", "Ar-condicionado", "Município de registro", "UF", "Seguro obrigatório pago",
    "Modalidade (Art. 8, §3)", "Proprietário", "Documento do proprietário", "Locador", "Documento do locador",
    "Último dia de serviço", "Situação",
)
AUTHORIZATION_HEADERS = (
    "Número", "Situação", "Condutor", "CPF", "Placa", "Protocolo", "Data do protocolo", "Decisão em",
    "Taxa paga em", "Vistoria aprovada em", "Vistoria dispensada em", "Ativada em", "Válida até", "Limitada por",
    "Renovações", "Suspensa até", "Encerrada em",
)
INSPECTION_HEADERS = (
    "Nº", "Tipo", "Situação", "Resultado", "Placa", "Autorização", "Agendada para", "Realizada em",
    "Vistoriador", "Local", "Regularizar até", "Observações",
)
AUTO_HEADERS = (
    "Número", "Situação", "Código", "Lavrado em", "Local", "Infrator", "CPF/CNPJ", "Placa", "Autorização",
    "UPFM", "Valor da UPFM (R$)", "Valor (R$)", "Reincidência", "Prazo de defesa", "Prazo de recurso",
    "Vencimento", "Definitivo em", "Motivo do cancelamento", "Código lavrado",
)
LEDGER_HEADERS = (
    "Lançamento", "Data", "Tipo", "Infrator", "CPF/CNPJ", "Auto", "UPFM", "Valor da UPFM (R$)", "Valor (R$)",
    "Estorna o lançamento", "Guia", "Motivo", "Lançado em",
)

DIVIDA_ATIVA_HEADERS = (
    "Débito", "Auto / guia", "Devedor", "CPF/CNPJ", "Situação", "Vencimento", "Dias em atraso", "Saldo (UPFM)",
    "Saldo (R$)",
)   # issue 13: fines beside the unpaid fee and ISSQN guides

HEADERS: dict[str, tuple[str, ...]] = {
    "platforms": PLATFORM_HEADERS,
    "drivers": DRIVER_HEADERS,
    "vehicles": VEHICLE_HEADERS,
    "authorizations": AUTHORIZATION_HEADERS,
    "inspections": INSPECTION_HEADERS,
    "autos": AUTO_HEADERS,
    "ledger": LEDGER_HEADERS,
    "divida_ativa": DIVIDA_ATIVA_HEADERS,
    "dispatches": ("Código", "Documento", "Destinatário", "Forma", "Enviado em", "Recebido em", "Recebido por",
                   "Devolvido (motivo)", "Juntado em", "Processo"),   # issue 26: the dispatch register
}
KIND_LABELS = {
    "platforms": "Plataformas", "drivers": "Condutores", "vehicles": "Veículos", "authorizations": "Autorizações",
    "inspections": "Vistorias", "autos": "Autos de infração", "ledger": "Lançamentos de multas",
    "divida_ativa": "Dívida ativa",
    "dispatches": "Registro de expedição",
}
# LGPD (SPEC §4): only the roles that work with a list may take it out of the program.
EXPORT_ROLES: dict[str, tuple[Role, ...]] = dict(LIST_EXPORT_ROLES)   # desktop/domain/roles.py

PLATFORM_STATUS_LABELS = {"pending": "Pendente", "active": "Registrada", "suspended": "Suspensa",
                          "deregistered": "Descadastrada"}
from desktop.domain.registration import REGISTRATION_LABELS  # noqa: E402 — the screen's words (issue 12 item 13)
INSPECTION_KIND_LABELS = {"initial": "Inicial", "annual": "Anual", "extraordinary": "Extraordinária",
                          "substitution": "Substituição de veículo", "reinspection": "Revistoria"}
INSPECTION_STATUS_LABELS = {"scheduled": "Agendada", "done": "Realizada", "no_show": "Não compareceu",
                            "cancelled": "Cancelada"}
INSPECTION_RESULT_LABELS = {"approved": "Aprovado", "failed": "Reprovado"}


def _label(enum_path: str, value: str | None) -> str:
    """The Portuguese label of a domain enumeration value (the value itself when unknown)."""
    if not value:
        return ""

    try:
        return getattr(domain, enum_path)(value).label
    except (ValueError, AttributeError):
        return value


def ownership_label(mode: str | None) -> str:
    if not mode:
        return ""

    try:
        m = OwnershipMode(mode)
    except ValueError:
        return mode
    return f"{m.article.split(', ')[-1]} — {m.label}"


def authorization_status_label(status: str) -> str:
    return _label("AuthorizationStatus", status)


@dataclass(frozen=True, slots=True)
class ExportResult:
    kind: str
    path: Path
    rows: int
    format: str   # "csv" | "xlsx"


# ------------------------------------------------------------------------------------------------- cell formats

# Documents, plates, CEP and dates come from the one locale module (desktop.domain.formatting). A number cell
# is NOT the screen's "1.234,56": spreadsheets read "1234,56" (no thousands dot) as a number.

def _trim(value: Decimal) -> Decimal:
    """Drop the storage scale but keep at least the cents: 40.0000 → 40.00, 112.450000 → 112.45, 0.1234 stays."""
    if value == value.to_integral_value() or value.normalize().as_tuple().exponent > -2:
        return round_cents(value)
    return value.normalize()


def csv_cell(value) -> str:
    """A value as Brazilian Excel reads it from a CSV: 29/11/2026, 1234,56, Sim/Não."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, date):          # a datetime too: dd/mm/aaaa HH:MM in Cuiabá time
        return format_datetime(value) if isinstance(value, datetime) else format_date(value)
    if isinstance(value, Decimal):
        return f"{_trim(value):f}".replace(".", ",")
    if isinstance(value, float):
        return repr(value).replace(".", ",")
    if isinstance(value, int):
        return str(value)
    return csv_text(str(value))     # issue 25 item 4: `=HYPERLINK(…)` is written as '=HYPERLINK(…)


def _xlsx_cell(value):
    if isinstance(value, Decimal):
        return _trim(value)
    if isinstance(value, datetime):
        return local_datetime(value).replace(tzinfo=None)
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    return value


# -------------------------------------------------------------------------------------------------------- queries
# Each query returns a Core select and a function turning one result row into the list of cells.

def _q_platforms():

    stmt = select(P.cnpj, P.legal_name, P.trade_name, P.status, P.municipal_registration_number,
                  P.municipal_registration_date, P.app_insurance_policy, P.app_insurance_insurer,
                  P.app_insurance_valid_until, P.contact_name, P.phone, P.email, P.address).order_by(P.trade_name, P.id)

    def row(r):
        return [format_cnpj(r.cnpj), r.legal_name, r.trade_name, PLATFORM_STATUS_LABELS.get(r.status, r.status),
                r.municipal_registration_number, r.municipal_registration_date, r.app_insurance_policy,
                r.app_insurance_insurer, r.app_insurance_valid_until, r.contact_name, r.phone, r.email, r.address]
    return stmt, row


def _q_drivers():

    stmt = select(D.cpf, D.name, D.birth_date, D.address, D.district, D.city, D.uf, D.zip_code, D.phone, D.email,
                  D.cnh_number, D.cnh_category, D.cnh_expiry, D.cnh_ear, D.nit, D.status,
                  D.deregistered_on).order_by(D.id)

    def row(r):
        return [format_cpf(r.cpf), r.name, r.birth_date, r.address, r.district, r.city, r.uf, format_cep(r.zip_code),
                r.phone, r.email, r.cnh_number, r.cnh_category, r.cnh_expiry, bool(r.cnh_ear), r.nit,
                REGISTRATION_LABELS.get(r.status, r.status), r.deregistered_on]
    return stmt, row


def _q_vehicles():

    stmt = (select(V.plate, V.renavam, V.chassis, V.make, V.model, V.manufacture_year, V.model_year, V.colour,
                   V.doors, V.seats, V.air_conditioning, V.registration_municipality, V.registration_uf,
                   V.compulsory_insurance_paid, V.ownership_mode, V.owner_name, V.owner_document,
                   L.name.label("lessor_name"), L.document_number.label("lessor_document"), V.status)
            .outerjoin(L, L.id == V.lessor_id).order_by(V.id))

    def row(r):
        return [format_plate(r.plate), r.renavam, r.chassis, r.make, r.model, r.manufacture_year, r.model_year,
                r.colour, r.doors, r.seats, bool(r.air_conditioning), r.registration_municipality,
                r.registration_uf, bool(r.compulsory_insurance_paid),
                ownership_label(r.ownership_mode), r.owner_name, format_document(r.owner_document),
                r.lessor_name, format_document(r.lessor_document), vehicle_last_service_day(r.manufacture_year),
                REGISTRATION_LABELS.get(r.status, r.status)]
    return stmt, row


def _q_authorizations():

    stmt = (select(A.number, A.status, D.name.label("driver_name"), D.cpf, V.plate, A.protocol_number,
                   A.protocol_date, A.decided_on, A.fee_paid_on, A.inspection_approved_on, A.inspection_waived_on,
                   A.activated_on, A.valid_until, A.valid_until_limited_by, A.renewal_count, A.suspended_until,
                   A.ended_on)
            .join(D, D.id == A.driver_id).join(V, V.id == A.vehicle_id).order_by(A.id))

    labels: dict[str, str] = {}

    def row(r):
        label = labels.get(r.status)
        if label is None:
            label = labels[r.status] = authorization_status_label(r.status)
        return [r.number, label, r.driver_name, format_cpf(r.cpf), format_plate(r.plate), r.protocol_number,
                r.protocol_date, r.decided_on, r.fee_paid_on, r.inspection_approved_on, r.inspection_waived_on,
                r.activated_on, r.valid_until, _label("ValidityLimit", r.valid_until_limited_by),
                r.renewal_count, r.suspended_until, r.ended_on]
    return stmt, row


def _q_inspections():

    from desktop.models import InspectionPlace as P  # local: its name stands for something else at module level

    stmt = (select(I.id, I.kind, I.status, I.result, V.plate, A.number.label("authorization_number"),
                   I.scheduled_start, I.performed_at, U.full_name.label("inspector"), P.name.label("place"),
                   I.regularize_by, I.notes)
            .join(V, V.id == I.vehicle_id).outerjoin(A, A.id == I.authorization_id)
            .outerjoin(U, U.id == I.inspector_id).outerjoin(P, P.id == I.place_id).order_by(I.id))

    def row(r):
        return [r.id, INSPECTION_KIND_LABELS.get(r.kind, r.kind), INSPECTION_STATUS_LABELS.get(r.status, r.status),
                INSPECTION_RESULT_LABELS.get(r.result or "", ""), format_plate(r.plate), r.authorization_number,
                r.scheduled_start, r.performed_at, r.inspector, r.place, r.regularize_by, r.notes]
    return stmt, row


def _q_autos():

    # local: the enforcement core imports SQLAlchemy and the models, paid only when an export runs

    # the fine in force: summed from the auto's ledger entries (debit, requalifications), never the drawn-up
    # column; the code in force (issue 12 item 1) and, last, the code it was drawn up with
    fine_upfm, fine_reais = fine_columns()
    stmt = (select(Auto.number, Auto.status, code_in_force_column().label("code"), Auto.code.label("drawn_code"),
                   Auto.drawn_up_at, Auto.place, D.name.label("driver_name"),
                   D.cpf, P.trade_name.label("platform_name"), P.cnpj, V.plate, A.number.label("authorization_number"),
                   fine_upfm.label("amount_upfm"), Auto.upfm_value, fine_reais.label("amount_reais"), Auto.recurrence, Auto.defense_deadline,
                   Auto.appeal_deadline, Auto.payment_deadline, Auto.final_on, Auto.cancel_reason)
            .outerjoin(D, D.id == Auto.infractor_driver_id).outerjoin(P, P.id == Auto.infractor_platform_id)
            .outerjoin(V, V.id == Auto.vehicle_id).outerjoin(A, A.id == Auto.authorization_id).order_by(Auto.id))

    def row(r):
        infractor = r.driver_name or r.platform_name
        document = format_cpf(r.cpf) if r.driver_name else format_cnpj(r.cnpj)
        return [r.number, _label("AutoStatus", r.status), r.code, r.drawn_up_at, r.place, infractor,
                document, format_plate(r.plate), r.authorization_number, r.amount_upfm, r.upfm_value, r.amount_reais,
                bool(r.recurrence), r.defense_deadline, r.appeal_deadline, r.payment_deadline, r.final_on,
                r.cancel_reason, r.drawn_code]
    return stmt, row


def _q_ledger():

    stmt = (select(E.id, E.effective_on, E.kind, D.name.label("driver_name"), D.cpf,
                   P.trade_name.label("platform_name"), P.cnpj, Auto.number.label("auto_number"), E.amount_upfm,
                   E.upfm_value, E.amount_reais, E.reverses_id, E.guide_number, E.reason, E.posted_at)
            .outerjoin(D, D.id == E.infractor_driver_id).outerjoin(P, P.id == E.infractor_platform_id)
            .outerjoin(Auto, Auto.id == E.auto_id).order_by(E.id))

    def row(r):
        infractor = r.driver_name or r.platform_name
        document = format_cpf(r.cpf) if r.driver_name else format_cnpj(r.cnpj)
        return [r.id, r.effective_on, _label("EntryKind", r.kind), infractor, document, r.auto_number,
                r.amount_upfm, r.upfm_value, r.amount_reais, r.reverses_id, r.guide_number, r.reason, r.posted_at]
    return stmt, row


QUERIES: dict[str, Callable] = {
    "platforms": _q_platforms, "drivers": _q_drivers, "vehicles": _q_vehicles,
    "authorizations": _q_authorizations, "inspections": _q_inspections, "autos": _q_autos, "ledger": _q_ledger,
}


# -------------------------------------------------------------------------------------------------------- writers

_NOT_TEXT = (int, float, Decimal, date)   # bool is an int: numbers and dates are never prefixed


def write_csv(path: Path, headers: Iterable[str], rows: Iterable[list], *, delimiter: str = ";",
              encoding: str = "utf-8-sig", cell: Callable = csv_cell) -> int:
    """UTF-8 with BOM (so Excel recognizes the accents), `;` separator, CRLF lines. Returns the row count. `cell`
    turns a value into its text (default `csv_cell`); for any value that is not a number or a date, a text a
    spreadsheet would execute is written with a `'` before it (issue 25 item 4). A machine-readable CSV passes `delimiter=","`,
    `encoding="utf-8"`."""
    n = 0
    with open(path, "w", encoding=encoding, newline="") as fh:
        writer = csv.writer(fh, delimiter=delimiter, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
        writer.writerow([csv_text(str(h)) for h in headers])
        for cells in rows:
            writer.writerow([cell(c) if isinstance(c, _NOT_TEXT) else csv_text(cell(c)) for c in cells])
            n += 1
    return n


def write_xlsx(path: Path, headers: Iterable[str], rows: Iterable[list], title: str = "Dados") -> int:
    """A streaming (write-only) workbook: dates as dates (dd/mm/aaaa), numbers as numbers, documents as text."""
    from openpyxl import Workbook  # lazy: openpyxl loads only when this runs (start-up cost)
    from openpyxl.cell import WriteOnlyCell  # lazy: openpyxl loads only when this runs (start-up cost)
    from openpyxl.styles import Font  # lazy: openpyxl loads only when this runs (start-up cost)

    wb = Workbook(write_only=True)
    ws = wb.create_sheet(title=title[:31])
    ws.freeze_panes = "A2"
    bold = Font(bold=True)
    header_cells = []
    for h in headers:
        c = WriteOnlyCell(ws, value=h)
        c.font = bold
        header_cells.append(c)
    ws.append(header_cells)
    # One styled cell per date column, re-used for every row: a write-only sheet serializes each row as it is
    # appended, so the cell only carries the value across (creating and styling a cell per value was ≈ 4× slower).
    date_cells: dict[int, WriteOnlyCell] = {}
    datetime_cells: dict[int, WriteOnlyCell] = {}
    n = 0
    for cells in rows:
        out = []
        for j, value in enumerate(cells):
            v = _xlsx_cell(value)
            if looks_like_formula(v):
                out.append(text_cell(ws, v))    # issue 25 item 4: a string cell, never a live formula
            elif isinstance(v, datetime):
                c = datetime_cells.get(j)
                if c is None:
                    c = datetime_cells[j] = WriteOnlyCell(ws)
                    c.number_format = "DD/MM/YYYY HH:MM"
                c.value = v
                out.append(c)
            elif isinstance(v, date):
                c = date_cells.get(j)
                if c is None:
                    c = date_cells[j] = WriteOnlyCell(ws)
                    c.number_format = "DD/MM/YYYY"
                c.value = v
                out.append(c)
            else:
                out.append(v)
        ws.append(out)
        n += 1
    wb.save(path)
    return n


def text_cell(ws, value: str):
    """An openpyxl write-only cell holding `value` as text: data type "s" (openpyxl would make a text starting with
    `=` a formula) and Excel's quote prefix, so editing the cell does not turn it into one either."""
    from openpyxl.cell import WriteOnlyCell  # lazy: openpyxl loads only when this runs (start-up cost)

    c = WriteOnlyCell(ws, value=value)
    c.data_type = "s"
    c.quotePrefix = True
    return c


def _divida_ativa_rows(db, actor) -> Iterator[list]:
    """The dívida ativa list of today (services.ledger.divida_ativa_list): overdue fines, then the unpaid fee
    and ISSQN guides past their due date (issue 13)."""
    from desktop.services import ledger  # lazy: the ledger loads the enforcement services, paid only when exported

    for r in ledger.divida_ativa_list(db, actor):
        yield [r.debt_label, r.number, r.infractor_name, r.document, r.status.label, r.payment_deadline,
               r.days_overdue, "" if r.debt == "cost" else r.balance_upfm, r.balance_reais]   # Art. 28: reais only


def _dispatch_rows(db, actor) -> Iterator[list]:
    """The dispatch register (issue 26), one row per dispatch (services.correspondence.dispatch_rows)."""
    from desktop.services import correspondence  # lazy: only when this list is exported

    yield from correspondence.dispatch_rows(db, actor)


LISTS: dict[str, Callable] = {"divida_ativa": _divida_ativa_rows, "dispatches": _dispatch_rows}   # lists built by a service, not one query


def iter_rows(db, kind: str, batch: int = 2000, actor=None) -> Iterator[list]:
    """The cells of every row of `kind`, streamed from the database in batches."""
    if kind in LISTS:
        yield from LISTS[kind](db, actor)
        return
    stmt, to_cells = QUERIES[kind]()
    with db.session(write=False) as s:
        result = s.execute(stmt, execution_options={"yield_per": batch})
        for r in result:
            yield to_cells(r)


def export_target(path: str | os.PathLike, suffixes: tuple[str, ...] | None = (".csv", ".xlsx")) -> Path:
    """The file an export will write: its extension one of `suffixes` (any with None: CSV unless .xlsx), its
    folder existing."""
    out = Path(path)
    if suffixes is not None and out.suffix.lower() not in suffixes:
        raise ValidationError([Problem("path", "O arquivo deve terminar em " + " ou ".join(suffixes) + ".")])
    if out.parent and not out.parent.exists():
        raise ValidationError([Problem("path", f"A pasta {out.parent} não existe.")])
    return out


def write_audited(db, actor, path: str | os.PathLike, headers: Iterable[str], rows: Iterable[list], *,
                  record: Callable, title: str = "Dados", suffixes: tuple[str, ...] | None = (".csv", ".xlsx"),
                  csv_options: dict | None = None) -> int:
    """The one exports writer (issue 25 items 4 and 6): every list that leaves the program goes through here.

    1. The acting user is re-read first (`audit.check_live_actor`): a deactivated, locked or demoted session
       writes nothing to disk (it used to leave a 300-driver CSV behind its "nada foi gravado").
    2. The rows go to a temporary file in the target folder, created 0600 (personal data), through `write_csv`
       or `write_xlsx` (formulas written as text).
    3. `record(session, rows)` writes the audit entry (and any access log) in a write transaction, which
       re-checks the user; only after it is committed is the file renamed onto `path`. Anything that fails
       before leaves no file (the temporary one is removed) and no entry.
    Returns the number of rows written."""

    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)

    out = export_target(path, suffixes)
    with db.session(write=False) as s:
        audit.check_live_actor(s, actor)
    fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".parcial", dir=out.parent or None)
    os.close(fd)
    tmp = Path(name)
    try:
        if out.suffix.lower() == ".xlsx":
            n = write_xlsx(tmp, headers, rows, title)
        else:
            n = write_csv(tmp, headers, rows, **(csv_options or {}))
        with db.session() as s:
            record(s, n)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return n


def export(db, actor, kind: str, path: str | os.PathLike) -> ExportResult:
    """Write the list `kind` to `path` (.csv or .xlsx by the extension) and record the export in the audit log
    (through `write_audited`: the session checked before anything is written, the file in place only after the
    audit entry is committed)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.permissions import require_role  # lazy: SQLAlchemy loads once the database is used (start-up)

    if kind not in HEADERS:
        raise ValidationError([Problem("kind", f"Tipo de exportação desconhecido: {kind}. Use: "
                                               + ", ".join(HEADERS) + ".")])
    require_role(actor, *EXPORT_ROLES[kind])
    out = export_target(path)
    suffix = out.suffix.lower()

    def record(s, n: int) -> None:
        audit.record(s, actor, "export", kind, "", None,
                     {"list": KIND_LABELS[kind], "rows": n, "file": out.name, "format": suffix[1:],
                      "personal_data": kind != "platforms"})

    n = write_audited(db, actor, out, HEADERS[kind], iter_rows(db, kind, actor=actor), record=record,
                      title=KIND_LABELS[kind])
    return ExportResult(kind, out, n, suffix[1:])
