"""Collecting the ISSQN (Art. 11): the guide (DAM) of a platform and competência, its cancellation with a reason,
and the substitute taxpayer — once a platform's guide is overdue, a gestor charges a vehicle's share to its driver.

Nothing is overwritten: a cancelled guide keeps its row (status, reason) and its shares are cancelled with the
reason; new shares (`replaces_id`) take their place, so a recalculation or a new guide can follow. Paid / overdue
come from the guide row (status, paid_on, due_on), which the bank's return file updates.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain.clock import today
from desktop.domain.formatting import format_date, format_plate
from desktop.domain.guides import guide_overdue, late_charges, reissue_due_date
from desktop.domain.money import round_cents
from desktop.domain.problems import Problem
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import (
    Authorization,
    Driver,
    IssqnEstimate,
    IssqnShare,
    MunicipalitySettings,
    PaymentGuide,
    Platform,
    Vehicle,
)
from desktop.reports.febraban import arrecadacao_barcode
from desktop.services import audit, holidays, numbering, parameters
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.guide_debts import release_debts_in
from desktop.services.issqn.common import (
    DECIDE_ROLES,
    ISSUE_ROLES,
    PURPOSE,
    GuideInfo,
    check_guidable,
    competence_label,
    next_month,
    share_facts,
    share_refusal,
)

__all__ = ["issqn_due_date_in", "issue_issqn_guide", "issue_issqn_guide_in", "cancel_issqn_guide",
           "cancel_issqn_guide_in", "charge_share_to_driver", "charge_share_to_driver_in", "platform_by_cnpj",
           "open_guide_number", "guide_for"]


def issqn_due_date_in(s: Session, year: int, month: int) -> date:
    """The due date of competência month/year: the parameter `issqn_due_day` of the next month, moved to the next
    business day (SPEC §3 "Dates": national, MT and the office's municipal holidays)."""
    ny, nm = next_month(year, month)
    day = int(parameters.parameter_value_in(s, "issqn_due_day", date(ny, nm, 1)))
    return holidays.calendar_in(s).next_business_day(date(ny, nm, day))


def _own_due_date_in(s: Session, on: date) -> date:
    """The guide of a share charged to the substitute driver, or the platform's guide reissued without it, falls
    due on a date of its own (issue 23 point 3): `on` + the CTM term of a guide (`guide.fee_days`), moved to the
    next business day — never the overdue guide's date."""
    days = int(parameters.parameter_value_in(s, "guide.fee_days", on))
    return reissue_due_date(on, days, holidays.calendar_in(s))


def _barcode(s: Session, amount: Decimal, due: date, number: str) -> str | None:
    """The FEBRABAN barcode when the municipality has its 4-digit code (else printing fills it in)."""
    settings = s.get(MunicipalitySettings, 1)
    agreement = (getattr(settings, "febraban_agreement", None) or "").strip()
    if agreement.isdigit() and len(agreement) == 4:
        return arrecadacao_barcode(amount, agreement, due, number)
    return None


def _guide_info(g: PaymentGuide, shares: int, year: int, month: int) -> GuideInfo:
    return GuideInfo(g.id, g.number, Decimal(g.amount_reais), g.due_on, g.payer_name, g.payer_document or "",
                     g.platform_id, g.driver_id, shares, year, month)


def _new_guide(s: Session, actor: Actor, amount: Decimal, due: date, *, payer_name: str, payer_document: str,
               platform_id: int | None = None, driver_id: int | None = None,
               vehicle_id: int | None = None, replaces_id: int | None = None,
               late_charges_reais: Decimal | None = None) -> PaymentGuide:
    number = numbering.next_number(s, "guide", today().year)
    guide = PaymentGuide(number=number, purpose=PURPOSE, amount_reais=amount, due_on=due, payer_name=payer_name,
                         payer_document=payer_document, platform_id=platform_id, driver_id=driver_id,
                         vehicle_id=vehicle_id, barcode=_barcode(s, amount, due, number), status="open",
                         issued_by=actor.user_id, replaces_id=replaces_id, late_charges_reais=late_charges_reais)
    s.add(guide)
    s.flush()
    return guide


def platform_by_cnpj(s: Session, cnpj: str) -> Platform:
    digits = "".join(ch for ch in (cnpj or "") if ch.isalnum()).upper()
    platform = s.scalar(select(Platform).where(Platform.cnpj == digits))
    if platform is None:
        raise NotFound(f"Nenhuma plataforma cadastrada com o CNPJ {cnpj}.")
    return platform


def issue_issqn_guide_in(s: Session, actor: Actor, platform_id: int, year: int, month: int) -> GuideInfo:
    """The platform's DAM of the competência: every open share of the month without a guide, one guide (number
    `NNNN/AAAA`, due on `issqn_due_day` of the next month or the next business day, FEBRABAN barcode)."""
    require_role(actor, *ISSUE_ROLES)
    check_guidable(year, month)   # issue 23 point 2: the month in progress is only a prévia
    platform = s.get(Platform, platform_id)
    if platform is None:
        raise NotFound("Plataforma não encontrada.")
    label = competence_label(year, month)
    live = s.scalar(select(PaymentGuide.number).join(IssqnShare, IssqnShare.guide_id == PaymentGuide.id)
                    .where(IssqnShare.platform_id == platform_id, IssqnShare.year == year,
                           IssqnShare.month == month, IssqnShare.status == "open",
                           PaymentGuide.status == "open").limit(1))
    shares = s.scalars(select(IssqnShare).where(IssqnShare.platform_id == platform_id, IssqnShare.year == year,
                                                IssqnShare.month == month, IssqnShare.status == "open",
                                                IssqnShare.guide_id.is_(None))).all()
    if not shares:
        if live:
            raise ConflictError(f"A guia da {platform.trade_name} para {label} já foi emitida (nº {live}).")
        raise ConflictError(f"Não há ISSQN de {label} a cobrar da {platform.trade_name}: rode a competência antes "
                            "de emitir a guia.")
    if live:
        raise ConflictError(
            f"A guia nº {live} da {platform.trade_name} para {label} está em aberto e há veículos novos na "
            "competência. Cancele a guia com o motivo e emita outra com todos os veículos (uma guia por "
            "plataforma e competência).")
    amount = round_cents(sum((Decimal(sh.amount) for sh in shares), Decimal("0")))
    due, late = issqn_due_date_in(s, year, month), None
    if guide_overdue(due, today()):
        # issue 23 point 3: a guide is never born overdue. The tax fell due on `due`; the guide issued after it
        # falls due on a date of its own, with the CTM's late charges from the legal due date (none while unset).
        fine_pct, interest_pct = parameters.late_percents_in(s, today())
        own = _own_due_date_in(s, today())
        charges = late_charges(amount, due, own, fine_pct, interest_pct)
        due, amount = own, charges.total
        late = charges.charges if charges.configured else None
    guide = _new_guide(s, actor, amount, due, payer_name=platform.legal_name,
                       payer_document=platform.cnpj, platform_id=platform.id, late_charges_reais=late)
    for sh in shares:
        sh.guide_id = guide.id
    s.flush()
    audit.record(s, actor, "issqn.guide.issue", "payment_guide", guide.id, None,
                 {"number": guide.number, "platform": platform.cnpj, "competence": label, "amount": str(amount),
                  "due_on": guide.due_on.isoformat(), "shares": len(shares)})
    return _guide_info(guide, len(shares), year, month)


def issue_issqn_guide(db, actor: Actor, platform_id: int, year: int, month: int) -> GuideInfo:
    with db.session() as s:
        return issue_issqn_guide_in(s, actor, platform_id, year, month)


def _reason(reason: str) -> str:
    text = (reason or "").strip()
    if len(text) < 5:
        raise ValidationError([Problem("reason", "Informe o motivo (ao menos 5 caracteres).", "Art. 11")])
    return text


def _issqn_guide(s: Session, guide_id: int) -> PaymentGuide:
    guide = s.get(PaymentGuide, guide_id)
    if guide is None or guide.purpose != PURPOSE:
        raise NotFound("Guia de ISSQN não encontrada.")
    return guide


def _cancel(s: Session, actor: Actor, guide: PaymentGuide, reason: str) -> list[tuple[IssqnShare, IssqnShare]]:
    """Cancel the guide and its shares; each share gets an open copy without a guide. Returns (old, new)."""
    if guide.status != "open":
        raise ConflictError(f"A guia nº {guide.number} está {'paga' if guide.status == 'paid' else 'cancelada'}; "
                            "só uma guia em aberto é cancelada.")
    before = {"status": guide.status}
    guide.status = "cancelled"
    guide.cancel_reason = reason
    pairs = release_debts_in(s, guide, reason)
    s.flush()
    audit.record(s, actor, "issqn.guide.cancel", "payment_guide", guide.id, before,
                 {"status": "cancelled", "reason": reason, "shares": len(pairs)})
    return pairs


def cancel_issqn_guide_in(s: Session, actor: Actor, guide_id: int, reason: str) -> int:
    """Cancel an open ISSQN guide with the reason (gestor). Its shares return to "without guide": the next run
    recalculates them and a new guide can be issued. Returns how many shares were released."""
    require_role(actor, *DECIDE_ROLES)
    reason = _reason(reason)
    return len(_cancel(s, actor, _issqn_guide(s, guide_id), reason))


def cancel_issqn_guide(db, actor: Actor, guide_id: int, reason: str) -> int:
    with db.session() as s:
        return cancel_issqn_guide_in(s, actor, guide_id, reason)


def charge_share_to_driver_in(s: Session, actor: Actor, share_id: int, reason: str) -> tuple[GuideInfo,
                                                                                              GuideInfo | None]:
    """Art. 11 (the driver is the substitute taxpayer): the share of a vehicle on a platform's OVERDUE guide is
    charged to the vehicle's driver — a guide in the driver's name. The platform's guide is cancelled with the
    reason and reissued without that share (same due date: the platform's debt was due then), nothing
    overwritten. Returns (driver's guide, platform's reissued guide or None when nothing is left on it)."""
    require_role(actor, *DECIDE_ROLES)
    reason = _reason(reason)
    share = s.get(IssqnShare, share_id)
    if share is None:
        raise NotFound("Cota de ISSQN não encontrada.")
    guide = s.get(PaymentGuide, share.guide_id) if share.guide_id else None
    facts = share_facts(guide.status if guide else None, guide.due_on if guide else None,
                        share.platform_id is not None, today())
    why = share_refusal("charge_driver", facts, actor.roles) if share.status == "open" else "a cota foi cancelada"
    if why:
        raise ConflictError(f"Não é possível cobrar do condutor: {why}.")
    estimate = s.get(IssqnEstimate, share.estimate_id)
    auth = s.get(Authorization, estimate.authorization_id) if estimate.authorization_id else None
    if auth is None:
        raise ConflictError("A estimativa não indica a autorização do veículo; não há condutor a cobrar.")
    driver = s.get(Driver, auth.driver_id)
    vehicle = s.get(Vehicle, estimate.vehicle_id)
    plate = format_plate(vehicle.plate)
    pairs = _cancel(s, actor, guide, f"Reemitida sem a cota do veículo {plate}, cobrada do condutor "
                                     f"(substituto tributário, Art. 11): {reason}")
    label = competence_label(share.year, share.month)
    mine = next(new for old, new in pairs if old.id == share.id)
    mine.platform_id = None
    mine.driver_id = driver.id
    due = _own_due_date_in(s, today())
    driver_guide = _new_guide(s, actor, Decimal(mine.amount), due,
                              payer_name=driver.name, payer_document=driver.cpf, driver_id=driver.id,
                              vehicle_id=vehicle.id)
    mine.guide_id = driver_guide.id
    rest = [new for old, new in pairs if old.id != share.id]
    reissued = None
    if rest:
        principal = round_cents(sum((Decimal(n.amount) for n in rest), Decimal("0")))
        # the platform's debt was due on the old date: the CTM's late charges count from it (none while unset)
        fine_pct, interest_pct = parameters.late_percents_in(s, today())
        charges = late_charges(principal, guide.due_on, due, fine_pct, interest_pct)
        reissued = _new_guide(s, actor, charges.total, due, payer_name=guide.payer_name,
                              payer_document=guide.payer_document or "", platform_id=guide.platform_id,
                              replaces_id=guide.id, late_charges_reais=charges.charges if charges.configured else None)
        for n in rest:
            n.guide_id = reissued.id
    s.flush()
    audit.record(s, actor, "issqn.substitute", "issqn_share", mine.id, {"share": share.id, "guide": guide.number},
                 {"driver": driver.cpf, "plate": vehicle.plate, "competence": label, "amount": str(mine.amount),
                  "driver_guide": driver_guide.number, "reissued_guide": reissued.number if reissued else None,
                  "reason": reason, "overdue_since": format_date(guide.due_on)})
    return (_guide_info(driver_guide, 1, share.year, share.month),
            _guide_info(reissued, len(rest), share.year, share.month) if reissued else None)


def charge_share_to_driver(db, actor: Actor, share_id: int, reason: str):
    with db.session() as s:
        return charge_share_to_driver_in(s, actor, share_id, reason)


def guide_for(db, number: str) -> int:
    with db.session(write=False) as s:
        gid = s.scalar(select(PaymentGuide.id).where(PaymentGuide.number == number,
                                                     PaymentGuide.purpose == PURPOSE))
        if gid is None:
            raise NotFound(f"Guia de ISSQN nº {number} não encontrada.")
        return gid




def open_guide_number(db, platform_id: int, year: int, month: int) -> str | None:
    """The number of the platform's open ISSQN guide of the competência, if one was issued."""
    with db.session(write=False) as s:
        return s.scalar(select(PaymentGuide.number).join(IssqnShare, IssqnShare.guide_id == PaymentGuide.id)
                        .where(IssqnShare.platform_id == platform_id, IssqnShare.year == year,
                               IssqnShare.month == month, IssqnShare.status == "open",
                               PaymentGuide.status == "open").limit(1))
