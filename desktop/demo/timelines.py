"""The dates of an auto de infração, for the demo's autos (`autos`, `penalties`).

The dates of an auto follow the process of Art. 22 with the office's terms (parameters) and calendar:
notice joined (the defense term starts, §2) → defense → judgment → appeal term → appeal → final (payment
term). Open autos are dated back from "today" so their terms are still running when the demo is loaded
(otherwise the daily jobs would move them all on the first start); closed ones are dated back from the day
their decision became final."""
from __future__ import annotations

from datetime import date, timedelta


def defense_before(ctx, t: dict, filed: date) -> None:
    """A defense filed on `filed`, inside the defense term of a notice joined a few days before."""
    joined = filed - timedelta(days=ctx.ri(1, max(1, min(12, ctx.defense_days - 1))))
    t.update(joined=joined, defense_deadline=ctx.deadline(joined, ctx.defense_days), defense_filed=filed)


def judged_on(ctx, t: dict, decided: date) -> None:
    """First-instance judgment on `decided` of a defense filed before it; the appeal term runs from it."""
    defense_before(ctx, t, decided - timedelta(days=ctx.ri(2, 15)))
    t.update(decided=decided, appeal_deadline=ctx.deadline(decided, ctx.appeal_days))


def drawn_before(ctx, t: dict) -> dict:
    joined = t.get("joined")
    if joined is not None:
        t["sent"] = joined - timedelta(days=ctx.ri(0, 2))
        t["drawn"] = t["sent"] - timedelta(days=ctx.ri(0, 4))
    return t


def open_timeline(ctx, status: str) -> dict:
    """Dates of an auto still open today (lavrado, notificado, em defesa, julgado, em recurso)."""
    today, ri = ctx.today, ctx.ri
    t: dict = {}
    if status == "drawn_up":
        t["drawn"] = today - timedelta(days=ri(0, 10))
    elif status == "notified":          # the defense term (Art. 22, §2) ends after today
        joined = today - timedelta(days=ri(0, max(0, min(12, ctx.defense_days - 1))))
        t.update(joined=joined, defense_deadline=ctx.deadline(joined, ctx.defense_days))
    elif status == "in_defense":        # awaiting judgment (no term runs against the office)
        defense_before(ctx, t, today - timedelta(days=ri(0, 40)))
    elif status == "judged":            # the appeal term ends after today
        judged_on(ctx, t, today - timedelta(days=ri(1, max(1, min(12, ctx.appeal_days - 1)))))
    elif status == "in_appeal":
        filed = today - timedelta(days=ri(0, 30))
        judged_on(ctx, t, filed - timedelta(days=ri(1, max(1, min(12, ctx.appeal_days - 1)))))
        t["appeal_filed"] = filed
    return drawn_before(ctx, t)


def final_timeline(ctx, lo: date, hi: date, path: str) -> dict:
    """Dates of an auto whose decision became final between `lo` and `hi` (about): by the end of the defense
    term without defense ("term"), by the end of the appeal term ("judged_term") or on the appeal judgment
    ("appeal"). The payment term runs from the final day."""
    final = ctx.rand_day(lo, hi)
    t: dict = {}
    if path in ("term", "judged_term"):
        days = ctx.defense_days if path == "term" else ctx.appeal_days
        start = final - timedelta(days=days + 1)
        for _ in range(8):             # the last day may move to a business day: step back until it fits
            end = ctx.deadline(start, days)
            over = (end + timedelta(days=1) - hi).days
            if over <= 0:
                break
            start -= timedelta(days=over)
        if path == "term":
            t.update(joined=start, defense_deadline=end)
        else:
            judged_on(ctx, t, start)
        t["final_on"] = end + timedelta(days=1)
    else:
        filed = final - timedelta(days=ctx.ri(3, 20))
        judged_on(ctx, t, filed - timedelta(days=ctx.ri(1, max(1, min(12, ctx.appeal_days - 1)))))
        t.update(appeal_filed=filed, appeal_decided=final, final_on=final)
    t["payment_deadline"] = ctx.deadline(t["final_on"], ctx.payment_days)
    return drawn_before(ctx, t)


def random_timeline(ctx, status: str, k: int, not_before: date | None = None) -> dict | None:
    """Dates of an auto in `status`; `not_before`: the earliest day its decision may become final (None when
    that day cannot be met)."""
    today, ri = ctx.today, ctx.ri
    if status in ("drawn_up", "notified", "in_defense", "judged", "in_appeal"):
        return open_timeline(ctx, status)
    path = ("term", "judged_term", "appeal")[k % 3]
    day = timedelta(days=1)
    if not_before is not None:
        if status in ("final", "overdue", "divida_ativa"):
            hi = today - day if status == "final" else \
                today - (ctx.payment_days + (10 if status == "overdue" else 60)) * day
            lo = max(not_before, today - max(1, ctx.payment_days - 1) * day) if status == "final" \
                else max(not_before, hi - 190 * day)
        else:
            lo, hi = max(not_before, today - 400 * day), today - 2 * day
        if lo > hi:
            return None
        return final_timeline(ctx, lo, hi, "appeal")     # final on the appeal judgment: exactly in range
    if status == "final":               # the payment term still runs today
        lo, hi = today - max(1, ctx.payment_days - 1) * day, today - day
        t = final_timeline(ctx, lo, max(lo, hi), path)
        if t["payment_deadline"] < today:
            t = final_timeline(ctx, lo, max(lo, hi), "appeal")
    elif status in ("overdue", "divida_ativa"):   # the payment term is over
        hi = today - (ctx.payment_days + (10 if status == "overdue" else 60)) * day
        lo = hi - 190 * day
        t = final_timeline(ctx, lo, hi, path)
        if t["payment_deadline"] >= today:
            t = final_timeline(ctx, lo, hi, "appeal")
    elif status == "paid":
        t = final_timeline(ctx, today - 400 * day, today - 2 * day, path)
    elif status == "annulled":          # the defense was upheld: the auto is void (Art. 22)
        t = {}
        decided = today - ri(2, 200) * day
        defense_before(ctx, t, decided - ri(2, 15) * day)
        t["decided"] = decided
        drawn_before(ctx, t)
    else:                               # cancelled by the gestor for an error in the auto
        drawn = today - ri(5, 200) * day
        t = {"drawn": drawn, "cancelled": min(today, drawn + ri(1, 3) * day)}
    return t
