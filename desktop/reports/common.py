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


def fmt_decimal(value: Decimal, places: int = 2) -> str:
    """1.234,56 with exactly `places` decimals."""
    return format_decimal(value, places)


VERIFICATION_NOTE = (
    "Documento emitido eletronicamente e arquivado na Prefeitura com o seu código de integridade. "
    "Para conferir a autenticidade, informe o número do documento à Secretaria: a via arquivada "
    "deve ser idêntica a esta."
)
