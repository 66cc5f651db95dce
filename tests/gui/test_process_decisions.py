"""Issue 24 items 1 and 3 under a window: a decision of the authority is notified with its proof before the
appeal term runs (Art. 22 §2), and an auto final without defense shows "Decidir penalidades" to the gestor only —
the suspension exists only through that decision (Art. 26 §2; SPEC §3)."""
from __future__ import annotations

from datetime import timedelta

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up

from desktop.services.actors import SYSTEM_ACTOR
from desktop.domain import local_today
from desktop.domain.penalties import NotificationForm
from desktop.views.enforcement.detail import AutoDetailScreen


def open_detail(qtbot, db, actor, auto_id):
    screen = AutoDetailScreen(db, actor)
    qtbot.addWidget(screen)
    screen.resize(1150, 720)
    screen.show_auto(auto_id)
    return screen


def _notified(db, people, register, days_ago: int, code="ART26-VI"):
    from desktop.services.autos import process

    today = local_today()
    auto = draw_up(db, people.fiscal, code, today - timedelta(days=days_ago + 1), driver_id=register.joao,
                   vehicle_id=register.car)
    return process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.DIRECT, sent_on=today - timedelta(days=days_ago),
        proof_joined_on=today - timedelta(days=days_ago)), auto.version)


def test_art22_par2_the_decision_is_notified_before_the_appeal_can_be_received(qtbot, db, people, register):
    from desktop.services.autos import process

    today = local_today()
    auto = _notified(db, people, register, 4)
    auto = process.file_defense(db, people.atendente, auto.id, today - timedelta(days=3), "defesa", auto.version)
    process.judge(db, people.gestor, auto.id, process.JudgmentDraft(
        process.Outcome.UPHELD, today - timedelta(days=1), "Fatos comprovados."), auto.version)
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    assert "notify_decision" in screen.enabled_actions() and "appeal" not in screen.enabled_actions()
    assert "falta juntar a prova da notificação da decisão" in screen.buttons["appeal"].toolTip()
    dialog = screen.dialog_for("notify_decision")
    qtbot.addWidget(dialog)
    assert "prazo de recurso" in dialog.intro.text()
    assert dialog.save()
    screen.after_dialog(dialog)
    assert "notify_decision" not in screen.enabled_actions()
    from desktop.services import autos

    info = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert info.appeal_deadline is not None and info.appeal_deadline > today
    clerk = open_detail(qtbot, db, people.atendente, auto.id)
    assert "appeal" in clerk.enabled_actions()


def test_art26_par2_only_the_gestor_decides_the_penalties_of_an_auto_final_without_defense(qtbot, db, people,
                                                                                           register):
    from desktop.services import autos
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    auto = _notified(db, people, register, 25)
    report = run_enforcement_jobs(db, local_today())
    assert report.awaiting_decision == (auto.number,)
    fiscal = open_detail(qtbot, db, people.fiscal, auto.id)
    assert "decide_penalties" not in fiscal.enabled_actions()
    assert "Gestor" in fiscal.buttons["decide_penalties"].toolTip()
    screen = open_detail(qtbot, db, people.gestor, auto.id)
    assert "decide_penalties" in screen.enabled_actions()
    dialog = screen.dialog_for("decide_penalties")
    qtbot.addWidget(dialog)
    assert list(dialog.penalty_checks) == ["suspension"]
    assert not dialog.save() and dialog.errors.is_invalid("reasoning")     # the fundamentação is required
    qtbot.keyClicks(dialog.reasoning_edit, "Cartoes oferecendo corridas fora da plataforma, comprovados.")
    assert dialog.save()
    screen.after_dialog(dialog)
    assert "decide_penalties" not in screen.enabled_actions()
    assert "notify_decision" in screen.enabled_actions()   # the decision is then notified (Art. 22, §2)
    judgments = autos.get_auto(db, SYSTEM_ACTOR, auto.id).judgments
    assert [(j.instance, j.decided_by_name) for j in judgments] == [("penalty", people.gestor.full_name)]
    assert judgments[0].number.endswith(f"/{local_today().year}")
