"""What several documents read from the database, read once per document from the caller's session: the
letterhead, the authorization with its driver and vehicle, and the texts they print (addresses, the vehicle line,
the ownership mode, the inspection). No ReportLab; the contexts built from these are frozen (render never reads
the database)."""
from __future__ import annotations

from sqlalchemy import select

from desktop.domain.formatting import short_hash
from desktop.errors import ConflictError, NotFound
from desktop.models import AuditCheckpoint, DatabaseMark
from desktop.models.security import DEMO_MARK
from desktop.reports.common import MunicipalityHeader, fmt_date
from desktop.models import MunicipalitySettings
from desktop.domain.workflow import AuthorizationStatus
from desktop.models import Authorization
from desktop.models import Driver, Vehicle
from desktop.domain.vehicle import OwnershipMode
from desktop.errors import DesktopError
from desktop.models import Inspection


def settings_row(s):
    row = s.get(MunicipalitySettings, 1)
    if row is None:
        raise NotFound("O programa ainda não foi configurado (falta a configuração inicial do município).")
    return row


def header_of(row, session=None) -> MunicipalityHeader:
    """The letterhead from the settings row; with the session, also the demo mark and the newest audit
    checkpoint's short hash that the footer prints (issue 11)."""
    demo, checkpoint = False, None
    if session is not None:
        demo, checkpoint = _is_demo(session), _checkpoint_short_hash(session)
    return MunicipalityHeader(name=row.name, uf=row.uf, secretariat=row.secretariat,
                              ouvidoria_phone=row.ouvidoria_phone or "", brasao_png=row.brasao_png,
                              pix_key=row.pix_key, demo=demo, audit_checkpoint=checkpoint)


def _is_demo(session) -> bool:
    """The database's demo mark (`desktop.services.demo.DEMO_MARK`), read from the session the report is built
    from: a report reads its context from the session, and no service lies below the reports (room order)."""
    return session.scalar(select(DatabaseMark.key).where(DatabaseMark.key == DEMO_MARK)) is not None


def _checkpoint_short_hash(session) -> str | None:
    """The short hash of the newest signed audit checkpoint, printed in every footer (issue 11)."""
    last = session.scalar(select(AuditCheckpoint.last_hash).order_by(AuditCheckpoint.id.desc()).limit(1))
    return None if last is None else short_hash(last)


def header(s) -> MunicipalityHeader:
    """The letterhead from the municipality's settings row, with the demo mark and the audit checkpoint."""
    return header_of(settings_row(s), s)


def status_label(status: str) -> str:
    try:
        return AuthorizationStatus(status).label
    except ValueError:
        return status


def authorization_row(s, number: str):

    row = s.scalar(select(Authorization).where(Authorization.number == number.strip()))
    if row is None:
        raise NotFound(f"Autorização nº {number} não encontrada.")
    return row


def require_active(row) -> None:
    """Sticker, credential and certificate are issued for an active authorization only (Art. 3; Art. 10,
    parágrafo único; Art. 15, VII)."""
    if row.status != "active" or row.valid_until is None:
        raise ConflictError(
            f"A autorização nº {row.number} está {status_label(row.status)}: adesivo, credencial e termo só "
            "são emitidos para autorização Ativa (Art. 3º; Art. 10, parágrafo único; Art. 15, VII).")


def active_authorization(s, number: str):
    """(authorization, driver, vehicle) rows of the active authorization `number`."""
    row = authorization_row(s, number)
    require_active(row)
    return row, s.get(Driver, row.driver_id), s.get(Vehicle, row.vehicle_id)


def address_of(driver) -> str:
    """'Rua Cipriano Curvo, 100, Centro, Chapada dos Guimarães' (the parts the register has)."""
    return ", ".join(part for part in (driver.address, driver.district, driver.city) if part)


def full_address(driver) -> str:
    """The address with the UF: '…, Chapada dos Guimarães–MT', or '—'."""
    text = address_of(driver) or "—"
    if driver.uf and driver.city:
        text += f"–{driver.uf}"
    return text


def make_model(vehicle) -> str:
    return f"{vehicle.make} {vehicle.model}".strip()


def vehicle_line(vehicle) -> str:
    """'Chevrolet Onix 1.0 – prata' (sticker, credential)."""
    return f"{make_model(vehicle)} – {vehicle.colour or '—'}"


def ownership_text(vehicle) -> str:
    try:
        mode = OwnershipMode(vehicle.ownership_mode)
    except ValueError:
        return vehicle.ownership_mode
    return f"{mode.label} ({mode.article})"


def inspection_text(row) -> str:
    if row.inspection_approved_on:
        return f"aprovada em {fmt_date(row.inspection_approved_on)}"
    if row.inspection_waived_on:
        return f"dispensada em {fmt_date(row.inspection_waived_on)} (Art. 9º, §1º)"
    return "—"


# Keys written by older data (the demo loader) for items of desktop.domain.inspection.INSPECTION_CHECKLIST.
ITEM_ALIASES = {"doors_4": "four_doors", "seats_max_7": "capacity", "original_characteristics": "original_features"}


def inspection_row(s, code):
    """The inspection of internal code `code` (digits), or NotFound / DesktopError."""
    if not str(code).strip().isdigit():
        raise DesktopError("Informe o número interno (código) da vistoria, por exemplo --id 12.")
    row = s.get(Inspection, int(code))
    if row is None:
        raise NotFound(f"Vistoria nº {code} não encontrada.")
    return row


