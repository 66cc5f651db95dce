"""The bank's return file (issue 13): `Financeiro → Retorno bancário` and `python -m desktop payments import FILE`.

The file (Padrão FEBRABAN de arrecadação, 150-byte records A/G/Z; layout and source in
`desktop.importers.bank_return`) is read whole first: a wrong record length, an unknown record type, a bad date or
a trailer whose count or total does not add up refuses the file with the lines named, nothing recorded.

Then, in ONE transaction, each G record is matched to its guide by the barcode and paid on the bank's payment
date (G.03) through `services.guides.record_guide_payment_in` — a fee's guide activates or renews the
authorization from that date exactly as the desk's fee payment does (Art. 3 §1), a fine's posts a payment in the
ledger, an ISSQN guide changes only its payment_guides row. A line that does not match (unknown barcode, amount
different from the guide's, guide cancelled, guide already paid — also by an earlier line of the same file — or a
payment the authorization's step refuses) is not recorded and is reported in Portuguese with its line number; the
others are. The file is registered (`bank_return_files`: NSA, agreement, SHA-256, who, when, counts, the report),
so the same file — same NSA for the agreement, or the same bytes — imported again records nothing and says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from desktop.domain.finance import (
    GUIDE_MACHINE,
    UNRECONCILED_MACHINE,
    UNRECONCILED_STEPS,
    GuideStatus,
    UnreconciledStatus,
)
from desktop.domain.formatting import format_date, format_datetime, format_money, local_datetime
from desktop.domain.workflow import TransitionNotAllowed, transition
from desktop.domain.problems import Problem
from desktop.domain.roles import BANK_RETURN_ROLES
from desktop.errors import ConflictError, DesktopError, ValidationError
from desktop.importers.bank_return import ReturnFile, header_problems, parse_return
from desktop.models import BankReturnFile, MunicipalitySettings, PaymentGuide, UnreconciledPayment, User
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.domain.clock import today as _today
from desktop.services.guides import (
    find_guide_by_barcode_in,
    needs_own_transaction_step,
    pay_guide_row_in,
)

__all__ = ["IMPORT_ROLES", "BankReturnInfo", "ImportReport", "LineResult", "UnreconciledInfo", "assign_unreconciled",
           "assign_unreconciled_in", "import_bank_return", "import_bank_return_in",
           "list_bank_returns", "list_unreconciled", "return_unreconciled", "return_unreconciled_in",
           "unreconciled_count"]

IMPORT_ROLES = BANK_RETURN_ROLES.receive
_CHUNK = 500


@dataclass(frozen=True, slots=True)
class LineResult:
    line: int
    barcode: str
    guide_number: str
    purpose: str
    amount: Decimal
    paid_on: date
    recorded: bool
    message: str


@dataclass(frozen=True, slots=True)
class ImportReport:
    file_id: int | None
    file_name: str
    nsa: int
    agreement: str
    bank: str
    generated_on: date
    payments: int
    recorded: int
    rejected: int
    total_reais: Decimal
    recorded_reais: Decimal
    duplicate: bool
    lines: tuple[LineResult, ...]

    @property
    def rejected_lines(self) -> tuple[LineResult, ...]:
        return tuple(r for r in self.lines if not r.recorded)

    def describe(self) -> str:
        if self.duplicate:
            return self.lines[0].message if self.lines else "Arquivo já importado: nada foi registrado."
        text = (f"Retorno NSA {self.nsa} ({self.bank}, gerado em {format_date(self.generated_on)}): "
                f"{self.payments} pagamento(s), {self.recorded} registrado(s) "
                f"({format_money(self.recorded_reais)}), {self.rejected} não conciliado(s).")
        if self.rejected:
            text += (" Os não conciliados ficam guardados em Financeiro → Pagamentos não conciliados, para o gestor "
                     "atribuir a uma guia ou devolver.")
        return text


@dataclass(frozen=True, slots=True)
class BankReturnInfo:
    id: int
    nsa: int
    agreement: str
    bank_code: str
    generated_on: date
    file_name: str
    payments: int
    recorded: int
    rejected: int
    total_reais: Decimal
    imported_at: datetime
    imported_by: str


def _already(s: Session, parsed: ReturnFile) -> BankReturnFile | None:
    return s.scalar(select(BankReturnFile).where(
        (BankReturnFile.file_sha256 == parsed.sha256)
        | ((BankReturnFile.agreement == parsed.header.agreement) & (BankReturnFile.nsa == parsed.header.nsa))))


def _duplicate_report(s: Session, parsed: ReturnFile, row: BankReturnFile) -> ImportReport:
    who = s.get(User, row.imported_by).full_name if row.imported_by else "sistema"
    same = "o mesmo arquivo" if row.file_sha256 == parsed.sha256 else f"um arquivo com o mesmo NSA {row.nsa}"
    message = (f"Este retorno já foi importado: {same} (convênio {row.agreement or '—'}, NSA {row.nsa}) foi "
               f"importado em {format_datetime(row.imported_at)} por {who}. Nada foi registrado desta vez.")
    h = parsed.header
    return ImportReport(row.id, parsed.name, h.nsa, h.agreement, f"{h.bank_code} {h.bank_name}".strip(),
                        h.generated_on, len(parsed.payments), 0, 0, parsed.total_amount, Decimal("0.00"), True,
                        (LineResult(1, "", "", "", Decimal("0.00"), h.generated_on, False, message),))


_G = PaymentGuide
_COLUMNS = (_G.id, _G.number, _G.purpose, _G.amount_reais, _G.status, _G.paid_on, _G.cancel_reason, _G.created_at,
            _G.fee_id, _G.auto_id, _G.version, _G.barcode)


def _guides_by_barcode(s: Session, barcodes: list[str]) -> dict:
    """The guides of the file's barcodes as plain rows (10,000 ORM objects cost more than the import itself)."""
    found: dict = {}
    unique = list(dict.fromkeys(barcodes))
    for i in range(0, len(unique), _CHUNK):
        chunk = unique[i:i + _CHUNK]
        for row in s.execute(select(*_COLUMNS).where(_G.barcode.in_(chunk))):
            found[row.barcode] = row
    return found


