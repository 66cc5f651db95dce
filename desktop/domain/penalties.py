"""Severities, fines and the infraction catalogue (Art. 24-28), and the penalties an auto proposes.

The system proposes; the gestor confirms (SPEC §3). The catalogue is data: the gestor may add codes for the
regulating decree (Art. 22, Art. 29) and pass them to `assess(..., catalog=...)`.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType

from desktop.domain.money import reais_to_upfm as _reais_to_upfm
from desktop.domain.money import to_reais
from desktop.domain import law
from desktop.domain.dates import add_months_clamped
from desktop.domain.problems import Problem
from desktop.domain.text import fold
from desktop.domain.dates import TIMEZONE, period_end

CENT = Decimal("0.01")


class Severity(StrEnum):
    """Infraction categories and their fines in UPFM (Art. 25, I-IV)."""

    LEVE = "leve"
    MEDIA = "media"
    GRAVE = "grave"
    GRAVISSIMA = "gravissima"

    @property
    def upfm(self) -> int:
        return _UPFM[self]

    @property
    def label(self) -> str:
        return _SEVERITY_LABELS[self]

    @property
    def article(self) -> str:
        return _SEVERITY_ARTICLES[self]

    @classmethod
    def parse(cls, text: str) -> "Severity":
        """From a stored value or a Portuguese label ("média", "Gravíssima", "media")."""

        key = fold(text)
        for severity in cls:
            if key in (severity.value, fold(severity.label)):
                return severity
        raise ValueError(f"gravidade desconhecida: {text!r}")


_UPFM = {Severity.LEVE: 10, Severity.MEDIA: 20, Severity.GRAVE: 30, Severity.GRAVISSIMA: 40}  # Art. 25
_SEVERITY_LABELS = {Severity.LEVE: "Leve", Severity.MEDIA: "Média", Severity.GRAVE: "Grave",
                    Severity.GRAVISSIMA: "Gravíssima"}
_SEVERITY_ARTICLES = {Severity.LEVE: "Art. 25, I", Severity.MEDIA: "Art. 25, II", Severity.GRAVE: "Art. 25, III",
                      Severity.GRAVISSIMA: "Art. 25, IV"}


def fine_in_reais(upfm: int | Decimal, upfm_value: Decimal) -> Decimal:
    """The fine in reais: UPFM × the value of one UPFM (of the year the auto was drawn up), rounded half-up to the
    cent (SPEC §3, Art. 25). Floats are refused: money is Decimal."""
    if isinstance(upfm, float) or isinstance(upfm_value, float):
        raise TypeError("use Decimal (ou int) para valores monetários, nunca float")
    return to_reais(upfm, upfm_value)


def auto_year(infraction_on: date, lavrado_at: datetime | None = None) -> int:
    """The year of an auto: the year of its lavratura in Chapada dos Guimarães (America/Cuiaba), which gives its
    number NNNN/AAAA and the UPFM value of its fine (Art. 25; SPEC §3: "an auto's amount in reais uses the value of
    the year the auto was drawn up (lavrado)"; issue 24 item 9). A fact of 31/12/2025 23:30 drawn up on 01/01/2026
    00:10 is an auto of 2026.

    `lavrado_at` must be timezone-aware (a naive moment could be read in any zone: ValueError); it is read in
    Cuiabá's time, so 2026-01-01T03:30Z — 31/12/2025 23:30 in Cuiabá — is of 2025. None (no lavratura recorded,
    rows older than it): the year of the infraction."""
    if lavrado_at is None:
        return infraction_on.year
    if not isinstance(lavrado_at, datetime):
        raise TypeError("a lavratura é uma data-hora (datetime), não uma data")
    if lavrado_at.tzinfo is None or lavrado_at.utcoffset() is None:
        raise ValueError("a data-hora da lavratura precisa do fuso horário (America/Cuiaba)")
    return lavrado_at.astimezone(TIMEZONE).year


def reais_to_upfm(reais: Decimal, upfm_value: Decimal, places: int = 4) -> Decimal:
    """A payment in reais expressed in UPFM at the value used for the debit, half-up to `places` decimals."""
    if isinstance(reais, float) or isinstance(upfm_value, float):
        raise TypeError("use Decimal para valores monetários, nunca float")
    if Decimal(upfm_value) <= 0:
        raise ValueError("o valor da UPFM deve ser positivo")
    return _reais_to_upfm(reais, upfm_value, places)


@dataclass(frozen=True, slots=True)
class InfractionType:
    """One line of the infraction catalogue (SPEC §3 table).

    The penalty fields say what every occurrence brings; the `recurrence_*` fields what a recurrence adds
    (reincidência). `legal_text` is the law's wording, printed on the auto (Art. 19).
    """

    code: str
    article: str
    description: str
    severity: Severity
    legal_text: str = ""
    suspension_days: int = 0
    suspension_months: int = 0
    impediment: bool = False
    cassation: bool = False
    vehicle_seizure: bool = False
    recurrence_suspension_days: int = 0
    recurrence_suspension_months: int = 0
    recurrence_cassation: bool = False
    recurrence_vehicle_seizure: bool = False
    penalty_articles: tuple[str, ...] = ()
    recurrence_articles: tuple[str, ...] = ()
    penalty_basis: str = ""
    revocation: bool = False
    driver_deregistration: bool = False
    vehicle_deregistration: bool = False
    decree_penalties: tuple[str, ...] = ()
    """A decree code's own list (`Penalty` values, Art. 29; see `decree_entry`): each option then cites the
    code's article and the letter of Art. 24, I of its kind."""
    needs_art13_item: bool = False
    valid_from: date | None = None
    valid_until: date | None = None

    @property
    def upfm(self) -> int:
        return self.severity.upfm

    @property
    def penalty_text(self) -> str:
        """The penalty in Portuguese ("Multa e suspensão da autorização por 12 meses")."""
        return _describe(self.suspension_days, self.suspension_months, self.cassation, self.vehicle_seizure,
                         self.impediment, base="Multa")

    @property
    def recurrence_text(self) -> str:
        """What a recurrence adds, in Portuguese ("—" when nothing)."""
        if not self.has_recurrence_effect:
            return "—"
        return _describe(self.recurrence_suspension_days, self.recurrence_suspension_months,
                         self.recurrence_cassation, self.recurrence_vehicle_seizure, False, base="Multa")

    @property
    def has_recurrence_effect(self) -> bool:
        return bool(self.recurrence_suspension_days or self.recurrence_suspension_months
                    or self.recurrence_cassation or self.recurrence_vehicle_seizure)

    def in_force(self, on: date) -> bool:
        return (self.valid_from is None or on >= self.valid_from) and (self.valid_until is None
                                                                       or on <= self.valid_until)


