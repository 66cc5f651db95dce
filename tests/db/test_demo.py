"""Demo data (issue 2): every status, valid documents, consistent numbering and ledger, reproducible by seed."""
from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from desktop.demo import load_demo
from desktop.domain import validate_cnpj, validate_cpf, validate_plate, validate_renavam
from desktop.errors import ConflictError
from desktop.models import (
    AUTHORIZATION_STATUSES,
    AUTO_STATUSES,
    AuditEntry,
    Authorization,
    AuthorizationEvent,
    Auto,
    Driver,
    DriverChecklistItem,
    Fee,
    Inspection,
    LedgerEntry,
    Lessor,
    NumberSequence,
    Platform,
    Vehicle,
)
from desktop.services import audit, setup

TODAY = date(2026, 11, 29)


def _snapshot(db):
    with db.session(write=False) as s:
        return (
            list(s.execute(select(Driver.cpf, Driver.name, Driver.birth_date).order_by(Driver.id))),
            list(s.execute(select(Vehicle.plate, Vehicle.renavam, Vehicle.ownership_mode).order_by(Vehicle.id))),
            list(s.execute(select(Authorization.number, Authorization.status, Authorization.valid_until)
                           .order_by(Authorization.id))),
            list(s.execute(select(Auto.number, Auto.code, Auto.status, Auto.amount_reais).order_by(Auto.id))),
        )


def test_demo_has_every_status_valid_documents_and_a_working_database(db):
    summary = load_demo(db, drivers=120, seed=11, today=TODAY)
    assert summary.created_admin and not setup.needs_setup(db)
    with db.session(write=False) as s:
        statuses = Counter(s.scalars(select(Authorization.status)))
        assert set(statuses) == set(AUTHORIZATION_STATUSES)
        assert set(s.scalars(select(Auto.status))) == set(AUTO_STATUSES)
        assert len(set(s.scalars(select(Auto.code)))) == 7       # every code of Art. 26-27
        for cpf in s.scalars(select(Driver.cpf)):
            assert validate_cpf(cpf) is None
        for plate, renavam in s.execute(select(Vehicle.plate, Vehicle.renavam)):
            assert validate_plate(plate) is None and validate_renavam(renavam) is None
        for cnpj in s.scalars(select(Platform.cnpj)):
            assert validate_cnpj(cnpj) is None
        plates = list(s.scalars(select(Vehicle.plate)))
        assert any(p[4].isalpha() for p in plates) and any(p[4].isdigit() for p in plates)   # Mercosul and old
        # Art. 8 §3 IV: an individual lessor leases at most 3 vehicles.
        per_lessor = Counter(s.scalars(select(Vehicle.lessor_id).join(Lessor, Lessor.id == Vehicle.lessor_id)
                                       .where(Lessor.kind == "individual")))
        assert per_lessor and max(per_lessor.values()) <= 3
        # Every driver has a checklist; every authorization a history starting at "requested".
        assert s.scalar(select(func.count(func.distinct(DriverChecklistItem.driver_id)))) == 120
        first_events = s.execute(select(AuthorizationEvent.authorization_id, func.min(AuthorizationEvent.id))
                                 .group_by(AuthorizationEvent.authorization_id)).all()
        assert len(first_events) == 120
        # Numbers NNNN/AAAA: consecutive per year, and the counters continue after the last one.
        numbers = [n for n in s.scalars(select(Authorization.number).where(Authorization.number.is_not(None)))]
        by_year: dict[int, list[int]] = {}
        for n in numbers:
            seq, year = n.split("/")
            by_year.setdefault(int(year), []).append(int(seq))
        for year, seqs in by_year.items():
            assert sorted(seqs) == list(range(1, len(seqs) + 1))
            assert s.get(NumberSequence, ("authorization", year)).last == len(seqs)
        # Active authorizations: fee paid (Art. 10) and inspection approved or waived (Art. 9).
        for a in s.scalars(select(Authorization).where(Authorization.status == "active")):
            assert a.fee_paid_on is not None and (a.inspection_approved_on or a.inspection_waived_on)
            assert a.valid_until >= TODAY
        # The ledger: every auto has its debit; cancelled/annulled ones are reversed to zero.
        for auto in s.scalars(select(Auto).where(Auto.status.in_(("cancelled", "annulled")))):
            total = s.scalar(select(func.sum(LedgerEntry.amount_upfm)).where(LedgerEntry.auto_id == auto.id))
            assert total == Decimal("0")
        kinds = set(s.scalars(select(LedgerEntry.kind)))
        assert {"debit", "payment", "reversal"} <= kinds
        assert s.scalar(select(func.count()).select_from(Fee)) > 0
        assert s.scalar(select(func.count()).select_from(Inspection).where(Inspection.result == "failed")) > 0
        # ONE audit entry summarizes the load.
        demo_entries = s.scalars(select(AuditEntry).where(AuditEntry.action == "demo.load")).all()
        assert len(demo_entries) == 1 and '"seed":11' in demo_entries[0].after
    assert audit.verify(db).ok


