"""Waiting for an event instead of sleeping (issue 22 point 8): a test that needs a process to end waits on the
process itself and wakes the moment it ends, never polling with `time.sleep`."""
from __future__ import annotations

import os
import select

import pytest


def process_gone(pid: int, timeout: float = 10.0) -> bool:
    """True once process `pid` has ended (within `timeout` seconds), False if it is still running then.

    A pidfd (`os.pidfd_open`, Linux) becomes readable when the process exits, whoever its parent is, and
    `select` sleeps on it in the kernel. The tests that use it kill processes with SIGKILL, so they run on POSIX;
    without pidfd (another Unix) they are skipped rather than turned into a poll."""
    if not hasattr(os, "pidfd_open"):
        pytest.skip("esperar o fim de um processo sem pidfd (só Linux)")
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([fd], [], [], timeout)
        return bool(readable)
    finally:
        os.close(fd)