def _describe(days: int, months: int, cassation: bool, seizure: bool, impediment: bool, base: str) -> str:
    parts = [base]
    if months:
        parts.append(f"suspensão da autorização por {months} meses")
    if days:
        parts.append(f"suspensão da autorização por {days} dias")
    if cassation:
        parts.append("cassação da autorização")
    if seizure:
        parts.append("apreensão do veículo até a regularização")
    if impediment:
        parts.append("impedimento imediato de realizar o serviço")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " e " + parts[-1]


_CATALOG_ENTRIES = (
    InfractionType(
        code="ART26-I", article="Art. 26, I", severity=Severity.LEVE,
        description="Não atender a notificação para realizar a vistoria",
        legal_text="Não atender a notificação para realizar a vistoria.",
    ),
    InfractionType(
        code="ART26-II", article="Art. 26, II", severity=Severity.LEVE,
        description="Realizar serviço em desacordo com a reprovação na vistoria (impedimento do Art. 16, §2º)",
        legal_text=("Quando o veículo realizar serviços em desacordo com a aprovação do órgão fiscalizador "
                    "previsto no § 2º do art. 16 será imediatamente impedido de realizar o serviço que trata "
                    "esta Lei."),
        impediment=True, penalty_articles=("Art. 16, §2",),
    ),
    InfractionType(
        code="ART26-III", article="Art. 26, III", severity=Severity.MEDIA,
        description="Descumprir dever do condutor previsto no Art. 13 (inciso registrado no auto)",
        legal_text="Quando o condutor não cumprir e não atender regras determinadas no art. 13 desta Lei.",
        needs_art13_item=True,
    ),
    InfractionType(
        code="ART26-IV", article="Art. 26, IV", severity=Severity.GRAVE,
        description="Embarcar usuário diretamente na via pública, sem intermediação da plataforma",
        legal_text=("Autorizar o embarque de usuário diretamente na via pública e realizar a prestação de serviço "
                    "de transporte remunerado privado individual de passageiros sem que ocorra a intermediação "
                    "da contratação através de plataformas tecnológicas (aplicativos)."),
        recurrence_suspension_days=law.STREET_BOARDING_RECURRENCE_SUSPENSION_DAYS,
        recurrence_articles=("Art. 26, §1",),
    ),
    InfractionType(
        code="ART26-V", article="Art. 26, V", severity=Severity.GRAVISSIMA,
        description="Agredir fisicamente o Agente Fiscalizador do Município no exercício de suas funções",
        legal_text="Agredir fisicamente o Agente Fiscalizador do Município no exercício de suas funções.",
        suspension_months=law.SUSPENSION_MONTHS, penalty_articles=("Art. 24, parágrafo único",),
        penalty_basis="Art. 26, V, b; Art. 24, parágrafo único",
        recurrence_cassation=True, recurrence_articles=("Art. 26, §2",),
    ),
    InfractionType(
        code="ART26-VI", article="Art. 26, VI", severity=Severity.GRAVE,
        description="Oferecer cartões ou similares para prestar serviço fora do contrato pela plataforma",
        legal_text=("Oferecer cartões ou similares indicando os dados do motorista ou de outro, objetivando "
                    "prestar serviço fora do contrato específico previsto nesta lei."),
        suspension_months=law.SUSPENSION_MONTHS, penalty_articles=("Art. 24, parágrafo único",),
        penalty_basis="Art. 26, VI, b; Art. 24, parágrafo único",
    ),
    InfractionType(
        code="ART27", article="Art. 27", severity=Severity.GRAVISSIMA,
        description="Transporte ilegal: prestação do serviço em desacordo com a Lei",
        legal_text=("A prestação do serviço em desacordo com o disposto nesta Lei, e demais leis que regulamentam "
                    "o transporte de passageiros no Município, será considerada transporte ilegal."),
        recurrence_vehicle_seizure=True, recurrence_articles=("Art. 27, parágrafo único",),
    ),
)

