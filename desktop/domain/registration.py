"""The registration status of a driver or a vehicle in the municipal register, with the one word users read for it
on screen, on paper and in exports (issue 12 item 13: one word per status everywhere). Descadastramento is the
penalty of Art. 24, I, d."""
from __future__ import annotations

from enum import StrEnum


class RegistrationStatus(StrEnum):
    ACTIVE = "active"
    DEREGISTERED = "deregistered"   # Art. 24, I, d

    @property
    def label(self) -> str:
        return REGISTRATION_LABELS[self.value]


REGISTRATION_LABELS = {"active": "Cadastrado", "deregistered": "Descadastrado"}
