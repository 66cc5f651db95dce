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


# ---- the demo as the services would have left it (issue 6)

N = 300


def _load(db, seed=7):
    return load_demo(db, drivers=N, seed=seed, today=TODAY)


def test_art26_demo_autos_store_the_proposal_of_assess_with_real_recurrences(db):
    """Each auto keeps what `domain.assess` proposed over the infractor's final autos (as draw_up_auto stores
    it); recurrences exist: Art. 26 §1 (30 days), §2 (cassation) and Art. 27 parágrafo único (seizure)."""
    from desktop.domain import Assessment
    from desktop.services.autos import reassess_in

    _load(db)
    with db.session(write=False) as s:
        autos = s.scalars(select(Auto).order_by(Auto.id)).all()
        assert autos
        for auto in autos:
            assert auto.assessment, auto.number
            stored = {k: v for k, v in auto.assessment.items() if k != "decision"}
            assert stored == reassess_in(s, auto).to_dict(), auto.number
            assert auto.recurrence == stored["recurrence"]
        proposals = [(a.code, Assessment.from_dict(a.assessment)) for a in autos]
        street = [p for c, p in proposals if c == "ART26-IV" and p.recurrence]
        assert street and all(p.suspension_days == 30 for p in street)                    # Art. 26, §1
        assert any(p.cassation for c, p in proposals if c == "ART26-V" and p.recurrence)   # Art. 26, §2
        assert any(p.vehicle_seizure for c, p in proposals if c == "ART27" and p.recurrence)
        # Two ART26-IV of one driver within 12 months, both real rows.
        pairs = Counter(a.infractor_driver_id for a in autos if a.code == "ART26-IV" and a.recurrence)
        assert pairs
        # The seizure proposed was applied as a measure with Art. 28 costs in the ledger.
        from desktop.models import AdministrativeMeasure as Measure

        seized = {m.auto_id for m in s.scalars(select(Measure).where(Measure.kind == "vehicle_seizure"))}
        assert seized and all(Assessment.from_dict(s.get(Auto, a).assessment).vehicle_seizure for a in seized)
        assert s.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.kind == "costs", LedgerEntry.auto_id.in_(seized))) == len(seized)


def test_art25_demo_autos_are_drawn_up_on_the_spot_numbered_in_the_lavraturas_year(db):
    """Issue 24 item 9 (Art. 25): every demo auto stores its lavratura (the fact's moment: drawn up on the spot),
    and its number NNNN/AAAA is of that year."""
    from desktop.domain import auto_year
    from desktop.domain.dates import TIMEZONE

    _load(db)
    with db.session(write=False) as s:
        rows = s.execute(select(Auto.number, Auto.drawn_up_at, Auto.lavrado_at)).all()
    assert rows
    for number, drawn, lavrado in rows:
        assert lavrado is not None and lavrado == drawn, number
        assert number.endswith(f"/{auto_year(drawn.astimezone(TIMEZONE).date(), lavrado)}"), number


def test_art25_partly_upheld_autos_are_requalified_to_a_catalogue_code(db):
    """Issue 12 item 1 (the first wave's demo carried 5 UPFM for a leve and 15 for a grave): a partial decision
    requalifies to another code whose Art. 25 amount applies; the auto row keeps what was drawn up (item 4); a
    requalification entry names the new code on the day of the decision; every fine in force is an Art. 25
    amount; the code in force is the requalified one."""
    from desktop.domain import CATALOG, fine_in_reais
    from desktop.models import AutoJudgment
    from desktop.services.enforcement.core import code_in_force_in, fine_in

    _load(db)
    with db.session(write=False) as s:
        partly = s.scalars(select(AutoJudgment).where(AutoJudgment.outcome == "partly_upheld")).all()
        assert partly
        for j in partly:
            auto = s.get(Auto, j.auto_id)
            assert j.requalified_code and j.requalified_code != auto.code
            assert code_in_force_in(s, auto) == j.requalified_code
            assert j.reduced_upfm == CATALOG[j.requalified_code].upfm
            assert auto.amount_upfm == CATALOG[auto.code].upfm          # as drawn up
            entries = s.scalars(select(LedgerEntry).where(LedgerEntry.auto_id == auto.id)).all()
            requalification = next(e for e in entries if e.kind == "requalification")
            assert requalification.effective_on == j.decided_on and j.requalified_code in requalification.reason
            assert fine_in(s, auto) == (j.reduced_upfm, fine_in_reais(j.reduced_upfm, auto.upfm_value))
            if auto.status == "paid":
                assert sum(e.amount_reais for e in entries) == 0
        assert not s.scalars(select(LedgerEntry).where(LedgerEntry.kind == "reduction")).all()
        for auto in s.scalars(select(Auto).where(Auto.status.not_in(("cancelled", "annulled")))):
            assert fine_in(s, auto)[0] in (10, 20, 30, 40), auto.number   # Art. 25, I-IV only


