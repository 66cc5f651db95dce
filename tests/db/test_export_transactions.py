"""Exports of the trips (issue 22 point 4): the file is written after the read and outside any write transaction;
the access log and the audit entry go in one short write afterwards (no write lock held while a disk writes)."""
from __future__ import annotations

import csv
import importlib
import types

from registry_factories import desk  # noqa: F401
from sqlalchemy import select

from desktop.models import AuditEntry
from desktop.services import trips as svc

queries = importlib.import_module("desktop.services.trips.queries")


def _watch_writes(monkeypatch, db) -> list[bool]:
    """Record, for each CSV writer the export makes, whether a write transaction was open in this thread."""
    seen: list[bool] = []

    def writer(handle, *args, **kwargs):
        seen.append(bool(getattr(db._local, "writing", False)))
        return csv.writer(handle, *args, **kwargs)

    monkeypatch.setattr(queries, "csv", types.SimpleNamespace(writer=writer))
    return seen


def _audited(db, action: str) -> int:
    with db.session(write=False) as s:
        return len(s.scalars(select(AuditEntry).where(AuditEntry.action == action)).all())


def test_fares_file_is_written_outside_the_write_transaction_then_audited(db, desk, tmp_path, monkeypatch):
    seen = _watch_writes(monkeypatch, db)
    out = tmp_path / "tarifas.csv"
    assert svc.export_fares(db, desk.fiscal, "2026-11", out) == 0
    assert seen == [False]
    assert out.read_text(encoding="utf-8-sig").startswith("Competência;")
    assert _audited(db, "trips.export_fares") == 1


def test_statistics_file_is_written_outside_the_write_transaction_then_audited(db, desk, tmp_path, monkeypatch):
    seen = _watch_writes(monkeypatch, db)
    out = tmp_path / "estatisticas.csv"
    assert svc.export_statistics(db, desk.fiscal, out, 2026, 11) == 0
    assert seen == [False]
    assert out.read_text(encoding="utf-8").splitlines()[0] == ",".join(queries.STATISTICS_HEADERS)
    assert _audited(db, "trips.export_statistics") == 1
