"""What every document shares, without ReportLab: the municipality's header, the document's identity
(number, issue date-time) and pt-BR formatting. Contexts are frozen dataclasses built before rendering, so a
render never reads the database (STYLE: Tryton's get_context → render)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from desktop.domain import clock
from desktop.domain.clock import TIMEZONE as TZ  # the one time zone constant
from desktop.domain.formatting import (  # noqa: F401 — mask_cpf is re-exported for the documents
    format_cnpj,
    format_cpf,
    format_date,
    format_datetime,
    format_decimal,
    format_document,
    format_long_date,
    format_money,
    format_plate,
    mask_cpf,
)
from desktop.domain.text import only_digits  # noqa: F401 — re-exported for the documents
from desktop.errors import ConflictError
from desktop.models.admin import User
from zoneinfo import ZoneInfo

LAW = "Lei nº 2.103/2025"
LAW_FULL = "Lei Municipal nº 2.103, de 04 de junho de 2025"


@dataclass(frozen=True, slots=True)
class MunicipalityHeader:
    """The letterhead. The settings row of the database holds the same data (services.setup)."""

    name: str = "Chapada dos Guimarães"
    uf: str = "MT"
    secretariat: str = "Secretaria Municipal de Finanças"
    ouvidoria_phone: str = ""
    brasao_png: bytes | None = None
    pix_key: str | None = None
    # Issue 11: a demo database prints "DEMONSTRAÇÃO — SEM VALOR LEGAL" across every page, and every document
    # carries the short hash of the newest signed audit checkpoint in its footer.
    demo: bool = False
    audit_checkpoint: str | None = None

    @property
    def title(self) -> str:
        return f"PREFEITURA MUNICIPAL DE {self.name.upper()} – {self.uf.upper()}"


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """The issued document's own identity: printed in the footer and archived with the bytes."""

    number: str                 # "0042/2026" from services.numbering (kind "document")
    issued_at: datetime         # timezone-aware
    issued_by: str = ""         # full name of the user who issued it

    def __post_init__(self):
        if self.issued_at.tzinfo is None:
            raise ValueError("issued_at precisa de fuso horário (America/Cuiaba).")


ACT_SIGNING_BASIS = "Lei nº 9.784/1999, art. 22, § 1º"


@dataclass(frozen=True, slots=True)
class Signer:
    """Who signs an act: the user's full name, office (cargo) and registration number (matrícula), as Lei
    9.784/99 art. 22 §1º asks of an act ("a data e o local de sua realização e a assinatura da autoridade
    responsável"). Built by `signer_of(session, actor)` from the user row; printed by `_pdf.signer_block`.
    Issue 28: never "Sistema (rotina automática)", "Linha de comando (root)" nor "Autoridade competente"."""

    name: str
    office: str
    registration: str
    unit: str = ""              # the secretariat, printed under the office

    def __post_init__(self):
        if not self.name.strip() or not self.office.strip() or not self.registration.strip():
            raise ValueError("Quem assina um ato precisa de nome, cargo e matrícula (Lei 9.784/99, art. 22, §1º).")

    @property
    def lines(self) -> tuple[str, ...]:
        """The lines under the signature: name, office (with the unit), "Matrícula nº …"."""
        office = f"{self.office} — {self.unit}" if self.unit else self.office
        return (self.name, office, f"Matrícula nº {self.registration}")

    @property
    def inline(self) -> str:
        """One line for a table cell or a footer: "Gabriela Curvo de Almeida, Gestora, matrícula nº 1001"."""
        return f"{self.name}, {self.office}, matrícula nº {self.registration}"


def signer_problem(name: str, office: str, registration: str) -> str | None:
    """Why a user cannot sign an act, in Portuguese, or None (issue 28 point 2)."""
    missing = [label for label, value in (("cargo", office), ("matrícula", registration)) if not (value or "").strip()]
    if not (name or "").strip():
        missing.insert(0, "nome completo")
    if not missing:
        return None
    return (f"O seu cadastro de usuário não tem {' e '.join(missing)}: um ato só é emitido com o nome, o cargo e a "
            f"matrícula de quem o assina ({ACT_SIGNING_BASIS}). Peça ao administrador que os informe em "
            f"Administração → Usuários.")


def signer_of(session, actor, unit: str = "") -> Signer:
    """The Signer of an act issued by `actor`, from the user's row in `session`. An automatic routine, the
    machine's account or a user without office or registration cannot sign: ConflictError says why (issue 28:
    routines prepare, a person signs). Every document's build_context calls this; services pass the actor."""

    user_id = getattr(actor, "user_id", None)
    if user_id is None:
        raise ConflictError(
            f"Um ato só é emitido por um usuário identificado, que o assina ({ACT_SIGNING_BASIS}); uma rotina "
            f"automática ou a conta do computador não assinam. Na linha de comando, use --user LOGIN.")
    user = session.get(User, user_id)
    if user is None:
        raise ConflictError(f"Usuário nº {user_id} não encontrado: o ato não pode ser assinado.")
    problem = signer_problem(user.full_name, user.office, user.registration)
    if problem:
        raise ConflictError(problem)
    return Signer(user.full_name.strip(), user.office.strip(), user.registration.strip(), unit)


def now() -> datetime:
    """The issue moment of a document: the program's one clock (desktop.domain.clock)."""
    return clock.now()


# pt-BR formatting: the one locale module (desktop.domain.formatting); these are its names as the documents
# have always called them. Documents print "—" for a missing date and "dd/mm/aaaa às HH:MM" for a moment.
fmt_cpf = format_cpf
fmt_cnpj = format_cnpj
fmt_document_id = format_document
fmt_plate = format_plate
fmt_money = format_money
fmt_date_long = format_long_date


def fmt_date(value: date | None) -> str:
    """dd/mm/aaaa; "—" when there is no date."""
    return format_date(value, empty="—")


def fmt_datetime(value: datetime) -> str:
    """dd/mm/aaaa às HH:MM, in Cuiabá time."""
    return format_datetime(value, sep=" às ")


BRASILIA_TZ_NAME = "America/Sao_Paulo"


def fmt_moment(value: datetime, brasilia: bool = False) -> str:
    """A legal moment with its zone (issue 28 point 8): "03/12/2026 às 00:09 (horário de Cuiabá, UTC−04:00)";
    with `brasilia`, also the same moment on Brasília time for an addressee there ("… = 01:09 de Brasília")."""

    local = value.astimezone(TZ)
    text = f"{format_datetime(local, sep=' às ')} ({_zone_label(local, 'Cuiabá')})"
    if brasilia:
        other = value.astimezone(ZoneInfo(BRASILIA_TZ_NAME))
        if other.utcoffset() != local.utcoffset():
            same_day = other.date() == local.date()
            text += (f", isto é, {other:%H:%M}" + ("" if same_day else f" de {format_date(other.date())}")
                     + f" no horário de Brasília ({_offset(other)})")
    return text


def _offset(value: datetime) -> str:
    minutes = int(value.utcoffset().total_seconds() // 60)
    sign = "+" if minutes >= 0 else "−"
    minutes = abs(minutes)
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def _zone_label(value: datetime, city: str) -> str:
    return f"horário de {city}, {_offset(value)}"


def fmt_decimal(value: Decimal, places: int = 2) -> str:
    """1.234,56 with exactly `places` decimals."""
    return format_decimal(value, places)


VERIFICATION_NOTE = (
    "Documento emitido eletronicamente e arquivado na Prefeitura com o seu código de integridade. "
    "Para conferir a autenticidade, informe o número do documento à Secretaria: a via arquivada "
    "deve ser idêntica a esta."
)
