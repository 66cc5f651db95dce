"""The app-wide bus, and the guard that keeps a long session alive on PySide6 6.12 (desktop/signals.py)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# 20,000 emits (a progress bar over a big import) and 20,000 void Qt calls (a week view of the scheduler) in a
# fresh interpreter, without anything from desktop/: the counts of True and None must not fall. PySide6 6.12.0
# takes one reference per call (and aborts in bool_dealloc after ~1,000); 6.7.0-6.11.3 do not, but they
# cannot be used here (desktop/signals.py says why).
SETUP = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QCoreApplication, QObject, Signal
    import PySide6
    app = QCoreApplication([])
    class Job(QObject):
        progressed = Signal(int, int, str)
    job = Job()
    seen = []
    job.progressed.connect(lambda done, total, text: seen.append(done))
""")
PROBE = SETUP + textwrap.dedent("""
    def lost(obj, call, n=20000, chunk=100):
        for start in range(0, n, chunk):      # stop at the first leak, before the interpreter aborts
            before = sys.getrefcount(obj)
            for i in range(start, start + chunk):
                call(i)
            if sys.getrefcount(obj) < before:
                return before - sys.getrefcount(obj)
        return 0
    true_lost = lost(True, lambda i: job.progressed.emit(i, 20000, "linha"))
    none_lost = lost(None, lambda i: job.setObjectName("probe"))
    print(PySide6.__version__, true_lost, none_lost, len(seen) == 20000 or not true_lost, flush=True)
""")


def _run(code: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "PYTHONPATH": path})


def test_screens_hear_data_changed(qtbot):
    from desktop.signals import bus

    with qtbot.waitSignal(bus.data_changed, timeout=1000) as blocker:
        bus.data_changed.emit("users")
    assert blocker.args == ["users"]


def test_the_guard_is_still_needed():
    """The raw probe, without desktop/: fails when the installed PySide6 no longer leaks — then delete the guard
    in desktop/signals.py and its calls (desktop/background.py, desktop/app.py, desktop/views/inspections/grid.py,
    tests/gui/conftest.py)."""
    result = _run(PROBE + "import os; os._exit(0)\n")
    assert result.returncode == 0, result.stderr[-2000:]
    version, true_lost, none_lost, _ = result.stdout.split()
    assert (true_lost, none_lost) != ("0", "0"), (
        f"PySide6 {version} já não perde referências de True/None: remova a proteção de desktop/signals.py")


def test_a_program_that_emits_many_signals_exits_cleanly():
    """20,000 emits (a progress bar over a big import) must not abort the interpreter at exit (bool_dealloc)."""
    code = SETUP.replace("import PySide6\n", "import desktop.signals\n") + textwrap.dedent("""
        for i in range(20000):
            job.progressed.emit(i, 20000, "linha")
        assert len(seen) == 20000
        print("ok", sys.getrefcount(True) > 0)
    """)
    result = _run(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok True"
    assert "bool_dealloc" not in result.stderr


def test_the_reserve_is_topped_up_past_its_first_chunk():
    """More leaking calls than the first reserve holds (2 × 524,288 emits and void calls): the watcher tops it up,
    the counts stay far from zero, and the program exits cleanly — without writing into the interpreter."""
    code = SETUP.replace("import PySide6\n", "import desktop.signals as guard\n") + textwrap.dedent("""
        import time
        n = 2 * guard._Reserve.CHUNK
        for i in range(n):
            job.progressed.emit(i, n, "linha")
            job.setObjectName("x")
            if i % 100_000 == 0:
                time.sleep(0.06)   # a real session breathes; the watcher runs every 0.05 s anyway
        assert len(seen) == n
        print("ok", sys.getrefcount(True) > guard._Reserve.FLOOR // 2, sys.getrefcount(None) > guard._Reserve.FLOOR // 2)
    """)
    result = _run(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok True True"
    assert "dealloc" not in result.stderr
