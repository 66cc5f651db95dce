"""Issue 11, attack 4: guess passwords past the lock. Ten wrong passwords at the same moment: the account ends
locked, with exactly the attempts checked before the lock counted (five), on SQLite and PostgreSQL."""
from __future__ import annotations

import threading

from sqlalchemy import select

from desktop.domain.roles import Role
from desktop.errors import AccountLocked, AuthenticationError
from desktop.models import AuditEntry, User
from desktop.services import auth


def test_issue11_attack4_ten_simultaneous_wrong_passwords_lock_after_exactly_five(db, make_actor):
    actor = make_actor(Role.ATENDENTE, username="alvo")
    barrier = threading.Barrier(10)
    outcomes: list[str] = []
    lock = threading.Lock()

    def guess(i: int) -> None:
        barrier.wait()
        try:
            auth.login(db, "alvo", f"chute-errado-{i}")
            result = "entrou"
        except AccountLocked:
            result = "bloqueado"
        except AuthenticationError:
            result = "errada"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(outcomes) == 10 and "entrou" not in outcomes
    with db.session(write=False) as s:
        user = s.get(User, actor.user_id)
        assert user.failed_logins == auth.MAX_FAILED_LOGINS
        assert user.locked_until is not None
        actions = s.scalars(select(AuditEntry.action).where(AuditEntry.entity == "user",
                                                            AuditEntry.entity_id == str(actor.user_id))).all()
    checked = [a for a in actions if a in ("login.failed", "login.locked")]
    assert len(checked) == auth.MAX_FAILED_LOGINS            # passwords actually tried
    assert actions.count("login.locked") == 1
    assert actions.count("login.refused_locked") == 10 - auth.MAX_FAILED_LOGINS
    assert outcomes.count("errada") == auth.MAX_FAILED_LOGINS - 1
    # and the right password is refused too while locked
    try:
        auth.login(db, "alvo", "senha-de-teste")
    except AccountLocked:
        pass
    else:
        raise AssertionError("a conta bloqueada aceitou a senha certa")
