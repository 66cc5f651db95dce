"""The inspection (vistoria, Art. 9, 15, 16): kinds, the checklist of SPEC §3 and the terms that follow it."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from types import MappingProxyType

from desktop.domain import law
from desktop.domain.dates import BusinessCalendar, deadline
from desktop.domain.problems import Problem


class InspectionKind(StrEnum):
    INITIAL = "initial"              # after approval, within 5 days (Art. 9)
    ANNUAL = "annual"                # Art. 16, caput
    EXTRAORDINARY = "extraordinary"  # on notification (Art. 16, §1)
    SUBSTITUTION = "substitution"    # new vehicle (Art. 8, §2)
    REINSPECTION = "reinspection"    # after a failure (Art. 16, §2)

    @property
    def label(self) -> str:
        return _KIND_LABELS[self][0]

    @property
    def article(self) -> str:
        return _KIND_LABELS[self][1]


_KIND_LABELS = {
    InspectionKind.INITIAL: ("Inicial", "Art. 9"),
    InspectionKind.ANNUAL: ("Anual", "Art. 16, caput"),
    InspectionKind.EXTRAORDINARY: ("Extraordinária", "Art. 16, §1"),
    InspectionKind.SUBSTITUTION: ("Substituição de veículo", "Art. 8, §2"),
    InspectionKind.REINSPECTION: ("Revistoria", "Art. 16, §2"),
}


@dataclass(frozen=True, slots=True)
class InspectionItem:
    """One line the inspector checks (pass/fail)."""

    key: str
    label: str
    article: str


INSPECTION_CHECKLIST: tuple[InspectionItem, ...] = (
    InspectionItem("original_features", "Mantém as características originais de fábrica, em perfeito estado de "
                   "conservação, funcionamento e segurança", "Art. 15, parágrafo único, I"),
    InspectionItem("mandatory_equipment", "Possui os equipamentos obrigatórios da legislação de trânsito",
                   "Art. 15, parágrafo único, II"),
    InspectionItem("ctb_requirements", "Satisfaz as exigências do Código de Trânsito Brasileiro",
                   "Art. 15, parágrafo único, III"),
    InspectionItem("compulsory_insurance", "Seguro obrigatório (DPVAT) quitado", "Art. 15, parágrafo único, IV"),
    InspectionItem("air_conditioning", "Ar-condicionado funcionando", "Art. 2, §1; Art. 15, parágrafo único, V"),
    InspectionItem("four_doors", "Quatro portas", "Art. 2, §1"),
    InspectionItem("capacity", "Capacidade de até 7 pessoas, incluindo o condutor", "Art. 2, caput"),
    InspectionItem("fee_paid", "Taxa do Código Tributário Municipal recolhida", "Art. 15, parágrafo único, VII"),
    InspectionItem("registered_in_municipality", "Emplacado em Chapada dos Guimarães-MT",
                   "Art. 15, parágrafo único, VIII"),
    InspectionItem("hygiene", "Veículo em perfeitas condições de higiene e limpeza", "Art. 13, XIII"),
    InspectionItem("no_damage", "Sem avarias na parte externa e interna", "Art. 13, XIV"),
    InspectionItem("no_external_stickers", "Sem adesivos publicitários ou da plataforma na parte externa",
                   "Art. 13, XV"),
    InspectionItem("municipal_sticker", "Adesivo do Município afixado no painel, lado direito", "Art. 14"),
)
"""The inspection checklist of SPEC §3 (Art. 2 §1, Art. 13 XIII-XV, Art. 14, Art. 15 parágrafo único I-VIII)."""

INSPECTION_ITEMS_BY_KEY: Mapping[str, InspectionItem] = MappingProxyType({i.key: i for i in INSPECTION_CHECKLIST})


def inspection_problems(results: Mapping[str, bool], required: tuple[str, ...] | None = None) -> list[Problem]:
    """The failed or unchecked lines of an inspection; an empty list means approved.

    results: {item key: passed}. required: the keys that must be checked (default: every line except the
    municipal sticker, which is handed out after the approval of the initial inspection, Art. 14).
    """
    keys = required if required is not None else tuple(i.key for i in INSPECTION_CHECKLIST
                                                         if i.key != "municipal_sticker")
    problems: list[Problem] = []
    for item in INSPECTION_CHECKLIST:
        if item.key not in keys and item.key not in results:
            continue
        passed = results.get(item.key)
        if passed is None:
            problems.append(Problem(item.key, f"Item não verificado: {item.label}.", item.article))
        elif not passed:
            problems.append(Problem(item.key, f"Reprovado: {item.label}.", item.article))
    unknown = set(results) - set(INSPECTION_ITEMS_BY_KEY)
    for key in sorted(unknown):
        problems.append(Problem(key, f"Item de vistoria desconhecido: {key}."))
    return problems


def presentation_deadline(approved_on: date, calendar: BusinessCalendar) -> date:
    """Last day to present the vehicle for inspection after the approval of the request (Art. 9: 5 days)."""
    return deadline(approved_on, law.INSPECTION_PRESENTATION_DAYS, calendar)


def regularization_deadline(failed_on: date, calendar: BusinessCalendar) -> date:
    """Last day to regularize after a failed inspection; meanwhile the vehicle may not serve (Art. 16, §2)."""
    return deadline(failed_on, law.REGULARIZATION_DAYS, calendar)
