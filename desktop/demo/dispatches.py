"""Demo: the correspondence desk (issue 26; Art. 22, §§1-2), so the Correspondência screen and its dashboard tiles
are not empty on a demonstration database.

After the load, five autos still waiting for their notice (the oldest drawn up first) get their autuação notice
printed and entered in the register through the services — numbered, archived, audited as the desk would:
three go to the post in one batch dated the day the newest of them was drawn up; of these one AR comes back
signed and is joined (the defense term runs from today, the joining), one comes back "mudou-se" (it waits for the
edital), one is still out; a fourth letter waits for the next batch and a fifth notice waits to go by e-mail.
Nothing is sent over the network. A desk without what the notices need (a signer, the UPFM) skips it.
"""
from __future__ import annotations

import io

from sqlalchemy import select

from desktop.domain.correspondence import DispatchForm, ReturnReason
from desktop.domain.dates import local_today
from desktop.domain.workflow import AutoStatus
from desktop.errors import DesktopError
from desktop.models import Auto, Driver, User
from desktop.services import correspondence
from desktop.services.actors import Actor
from desktop.services.documents import printing

DEMO_DISPATCHES = 5


def _actor(db) -> Actor | None:
    with db.session(write=False) as s:
        user = s.scalar(select(User).where(User.username == "fabio.fiscal"))
        return Actor(user.id, user.username, user.full_name, frozenset(user.roles)) if user else None


def _proof_png(text: str) -> bytes:
    """A grey page standing for the scanned AR (the demo has no scanner)."""
    from PIL import Image, ImageDraw  # lazy: only the demo's proof needs it

    image = Image.new("L", (620, 300), 235)
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 609, 289), outline=60, width=3)
    draw.text((30, 40), "AVISO DE RECEBIMENTO - AR (demonstracao)", fill=20)
    draw.text((30, 90), text, fill=20)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def demo_dispatches(db, summary) -> list[str]:
    """The dispatch codes written (oldest first), or [] when skipped."""
    actor = _actor(db)
    if actor is None:
        return []
    with db.session(write=False) as s:
        rows = s.execute(select(Auto.id, Auto.number, Auto.drawn_up_at, Driver.name, Driver.email)
                         .join(Driver, Driver.id == Auto.infractor_driver_id)
                         .where(Auto.status == AutoStatus.DRAWN_UP.value, Driver.address.is_not(None))
                         .order_by(Auto.drawn_up_at, Auto.id).limit(DEMO_DISPATCHES)).all()
    today = local_today()
    rows = [r for r in rows if r.drawn_up_at.date() <= today]
    if len(rows) < DEMO_DISPATCHES:
        return []
    try:
        registered = []
        for row in rows[:3]:
            issued = printing.print_autuacao_notice(db, actor, row.number)
            registered.append(correspondence.register_auto_notice(db, actor, row.id, issued.info.id))
        sent_on = max(r.drawn_up_at.date() for r in rows[:3])
        correspondence.day_batch(db, actor, sent_on=sent_on)
        signed, back, _out = registered
        correspondence.receive(db, actor, signed.code, received_on=sent_on, received_by=rows[0].name,
                               proof=("ar-assinado.png", _proof_png(f"Recebido por {rows[0].name}"), "image/png"))
        correspondence.receive(db, actor, back.code, received_on=sent_on, returned=ReturnReason.MOVED,
                               proof=("ar-devolvido.png", _proof_png("Devolvido: mudou-se"), "image/png"))
        issued = printing.print_autuacao_notice(db, actor, rows[3].number)
        registered.append(correspondence.register_auto_notice(db, actor, rows[3].id, issued.info.id))
        mail = rows[4]
        issued = printing.print_autuacao_notice(db, actor, mail.number)
        form = DispatchForm.ELECTRONIC if mail.email else DispatchForm.POST
        registered.append(correspondence.register_auto_notice(db, actor, mail.id, issued.info.id, form))
    except DesktopError:   # a desk without the notices' signer or parameters: nothing to show
        return []
    summary.counts["dispatches"] = len(registered)
    return [d.code for d in registered]
