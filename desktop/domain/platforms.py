"""The platforms' lists (Art. 5, VIII) against the register (Art. 6, 8, 13 XIX): pure reconciliation."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from desktop.domain.documents import format_cpf, format_plate, mercosul_equivalent
from desktop.domain.text import only_digits


class DiscrepancyKind(StrEnum):
    NOT_AUTHORIZED = "not_authorized"  # on a list without an active authorization (Art. 3, 6)
    PAIR_MISMATCH = "pair_mismatch"    # plate-driver pair differs from the authorization (Art. 8, 13 XIX)
    NOT_LISTED = "not_listed"          # an authorized driver on no platform's list (Art. 5, VIII)

    @property
    def label(self) -> str:
        return _KIND_LABELS[self][0]

    @property
    def article(self) -> str:
        return _KIND_LABELS[self][1]


_KIND_LABELS = {
    DiscrepancyKind.NOT_AUTHORIZED: ("Na lista sem autorização ativa", "Art. 3; Art. 6"),
    DiscrepancyKind.PAIR_MISMATCH: ("Placa e condutor diferentes da autorização", "Art. 8; Art. 13, XIX"),
    DiscrepancyKind.NOT_LISTED: ("Condutor autorizado fora das listas", "Art. 5, VIII"),
}


@dataclass(frozen=True, slots=True)
class Discrepancy:
    kind: DiscrepancyKind
    plate: str           # as listed (or as authorized, for NOT_LISTED), normal form
    cpf: str             # digits
    authorized_plate: str = ""
    authorized_cpf: str = ""

    @property
    def message(self) -> str:
        who = f"condutor {format_cpf(self.cpf)}, placa {format_plate(self.plate)}"
        if self.kind is DiscrepancyKind.NOT_AUTHORIZED:
            return f"Listado sem autorização ativa: {who}."
        if self.kind is DiscrepancyKind.NOT_LISTED:
            return f"Autorizado, mas fora das listas das plataformas: {who}."
        expected = []
        if self.authorized_plate:
            expected.append(f"o condutor está autorizado com a placa {format_plate(self.authorized_plate)}")
        if self.authorized_cpf:
            expected.append(f"a placa está autorizada para o condutor {format_cpf(self.authorized_cpf)}")
        return f"Par diferente da autorização: {who}; " + " e ".join(expected) + "."

    @property
    def article(self) -> str:
        return self.kind.article


def _plate_key(plate: str) -> str:
    return mercosul_equivalent(plate)


def reconcile(authorized: Iterable[tuple[str, str]], listed: Iterable[tuple[str, str]]) -> list[Discrepancy]:
    """Compare the (plate, CPF) pairs of active authorizations with the pairs the platforms listed.

    Plates compare in Mercosul form (ABC-1234 is ABC1C34), CPFs by their digits. Returns every discrepancy:
    listed without authorization, listed with a pair that differs from the authorization, and authorized drivers
    on no list (pass the union of all platforms' lists for that one).
    """
    by_plate: dict[str, str] = {}
    by_cpf: dict[str, str] = {}
    for plate, cpf in authorized:
        by_plate[_plate_key(plate)] = only_digits(cpf)
        by_cpf[only_digits(cpf)] = _plate_key(plate)
    found: list[Discrepancy] = []
    seen: set[tuple[str, str]] = set()
    listed_cpfs: set[str] = set()
    for plate, cpf in listed:
        pair = (_plate_key(plate), only_digits(cpf))
        if pair in seen:
            continue
        seen.add(pair)
        key, digits = pair
        listed_cpfs.add(digits)
        if by_plate.get(key) == digits:
            continue
        if key not in by_plate and digits not in by_cpf:
            found.append(Discrepancy(DiscrepancyKind.NOT_AUTHORIZED, key, digits))
        else:
            found.append(Discrepancy(DiscrepancyKind.PAIR_MISMATCH, key, digits,
                                     authorized_plate=by_cpf.get(digits, ""), authorized_cpf=by_plate.get(key, "")))
    for digits, key in by_cpf.items():
        if digits not in listed_cpfs:
            found.append(Discrepancy(DiscrepancyKind.NOT_LISTED, key, digits))
    return found
