"""After login the routines of the day run in the background and say what they did in the status bar."""
from __future__ import annotations

from datetime import date

from desktop.views.daily_jobs import DailyJobsRunner


def test_runner_reports_the_day_summary(qtbot, tmp_path):
    from desktop.db import sqlite_url
    from desktop.migrate import open_database

    db = open_database(sqlite_url(tmp_path / "d.sqlite3"))
    try:
        runner = DailyJobsRunner(db, today=date(2026, 11, 30))
        with qtbot.waitSignal(runner.finished, timeout=60000) as blocker:
            runner.start()
        report = blocker.args[0]
        assert not report.changed
        assert report.describe().startswith("Rotinas de 30/11/2026: 0 autorização(ões)")
        assert "Fiscalização:" in report.describe()
        runner.run_if_new_day()  # same day: nothing started again
        assert runner.task.finished
        runner.timer.stop()
    finally:
        db.dispose()
