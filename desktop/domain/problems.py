"""The one shape every validator returns (STYLE: Beancount's validators return problems, they do not raise)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with a field, said in Portuguese, with the article that makes it wrong.

    field: the name of the field (identifier, English, as in the model/draft), e.g. "cpf", "doors".
    message: the Portuguese sentence shown next to the field.
    article: the legal basis, e.g. "Art. 2, §1" (empty when it is a format rule, such as a CPF check digit).
    """

    field: str
    message: str
    article: str = ""

    def __str__(self) -> str:
        return f"{self.message} ({self.article})" if self.article else self.message
