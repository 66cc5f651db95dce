"""The roles of the secretariat's staff (SPEC §1). A user may hold several."""
from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    ATENDENTE = "atendente"          # front desk: registrations, requests, payments
    VISTORIADOR = "vistoriador"      # inspections (Art. 9, 16)
    FISCAL = "fiscal"                # autos de infração (Art. 17-23)
    GESTOR = "gestor"                # decisions: approvals, judgments, cancellations, parameters
    ADMINISTRADOR = "administrador"  # users, backups, settings

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Role.ATENDENTE: "Atendente",
    Role.VISTORIADOR: "Vistoriador",
    Role.FISCAL: "Fiscal",
    Role.GESTOR: "Gestor",
    Role.ADMINISTRADOR: "Administrador",
}
