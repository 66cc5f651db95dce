"""Stage of the demo for issue 13: the guides (DAM) of fines and fees as the guides service leaves them — each fee
guide linked to its fee, every paid fee with its append-only payment record (issue 12 item 6), the open guides
with their FEBRABAN barcode (so a return file can pay them), and overdue fine guides reissued (a new guide, the
old one cancelled with the reason). Together with the fees and autos stages the demo then has guides paid, open,
overdue (in the dívida ativa list) and reissued.

`example_return(db)` writes a return file (Padrão FEBRABAN de arrecadação) that pays some open guides of a demo
database on today's date: the Retorno bancário screen offers it on a demonstration database.
"""
from __future__ import annotations

import random
from datetime import date
from decimal import Decimal

from desktop.errors import ConflictError
from desktop.reports import febraban
from desktop.services.bank_returns import IMPORT_ROLES
from desktop.services.permissions import require_role
from desktop.services.demo import is_demo
from sqlalchemy import func, select
from desktop.domain.clock import today
from desktop.importers.bank_return import build_return
from desktop.models import BankReturnFile, MunicipalitySettings, PaymentGuide

REISSUED = 6          # overdue fine guides reissued
_SEED_SALT = 13       # this stage's own random draws (the other stages' data do not change)


def _value(w, raw, scale: int) -> Decimal:
    return Decimal(raw).scaleb(-scale) if w.sqlite else Decimal(raw)


def _day(w, raw) -> date:
    return date.fromisoformat(raw) if isinstance(raw, str) else raw


def run(ctx) -> None:
    w = ctx.w
    w.drain()
    cur = w.raw.cursor()
    cur.execute("SELECT febraban_agreement FROM municipality WHERE id = 1")
    row = cur.fetchone()
    agreement = (row[0] or "").strip() if row else ""
    agreement = agreement if agreement.isdigit() and len(agreement) == 4 else ""
    # 1. fee guides point at their fee (payment_guides.fee_id)
    cur.execute("SELECT g.id, f.id FROM payment_guides g JOIN fees f ON f.guide_number = g.number "
                "WHERE g.purpose = 'fee' AND g.fee_id IS NULL")
    w.update("payment_guides", ("fee_id",), "id", [(fee_id, guide_id) for guide_id, fee_id in cur.fetchall()])
    # 2. every paid fee has its payment record (append-only)
    cur.execute("SELECT f.id, g.id, f.guide_number, f.paid_on, f.paid_amount, f.created_by FROM fees f "
                "LEFT JOIN payment_guides g ON g.number = f.guide_number "
                "WHERE f.status = 'paid' AND f.guide_number IS NOT NULL AND f.paid_on IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM fee_payments p WHERE p.guide_number = f.guide_number)")
    payments, pid, ts = [], w.next_id("fee_payments"), w.ts(ctx.now)
    for fee_id, guide_id, number, paid_on, amount, by in cur.fetchall():
        if amount is None:
            continue
        payments.append((pid, fee_id, guide_id, number, paid_on, amount, "manual", None, by, ts))
        pid += 1
    w.insert("fee_payments", ("id", "fee_id", "guide_id", "guide_number", "paid_on", "amount", "source",
                              "bank_return_id", "recorded_by", "recorded_at"), payments)
    w.drain()
    # 3. barcodes of the open guides (the bank's return file finds a guide by it)
    if agreement:
        cur.execute("SELECT id, number, amount_reais, due_on FROM payment_guides "
                    "WHERE status = 'open' AND barcode IS NULL")
        rows = [(febraban.arrecadacao_barcode(_value(w, amount, 2), agreement, _day(w, due), number), gid)
                for gid, number, amount, due in cur.fetchall()]
        w.update("payment_guides", ("barcode",), "id", rows)
    # 4. overdue fine guides reissued: a new guide, the old one cancelled with the reason (never edited)
    rng = random.Random(ctx.seed * 1000 + _SEED_SALT)
    cur.execute(f"SELECT id, number, amount_reais, due_on, payer_name, payer_document, driver_id, platform_id, "
                f"vehicle_id, auto_id, issued_by FROM payment_guides WHERE status = 'open' AND purpose = 'fine' "
                f"AND due_on < {'?' if w.sqlite else '%s'} ORDER BY id", (w.d(ctx.today),))
    overdue = cur.fetchall()
    cur.close()
    chosen = sorted(rng.sample(overdue, min(REISSUED, len(overdue))), key=lambda r: r[0])
    new_rows, cancelled = [], []
    gid = w.next_id("payment_guides")
    due = ctx.deadline(ctx.today, 30)      # parameter guide.fine_days (default 30)
    for old_id, old_number, amount, _old_due, name, document, driver_id, platform_id, vehicle_id, auto_id, by \
            in chosen:
        number = ctx.number("guide", ctx.today.year)
        value = _value(w, amount, 2)
        barcode = febraban.arrecadacao_barcode(value, agreement, due, number) if agreement else None
        new_rows.append((gid, number, "fine", amount, w.d(due), name, document, driver_id, platform_id, vehicle_id,
                         auto_id, barcode, "open", None, None, None, by, 1, ts, None, old_id, None))
        cancelled.append(("cancelled", f"Reemitida por atraso na guia nº {number}: pedido do contribuinte "
                                       "(demonstração; acréscimos por atraso não configurados)", old_id))
        gid += 1
    w.update("payment_guides", ("status", "cancel_reason"), "id", cancelled)
    w.insert("payment_guides", GUIDE_COLS, new_rows)
    w.drain()


