"""Issue 11, attack 1: forge the audit log. An appended entry with its hash recomputed, the newest entries
deleted, an old entry changed with every later one re-chained — and the stored checkpoints removed with the tail
— are all found by `audit verify` once the head is anchored in signed checkpoints."""
from __future__ import annotations

from sqlalchemy import select

from desktop.models import AuditEntry
from desktop.services import audit
from desktop.services import checkpoints
from desktop.services.actors import SYSTEM_ACTOR

from tests.security.conftest import tamper


def _entries(db, n, label="x"):
    for i in range(n):
        with db.session() as s:
            audit.record(s, SYSTEM_ACTOR, "update", "driver", i + 1, {"v": i}, {"v": f"{label}{i}"})


def _rows(db):
    with db.session(write=False) as s:
        return s.execute(select(AuditEntry).order_by(AuditEntry.id)).scalars().all()


def _rechain_from(db, start_id, change=None):
    """Recompute every hash from `start_id` on, as a forger with the table would (optionally changing one)."""
    rows = _rows(db)
    prev = audit.GENESIS
    statements = []
    for e in rows:
        after = e.after
        if change and e.id == change[0]:
            after = change[1]
        if e.id >= start_id:
            fields = audit._fields(e.at, e.user_id, e.username, e.action, e.entity, e.entity_id, e.before, after)
            new_hash = audit._entry_hash(prev, fields)
            quoted = after.replace("'", "''") if after is not None else None
            statements.append(
                f"UPDATE audit_entries SET prev_hash = '{prev}', hash = '{new_hash}'"
                + (f", after = '{quoted}'" if change and e.id == change[0] else "") + f" WHERE id = {e.id}")
            prev = new_hash
        else:
            prev = e.hash
    # hash is UNIQUE: move every rewritten row out of the way first
    tamper(db, *[f"UPDATE audit_entries SET hash = 'tmp{e.id}' WHERE id = {e.id}" for e in rows if e.id >= start_id],
           *statements)


def test_issue11_attack1_untouched_chain_with_checkpoint_is_integro(db, configured):
    _entries(db, 5)
    cp = checkpoints.make_checkpoint(db, configured)
    check = audit.verify(db)
    assert check.ok and check.checkpoints == 1, check.reason
    assert "ponto(s) de verificação" in check.reason
    assert cp.line.startswith("TPAV1|") and audit.parse_checkpoint(cp.line) == audit.parse_checkpoint(cp.line)
    with db.session(write=False) as s:
        assert audit.latest_checkpoint_short_hash(s) == cp.short_hash


def test_issue11_attack1_changed_entry_rechained_after_is_reported_as_rechained_stretch(db, configured):
    _entries(db, 6)
    checkpoints.make_checkpoint(db, configured)
    target = _rows(db)[3].id
    _rechain_from(db, target, change=(target, '{"v":"forjado"}'))
    check = audit.verify(db)
    assert not check.ok and check.problem == "rechained", check.reason
    # issue 25 item 10: the checkpoint's own entry lists the short hashes it closed, so the report names the
    # entry where the re-chain began (not the whole stretch since the last confirmed checkpoint)
    assert check.first_broken_id == target
    assert f"Entrada {target}: é a primeira" in check.reason and "reencadeadas" in check.reason


def test_issue25_item10_owner_rechain_names_the_changed_entry_among_eighty(db, configured):
    """'audit verify after an owner re-chain reports "da nº 1 à nº 80" though the edit was in entry 5'."""
    _entries(db, 80)
    checkpoints.make_checkpoint(db, configured)
    rows = _rows(db)
    target = next(e.id for e in rows if e.action == "update" and e.after == '{"v":"x4"}')
    _rechain_from(db, target, change=(target, '{"v":"forjado"}'))
    check = audit.verify(db)
    assert not check.ok and check.problem == "rechained" and check.first_broken_id == target, check.reason


def test_issue25_item10_a_rechain_that_also_rewrites_the_checkpoints_entry_still_reports_the_stretch(db, configured):
    """The list is believed only when the checkpoint's own entry is the one signed: a forger who rewrites it too
    gets the stretch reported (from the previous checkpoint), never a wrong entry."""
    _entries(db, 6)
    cp = checkpoints.make_checkpoint(db, configured)
    target = _rows(db)[3].id
    _rechain_from(db, target, change=(cp.last_id, '{"day":"2026-01-01","hashes":{"first":1,"prev":"00","h12":""}}'))
    check = audit.verify(db)
    assert not check.ok and check.problem == "rechained", check.reason
    assert check.first_broken_id == _rows(db)[0].id and "da nº" in check.reason