CATALOG: Mapping[str, InfractionType] = MappingProxyType({e.code: e for e in _CATALOG_ENTRIES})
"""The catalogue seeded from the law (SPEC §3 table), by code."""

ART13_DUTIES: Mapping[str, str] = MappingProxyType({
    "I": "portar autorização específica emitida pelo município",
    "II": "tratar com urbanidade os passageiros",
    "III": "não dormir ou fazer as refeições no interior do veículo",
    "IV": "dirigir o veículo de modo a proporcionar segurança e conforto aos passageiros",
    "V": "obedecer à velocidade estipulada nas vias públicas",
    "VI": "cumprir rigorosamente as normas prescritas nesta Lei e nos demais atos administrativos expedidos",
    "VII": "não fumar no interior do veículo quando em trânsito, parado ou estacionado",
    "VIII": "não efetuar o transporte de pessoas sob a influência de bebida alcoólica ou outra substância "
            "psicotrópica",
    "IX": "observar o número máximo permitido para a lotação do veículo",
    "X": "não fazer ponto ou arrecadar passageiros na via pública, parques e similares ou permanecer em local não "
         "permitido",
    "XI": "não interromper a via pública a pretexto de desembarcar passageiro",
    "XII": "somente efetuar o transporte de pessoas que tenham sido alvo de contrato específico, não podendo parar "
           "em via pública para oferecer o serviço",
    "XIII": "apresentar o veículo em perfeitas condições de higiene e limpeza",
    "XIV": "somente utilizar veículo em perfeitas condições de conservação e segurança, sem avarias",
    "XV": "não usar adesivos publicitários ou que identifiquem a plataforma na parte externa do veículo",
    "XVI": "cumprir as determinações do município",
    "XVII": "atender as obrigações fiscais e correlatas, fornecendo os dados sempre que solicitados",
    "XVIII": "comunicar alterações de seus dados cadastrais em até 7 (sete) dias",
    "XIX": "utilizar para o serviço somente o veículo cadastrado para este fim",
    "XX": "responsabilizar-se pela veracidade das informações e documentos apresentados",
    "XXI": "recolher multas e/ou taxas impostas pelo Município no prazo estabelecido",
    "XXII": "não recusar a prestação do serviço ao passageiro com deficiência",
    "XXIII": "acomodar devidamente a cadeira de rodas, respeitando a segurança dos passageiros",
})
"""The driver's duties of Art. 13, I-XXIII (an Art. 26 III auto records which one was broken)."""


class UnknownInfractionCode(ValueError):
    """The code is not in the catalogue (nor in the extra entries given)."""

    def __init__(self, code: str):
        super().__init__(f"Código de infração desconhecido: {code!r}.")
        self.code = code


class InfractionNotInForce(ValueError):
    """The catalogue entry was not in force on the date of the infraction."""

    def __init__(self, code: str, on: date):
        super().__init__(f"A infração {code} não estava em vigor em {on:%d/%m/%Y}.")
        self.code = code
        self.on = on


@dataclass(frozen=True, slots=True)
class Prior:
    """An earlier infraction of the same infractor with a final decision (not cancelled nor annulled).
    `final_on`: the day that decision became final (None: not known, a row loaded without it — counted)."""

    code: str
    on: date
    final_on: date | None = None

    def final_by(self, day: date) -> bool:
        """SPEC §3 (Recurrence): "The prior counts only if its decision was already final on the new infraction's
        date" (issue 24 item 5: a prior still in defense on that date is no recurrence, even if final later)."""
        return self.final_on is None or self.final_on <= day


