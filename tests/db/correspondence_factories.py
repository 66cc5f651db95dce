"""Shared steps of the correspondence desk tests (tests/db and tests/journeys): an auto with its printed notice,
a real SMTP server on 127.0.0.1 (aiosmtpd), and the day's clock moved by hand."""
from __future__ import annotations

import email
import email.policy
from datetime import date, datetime

from desktop.domain import clock
from desktop.models import Driver
from desktop.services import autos
from desktop.services.documents import printing
from tests.db.enforcement_factories import authorized_driver, draft, setup_upfm


def at(day: date, hour: int = 10) -> None:
    """The office's clock on `day` (every service reads it: no date in the future is accepted)."""
    clock.set_clock(clock.ticking(datetime(day.year, day.month, day.day, hour, tzinfo=clock.TIMEZONE)))


def auto_with_notice(db, fiscal, drawn_on: date, email_address: str | None = None):
    """An auto drawn up on `drawn_on` for a driver with an address, and its printed autuação notice."""
    from desktop.models import MunicipalitySettings

    from sqlalchemy import select

    from desktop.models import Parameter

    with db.session(write=False) as s:
        has_upfm = s.scalar(select(Parameter.id).where(Parameter.key == "upfm_value").limit(1)) is not None
    if not has_upfm:            # a second auto of the same test reuses the values
        setup_upfm(db)
    with db.session() as s:
        if s.get(MunicipalitySettings, 1) is None:
            s.add(MunicipalitySettings(id=1, name="Chapada dos Guimarães", uf="MT", ouvidoria_phone="(65) 3301-1234",
                                       secretariat="Secretaria Municipal de Finanças"))
    driver_id, _, _ = authorized_driver(db)
    with db.session() as s:
        d = s.get(Driver, driver_id)
        d.address, d.district, d.zip_code = "Rua Quinze de Novembro, 120", "Centro", "78195000"
        d.email = email_address
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", drawn_on, driver_id=driver_id))
    issued = printing.print_autuacao_notice(db, fiscal, auto.number)
    return auto, issued


class SmtpSink:
    """A real SMTP server on 127.0.0.1 that keeps what it receives."""

    def __init__(self):
        from aiosmtpd.controller import Controller

        self.messages: list[email.message.EmailMessage] = []
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                sink.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
                return "250 OK"

        import socket

        with socket.socket() as probe:      # a free port on 127.0.0.1 for this server
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()


def reply_to(sent: email.message.EmailMessage, sender: str, body: str = "Recebemos a notificação.",
             when: str = "Tue, 24 Nov 2026 09:12:00 -0400") -> bytes:
    """The recipient's answer as a mail program saves it (.eml), quoting the sent Message-ID."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = sent["From"]
    msg["Subject"] = "RE: " + str(sent["Subject"])
    msg["Date"] = when
    msg["Message-ID"] = "<resposta-1@plataforma.example>"
    msg["In-Reply-To"] = sent["Message-ID"]
    msg["References"] = sent["Message-ID"]
    msg.set_content(body)
    return msg.as_bytes()