def test_issue11_attack1_changed_entry_without_rechaining_names_the_entry(db, configured):
    _entries(db, 4)
    target = _rows(db)[2].id
    tamper(db, f"UPDATE audit_entries SET after = '{{\"v\":\"forjado\"}}' WHERE id = {target}")
    check = audit.verify(db)
    assert not check.ok and check.problem == "changed" and check.first_broken_id == target
    assert "alterada" in check.reason


def test_issue11_attack1_removed_entry_in_the_middle_is_found(db, configured):
    _entries(db, 5)
    target = _rows(db)[3].id
    tamper(db, f"DELETE FROM audit_entries WHERE id = {target}")
    check = audit.verify(db)
    assert not check.ok and check.problem == "removed" and check.first_broken_id == target + 1


def test_issue11_attack1_removed_checkpointed_entry_with_rechain_is_found(db, configured):
    cp = checkpoints.make_checkpoint(db, configured)
    _entries(db, 2)
    tamper(db, f"DELETE FROM audit_entries WHERE id = {cp.last_id}")
    _rechain_from(db, cp.last_id + 1)
    check = audit.verify(db)
    assert not check.ok and check.problem == "removed" and check.first_broken_id == cp.last_id


def test_issue11_attack1_removed_tail_is_found(db, configured):
    _entries(db, 3)
    cp = checkpoints.make_checkpoint(db, configured)
    tamper(db, f"DELETE FROM audit_entries WHERE id >= {cp.last_id - 1}")
    check = audit.verify(db)
    assert not check.ok and check.problem == "tail_removed", check.reason
    assert check.first_broken_id == cp.last_id - 1
    assert "final do registro foi removido" in check.reason


def test_issue11_attack1_appended_entry_is_allowed_but_a_forged_checkpoint_is_not(db, configured):
    _entries(db, 2)
    cp = checkpoints.make_checkpoint(db, configured)
    forged = cp.line.replace(f"|{cp.entry_count}|", f"|{cp.entry_count + 1}|", 1)
    check = audit.verify(db, against=audit.parse_checkpoint(forged))
    assert not check.ok and check.problem == "checkpoint_signature"
    tamper(db, f"UPDATE audit_checkpoints SET entry_count = entry_count - 1 WHERE id = {cp.id}")
    check = audit.verify(db)
    assert not check.ok and check.problem == "checkpoint_signature" and check.first_broken_id == cp.last_id


def test_issue11_attack1_tail_and_stored_checkpoints_removed_still_show_against_the_published_one(db, configured):
    _entries(db, 3)
    published = checkpoints.make_checkpoint(db, configured).line
    _entries(db, 2, label="y")
    tamper(db, "DELETE FROM audit_checkpoints", f"DELETE FROM audit_entries WHERE id >= {_rows(db)[-4].id}")
    assert audit.verify(db).ok   # nothing stored to compare with any more...
    check = audit.verify(db, against=audit.parse_checkpoint(published))
    assert not check.ok and check.problem == "tail_removed", check.reason   # ...but the published head shows it


def test_issue11_daily_checkpoint_is_made_once_a_day(db, configured):
    from datetime import date

    first = checkpoints.daily_checkpoint(db, date(2026, 12, 1))
    assert first is not None and first.made_by == SYSTEM_ACTOR.username
    assert checkpoints.daily_checkpoint(db, date(2026, 12, 1)) is None
    assert checkpoints.daily_checkpoint(db, date(2026, 12, 2)) is not None
    assert audit.verify(db).checkpoints == 2


def test_issue11_only_a_gestor_signs_a_checkpoint_on_demand(db, configured, make_actor):
    import pytest

    from desktop.domain.roles import Role
    from desktop.errors import PermissionDenied

    with pytest.raises(PermissionDenied):
        checkpoints.make_checkpoint(db, make_actor(Role.ATENDENTE))


def test_issue11_the_routine_of_the_day_signs_the_head_of_the_chain(db, configured):
    """The routine of the day (services.daily, run after every login and when the day turns) makes the day's
    checkpoint, so a desk that only logs in every morning still anchors the chain."""
    from datetime import date

    from desktop.services.daily import run_daily_jobs

    report = run_daily_jobs(db, date(2026, 12, 3))
    assert report.checkpoint_made and "Ponto de verificação" in report.describe()
    assert audit.latest_checkpoint(db).day == date(2026, 12, 3)
    assert run_daily_jobs(db, date(2026, 12, 3)).checkpoint_made is False   # once a day
