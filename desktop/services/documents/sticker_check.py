"""The sticker check (Art. 14): a scanned sticker is checked against its signature and then against the register
(desktop.domain.sticker_check: every signed field compared, the authorization's situation now). Offline — no
register at hand — the signed data and the signature's verdict are shown, and the situation must be confirmed."""
from __future__ import annotations

from datetime import date

from desktop.errors import ConflictError, NotFound
from desktop.reports.common import now
from desktop.reports import records
from sqlalchemy import select
from desktop.domain.sticker_check import RegisterEntry
from desktop.models import Authorization, AuthorizationEvent, Vehicle
from desktop.domain.sticker_check import StickerIssue
from desktop.domain.sticker_check import SignedSticker
from desktop.domain.sticker_check import register_verdict
from desktop.domain.sticker_check import offline_verdict


def _public_key(s) -> bytes:
    """The municipality's public key, only when the audit chain vouches for it (issue 25 item 5: a key swapped
    in the table would make a forged sticker "autêntico" and the genuine one "FALSO")."""
    from desktop.services.audit import current_key_problem_in  # lazy: SQLAlchemy at first check

    key = records.settings_row(s).signing_public_key
    if key is None:
        raise NotFound("A chave de assinatura do município não foi criada (configuração inicial).")
    problem = current_key_problem_in(s)
    if problem is not None:
        raise ConflictError(problem)
    return key


def sticker_public_key(db) -> bytes:
    """The municipality's public key (a desk keeps it to check stickers when the database is out of reach)."""
    with db.session(write=False) as s:
        return _public_key(s)


def _register_entry(s, number: str):

    from desktop.services.documents.stickers import STICKER_EVENT  # lazy: the check loads SQLAlchemy on first use
    from desktop.signing import normalize_plate  # lazy: loads cryptography only when this runs

    row = s.scalar(select(Authorization).where(Authorization.number == number))
    if row is None:
        return None
    vehicle = s.get(Vehicle, row.vehicle_id)
    former = s.scalars(select(Vehicle.plate).join(AuthorizationEvent, AuthorizationEvent.old_vehicle_id == Vehicle.id)
                       .where(AuthorizationEvent.authorization_id == row.id))
    stickers = _sticker_issues(s, row.id, AuthorizationEvent, STICKER_EVENT)
    return RegisterEntry(number=row.number, status=row.status, status_label=records.status_label(row.status),
                         valid_until=row.valid_until, plate=normalize_plate(vehicle.plate) if vehicle else "",
                         former_plates=frozenset(normalize_plate(p) for p in former),
                         suspended_until=row.suspended_until, regularize_by=row.regularize_by, stickers=stickers)


def _sticker_issues(s, authorization_id: int, AuthorizationEvent, kind: str):
    """The stickers printed for the authorization, oldest first, from its history (each print writes one event
    with the document number; a new issue says why: `stickers._record_events`). Issue 12 item 17."""

    rows = s.execute(select(AuthorizationEvent.act_number, AuthorizationEvent.effective_on, AuthorizationEvent.reason)
                     .where(AuthorizationEvent.authorization_id == authorization_id,
                            AuthorizationEvent.kind == kind, AuthorizationEvent.act_number.is_not(None))
                     .order_by(AuthorizationEvent.id))
    issues = []
    for number, on, reason in rows:
        why = (reason or "").split("nova emissão por ", 1)[1].strip() if "nova emissão por " in (reason or "") else ""
        issues.append(StickerIssue(number, on, why))
    return tuple(issues)


def _signed(check):
    return SignedSticker(check.number, check.plate, check.valid_until)


def check_sticker(db, text: str, today: date | None = None, sticker_number: str | None = None):
    """A scanned sticker checked against its signature and the register (desktop.signing.StickerCheck; its
    `status` is one of desktop.domain.sticker_check's). `sticker_number`: the document number printed on the
    sticker, when the agent typed it: a sticker superseded by a newer one says "substituído pelo adesivo nº …"."""
    from desktop.signing import EXPIRED, VALID, StickerCheck, verify_sticker  # lazy: loads cryptography only when this runs

    today = today or now().date()
    with db.session(write=False) as s:
        check = verify_sticker(text, _public_key(s), today)
        if check.status not in (VALID, EXPIRED):
            return check
        verdict = register_verdict(_signed(check), _register_entry(s, check.number), today, sticker_number)
    return StickerCheck(verdict.status, check.number, check.plate, check.valid_until, verdict.message)


def check_sticker_offline(text: str, public_key: bytes, today: date | None = None):
    """The same check without the register: the signature's verdict, the signed data, and that the situation
    now must be confirmed (status `unconfirmed`, or `expired` past the signed validity)."""
    from desktop.signing import EXPIRED, VALID, StickerCheck, verify_sticker  # lazy: loads cryptography only when this runs

    today = today or now().date()
    check = verify_sticker(text, public_key, today)
    if check.status not in (VALID, EXPIRED):
        return check
    verdict = offline_verdict(_signed(check), today)
    return StickerCheck(verdict.status, check.number, check.plate, check.valid_until, verdict.message)


def check_sticker_keeping_key(db, text: str, keys: dict, today: date | None = None,
                              sticker_number: str | None = None):
    """The check an agent's desk makes scan after scan: against the register while the database answers,
    keeping the municipality's public key (in `keys["public"]`) from the first check; when the database is out of
    reach later, offline (the signed data, the signature's verdict and "confirme a situação atual")."""
    from sqlalchemy.exc import DBAPIError  # lazy: SQLAlchemy loads once the database is used (start-up)

    try:
        if "public" not in keys:
            keys["public"] = sticker_public_key(db)
        return check_sticker(db, text, today, sticker_number)
    except DBAPIError:
        if "public" not in keys:
            raise
        return check_sticker_offline(text, keys["public"], today)