def _fallback(s: Session, barcode: str):
    row = find_guide_by_barcode_in(s, barcode)
    if row is None:
        return None
    return s.execute(select(*_COLUMNS).where(_G.id == row.id)).first()


_PAYABLE = GuideStatus.OPEN.value   # GUIDE_MACHINE: open → paid (checked once; the machine refuses the rest)
_issue_days: dict = {}


def _issued_on(created_at: datetime) -> date:
    day = _issue_days.get(created_at)
    if day is None:
        day = _issue_days[created_at] = local_datetime(created_at).date()
    return day


def _pay_batch(s: Session, batch: list[dict]) -> None:
    """The ISSQN and costs guides paid by the file: one executemany (only their own row changes: status paid,
    paid_on, paid_amount; the version moves as an ORM save would)."""
    if not batch:
        return
    table = _G.__table__
    stmt = (update(table).where(table.c.id == bindparam("gid"), table.c.version == bindparam("gv"),
                                table.c.status == "open")
            .values(status="paid", paid_on=bindparam("pd"), paid_amount=bindparam("pa"),
                    version=table.c.version + 1))
    result = s.connection().execute(stmt, batch)
    if result.rowcount not in (-1, None) and result.rowcount != len(batch):
        raise ConflictError("Outra estação alterou guias deste arquivo durante a importação: nada foi registrado. "
                            "Importe o arquivo de novo.")


