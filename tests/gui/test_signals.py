"""The app-wide bus, and the guard that keeps a long session alive despite PySide6's emit refcount bug."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_screens_hear_data_changed(qtbot):
    from desktop.signals import bus

    with qtbot.waitSignal(bus.data_changed, timeout=1000) as blocker:
        bus.data_changed.emit("users")
    assert blocker.args == ["users"]


def test_a_program_that_emits_many_signals_exits_cleanly():
    """20,000 emits (a progress bar over a big import) must not abort the interpreter at exit (bool_dealloc)."""
    code = textwrap.dedent("""
        import sys
        from PySide6.QtCore import QCoreApplication, QObject, Signal
        app = QCoreApplication([])
        import desktop.signals
        class Job(QObject):
            progressed = Signal(int, int, str)
        job = Job()
        seen = []
        job.progressed.connect(lambda done, total, text: seen.append(done))
        for i in range(20000):
            job.progressed.emit(i, 20000, "linha")
        assert len(seen) == 20000
        print("ok", sys.getrefcount(True) > 0)
    """)
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok True"
    assert "bool_dealloc" not in result.stderr
