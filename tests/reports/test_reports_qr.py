"""QR codes through segno with a fixed mask (issue 10 item 8: the hand-written encoder is gone), drawn as one
path, and the workers of a sticker batch (desktop.processes) end with their parent (issue 11 item 10)."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import date
from pathlib import Path

import pytest
import segno

from tests.waiting import process_gone

from desktop.reports import qr, sticker
from desktop.signing import generate_keypair, sign_sticker

ROOT = Path(__file__).resolve().parents[2]


def test_art14_sticker_matrix_is_segnos_with_the_fixed_mask():
    keys = generate_keypair()
    payload = sign_sticker(keys.private_bytes, "0001/2026", "ABC1D23", date(2026, 12, 31))
    code = segno.make(payload, error="m", micro=False, boost_error=False, mask=sticker.QR_MASK)
    assert qr.matrix(payload, sticker.QR_ERROR, sticker.QR_MASK) == code.matrix
    assert (code.version, code.mask, code.error) == (7, sticker.QR_MASK, "M")


def test_qr_path_covers_exactly_the_dark_modules_in_fewer_rectangles():
    keys = generate_keypair()
    payload = sign_sticker(keys.private_bytes, "0002/2026", "ABC1D23", date(2026, 12, 31))
    modules = qr.matrix(payload, "m", 4)
    n, code = qr.unit_path(modules)
    painted = [[0] * n for _ in range(n)]
    for op in code.splitlines()[:-1]:
        x, y, w, h, name = op.split()
        assert name == "re"
        for row in range(n - int(y) - int(h), n - int(y)):
            for col in range(int(x), int(x) + int(w)):
                painted[row][col] += 1
    assert painted == [list(row) for row in modules]           # every dark module once, no light one
    assert code.endswith("\nf") and code.count(" re") < sum(map(sum, modules))


def test_unit_paths_of_a_batch_are_the_paths_of_each_payload():
    payloads = [f"TPA1|{i:04d}/2026|ABC1D23|31/12/2026|x" for i in range(1, 4)]
    assert qr.unit_paths(payloads, "m", 4) == [qr.payload_path(p, "m", 4) for p in payloads]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:   # a zombie child of init is gone for our purposes
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL of the parent, POSIX")
def test_issue11_batch_workers_end_when_their_parent_is_killed(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(f"""
        import multiprocessing, os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from desktop import processes
        if __name__ == "__main__":
            worker = processes.submit(time.sleep, 600, name="sticker-qr")   # as the sticker batch starts them
            print(worker.process.pid, flush=True)
            time.sleep(600)
    """))
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        assert _alive(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        assert process_gone(worker, 10), "o processo auxiliar do lote continuou rodando depois do programa"
    finally:
        parent.kill()
        parent.wait(5)


def test_a_batch_over_two_processes_gives_the_paths_of_one(monkeypatch):
    """The sticker batch's QR codes split over worker processes (desktop.processes.map_chunks) come back whole and
    in order, and a failure in a worker is raised here as itself."""
    from desktop import processes

    payloads = [f"TPA1|{i:04d}/2026|ABC1D23|31/12/2026|x" for i in range(1, 301)]
    assert sticker._qr_paths(payloads, 2) == qr.unit_paths(payloads, sticker.QR_ERROR, sticker.QR_MASK)
    with pytest.raises(ValueError):
        processes.submit(int, "não é número").result()


def test_a_worker_that_does_not_answer_in_time_is_stopped():
    from desktop import processes

    call = processes.submit(time.sleep, 60, name="sticker-qr")
    with pytest.raises(TimeoutError):
        call.result(timeout=0.5)
    assert not call.process.is_alive()


def test_the_install_check_starts_its_worker_as_the_sticker_batch_does():
    from desktop.install_check import process_checks

    [check] = process_checks()
    assert check.ok, check