def import_bank_return_in(s: Session, actor: Actor, content: bytes, name: str = "", state=None,
                          parsed: ReturnFile | None = None) -> ImportReport:
    """`import_bank_return` inside the caller's transaction (see the module text)."""
    require_role(actor, *IMPORT_ROLES)
    parsed = parsed or parse_return(content, name)
    settings = s.get(MunicipalitySettings, 1)
    problems = header_problems(parsed.header, settings.febraban_agreement if settings else None,
                               getattr(settings, "febraban_bank", None) if settings else None, _today())
    if problems:   # issue 23 point 8: another bank or convênio, or a file generated after today
        raise ValidationError(problems)
    previous = _already(s, parsed)
    if previous is not None:
        return _duplicate_report(s, parsed, previous)
    h = parsed.header
    row = BankReturnFile(nsa=h.nsa, agreement=h.agreement, bank_code=h.bank_code, generated_on=h.generated_on,
                         file_name=audit.escaped_name(name or "")[-255:], file_sha256=parsed.sha256, lines=parsed.total_records,
                         payments=len(parsed.payments), recorded=0, rejected=0, total_reais=parsed.total_amount,
                         report="", imported_by=actor.user_id)
    s.add(row)
    s.flush()
    guides = _guides_by_barcode(s, [p.barcode for p in parsed.payments])
    results: list[LineResult] = []
    quiet: list[str] = []
    batch: list[dict] = []
    paid_now: dict[str, date] = {}
    total = len(parsed.payments)
    for k, p in enumerate(parsed.payments):
        if state is not None and k % 200 == 0:
            state.check()      # "Cancelar": the transaction rolls back, nothing recorded
            state.progress(k, total, f"Linha {p.line} de {parsed.total_records}")
        guide = guides.get(p.barcode) or _fallback(s, p.barcode)
        results.append(_one(s, actor, p, guide, row.id, quiet, batch, paid_now))
    _pay_batch(s, batch)
    _keep_unreconciled(s, row.id, parsed.payments, results, guides)
    recorded = [r for r in results if r.recorded]
    row.recorded, row.rejected = len(recorded), len(results) - len(recorded)
    row.report = "\n".join(f"Linha {r.line}: {r.message}" for r in results if not r.recorded)[:100_000]
    s.flush()
    recorded_total = sum((r.amount for r in recorded), Decimal("0.00"))
    audit.record(s, actor, "bank_return.import", "bank_return_file", row.id, None,
                 {"nsa": h.nsa, "agreement": h.agreement, "bank": h.bank_code, "sha256": parsed.sha256,
                  "file": row.file_name, "payments": len(results), "recorded": len(recorded),
                  "rejected": len(results) - len(recorded), "recorded_total": str(recorded_total),
                  # the guides whose payment changed only their own rows (ISSQN, costs, fees that activate
                  # nothing): audited here, once, instead of one entry each
                  "paid_guides": quiet})
    return ImportReport(row.id, parsed.name, h.nsa, h.agreement, f"{h.bank_code} {h.bank_name}".strip(),
                        h.generated_on, len(results), len(recorded), len(results) - len(recorded),
                        parsed.total_amount, recorded_total, False, tuple(results))


def _keep_unreconciled(s: Session, file_id: int, payments, results: list[LineResult], guides: dict) -> None:
    """Every line not recorded is kept as an unreconciled payment (issue 23 point 8): the money received is never
    dropped; a gestor assigns it to a debt's guide or returns it (Financeiro → Pagamentos não conciliados)."""
    rows = []
    numbers = {}
    for p, r in zip(payments, results, strict=True):
        if r.recorded:
            continue
        guide = guides.get(p.barcode)
        if guide is None and r.guide_number:
            numbers.setdefault(r.guide_number, None)
        rows.append({"bank_return_id": file_id, "line": p.line, "barcode": p.barcode[:48], "amount": p.amount,
                     "paid_on": p.paid_on, "credited_on": p.credited_on,
                     "authentication": p.authentication[:30] or None,
                     "problem": r.message, "guide_id": guide.id if guide is not None else None,
                     "status": UnreconciledStatus.OPEN.value, "_number": r.guide_number})
    if not rows:
        return
    if numbers:
        for gid, number in s.execute(select(_G.id, _G.number).where(_G.number.in_(list(numbers)))):
            numbers[number] = gid
    for r in rows:
        number = r.pop("_number")
        if r["guide_id"] is None and number:
            r["guide_id"] = numbers.get(number)
    s.connection().execute(insert(UnreconciledPayment.__table__), rows)


