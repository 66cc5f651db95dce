"""Exports of the trips (issue 22 point 4): the file is written after the read and outside any write transaction;
the access log and the audit entry go in one short write (no write lock held while a disk writes), and the file
takes its name only after that entry is committed (issue 25, services.exports.write_audited)."""
from __future__ import annotations

from registry_factories import desk  # noqa: F401
from sqlalchemy import select

from desktop.models import AuditEntry
from desktop.services import exports
from desktop.services.trips.queries import STATISTICS_HEADERS
from desktop.services import trips as svc


def _watch_writes(monkeypatch, db) -> list[bool]:
    """Record, for each file the one exports writer (services.exports.write_audited, issue 25) writes, whether a
    write transaction was open in this thread at that moment."""
    seen: list[bool] = []
    real = exports.write_csv

    def write_csv(path, *args, **kwargs):
        seen.append(bool(getattr(db._local, "writing", False)))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(exports, "write_csv", write_csv)
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
    assert out.read_text(encoding="utf-8").splitlines()[0] == ",".join(STATISTICS_HEADERS)
    assert _audited(db, "trips.export_statistics") == 1