GUIDE_COLS = ("id", "number", "purpose", "amount_reais", "due_on", "payer_name", "payer_document", "driver_id",
              "platform_id", "vehicle_id", "auto_id", "barcode", "status", "paid_on", "paid_amount",
              "cancel_reason", "issued_by", "version", "created_at", "fee_id", "replaces_id", "late_charges_reais")


def example_return(db, limit: int = 8, nsa: int | None = None) -> tuple[bytes, int]:
    """(bytes, how many payments) of a return file paying up to `limit` open guides with a barcode (fees first,
    then fines), paid today, with the next free NSA."""

    day = today()
    with db.session(write=False) as s:
        settings = s.get(MunicipalitySettings, 1)
        agreement = (settings.febraban_agreement if settings else None) or "0421"
        rows = []
        for purpose in ("fee", "fine", "issqn"):   # half fees, then fines (and ISSQN when there is room)
            room = limit - len(rows) if purpose != "fee" else max(1, limit // 2)
            rows += s.execute(select(PaymentGuide.barcode, PaymentGuide.amount_reais)
                              .where(PaymentGuide.status == "open", PaymentGuide.purpose == purpose,
                                     PaymentGuide.barcode.is_not(None), PaymentGuide.due_on >= day)
                              .order_by(PaymentGuide.id).limit(room)).all() if room > 0 else []
        nsa = nsa or (s.scalar(select(func.max(BankReturnFile.nsa))) or 0) + 1
    return build_return([(r.barcode, Decimal(r.amount_reais), day) for r in rows], nsa=nsa, generated_on=day,
                        agreement=agreement), len(rows)


def demo_example(db, actor, limit: int = 8) -> tuple[bytes, int]:
    """On a DEMONSTRATION database only: a return file paying up to `limit` open guides today (the example the
    Retorno bancário screen offers, so a new user can try the import). (bytes, payments). The demo is a client
    of the services (docs/architecture.md): the role and the demo mark are checked through them."""
    require_role(actor, *IMPORT_ROLES)
    with db.session(write=False) as s:
        if not is_demo(s):
            raise ConflictError("O arquivo de exemplo só é gerado num banco de demonstração.")
    content, count = example_return(db, limit)
    if count == 0:
        raise ConflictError("Não há guias em aberto com código de barras para pagar no arquivo de exemplo.")
    return content, count
