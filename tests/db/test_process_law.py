"""The administrative process as the law writes it (issue 24), on SQLite and PostgreSQL: penalties only by a
decision of the authority (Art. 26 §2; SPEC §3), the decision notified and its proof joined before the appeal term
runs (Art. 22 §2), recurrence only on priors final on the new infraction's date (SPEC §3, Recurrence)."""
from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from pypdf import PdfReader

from desktop.domain.workflow import AutoStatus
from desktop.services import autos, process
from desktop.services.enforcement_jobs import run_enforcement_jobs
from tests.files import tiny_pdf
from tests.db.enforcement_factories import (
    authorization_row,
    authorized_driver,
    draft,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    notify,
    setup_upfm,
    staff,
)


@pytest.fixture
def people(db, make_actor):
    setup_upfm(db)
    return staff(make_actor)


def text_of(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())


# --- item 5: recurrence decided on the new infraction's date --------------------------------------------------

def test_spec3_art26_par1_a_prior_still_in_defense_on_the_new_date_is_no_recurrence(db, people):
    """SPEC §3: "The prior counts only if its decision was already final on the new infraction's date"."""
    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    prior = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, prior, date(2026, 3, 3))
    info = process.file_defense(db, atendente, prior.id, date(2026, 3, 10), "não embarquei ninguém", info.version)
    new = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 20), driver_id=driver_id))
    # the prior becomes final after the new fact: by waiver of its defense
    from desktop.services.process import WaiverDraft
    from desktop.services.enforcement.core import Attachment
    process.record_waiver(db, atendente, prior.id, WaiverDraft(date(2026, 4, 2), "desisto", attachment=Attachment(
        "desistencia.pdf", tiny_pdf("Desistência"), "application/pdf", "waiver")), info.version)
    assert autos.get_auto_info(db, prior.id).status in (AutoStatus.FINAL, AutoStatus.PAID)
    new = autos.get_auto_info(db, new.id)
    assert new.recurrence is False and new.proposal.suspension_days == 0
    # the decision offers what the flag says: no 30-day suspension of Art. 26, §1
    assert [o.penalty for o in process.decision_choices(db, gestor, new.id)] == []
    # a third auto, drawn after the prior was final, is a recurrence with the suspension, flag and penalty agreeing
    third = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 4, 10), driver_id=driver_id))
    assert third.recurrence is True and third.proposal.suspension_days == 30
    assert [o.penalty for o in process.decision_choices(db, gestor, third.id)] == ["suspension"]
    assert authorization_row(db, auth_id)[0] == "active"
