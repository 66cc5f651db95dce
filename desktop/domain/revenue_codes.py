"""The código da receita of each kind of debt a DAM collects (issue 28 point 4): the municipal revenue code under
which the Tesouraria books the money — one per purpose, configured by the municipality (Administração →
Município). Pure Python.

The law does not give the codes (they come from the municipality's chart of revenues, the Código Tributário
Municipal and its accounting plan), so there is no default: while a code is empty the DAM prints
`NOT_CONFIGURED` beside the line, as the fees and the late charges have no invented value either. The barcode
(FEBRABAN segment 1) does not carry the code, so the guide remains payable; the mark tells the desk to set it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from desktop.domain.problems import Problem

__all__ = ["FIELDS", "MAX_LENGTH", "NOT_CONFIGURED", "REVENUE_CODES", "RevenueCode", "revenue_code_problems",
           "revenue_key"]

MAX_LENGTH = 20
NOT_CONFIGURED = "não configurado"
_CODE = re.compile(r"^[0-9A-Za-z]+([.\-/ ][0-9A-Za-z]+)*$")   # 1.1.2.1.01.00, 1121.01-3, 4120 0101


@dataclass(frozen=True, slots=True)
class RevenueCode:
    field: str      # the settings' column
    label: str      # the form's label, in Portuguese
    article: str    # the article of the debt the code books


# The kinds of debt of a DAM (desktop.models.finance GUIDE_PURPOSES and FEE_KINDS), in the form's order.
REVENUE_CODES = (
    RevenueCode("revenue_code_fee_authorization", "Taxa de autorização", "Art. 10"),
    RevenueCode("revenue_code_fee_renewal", "Taxa de renovação", "Art. 10"),
    RevenueCode("revenue_code_fee_inspection", "Taxa de vistoria", "Art. 15, VII"),
    RevenueCode("revenue_code_fine", "Multa (Art. 25)", "Art. 25"),
    RevenueCode("revenue_code_issqn", "ISSQN (Art. 11)", "Art. 11"),
    RevenueCode("revenue_code_costs", "Custas (Art. 28)", "Art. 28"),
)
FIELDS = tuple(code.field for code in REVENUE_CODES)
_FEE_FIELDS = {"authorization": "revenue_code_fee_authorization", "renewal": "revenue_code_fee_renewal",
               "inspection": "revenue_code_fee_inspection"}
_PURPOSE_FIELDS = {"fine": "revenue_code_fine", "issqn": "revenue_code_issqn", "cost": "revenue_code_costs",
                   "costs": "revenue_code_costs"}


def revenue_key(purpose: str, fee_kind: str | None = None) -> str | None:
    """The settings' field holding the code of a debt: a fee by its kind (authorization, renewal, inspection), a
    fine, the ISSQN share or the Art. 28 costs; None for a kind with no code of its own (a fee of kind "other")."""
    if purpose == "fee":
        return _FEE_FIELDS.get(fee_kind or "")
    return _PURPOSE_FIELDS.get(purpose)


def revenue_code_problems(codes) -> list[Problem]:
    """`codes`: ((field, text), ...). Each code is optional; a code typed has digits and letters, separated by
    dots, hyphens, slashes or spaces, at most MAX_LENGTH characters."""
    labels = {code.field: code for code in REVENUE_CODES}
    problems: list[Problem] = []
    for field, text in codes:
        spec = labels.get(field)
        if spec is None:
            problems.append(Problem("revenue_codes", f"Código da receita desconhecido: {field}."))
            continue
        value = (text or "").strip()
        if not value:
            continue
        if len(value) > MAX_LENGTH:
            problems.append(Problem(field, f"Código da receita ({spec.label}): no máximo {MAX_LENGTH} caracteres.",
                                    spec.article))
        elif not _CODE.match(value):
            problems.append(Problem(field, f"Código da receita ({spec.label}): use dígitos e letras, separados por "
                                           "ponto ou hífen (ex.: 1.1.2.1.01.00).", spec.article))
    return problems