def _one(s: Session, actor: Actor, p, guide, file_id: int, quiet: list[str], batch: list[dict],
         paid_now: dict[str, date]) -> LineResult:
    def result(recorded: bool, message: str) -> LineResult:
        return LineResult(p.line, p.barcode, guide.number if guide is not None else "",
                          guide.purpose if guide is not None else "", p.amount, p.paid_on, recorded, message)

    if guide is None:
        return result(False, f"código de barras desconhecido ({p.barcode}): nenhuma guia emitida com ele. "
                             "Pagamento não registrado — verifique com o banco.")
    status, paid_on = guide.status, guide.paid_on
    if guide.number in paid_now:            # paid by an earlier line of this same file
        status, paid_on = "paid", paid_now[guide.number]
    if status == "cancelled":
        return result(False, f"a guia nº {guide.number} está cancelada ({guide.cancel_reason or 'sem motivo'}). "
                             "Pagamento não registrado — restitua ou concilie manualmente.")
    if status == "paid":
        return result(False, f"a guia nº {guide.number} já foi paga em {format_date(paid_on)}: o mesmo "
                             "número de guia não paga dois débitos. Pagamento não registrado.")
    if p.amount != Decimal(guide.amount_reais):
        return result(False, f"o valor recebido ({format_money(p.amount)}) difere do valor da guia nº "
                             f"{guide.number} ({format_money(guide.amount_reais)}). Pagamento não registrado.")
    if guide.created_at is not None and p.paid_on < _issued_on(guide.created_at):
        return result(False, f"o pagamento ({format_date(p.paid_on)}) é anterior à emissão da guia nº "
                             f"{guide.number}. Pagamento não registrado.")
    if p.paid_on > _today():
        return result(False, f"a data de pagamento ({format_date(p.paid_on)}) é futura. Pagamento não registrado.")
    if guide.purpose in ("issqn", "cost"):
        # only the guide's own row changes: paid in one executemany at the end, audited by the file's entry
        if status != _PAYABLE:
            transition(GUIDE_MACHINE, status, GuideStatus.PAID)   # refuses in Portuguese
        batch.append({"gid": guide.id, "gv": guide.version, "pd": p.paid_on, "pa": p.amount})
        quiet.append(guide.number)
    else:
        orm_row = s.get(PaymentGuide, guide.id)
        if not needs_own_transaction_step(s, orm_row):
            pay_guide_row_in(s, actor, orm_row, p.paid_on, p.amount, "bank", file_id, audit_each=False)
            quiet.append(guide.number)
        else:
            savepoint = s.begin_nested()
            try:
                pay_guide_row_in(s, actor, orm_row, p.paid_on, p.amount, "bank", file_id)
            except DesktopError as error:
                savepoint.rollback()
                return result(False, f"guia nº {guide.number}: {error}".replace("\n", " "))
            savepoint.commit()
    paid_now[guide.number] = p.paid_on
    return result(True, f"guia nº {guide.number} paga em {p.paid_on:%d/%m/%Y}.")   # (babel: 0,1 ms a line)


def import_bank_return(db, actor: Actor, source, name: str | None = None, state=None) -> ImportReport:
    """Import a return file (a path, or its bytes with `name`) in one transaction; see the module text.
    `ValidationError` naming the lines when the file itself is wrong (nothing recorded)."""
    require_role(actor, *IMPORT_ROLES)
    if isinstance(source, (bytes, bytearray)):
        content, label = bytes(source), name or "retorno.txt"
    else:
        path = Path(source)
        if not path.is_file():
            raise ValidationError([Problem("arquivo", f"Arquivo não encontrado: {path}.")])
        content, label = path.read_bytes(), name or path.name
    parsed = parse_return(content, label)   # a malformed file is refused before any transaction is opened
    with db.session() as s:
        return import_bank_return_in(s, actor, content, label, state, parsed)


def list_bank_returns(db, actor: Actor, limit: int = 100) -> tuple[BankReturnInfo, ...]:
    require_role(actor, *BANK_RETURN_ROLES.read)
    with db.session(write=False) as s:
        rows = s.execute(select(BankReturnFile, User.full_name).outerjoin(User, User.id == BankReturnFile.imported_by)
                         .order_by(BankReturnFile.id.desc()).limit(limit)).all()
        return tuple(BankReturnInfo(r.id, r.nsa, r.agreement, r.bank_code, r.generated_on, r.file_name, r.payments,
                                    r.recorded, r.rejected, r.total_reais, r.imported_at, who or "")
                     for r, who in rows)



# ------------------------------------------------------------------------------ unreconciled payments (issue 23.8)
@dataclass(frozen=True, slots=True)
class UnreconciledInfo:
    """A payment of a return file that matched no open guide, as the gestor's screen shows it."""

    id: int
    file_name: str
    nsa: int
    line: int
    barcode: str
    amount: Decimal
    paid_on: date
    problem: str
    guide_number: str            # the guide the barcode named, if any
    status: str
    status_label: str
    resolved_guide_number: str
    resolution_reason: str
    actions: tuple


def _unreconciled_info(s: Session, row: UnreconciledPayment, roles) -> UnreconciledInfo:
    from desktop.domain.steps import available_actions  # local: only the unreconciled screen draws actions

    f = s.get(BankReturnFile, row.bank_return_id)
    named = s.get(PaymentGuide, row.guide_id).number if row.guide_id else ""
    resolved = s.get(PaymentGuide, row.resolved_guide_id).number if row.resolved_guide_id else ""
    status = UnreconciledStatus(row.status)
    return UnreconciledInfo(row.id, f.file_name, f.nsa, row.line, row.barcode, Decimal(row.amount), row.paid_on,
                            row.problem, named, status.value, status.label, resolved, row.resolution_reason or "",
                            available_actions(UNRECONCILED_STEPS, status.value, roles, None,
                                              lambda v: UnreconciledStatus(v).label))


