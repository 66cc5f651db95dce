"""Stage 9 of the demo: course sessions and convocations (Art. 12 §2) and data-change communications, some late
(Art. 13 XVIII)."""
from __future__ import annotations

from datetime import timedelta

from desktop.domain import is_data_change_late


def run(ctx) -> None:
    rng, w, today = ctx.rng, ctx.w, ctx.today
    ts_now = w.ts(ctx.now)
    sid = w.next_id("course_sessions")
    att_id = w.next_id("course_attendances")
    sessions, attendances = [], []
    active = [r for r in ctx.recs if r["status"] == "active"]
    topics = (("Normas de trânsito e direção defensiva", "held", -60),
              ("Atendimento a passageiros com deficiência (Lei 13.146/2015; Art. 13, XXII-XXIII)", "held", -20),
              ("Legislação municipal do transporte por aplicativo (Lei nº 2.103/2025)", "planned", 25))
    for topic, status, offset in topics:
        held_on = ctx.business(today + timedelta(days=offset))
        sessions.append((sid, w.d(held_on), w.at(held_on, 14), "Auditório da Prefeitura Municipal",
                         topic, "Equipe da Secretaria Municipal de Finanças", 40, status, ctx.gestor, 1, ts_now))
        chosen = rng.sample(active, min(30, len(active)))
        for r in chosen:
            if status == "planned":
                att = "convoked"
            else:
                att = rng.choices(("present", "absent", "excused"), (80, 12, 8))[0]
            attendances.append((att_id, sid, ctx.driver_ids[r["i"]], w.d(held_on - timedelta(days=15)), att,
                                "Falta sem justificativa (Art. 12, §2)." if att == "absent" else None, 1))
            att_id += 1
        sid += 1
    w.insert("course_sessions", ("id", "held_on", "starts_at", "place", "topic", "instructor", "capacity",
                                 "status", "created_by", "version", "created_at"), sessions)
    w.insert("course_attendances", ("id", "session_id", "driver_id", "convoked_on", "status", "note", "version"),
             attendances)
    comms = []
    cid = w.next_id("change_communications")
    for r in active[: max(2, ctx.n // 100)]:
        happened = today - timedelta(days=ctx.ri(10, 120))
        communicated = happened + timedelta(days=ctx.pick((2, 5, 7, 12, 30)))
        late = is_data_change_late(happened, communicated, ctx.calendar)
        comms.append((cid, ctx.driver_ids[r["i"]], None,
                      ctx.pick(("Mudança de endereço", "Novo telefone", "Renovação da CNH", "Novo e-mail"))
                      + (" — comunicado fora do prazo de 7 dias (Art. 13, XVIII)" if late else ""),
                      w.d(happened), w.d(min(communicated, today)), ctx.clerks[r["i"] & 1], None, 1, ts_now))
        cid += 1
    w.insert("change_communications", ("id", "driver_id", "vehicle_id", "what_changed", "happened_on",
                                       "communicated_on", "recorded_by", "auto_id", "version", "created_at"),
             comms)
