"""The driver's checklist (Art. 12, I-IX and §1; Art. 8, §1, I-II): what must be presented and checked before
approval. A missing or expired item blocks approval and names its article (SPEC §3 "Driver")."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from types import MappingProxyType

from desktop.domain import law
from desktop.domain.dates import add_months_clamped
from desktop.domain.problems import Problem
from desktop.domain.text import same_place


class ItemKind(StrEnum):
    DOCUMENT = "document"    # a paper the driver presents (may expire)
    CONDITION = "condition"  # a fact the office verifies (no conviction, no gravíssima infraction)


@dataclass(frozen=True, slots=True)
class ChecklistItem:
    """One line of the driver's checklist, for the screen and the rules alike.

    key: the identifier (also the Problem's field); label: Portuguese text of the line; article: its basis;
    has_expiry: the document has a validity date that must be informed and not past; kind: document or condition.
    """

    key: str
    label: str
    article: str
    has_expiry: bool
    kind: ItemKind = ItemKind.DOCUMENT
    document_label: str = ""


DRIVER_CHECKLIST: tuple[ChecklistItem, ...] = (
    ChecklistItem("cnh", "CNH categoria B ou superior, com a observação \"exerce atividade remunerada\" (EAR)",
                  "Art. 12, I", True, document_label="CNH"),
    ChecklistItem("commitment", "Compromisso de prestar o serviço exclusivamente por plataforma tecnológica",
                  "Art. 12, II", False, document_label="Termo de compromisso assinado"),
    ChecklistItem("inss", "Inscrição como contribuinte individual do INSS", "Art. 12, III", False,
                  document_label="Comprovante de inscrição no INSS (NIT)"),
    ChecklistItem("criminal_record", "Certidão negativa de antecedentes criminais dentro do prazo de validade",
                  "Art. 12, IV", True, document_label="Certidão negativa de antecedentes criminais"),
    ChecklistItem("medical_certificate", "Atestado médico de que não é portador de moléstia que o inabilite",
                  "Art. 12, V", False, document_label="Atestado médico"),
    ChecklistItem("residence_proof", "Comprovante de residência no Município", "Art. 12, VI", False,
                  document_label="Comprovante de residência"),
    ChecklistItem("no_gravissima", "Nenhuma infração de trânsito gravíssima nos 12 meses anteriores ao protocolo",
                  "Art. 12, VII", False, ItemKind.CONDITION, "Extrato de pontuação da CNH"),
    ChecklistItem("no_conviction", "Sem condenação ou antecedentes pelos crimes do Art. 12, VIII",
                  "Art. 12, VIII", False, ItemKind.CONDITION, "Certidão negativa de antecedentes criminais"),
    ChecklistItem("app_insurance", "Seguro de Acidentes Pessoais a Passageiros (APP)", "Art. 12, IX", True,
                  document_label="Apólice de seguro APP"),
    ChecklistItem("no_traffic_crime", "Sem antecedentes ou condenação pelos crimes dos arts. 303 e 306 do CTB",
                  "Art. 12, §1", False, ItemKind.CONDITION, "Certidão negativa de antecedentes criminais"),
    ChecklistItem("tax_clearance", "Certidão negativa (ou positiva com efeitos de negativa) de débitos municipais",
                  "Art. 8, §1, II", True, document_label="Certidão de débitos municipais"),
)
"""The checklist lines in the order of the law (one line per item on the screen)."""

CHECKLIST_BY_KEY: Mapping[str, ChecklistItem] = MappingProxyType({i.key: i for i in DRIVER_CHECKLIST})


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the clerk recorded for one checklist line: presented (or verified) and, if it expires, until when."""

    present: bool = True
    valid_until: date | None = None


@dataclass(frozen=True)
class DriverFacts:
    """Everything the driver's checklist rules need, as plain values.

    protocol_date: the request (protocolo) date; Art. 12 VII looks 12 months back from it.
    documents: Evidence by checklist key (a key that is absent means "not presented"); condition items need no
        evidence entry: their facts are the fields below.
    cnh_category / cnh_ear: the category printed on the CNH and whether it has the EAR remark (Art. 12, I); the
        CNH's expiry is documents["cnh"].valid_until.
    gravissima_infractions: dates of the driver's gravíssima traffic infractions (Art. 12, VII).
    disqualifying_conviction: convicted of (or with record of) a crime listed in Art. 12, VIII.
    traffic_crime_conviction: the same for CTB arts. 303 or 306 (Art. 12, §1).
    residence_municipality: the municipality of the proof of residence, when known (Art. 12, VI).
    """

    protocol_date: date
    documents: Mapping[str, Evidence] = field(default_factory=dict)
    cnh_category: str = ""
    cnh_ear: bool = False
    gravissima_infractions: tuple[date, ...] = ()
    disqualifying_conviction: bool = False
    traffic_crime_conviction: bool = False
    residence_municipality: str | None = None


def normalize_cnh_category(category: str | None) -> str:
    return "".join((category or "").split()).upper()


def is_accepted_cnh_category(category: str | None) -> bool:
    """Category B or higher (Art. 12, I): B, C, D, E and the combined AB, AC, AD, AE. A and ACC are refused."""
    return normalize_cnh_category(category) in law.ACCEPTED_CNH_CATEGORIES


PHOTO_ARTICLE = "Art. 13, I"
PHOTO_REQUIRED = "Escolha a foto do condutor: a credencial, pessoal e intransferível, não sai sem ela."


def photo_problem(has_photo: bool, required: bool) -> Problem | None:
    """Issue 28 point 7: the credential (Art. 13, I: "pessoal e intransferível") carries the driver's photo and is
    refused without it, so the desk's registration of a driver, and its edit while none is stored (the wizard),
    require it; records loaded by other means (imports, the demo) are refused at the credential instead."""
    if required and not has_photo:
        return Problem("photo", PHOTO_REQUIRED, PHOTO_ARTICLE)
    return None


def gravissima_window(protocol_date: date) -> tuple[date, date]:
    """The 12 months before the protocol date (Art. 12, VII), both ends included."""
    return add_months_clamped(protocol_date, -law.GRAVISSIMA_LOOKBACK_MONTHS), protocol_date


def driver_problems(facts: DriverFacts, on: date, home_municipality: str = law.HOME_MUNICIPALITY,
                    home_uf: str = law.HOME_UF) -> list[Problem]:
    """Every item of the driver's checklist that is missing, expired or failed on `on`, all at once, each with
    its field (the checklist key), a Portuguese message and its article."""
    problems: list[Problem] = []
    for item in DRIVER_CHECKLIST:
        if item.kind is ItemKind.DOCUMENT:
            problems.extend(_document_problems(item, facts.documents.get(item.key), on))
    # Art. 12, I: category B or higher and the EAR remark.
    if "cnh" in facts.documents and facts.documents["cnh"].present:
        category = normalize_cnh_category(facts.cnh_category)
        if not category:
            problems.append(Problem("cnh_category", "Informe a categoria da CNH.", "Art. 12, I"))
        elif not is_accepted_cnh_category(category):
            problems.append(Problem(
                "cnh_category", f"A CNH deve ser da categoria B ou superior; informada: {category}.", "Art. 12, I"))
        if not facts.cnh_ear:
            problems.append(Problem(
                "cnh_ear", "A CNH deve conter a observação \"exerce atividade remunerada\" (EAR).", "Art. 12, I"))
    # Art. 12, VI: the residence must be in the municipality.
    residence = facts.documents.get("residence_proof")
    if (residence is not None and residence.present and facts.residence_municipality is not None
            and not same_place(facts.residence_municipality, home_municipality)):
        problems.append(Problem(
            "residence_proof",
            f"O condutor deve residir em {home_municipality}-{home_uf}; o comprovante indica: "
            f"{facts.residence_municipality.strip() or 'não informado'}.",
            "Art. 12, VI"))
    # Art. 12, VII: no gravíssima traffic infraction in the 12 months before the protocol.
    start, end = gravissima_window(facts.protocol_date)
    inside = sorted(d for d in facts.gravissima_infractions if start <= d <= end)
    if inside:
        listed = ", ".join(f"{d:%d/%m/%Y}" for d in inside)
        problems.append(Problem(
            "no_gravissima",
            f"Infração de trânsito gravíssima nos 12 meses anteriores ao protocolo ({listed}).",
            "Art. 12, VII"))
    if facts.disqualifying_conviction:
        problems.append(Problem(
            "no_conviction", "O condutor tem condenação ou antecedentes por crime impeditivo.", "Art. 12, VIII"))
    if facts.traffic_crime_conviction:
        problems.append(Problem(
            "no_traffic_crime",
            "O condutor tem condenação ou antecedentes por crime de trânsito (CTB, arts. 303 ou 306).",
            "Art. 12, §1"))
    return problems


def _document_problems(item: ChecklistItem, evidence: Evidence | None, on: date) -> list[Problem]:
    name = item.document_label or item.label
    if evidence is None or not evidence.present:
        return [Problem(item.key, f"Falta: {name}.", item.article)]
    if not item.has_expiry:
        return []
    if evidence.valid_until is None:
        return [Problem(item.key, f"Informe a validade: {name}.", item.article)]
    if evidence.valid_until < on:
        return [Problem(item.key, f"Vencido em {evidence.valid_until:%d/%m/%Y}: {name}.", item.article)]
    return []


def checklist_status(facts: DriverFacts, on: date, home_municipality: str = law.HOME_MUNICIPALITY,
                     home_uf: str = law.HOME_UF) -> list[tuple[ChecklistItem, list[Problem]]]:
    """Each checklist line with its problems (an empty list means the line is satisfied), for drawing the list."""
    problems = driver_problems(facts, on, home_municipality, home_uf)
    owner = {"cnh_category": "cnh", "cnh_ear": "cnh"}
    return [(item, [p for p in problems if owner.get(p.field, p.field) == item.key]) for item in DRIVER_CHECKLIST]
