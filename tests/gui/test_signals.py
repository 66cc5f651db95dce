"""The app-wide bus (desktop/signals.py), and a long session of emits that exits cleanly on Python 3.12+."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# 20,000 emits (a progress bar over a big import) and 20,000 void Qt calls (a week view of the scheduler) in a
# fresh interpreter, without anything from desktop/: the counts of True and None must not fall. PySide6 6.12.0
# takes one reference per call; on Python 3.11 that aborted in bool_dealloc after ~1,000, on 3.12+ the objects
# are immortal and the counts stay put.
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


def test_on_this_python_the_pyside_leak_costs_nothing():
    """The raw probe, without desktop/: on Python 3.12+ True and None are immortal (PEP 683), so the references
    PySide6 6.12 takes per emit and per void call leave their counts unchanged (3.11.7 printed `100 100`; the guard
    that once kept a reserve of references is gone, issue 22 point 7)."""
    assert sys.version_info >= (3, 12), "o programa exige Python 3.12 ou mais novo (pyproject.toml)"
    result = _run(PROBE + "import os; os._exit(0)\n")
    assert result.returncode == 0, result.stderr[-2000:]
    _version, true_lost, none_lost, _ = result.stdout.split()
    assert (true_lost, none_lost) == ("0", "0")


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