def test_issue12_item3_the_demo_shows_a_waived_appeal_and_a_refund(db):
    from desktop.models import AutoWaiver, Document

    _load(db)
    with db.session(write=False) as s:
        waivers = s.scalars(select(AutoWaiver)).all()
        assert waivers
        for waiver in waivers:
            auto = s.get(Auto, waiver.auto_id)
            assert auto.final_on == waiver.filed_on and waiver.filed_on <= auto.appeal_deadline
            assert s.get(Document, waiver.document_id).kind == "waiver"
        refunds = s.scalars(select(LedgerEntry).where(LedgerEntry.kind == "refund")).all()
        assert refunds
        for refund in refunds:
            auto = s.get(Auto, refund.auto_id)
            assert auto.status == "annulled"
            assert s.scalar(select(func.sum(LedgerEntry.amount_reais)).where(LedgerEntry.auto_id == auto.id)) == 0


def test_art22_open_autos_still_have_their_terms_running_after_the_daily_jobs(db):
    """Loaded today, the demo's open autos and suspensions are not moved by the jobs of that same day."""
    from desktop.services.enforcement_jobs import run_enforcement_jobs
    from desktop.services.jobs import run_due_transitions

    _load(db)

    def statuses():
        with db.session(write=False) as s:
            return (Counter(s.scalars(select(Auto.status))), Counter(s.scalars(select(Authorization.status))))

    before = statuses()
    assert run_due_transitions(db, TODAY) == []
    report = run_enforcement_jobs(db, TODAY)
    assert not report.changed, report.describe()
    after = statuses()
    assert after == before
    for status in ("drawn_up", "notified", "in_defense", "judged", "in_appeal", "final"):
        assert after[0][status] > 0, status
    assert after[1]["suspended"] > 0 and after[1]["impeded"] > 0
    with db.session(write=False) as s:
        for auto in s.scalars(select(Auto).where(Auto.status == "notified")):
            assert auto.defense_deadline >= TODAY
        for auto in s.scalars(select(Auto).where(Auto.status == "judged")):
            assert auto.appeal_deadline >= TODAY
        for auto in s.scalars(select(Auto).where(Auto.status == "final")):
            assert auto.payment_deadline >= TODAY
        for auto in s.scalars(select(Auto).where(Auto.status == "overdue")):
            assert auto.payment_deadline < TODAY
        from desktop.models import AutoDefense, AutoNotification

        assert s.scalar(select(func.max(AutoDefense.filed_on))) <= TODAY
        assert s.scalar(select(func.max(AutoNotification.proof_joined_on))) <= TODAY