def test_demo_is_reproducible_by_seed(db, tmp_path):
    from desktop.db import Database, sqlite_url
    from desktop import migrate

    load_demo(db, drivers=50, seed=42, today=TODAY)
    first = _snapshot(db)
    other = Database(sqlite_url(tmp_path / "outro.sqlite3"))
    try:
        migrate.upgrade(other, backup=False)
        load_demo(other, drivers=50, seed=42, today=TODAY)
        assert _snapshot(other) == first                   # same seed, same records, on either database
        third = Database(sqlite_url(tmp_path / "terceiro.sqlite3"))
        migrate.upgrade(third, backup=False)
        load_demo(third, drivers=50, seed=43, today=TODAY)
        assert _snapshot(third)[0] != first[0]
        third.dispose()
    finally:
        other.dispose()


def test_demo_refuses_a_database_with_drivers_unless_forced(db):
    load_demo(db, drivers=15, seed=1, today=TODAY)
    with pytest.raises(ConflictError) as exc:
        load_demo(db, drivers=15, seed=1, today=TODAY)
    assert "--force" in str(exc.value)
    load_demo(db, drivers=15, seed=1, today=TODAY, force=True)      # same seed: CPFs and plates avoided
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(Driver)) == 30
    assert audit.verify(db).ok


# ---- pure generators (no database)

def test_generated_documents_pass_the_official_check_digits():
    import random

    from validate_docbr import CNH, CNPJ, CPF, RENAVAM

    from desktop.demo import values as V

    rng = random.Random(1)
    assert all(CPF().validate(c) for c in V.cpfs(rng, 2000))
    assert all(CNPJ().validate(c) for c in V.cnpjs(rng, 500))
    assert all(RENAVAM().validate(r) for r in V.renavams(rng, 2000))
    assert all(CNH().validate(V.cnh_number(rng)) for _ in range(500))
    plates = V.plates(rng, 5000)
    assert len(set(plates)) == 5000
    assert all(validate_plate(p) is None for p in plates)
    assert V.cpf_from_base(111444777) == "11144477735"          # the textbook example


def test_folded_names_match_domain_fold():
    import random

    from desktop.demo import values as V
    from desktop.domain import fold

    pools = V.name_pools(0)
    rng = random.Random(2)
    for _ in range(500):
        name, key = V.person(rng, pools)
        assert key == fold(name)


def test_after_the_demo_new_records_get_fresh_ids(db):
    """Rows were written with explicit ids; PostgreSQL's sequences must have moved past them."""
    load_demo(db, drivers=10, seed=4, today=TODAY)
    with db.session() as s:
        highest = s.scalar(select(func.max(Platform.id)))
        p = Platform(cnpj="11222333000181", legal_name="Nova Plataforma Ltda.", trade_name="Nova", status="pending")
        s.add(p)
        s.flush()
        assert p.id > highest
        top = s.scalar(select(func.max(Driver.id)))
        d = Driver(cpf="52998224725", name="Condutor Novo", cnh_category="B", status="active")
        s.add(d)
        s.flush()
        assert d.id > top
