"""`Database.bulk_session` (issue 22 point 4): the one transaction of a bulk load — the demonstration data and a
trip file. All or nothing; on SQLite the per-row foreign-key checks are off and `PRAGMA foreign_key_check` runs
once before the commit; the indexes asked for are the models' own, dropped and rebuilt from their definitions."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select, text

from desktop.models import Platform
from desktop.models.platforms import TripRow

MONTH_INDEX = next(i for i in TripRow.__table__.indexes if i.name == "ix_trip_rows_month")


def _index_sql(db) -> str | None:
    with db.session(write=False) as s:
        return s.execute(text("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = :n"),
                         {"n": MONTH_INDEX.name}).scalar()


def _platforms(db) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(Platform))


def _platform(name: str) -> Platform:
    return Platform(legal_name=name, trade_name=name, cnpj="11222333000181" if name == "A" else "11444777000161")


def test_commits_the_block_and_rolls_it_back_whole_on_an_error(db):
    with db.bulk_session() as s:
        s.add(_platform("A"))
    assert _platforms(db) == 1
    with pytest.raises(ZeroDivisionError):
        with db.bulk_session() as s:
            s.add(_platform("B"))
            s.flush()
            1 / 0
    assert _platforms(db) == 1


def test_a_write_session_inside_it_is_refused_at_once(db):
    with pytest.raises(RuntimeError, match="dentro de outra"):
        with db.bulk_session():
            with db.session():
                pass


def test_sqlite_an_orphan_row_is_found_before_the_commit_and_nothing_is_stored(db):
    if not db.is_sqlite:
        pytest.skip("PostgreSQL checks every reference row by row")
    with pytest.raises(RuntimeError, match="referências quebradas"):
        with db.bulk_session(check_fks=True) as s:
            s.add(_platform("A"))
            s.execute(text("INSERT INTO trip_rows (platform_id, external_id, started_at, month) "
                           "VALUES (999999, 'X1', '2026-11-02 10:00:00.000000', 202611)"))
    assert _platforms(db) == 0
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(TripRow)) == 0
        assert s.execute(text("PRAGMA foreign_keys")).scalar() == 1   # set back on for the next user


def test_sqlite_the_models_index_is_dropped_for_the_block_and_rebuilt_as_the_migration_made_it(db):
    if not db.is_sqlite:
        pytest.skip("indexes are rebuilt on SQLite only")
    made_by_migration = _index_sql(db)
    assert made_by_migration is not None
    seen, rebuilt = [], []
    with db.bulk_session(rebuild=[MONTH_INDEX], rebuild_if=lambda s: True,
                         on_rebuild=lambda: rebuilt.append(True)) as s:
        seen.append(s.execute(text("SELECT count(*) FROM sqlite_master WHERE name = :n"),
                              {"n": MONTH_INDEX.name}).scalar())
    assert seen == [0] and rebuilt == [True]
    assert _index_sql(db) == made_by_migration
    with db.bulk_session(rebuild=[MONTH_INDEX], rebuild_if=lambda s: False,
                         on_rebuild=lambda: rebuilt.append(False)) as s:
        seen.append(s.execute(text("SELECT count(*) FROM sqlite_master WHERE name = :n"),
                              {"n": MONTH_INDEX.name}).scalar())
    assert seen == [0, 1] and rebuilt == [True]


def test_sqlite_a_failed_block_leaves_the_dropped_index_in_place(db):
    if not db.is_sqlite:
        pytest.skip("indexes are rebuilt on SQLite only")
    before = _index_sql(db)
    with pytest.raises(ZeroDivisionError):
        with db.bulk_session(rebuild=[MONTH_INDEX]):
            1 / 0
    assert _index_sql(db) == before