def test_art24_penalty_events_use_the_services_kinds_and_name_their_auto(db):
    from desktop.domain import Assessment
    from desktop.services.penalties import PENALTY_KINDS, penalties_in

    _load(db)
    with db.session(write=False) as s:
        events = s.scalars(select(AuthorizationEvent).order_by(AuthorizationEvent.id)).all()
        kinds = Counter(e.kind for e in events)
        for kind in ("suspension", "suspension_end", "cassation", "revocation"):
            assert kinds[kind] > 0, kind
        # issue 12 item 2: no law code names a deregistration or a revocation as an auto's penalty
        assert not [e for e in events if e.kind in ("deregistration", "revocation") and e.auto_id is not None]
        # No penalty hides behind a generic status change.
        assert not [e for e in events if e.kind == "status" and e.to_status in ("suspended", "cassada", "revoked")]
        for e in events:
            if e.kind in ("suspension", "cassation", "suspension_end", "deregistration"):
                assert e.auto_id is not None, (e.kind, e.reason)
                auto = s.get(Auto, e.auto_id)
                assert e.act_number == f"Auto {auto.number}" and auto.number in e.reason
                assert auto.authorization_id == e.authorization_id
                proposal = Assessment.from_dict(auto.assessment)
                if e.kind == "suspension":
                    assert proposal.suspends and e.effective_on == auto.final_on
                if e.kind == "cassation":
                    assert proposal.cassation and proposal.recurrence and e.effective_on == auto.final_on
        # A final proposal of suspension or cassation took effect, unless the authorization had already ended.
        final_like = ("final", "paid", "overdue", "divida_ativa")
        for auto in s.scalars(select(Auto).where(Auto.status.in_(final_like), Auto.authorization_id.is_not(None))):
            proposal = Assessment.from_dict(auto.assessment)
            if not (proposal.suspends or proposal.cassation):
                continue
            if not any(e.auto_id == auto.id for e in events):
                a = s.get(Authorization, auto.authorization_id)
                assert a.ended_on is not None and a.ended_on <= auto.final_on, auto.number
        # Art. 24, I, d: a driver deregistered with the end of the authorization, on that day, naming the auto.
        gone = s.execute(select(Driver, Authorization).join(Authorization, Authorization.driver_id == Driver.id)
                         .where(Driver.status == "deregistered")).all()
        assert gone
        for driver, a in gone:
            assert a.status in ("cassada", "revoked") and driver.deregistered_on == a.ended_on
            marks = [e for e in a.events if e.kind == "deregistration"]
            if marks:
                assert driver.deregistration_reason.endswith(s.get(Auto, marks[0].auto_id).number)
        # Every suspended or cassada authorization got there through an auto; the auto's page lists it.
        for a in s.scalars(select(Authorization).where(Authorization.status.in_(("suspended", "cassada")))):
            last = [e for e in a.events if e.kind in PENALTY_KINDS][-1]
            assert last.auto_id is not None
            assert any(p.authorization_id == a.id for p in penalties_in(s, last.auto_id))
            if a.status == "suspended":
                assert a.suspended_until >= TODAY


def test_art15_inspection_items_are_lines_of_the_checklist(db):
    from desktop.domain import INSPECTION_ITEMS_BY_KEY
    from desktop.models import InspectionItem

    _load(db)
    with db.session(write=False) as s:
        keys = set(s.scalars(select(InspectionItem.item_key)))
        assert keys and keys <= set(INSPECTION_ITEMS_BY_KEY)
        assert not s.scalar(select(func.count()).select_from(InspectionItem).where(
            InspectionItem.passed.is_(False), InspectionItem.item_key.not_in(list(INSPECTION_ITEMS_BY_KEY))))


def test_demo_covers_every_state_code_and_ledger_kind(db):
    from desktop.domain import CATALOG
    from desktop.models import AdministrativeMeasure as Measure
    from desktop.models import AutoJudgment, PaymentGuide

    _load(db)
    with db.session(write=False) as s:
        assert set(s.scalars(select(Authorization.status))) == set(AUTHORIZATION_STATUSES)
        pairs = {(st, c) for st, c in s.execute(select(Auto.status, Auto.code))}
        assert {(st, c) for st in AUTO_STATUSES for c in CATALOG} <= pairs
        assert set(s.scalars(select(LedgerEntry.kind))) == {"debit", "costs", "payment", "requalification",
                                                             "reversal", "refund"}
        assert set(s.scalars(select(AutoJudgment.outcome))) == {"upheld", "partly_upheld", "annulled"}
        # Reversals point at what they undo: debits of cancelled/annulled autos and payments returned by the bank.
        from sqlalchemy.orm import aliased

        origin = aliased(LedgerEntry)
        undone = Counter(s.scalars(select(origin.kind).join(LedgerEntry, LedgerEntry.reverses_id == origin.id)))
        assert undone["debit"] > 0 and undone["payment"] > 0
        assert s.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.kind == "reversal", LedgerEntry.reverses_id.is_(None))) == 0
        assert s.scalar(select(func.count()).select_from(Measure).where(Measure.cost_reais > 0)) > 0
        assert s.scalar(select(func.count()).select_from(PaymentGuide).where(
            PaymentGuide.purpose == "fine", PaymentGuide.status == "paid")) > 0
        # Overdue and dívida ativa: past the payment term and still owing.
        for status in ("overdue", "divida_ativa"):
            ids = list(s.scalars(select(Auto.id).where(Auto.status == status)))
            assert ids
            for auto_id in ids:
                owed = s.scalar(select(func.sum(LedgerEntry.amount_reais)).where(LedgerEntry.auto_id == auto_id))
                assert owed > 0
        # Paid autos are settled to zero; cancelled and annulled ones reversed to zero (a payment before the
        # annulment balanced by its refund).
        for status in ("paid", "cancelled", "annulled"):
            for auto_id in s.scalars(select(Auto.id).where(Auto.status == status)):
                total = s.scalar(select(func.sum(LedgerEntry.amount_upfm)).where(LedgerEntry.auto_id == auto_id))
                assert total == 0, (status, auto_id)