def list_unreconciled(db, actor: Actor, status: str = "open", limit: int = 500) -> tuple[UnreconciledInfo, ...]:
    """The payments the bank's files brought that matched no open guide (`status` "" = all), oldest first."""
    require_role(actor, *BANK_RETURN_ROLES.read)
    with db.session(write=False) as s:
        stmt = select(UnreconciledPayment).order_by(UnreconciledPayment.id).limit(limit)
        if status:
            stmt = stmt.where(UnreconciledPayment.status == UnreconciledStatus(status).value)
        return tuple(_unreconciled_info(s, r, actor.roles) for r in s.scalars(stmt))


def unreconciled_count(db, actor: Actor) -> int:
    require_role(actor, *BANK_RETURN_ROLES.read)
    with db.session(write=False) as s:
        return int(s.scalar(select(func.count()).select_from(UnreconciledPayment)
                            .where(UnreconciledPayment.status == UnreconciledStatus.OPEN.value)) or 0)


def _resolve(s: Session, actor: Actor, payment_id: int, target: UnreconciledStatus, reason: str):
    require_role(actor, *BANK_RETURN_ROLES.decide)
    why = (reason or "").strip()
    if len(why) < 5:
        raise ValidationError([Problem("reason", "Informe o motivo (ao menos 5 caracteres).")])
    row = s.scalar(select(UnreconciledPayment).where(UnreconciledPayment.id == payment_id).with_for_update())
    if row is None:
        from desktop.errors import NotFound  # local: the one not-found of this module
        raise NotFound("Pagamento não conciliado não encontrado.")
    try:
        goal = transition(UNRECONCILED_MACHINE, row.status, target)
    except TransitionNotAllowed as exc:
        raise ConflictError(str(exc)) from exc
    return row, goal, why


def assign_unreconciled_in(s: Session, actor: Actor, payment_id: int, guide_number: str,
                           reason: str) -> UnreconciledInfo:
    """A gestor assigns an unreconciled payment to an open guide of the same amount (the debt it paid): the guide
    is paid on the bank's payment date, as the return file would have done, and the decision is audited."""
    row, goal, why = _resolve(s, actor, payment_id, UnreconciledStatus.ASSIGNED, reason)
    guide = s.scalar(select(PaymentGuide).where(PaymentGuide.number == (guide_number or "").strip())
                     .with_for_update())
    if guide is None:
        raise ValidationError([Problem("guide_number", f"Guia nº {guide_number} não encontrada.")])
    pay_guide_row_in(s, actor, guide, row.paid_on, Decimal(row.amount), "bank", row.bank_return_id)
    before = {"status": row.status}
    row.status, row.resolved_guide_id, row.resolution_reason = goal.value, guide.id, why
    row.resolved_by, row.resolved_at = actor.user_id, _now()
    s.flush()
    audit.record(s, actor, "bank_return.assign", "unreconciled_payment", row.id, before,
                 {"status": row.status, "guide": guide.number, "amount": str(row.amount),
                  "paid_on": row.paid_on.isoformat(), "reason": why})
    return _unreconciled_info(s, row, actor.roles)


def assign_unreconciled(db, actor: Actor, payment_id: int, guide_number: str, reason: str) -> UnreconciledInfo:
    with db.session() as s:
        return assign_unreconciled_in(s, actor, payment_id, guide_number, reason)


def return_unreconciled_in(s: Session, actor: Actor, payment_id: int, reason: str) -> UnreconciledInfo:
    """A gestor returns an unreconciled payment to the payer (through the bank), with the reason, audited."""
    row, goal, why = _resolve(s, actor, payment_id, UnreconciledStatus.RETURNED, reason)
    before = {"status": row.status}
    row.status, row.resolution_reason = goal.value, why
    row.resolved_by, row.resolved_at = actor.user_id, _now()
    s.flush()
    audit.record(s, actor, "bank_return.return", "unreconciled_payment", row.id, before,
                 {"status": row.status, "amount": str(row.amount), "reason": why})
    return _unreconciled_info(s, row, actor.roles)


def return_unreconciled(db, actor: Actor, payment_id: int, reason: str) -> UnreconciledInfo:
    with db.session() as s:
        return return_unreconciled_in(s, actor, payment_id, reason)


def _now():
    from desktop.models.types import now  # local: the stored clock, read only when a payment is resolved
    return now()
