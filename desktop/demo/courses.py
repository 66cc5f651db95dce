"""Stage 9 of the demo: course sessions with their hours, convocations, attendance, absences justified (with the
document, in the driver's files) and not — the fiscal's Art. 26, III candidates (Art. 12 §2, Art. 13 XVI;
issue 16) — and data-change communications, some late (Art. 13 XVIII)."""
from __future__ import annotations

import hashlib
from datetime import timedelta

from desktop.domain import is_data_change_late


# A one-pixel PNG stands for the scanned medical certificate of each excused absence (issue 16): the demo
# shows where the justification lives (the driver's documents) without shipping real scans.
_CERTIFICATE_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8ffff3f0005fe02fe"
    "a7d6a4b50000000049454e44ae426082")
JUSTIFICATION_KIND = "Justificativa de falta a curso (Art. 12, §2)"
REASONS = ("Atestado médico", "Viagem a trabalho comprovada", "Consulta médica agendada")


def run(ctx) -> None:
    rng, w, today = ctx.rng, ctx.w, ctx.today
    ts_now = w.ts(ctx.now)
    sid = w.next_id("course_sessions")
    att_id = w.next_id("course_attendances")
    doc_id = w.next_id("documents")
    digest = hashlib.sha256(_CERTIFICATE_PNG).hexdigest()
    sessions, attendances, documents = [], [], []
    active = [r for r in ctx.recs if r["status"] == "active"]
    topics = (("Normas de trânsito e direção defensiva", "held", -60),
              ("Atendimento a passageiros com deficiência (Lei 13.146/2015; Art. 13, XXII-XXIII)", "held", -20),
              ("Legislação municipal do transporte por aplicativo (Lei nº 2.103/2025)", "planned", 25))
    for topic, status, offset in topics:
        held_on = ctx.business(today + timedelta(days=offset))
        sessions.append((sid, w.d(held_on), w.at(held_on, 14), w.at(held_on, 17),
                         "Auditório da Prefeitura Municipal", topic, "Equipe da Secretaria Municipal de Finanças", 40,
                         status, ctx.gestor, 1, ts_now))
        chosen = rng.sample(active, min(30, len(active)))
        for k, r in enumerate(chosen):
            # Every held session shows both kinds of absence: about 1 in 8 absent without justification (the
            # fiscal's Art. 26, III candidates) and 1 in 12 excused with a document; the rest present.
            if status == "planned":
                att = "convoked"
            else:
                att = "absent" if k % 8 == 3 else ("excused" if k % 12 == 5 else "present")
            driver_id = ctx.driver_ids[r["i"]]
            note, justification = None, None
            if att == "absent":
                note = "Falta sem justificativa (Art. 12, §2)."
            elif att == "excused":
                note, justification = ctx.pick(REASONS), doc_id
                documents.append((doc_id, JUSTIFICATION_KIND, w.d(held_on), digest, _CERTIFICATE_PNG, "image/png",
                                  f"justificativa-{att_id}.png", len(_CERTIFICATE_PNG), driver_id, ctx.gestor,
                                  ts_now))
                doc_id += 1
            # the convocation notice's proof joined 3 days after it was sent (issue 24 item 12: only a proven
            # notice makes an absence an Art. 26, III candidate); the planned session's notices are still out
            proven = w.d(held_on - timedelta(days=12)) if status == "held" else None
            attendances.append((att_id, sid, driver_id, w.d(held_on - timedelta(days=15)), att, note,
                                justification, 1, proven))
            att_id += 1
        sid += 1
    w.insert("course_sessions", ("id", "held_on", "starts_at", "ends_at", "place", "topic", "instructor",
                                 "capacity", "status", "created_by", "version", "created_at"), sessions)
    w.insert("documents", ("id", "kind", "issued_on", "sha256", "content", "mime", "filename", "size", "driver_id",
                           "uploaded_by", "created_at"), documents)
    w.insert("course_attendances", ("id", "session_id", "driver_id", "convoked_on", "status", "note",
                                    "justification_document_id", "version", "notice_joined_on"), attendances)
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
