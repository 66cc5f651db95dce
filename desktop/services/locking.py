"""Optimistic locking (SPEC §4): a save made on an old copy of a record is refused."""
from __future__ import annotations

from desktop.errors import StaleRecordError


def check_version(obj, expected_version: int | None) -> None:
    """Refuse a save made on an old copy of the record (optimistic locking; SPEC §4).

    The screen sends the version it loaded; when the row moved on since, StaleRecordError tells the user to
    reload. The UPDATE itself is also guarded by `version_id_col`, so a race after this check still fails.
    """
    if expected_version is None:
        raise ValueError("check_version precisa da versão lida pela tela")
    if getattr(obj, "version", None) != expected_version:
        raise StaleRecordError()
