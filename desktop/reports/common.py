"""What every document shares, without ReportLab: the municipality's header, the document's identity
(number, issue date-time) and pt-BR formatting. Contexts are frozen dataclasses built before rendering, so a
render never reads the database (STYLE: Tryton's get_context → render)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

LAW = "Lei nº 2.103/2025"
LAW_FULL = "Lei Municipal nº 2.103, de 04 de junho de 2025"
TZ = ZoneInfo("America/Cuiaba")


@dataclass(frozen=True, slots=True)
class MunicipalityHeader:
    """The letterhead. The settings row of the database holds the same data (services.setup)."""

    name: str = "Chapada dos Guimarães"
    uf: str = "MT"
    secretariat: str = "Secretaria Municipal de Finanças"
    ouvidoria_phone: str = ""
    brasao_png: bytes | None = None
    pix_key: str | None = None

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
    return datetime.now(TZ)


def fmt_date(value: date | None) -> str:
    """dd/mm/aaaa (babel's short pt_BR format)."""
    if value is None:
        return "—"
    from babel.dates import format_date
    return format_date(value, "dd/MM/yyyy", locale="pt_BR")


def fmt_date_long(value: date) -> str:
    """'29 de novembro de 2026'."""
    from babel.dates import format_date
    return format_date(value, "d 'de' MMMM 'de' yyyy", locale="pt_BR")


def fmt_datetime(value: datetime) -> str:
    """dd/mm/aaaa às HH:MM, in Cuiabá time."""
    local = value.astimezone(TZ)
    return f"{fmt_date(local.date())} às {local:%H:%M}"


def fmt_money(value: Decimal) -> str:
    """R$ 1.234,56 with a normal space (the non-breaking space of babel extracts badly from PDFs)."""
    from babel.numbers import format_currency
    return format_currency(Decimal(value), "BRL", locale="pt_BR").replace("\xa0", " ")


def fmt_decimal(value: Decimal, places: int = 2) -> str:
    from babel.numbers import format_decimal
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return format_decimal(Decimal(value), format=pattern, locale="pt_BR")


def only_digits(text: str) -> str:
    return re.sub(r"\D", "", text or "")


def fmt_cpf(cpf: str) -> str:
    d = only_digits(cpf)
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}" if len(d) == 11 else cpf


def mask_cpf(cpf: str) -> str:
    """LGPD: '123.456.789-09' → '***.456.789-**' (the form the federal government uses for publication)."""
    d = only_digits(cpf)
    return f"***.{d[3:6]}.{d[6:9]}-**" if len(d) == 11 else "***"


def fmt_cnpj(cnpj: str) -> str:
    d = only_digits(cnpj)
    return f"{d[:2]}.{d[2:5]}.{d[5:8]}/{d[8:12]}-{d[12:]}" if len(d) == 14 else cnpj


def fmt_document_id(doc: str) -> str:
    """A CPF or CNPJ, formatted by its length."""
    d = only_digits(doc)
    return fmt_cpf(d) if len(d) == 11 else fmt_cnpj(d) if len(d) == 14 else doc


def fmt_plate(plate: str) -> str:
    """ABC1234 → ABC-1234 (old pattern); Mercosul ABC1D23 stays as it is."""
    p = re.sub(r"[\s\-]", "", plate or "").upper()
    return f"{p[:3]}-{p[3:]}" if re.fullmatch(r"[A-Z]{3}\d{4}", p) else p


VERIFICATION_NOTE = (
    "Documento emitido eletronicamente e arquivado na Prefeitura com o seu código de integridade. "
    "Para conferir a autenticidade, informe o número do documento à Secretaria: a via arquivada "
    "deve ser idêntica a esta."
)