def test_demo_autos_events_and_ledger_are_reproducible_by_seed(db, tmp_path):
    from desktop import migrate
    from desktop.db import Database, sqlite_url

    def rows(database):
        with database.session(write=False) as s:
            return (
                [(a.number, a.code, a.status, a.amount_upfm, a.amount_reais, a.recurrence, a.assessment,
                  a.final_on, a.payment_deadline) for a in s.scalars(select(Auto).order_by(Auto.id))],
                list(s.execute(select(LedgerEntry.kind, LedgerEntry.amount_upfm, LedgerEntry.amount_reais,
                                      LedgerEntry.effective_on).order_by(LedgerEntry.id))),
                list(s.execute(select(AuthorizationEvent.kind, AuthorizationEvent.to_status,
                                      AuthorizationEvent.effective_on, AuthorizationEvent.reason)
                               .order_by(AuthorizationEvent.id))),
            )

    load_demo(db, drivers=80, seed=9, today=TODAY)
    other = Database(sqlite_url(tmp_path / "again.sqlite3"))
    try:
        migrate.upgrade(other, backup=False)
        load_demo(other, drivers=80, seed=9, today=TODAY)
        assert rows(other) == rows(db)
    finally:
        other.dispose()


def test_issue12_17_the_demo_shows_a_superseded_sticker(db, make_actor):
    """Art. 14: the demo prints one authorization's sticker and issues it again for loss; the check of the first
    with its printed number says which sticker replaced it, the second is valid."""
    from desktop.domain import sticker_check as sc
    from desktop.domain.roles import Role
    from desktop.services import documents
    from desktop.services.setup import signing_private_key
    from desktop.signing import sign_sticker

    summary = load_demo(db, drivers=20, seed=5, today=TODAY)
    assert summary.counts["superseded_stickers"] == 1
    clerk = make_actor(Role.ATENDENTE)   # the desk that prints stickers reads the archive's list of them
    issued = sorted(documents.list_issued(db, clerk), key=lambda r: r.number)
    assert [r.kind for r in issued] == ["sticker", "sticker"]
    with db.session(write=False) as s:
        a = s.get(Authorization, issued[0].record_id)
        plate = s.get(Vehicle, a.vehicle_id).plate
        number, until = a.number, a.valid_until
    text = sign_sticker(signing_private_key(db), number, plate, until)
    old = documents.check_sticker(db, text, sticker_number=issued[0].number)
    assert old.status == sc.SUPERSEDED and f"adesivo nº {issued[1].number}" in old.message_pt
    assert documents.check_sticker(db, text, sticker_number=issued[1].number).status == sc.VALID
    assert audit.verify(db).ok


def test_issue26_the_demo_fills_the_correspondence_desk_in_several_states(db):
    """Art. 22, §§1-2: the demo's letters through the services — one joined, one returned for the edital, one out,
    one waiting for the batch and one to go by e-mail — so the screen and its tiles show something."""
    from desktop.domain.correspondence import DispatchState
    from desktop.services import correspondence
    from desktop.services.actors import SYSTEM_ACTOR

    summary = load_demo(db, drivers=30, seed=2025)
    assert summary.counts["dispatches"] == 5
    states = Counter(d.state for d in correspondence.list_dispatches(db, SYSTEM_ACTOR))
    assert states == {DispatchState.JOINED: 1, DispatchState.RETURNED: 1, DispatchState.SENT: 1,
                      DispatchState.PENDING: 2}
    counts = correspondence.desk_counts(db, SYSTEM_ACTOR)
    assert counts.waiting == 2 and counts.for_edital == 1
    assert audit.verify(db).ok
