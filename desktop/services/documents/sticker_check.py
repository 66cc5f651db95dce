"""The sticker check (Art. 14): a scanned sticker is checked offline (signature, validity) and then against the
register: an authorization suspended or impeded after the sticker was printed is reported as such (Art. 16 §2,
Art. 24), a revoked, cassada or expired one as no longer valid, and a sticker of a replaced vehicle (Art. 8 §2)
as no longer valid."""
from __future__ import annotations

from datetime import date

from desktop.errors import NotFound
from desktop.reports.common import fmt_date, now


def _public_key(s) -> bytes:
    from desktop.reports import records
    key = records.settings_row(s).signing_public_key
    if key is None:
        raise NotFound("A chave de assinatura do município não foi criada (configuração inicial).")
    return key


def check_sticker(db, text: str, today: date | None = None):
    """A scanned sticker checked offline and then against the register (desktop.signing.StickerCheck)."""
    from sqlalchemy import select

    from desktop.models import Authorization, Vehicle
    from desktop.reports import records
    from desktop.signing import EXPIRED, REVOKED, SUSPENDED, VALID, StickerCheck, verify_sticker

    today = today or now().date()
    with db.session(write=False) as s:
        check = verify_sticker(text, _public_key(s), today)
        if check.status not in (VALID, EXPIRED):
            return check
        row = s.scalar(select(Authorization).where(Authorization.number == check.number))
        if row is None:
            return StickerCheck(REVOKED, check.number, check.plate, check.valid_until,
                                f"Adesivo assinado, mas a autorização nº {check.number} não consta do cadastro.")
        label = records.status_label(row.status)
        if row.status in ("suspended", "impeded"):
            until = row.suspended_until if row.status == "suspended" else row.regularize_by
            extra = f" até {fmt_date(until)}" if until else ""
            article = "Art. 24" if row.status == "suspended" else "Art. 16, §2º"
            return StickerCheck(SUSPENDED, check.number, check.plate, check.valid_until,
                                f"Autorização nº {check.number} {label.upper()}{extra} ({article}): o veículo "
                                f"{check.plate} não pode prestar o serviço.")
        if row.status in ("revoked", "cassada", "expired", "refused"):
            return StickerCheck(REVOKED, check.number, check.plate, check.valid_until,
                                f"Autorização nº {check.number} {label.upper()}: o adesivo não vale mais.")
        vehicle = s.get(Vehicle, row.vehicle_id)
        if vehicle is not None and vehicle.plate.upper() != check.plate:
            return StickerCheck(REVOKED, check.number, check.plate, check.valid_until,
                                f"Adesivo do veículo {check.plate}, substituído na autorização nº {check.number} "
                                f"pelo veículo {vehicle.plate} (Art. 8º, §2º): o adesivo não vale mais.")
        if check.status == EXPIRED and row.valid_until and row.valid_until >= today:
            return StickerCheck(EXPIRED, check.number, check.plate, check.valid_until,
                                check.message_pt + f" A autorização foi renovada até {fmt_date(row.valid_until)}: "
                                "o condutor deve afixar o adesivo novo.")
        return check