@dataclass(frozen=True, slots=True)
class Assessment:
    """What the law proposes for one infraction (the gestor confirms).

    suspension_days / suspension_months: the suspension of the authorization (Art. 24, I, b; parágrafo único:
    12 months, except the 30 days of Art. 26 §1); cassation (Art. 24, I, e; Art. 26 §2); vehicle_seizure
    (Art. 24, II, d; Art. 27 parágrafo único); impediment (Art. 26, II; Art. 16 §2); recurrence: whether a prior
    of the same code fell inside the window; articles: every article the proposal rests on.
    """

    code: str
    severity: Severity
    upfm: int
    suspension_days: int
    suspension_months: int
    cassation: bool
    vehicle_seizure: bool
    impediment: bool
    recurrence: bool
    articles: tuple[str, ...]
    description: str = ""
    window_start: date | None = None
    recurrent_priors: tuple[Prior, ...] = field(default=())

    def fine_in_reais(self, upfm_value: Decimal) -> Decimal:
        return fine_in_reais(self.upfm, upfm_value)

    def to_dict(self) -> dict:
        """A JSON-ready dict (dates in ISO form), for storing what was proposed beside the auto."""
        return {
            "code": self.code, "severity": self.severity.value, "upfm": self.upfm,
            "suspension_days": self.suspension_days, "suspension_months": self.suspension_months,
            "cassation": self.cassation, "vehicle_seizure": self.vehicle_seizure, "impediment": self.impediment,
            "recurrence": self.recurrence, "articles": list(self.articles), "description": self.description,
            "window_start": self.window_start.isoformat() if self.window_start else None,
            "recurrent_priors": [{"code": p.code, "on": p.on.isoformat()} for p in self.recurrent_priors],
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> "Assessment":
        return cls(
            code=data["code"], severity=Severity(data["severity"]), upfm=int(data["upfm"]),
            suspension_days=int(data["suspension_days"]), suspension_months=int(data["suspension_months"]),
            cassation=bool(data["cassation"]), vehicle_seizure=bool(data["vehicle_seizure"]),
            impediment=bool(data["impediment"]), recurrence=bool(data["recurrence"]),
            articles=tuple(data["articles"]), description=data.get("description", ""),
            window_start=date.fromisoformat(data["window_start"]) if data.get("window_start") else None,
            recurrent_priors=tuple(Prior(p["code"], date.fromisoformat(p["on"]))
                                   for p in data.get("recurrent_priors", ())),
        )

    @property
    def suspends(self) -> bool:
        return bool(self.suspension_days or self.suspension_months)

    def suspension_end(self, start: date) -> date | None:
        """Last day of the proposed suspension starting on `start` (the day the decision is final), or None."""
        if not self.suspends:
            return None

        return period_end(start, days=self.suspension_days, months=self.suspension_months)

    @property
    def penalty_text(self) -> str:
        """The proposed penalties in Portuguese, for the auto and the decision screen."""
        return _describe(self.suspension_days, self.suspension_months, self.cassation, self.vehicle_seizure,
                         self.impediment, base=f"Multa de {self.upfm} UPFM")


def normalize_code(code: str) -> str:
    """Catalogue codes compare without case or spaces ("art26-iv " -> "ART26-IV")."""
    return "".join(str(code).split()).upper()


def recurrence_window_start(on: date, window_months: int = law.DEFAULT_RECURRENCE_WINDOW_MONTHS) -> date:
    """The first day a prior counts as recurrence: the same day `window_months` earlier, clamped to the month's
    end (29/02/2028 - 12 months -> 28/02/2027)."""
    if window_months < 0:
        raise ValueError("a janela de reincidência não pode ser negativa")
    return add_months_clamped(on, -window_months)


CatalogEntries = Mapping[str, "InfractionType | Iterable[InfractionType]"]


def lookup(code: str, catalog: CatalogEntries | None = None, on: date | None = None) -> InfractionType:
    """The catalogue entry of a code; `catalog` adds to (and may override) the law's entries.

    A value of `catalog` may be one entry or several versions of the same code (a code in use is closed and
    replaced, never edited): then the version in force on `on` is chosen.
    """
    key = normalize_code(code)
    if catalog:
        for extra_code, value in catalog.items():
            if normalize_code(extra_code) != key:
                continue
            if isinstance(value, InfractionType):
                return value
            versions = list(value)
            if on is not None:
                in_force = [v for v in versions if v.in_force(on)]
                if in_force:
                    return max(in_force, key=lambda v: v.valid_from or date.min)
            if versions:
                return versions[-1]
    try:
        return CATALOG[key]
    except KeyError:
        raise UnknownInfractionCode(code) from None


def assess(code: str, on: date, prior: Iterable[Prior] = (),
           window_months: int = law.DEFAULT_RECURRENCE_WINDOW_MONTHS, *,
           catalog: CatalogEntries | None = None) -> Assessment:
    """The penalties the law proposes for an infraction of `code` committed on `on` (Art. 24-27).

    Recurrence (SPEC §3): a prior of the same code dated on or after `recurrence_window_start(on, window_months)`
    and before `on`, whose decision was already final on `on` (SPEC §3: "The prior counts only if its decision
    was already final on the new infraction's date"). `prior` should hold only infractions with a final decision
    (not cancelled or annulled).
    `catalog`: extra entries (codes of the regulating decree, or dated versions), looked up before the law's own.
    """
    entry = lookup(code, catalog, on)
    if not entry.in_force(on):
        raise InfractionNotInForce(entry.code, on)
    start = recurrence_window_start(on, window_months)
    key = normalize_code(entry.code)
    recurrent = tuple(sorted(
        (p for p in prior if normalize_code(p.code) == key and start <= p.on < on and p.final_by(on)),
        key=lambda p: p.on))
    recurrence = bool(recurrent)

    articles = [entry.article, entry.severity.article, *entry.penalty_articles]
    suspension_days, suspension_months = entry.suspension_days, entry.suspension_months
    cassation, seizure = entry.cassation, entry.vehicle_seizure
    if recurrence and entry.has_recurrence_effect:
        # Art. 26 §1 (30 days) is the specific rule: it wins over Art. 24's 12 months (SPEC §3).
        suspension_days = max(suspension_days, entry.recurrence_suspension_days)
        suspension_months = max(suspension_months, entry.recurrence_suspension_months)
        cassation = cassation or entry.recurrence_cassation
        seizure = seizure or entry.recurrence_vehicle_seizure
        articles.extend(entry.recurrence_articles)
    if seizure:
        articles.append("Art. 24, II, d")
    return Assessment(
        code=entry.code, severity=entry.severity, upfm=entry.severity.upfm,
        suspension_days=suspension_days, suspension_months=suspension_months,
        cassation=cassation, vehicle_seizure=seizure, impediment=entry.impediment,
        recurrence=recurrence, articles=tuple(dict.fromkeys(articles)),
        description=entry.description, window_start=start, recurrent_priors=recurrent,
    )


class Penalty(StrEnum):
    """The penalties of Art. 24, I."""

    FINE = "fine"
    SUSPENSION = "suspension"
    REVOCATION = "revocation"
    DRIVER_DEREGISTRATION = "driver_deregistration"
    CASSATION = "cassation"
    VEHICLE_DEREGISTRATION = "vehicle_deregistration"

    @property
    def label(self) -> str:
        return _PENALTY_LABELS[self][0]

    @property
    def article(self) -> str:
        return _PENALTY_LABELS[self][1]


_PENALTY_LABELS = {
    Penalty.FINE: ("Multa", "Art. 24, I, a"),
    Penalty.SUSPENSION: ("Suspensão da autorização", "Art. 24, I, b"),
    Penalty.REVOCATION: ("Revogação da autorização", "Art. 24, I, c"),
    Penalty.DRIVER_DEREGISTRATION: ("Descadastramento do condutor", "Art. 24, I, d"),
    Penalty.CASSATION: ("Cassação da autorização", "Art. 24, I, e"),
    Penalty.VEHICLE_DEREGISTRATION: ("Descadastramento do veículo", "Art. 24, I, f"),
}


class AdministrativeMeasure(StrEnum):
    """The administrative measures of Art. 24, II (removal and storage costs fall on the driver: Art. 28)."""

    REGULARIZATION_NOTICE = "regularization_notice"
    RETENTION_OR_REMOVAL = "retention_or_removal"
    DOCUMENT_SEIZURE = "document_seizure"
    VEHICLE_SEIZURE = "vehicle_seizure"

    @property
    def label(self) -> str:
        return _MEASURE_LABELS[self][0]

    @property
    def article(self) -> str:
        return _MEASURE_LABELS[self][1]


_MEASURE_LABELS = {
    AdministrativeMeasure.REGULARIZATION_NOTICE: ("Notificação para regularização", "Art. 24, II, a"),
    AdministrativeMeasure.RETENTION_OR_REMOVAL: ("Retenção ou remoção do veículo", "Art. 24, II, b"),
    AdministrativeMeasure.DOCUMENT_SEIZURE: ("Apreensão de documentos ou equipamentos", "Art. 24, II, c"),
    AdministrativeMeasure.VEHICLE_SEIZURE: ("Apreensão do veículo", "Art. 24, II, d"),
}


class NotificationForm(StrEnum):
    """The forms by which the infractor is deemed notified (Art. 22, §1, I-VI); the term runs from the joining
    of the proof to the case (§2)."""

    DIRECT = "direct"
    NOTICE_BOARD = "notice_board"
    NEWSPAPER = "newspaper"
    OFFICIAL_GAZETTE = "official_gazette"
    POST = "post"
    ELECTRONIC = "electronic"

    @property
    def label(self) -> str:
        return _NOTIFICATION_LABELS[self][0]

    @property
    def article(self) -> str:
        return _NOTIFICATION_LABELS[self][1]


_NOTIFICATION_LABELS = {
    NotificationForm.DIRECT: ("Notificação direta", "Art. 22, §1, I"),
    NotificationForm.NOTICE_BOARD: ("Edital no quadro de editais da Prefeitura", "Art. 22, §1, II"),
    NotificationForm.NEWSPAPER: ("Publicação em jornal de circulação no Município", "Art. 22, §1, III"),
    NotificationForm.OFFICIAL_GAZETTE: ("Publicação no Órgão de Imprensa Oficial", "Art. 22, §1, IV"),
    NotificationForm.POST: ("Aviso por via postal ou carta com AR", "Art. 22, §1, V"),
    NotificationForm.ELECTRONIC: ("Meio eletrônico com prova de recebimento", "Art. 22, §1, VI"),
}


# ---------------------------------------------------------------------------------------------------------
# What a decision may apply (issue 12 items 1-2): only the penalties the catalogue names, each with its article;
# a partial decision ("mantido em parte") is a requalification to another code and/or a penalty not upheld.
# ---------------------------------------------------------------------------------------------------------

VEHICLE_SEIZURE = "vehicle_seizure"
"""The seizure of the vehicle of Art. 27 parágrafo único (an administrative measure, Art. 24, II, d)."""

_OPTION_LABELS = {**{p.value: p.label for p in Penalty}, VEHICLE_SEIZURE: "Apreensão do veículo até a regularização"}


@dataclass(frozen=True, slots=True)
class PenaltyOption:
    """One penalty a decision on a code may apply, with the article that names it for this case.

    `penalty` is a `Penalty` value (never "fine": the fine of Art. 25 always applies) or "vehicle_seizure";
    `days`/`months` the length of a suspension."""

    penalty: str
    article: str
    days: int = 0
    months: int = 0

    @property
    def label(self) -> str:
        text = _OPTION_LABELS.get(self.penalty, self.penalty)
        if self.months:
            text += f" por {self.months} meses"
        if self.days:
            text += f" por {self.days} dias"
        return text

    @property
    def text(self) -> str:
        """"Suspensão da autorização por 30 dias (Art. 26, §1)"."""
        return f"{self.label} ({self.article})"

    def to_dict(self) -> dict:
        return {"penalty": self.penalty, "article": self.article, "days": self.days, "months": self.months}

    @classmethod
    def from_dict(cls, data: Mapping) -> "PenaltyOption":
        return cls(str(data["penalty"]), str(data.get("article", "")), int(data.get("days", 0)),
                   int(data.get("months", 0)))


def requalified_art13_item_problems(new: InfractionType, drawn_item: str | None, item: str | None) -> list[Problem]:
    """A requalification to Art. 26, III ("descumprir qualquer dos deveres previstos no Art. 13") names the duty
    broken, inciso I to XXIII (issue 24 item 7): asked when the auto does not already record one."""
    if not new.needs_art13_item or drawn_item:
        return []
    value = (item or "").strip().upper()
    if value not in ART13_DUTIES:
        return [Problem("art13_item", "Requalificado para o Art. 26, III: indique o inciso do Art. 13 (I a XXIII) "
                        "que o condutor descumpriu.", "Art. 26, III; Art. 13")]
    return []


def penalty_notice_clauses(decided: Iterable[PenaltyOption]) -> tuple[str, ...]:
    """The sentences a penalty notice prints for the penalties a decision applied, each citing the article of
    the rule applied (issue 24 item 6: a fine alone prints no sentence on suspension; a 12-month suspension of
    Art. 26, V cites Art. 24, parágrafo único, not Art. 26, §1). Art. 24, I, b and parágrafo único: the suspension
    takes the authorization back and keeps driver and vehicle away; Art. 24, I, e and Art. 26, §2: the cassation;
    Art. 27, parágrafo único and Art. 28: the seizure until regularized, its costs the driver's."""
    clauses = []
    for option in decided:
        if option.penalty == Penalty.SUSPENSION.value:
            period = f"{option.months} meses" if option.months else f"{option.days} dias"
            clauses.append(f"A suspensão por {period} implica o recolhimento da autorização e o afastamento do "
                           f"condutor e do veículo pelo período fixado ({option.article}).")
        elif option.penalty == Penalty.CASSATION.value:
            clauses.append(f"A cassação extingue a autorização, que deve ser devolvida ({option.article}).")
        elif option.penalty == VEHICLE_SEIZURE:
            clauses.append("O veículo fica apreendido até a regularização; as despesas de remoção e estada são do "
                           f"condutor ({option.article}; Art. 28).")
        else:
            clauses.append(f"{option.label} ({option.article}).")
    return tuple(clauses)


def penalty_options(entry: InfractionType, recurrence: bool) -> tuple[PenaltyOption, ...]:
    """The penalties (beyond the fine) a decision on an infraction of `entry` may apply, never others:
    those its code names for every occurrence (Art. 26 V b and VI b: suspension for 12 months, Art. 24 parágrafo
    único; a decree code: what it names, under its own article) and, on a recurrence, those of the recurrence rule
    (Art. 26 §1: suspension for 30 days; §2: cassation; Art. 27 parágrafo único: seizure of the vehicle).
    The immediate impediment of Art. 26 II is not a decision's: it applies when the auto is drawn up."""
    if entry.decree_penalties:
        return tuple(decree_option(entry.article, kind) for kind in entry.decree_penalties)
    basis = entry.penalty_basis or "; ".join(dict.fromkeys((entry.article, *entry.penalty_articles)))
    options: list[PenaltyOption] = []
    if entry.suspension_days or entry.suspension_months:
        options.append(PenaltyOption(Penalty.SUSPENSION.value, basis, entry.suspension_days,
                                     entry.suspension_months))
    for flag, penalty in ((entry.cassation, Penalty.CASSATION), (entry.revocation, Penalty.REVOCATION),
                          (entry.driver_deregistration, Penalty.DRIVER_DEREGISTRATION),
                          (entry.vehicle_deregistration, Penalty.VEHICLE_DEREGISTRATION)):
        if flag:
            options.append(PenaltyOption(penalty.value, basis))
    if entry.vehicle_seizure:
        options.append(PenaltyOption(VEHICLE_SEIZURE, f"{basis}; Art. 24, II, d"))
    if recurrence and entry.has_recurrence_effect:
        rule = "; ".join(entry.recurrence_articles) or entry.article
        if entry.recurrence_suspension_days or entry.recurrence_suspension_months:
            options.append(PenaltyOption(Penalty.SUSPENSION.value, rule, entry.recurrence_suspension_days,
                                         entry.recurrence_suspension_months))
        if entry.recurrence_cassation and not entry.cassation:
            options.append(PenaltyOption(Penalty.CASSATION.value, rule))
        if entry.recurrence_vehicle_seizure and not entry.vehicle_seizure:
            options.append(PenaltyOption(VEHICLE_SEIZURE, f"{rule}; Art. 24, II, d"))
    return tuple(options)


def decision_options(code: str, on: date, prior: Iterable[Prior] = (),
                     window_months: int = law.DEFAULT_RECURRENCE_WINDOW_MONTHS, *,
                     catalog: CatalogEntries | None = None) -> tuple[PenaltyOption, ...]:
    """`penalty_options` of the code in force on the infraction's date `on`, recurrence decided as in `assess`."""
    entry = lookup(code, catalog, on)
    return penalty_options(entry, assess(code, on, prior, window_months, catalog=catalog).recurrence)


def penalty_choice_problems(chosen: Iterable[str], options: Iterable[PenaltyOption], code: str) -> list[Problem]:
    """A penalty chosen that the catalogue does not name for this code and case (Art. 24, I; Art. 26; Art. 27):
    refused, naming it."""
    allowed = {o.penalty for o in options}
    problems = []
    for penalty in sorted({str(c) for c in chosen} - allowed):
        label = _OPTION_LABELS.get(penalty, penalty)
        problems.append(Problem(
            "penalties", f"A penalidade «{label}» não está prevista para a infração {code} neste caso: a decisão "
            "só aplica as penalidades que o catálogo e as regras de reincidência nomeiam.",
            "Art. 24, I; Art. 26; Art. 27"))
    return problems


def requalification_problems(current: InfractionType, new: InfractionType, on: date,
                             current_upfm: Decimal) -> list[Problem]:
    """A partial decision requalifies to another catalogue code in force on the date of the infraction, whose
    Art. 25 amount then applies; "mantido em parte" never raises the fine (Art. 25; Art. 22)."""
    problems = []
    if normalize_code(new.code) == normalize_code(current.code):
        problems.append(Problem("requalified_code", f"Escolha um código diferente do atual ({current.code}).",
                                "Art. 25"))
    elif not new.in_force(on):
        problems.append(Problem("requalified_code", f"O código {new.code} não estava em vigor em "
                                f"{on:%d/%m/%Y}, data da infração.", "Art. 26"))
    elif Decimal(new.upfm) > Decimal(current_upfm):
        problems.append(Problem("requalified_code", f"A requalificação para {new.code} ({new.severity.label}, "
                                f"{new.upfm} UPFM) aumentaria a multa em vigor ({Decimal(current_upfm).normalize():f}"
                                " UPFM): o auto mantido em parte não agrava a multa.", new.severity.article))
    return problems


# ---------------------------------------------------------------------------------------------------------
# The penalties a decree code names (Art. 29; Art. 24, I): chosen by the gestor from this list when the code is
# created or replaced, stored with the code, the only ones a decision on it may apply (besides the fine).
# ---------------------------------------------------------------------------------------------------------

DECREE_PENALTY_KINDS: tuple[Penalty, ...] = (
    Penalty.SUSPENSION, Penalty.REVOCATION, Penalty.DRIVER_DEREGISTRATION, Penalty.CASSATION,
    Penalty.VEHICLE_DEREGISTRATION,
)
"""The penalties of Art. 24, I a decree code may name (the fine, Art. 24, I, a, always applies: Art. 25)."""

DECREE_SUSPENSION_MONTHS = 12
"""Art. 24, parágrafo único: the suspension removes driver and vehicle for 12 months."""


@dataclass(frozen=True, slots=True)
class DecreePenaltyKind:
    """One line of the list a gestor chooses from: the penalty, its label and the article it cites."""

    penalty: str
    label: str
    article: str

    @property
    def text(self) -> str:
        return f"{self.label} ({self.article})"


def decree_penalty_kinds() -> tuple[DecreePenaltyKind, ...]:
    """The penalty kinds a decree code may name, each with the article of Art. 24 it cites: suspension for 12
    months (Art. 24, I, b and parágrafo único), revocation (I, c), deregistration of the driver (I, d),
    cassation (I, e), deregistration of the vehicle (I, f)."""
    kinds = []
    for penalty in DECREE_PENALTY_KINDS:
        label, article = penalty.label, penalty.article
        if penalty is Penalty.SUSPENSION:
            label = f"{label} por {DECREE_SUSPENSION_MONTHS} meses"
            article = f"{article}; Art. 24, parágrafo único"
        kinds.append(DecreePenaltyKind(penalty.value, label, article))
    return tuple(kinds)


def decree_option(code_article: str, penalty: str) -> PenaltyOption:
    """The option a decree code's penalty gives a decision: the code's article and that of Art. 24 for its kind
    ("Decreto nº 10/2026, art. 5º; Art. 24, I, c")."""
    kind = next(k for k in decree_penalty_kinds() if k.penalty == penalty)
    months = DECREE_SUSPENSION_MONTHS if penalty == Penalty.SUSPENSION.value else 0
    article = "; ".join(a for a in ((code_article or "").strip(), kind.article) if a)
    return PenaltyOption(penalty, article, months=months)


def decree_penalty_problems(code: str, penalties: Iterable[str], law_code: bool) -> list[Problem]:
    """What a gestor may not store as the penalties of a code: a kind not in `decree_penalty_kinds` (Art. 24,
    I), a repeated kind, or any penalty on a code of the law itself, whose penalties the law fixes (Art. 26-27;
    a replacement of a law code changes its text and dates, never its penalties)."""
    chosen = [str(p) for p in penalties]
    allowed = {k.penalty for k in decree_penalty_kinds()}
    problems = []
    if law_code and chosen:
        problems.append(Problem("penalties", f"As penalidades de {normalize_code(code)} são as da Lei (Art. 26 e "
                                "27): um código da Lei não recebe outras.", "Art. 26; Art. 27"))
        return problems
    unknown = sorted(set(chosen) - allowed)
    if unknown:
        problems.append(Problem("penalties", "Penalidade desconhecida: " + ", ".join(unknown)
                                + ". Escolha entre as do Art. 24, I.", "Art. 24, I"))
    if len(set(chosen)) != len(chosen):
        problems.append(Problem("penalties", "Cada penalidade é escolhida uma só vez.", "Art. 24, I"))
    return problems


def decree_entry(code: str, article: str, description: str, severity: Severity, penalties: Iterable[str] = (),
                 valid_from: date | None = None, valid_until: date | None = None) -> InfractionType:
    """The domain entry of a decree code (Art. 29) naming `penalties` (in the order of `DECREE_PENALTY_KINDS`):
    its flags make `assess` propose them and `penalty_options` offer them, each citing its own article."""
    names = {str(p) for p in penalties}
    ordered = tuple(p.value for p in DECREE_PENALTY_KINDS if p.value in names)
    return InfractionType(
        code=normalize_code(code), article=article, description=description, severity=severity,
        legal_text=description, valid_from=valid_from, valid_until=valid_until,
        suspension_months=DECREE_SUSPENSION_MONTHS if Penalty.SUSPENSION.value in names else 0,
        revocation=Penalty.REVOCATION.value in names, cassation=Penalty.CASSATION.value in names,
        driver_deregistration=Penalty.DRIVER_DEREGISTRATION.value in names,
        vehicle_deregistration=Penalty.VEHICLE_DEREGISTRATION.value in names,
        decree_penalties=ordered,
    )


def decree_penalties_text(code_article: str, penalties: Iterable[str]) -> str:
    """"Revogação da autorização (Decreto …; Art. 24, I, c); …" — the catalogue's column; "" when none."""
    names = {str(p) for p in penalties}
    return "; ".join(decree_option(code_article, p.value).text for p in DECREE_PENALTY_KINDS if p.value in names)
