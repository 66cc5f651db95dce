"""Worker processes for the CPU-heavy jobs (issue 22 point 5): the reading of a large trip file and the QR codes of
a sticker batch. One helper for both, so that every worker process of the program is started, watched, spoken to
and stopped the same way:

- spawned, never forked: the program has Qt threads, and Windows only spawns;
- it ends with its parent (`watch_parent`: a daemon thread polls the parent's pid), so a killed program leaves no
  worker running (issue 11 item 10);
- it speaks over one duplex pipe in pickled messages (`Channel.send` / `Worker.receive`): the worker imports only
  what its target needs (this module imports nothing but the standard library);
- `Worker.close()` terminates it if it still runs and joins it; it never raises.

    worker = Worker(module_level_target, arg1, arg2, name="trip-reader")   # target(channel, arg1, arg2)
    message = worker.receive()      # WorkerGone when it ended without a word

`submit(fn, *args)` is the one-call form (a `concurrent.futures`-like `Call` whose `result()` returns what
`fn(*args)` returned in the worker, or raises what it raised); `map_chunks(fn, chunks)` runs the first chunk in this
process while the others run in workers of their own (the sticker batch over two cores).
"""
from __future__ import annotations

import os
import pickle
import sys
import threading
import time

PARENT_POLL_SECONDS = 0.5


def parent_alive(parent_pid: int) -> bool:
    """Whether process `parent_pid` still runs (os.kill(pid, 0) on POSIX; OpenProcess on Windows)."""
    if sys.platform == "win32":
        import ctypes  # local: imported only on this branch
        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000 | 0x00100000, False, parent_pid)  # QUERY_LIMITED_INFORMATION | SYNCHRONIZE
        if not handle:
            return False
        try:
            return kernel32.WaitForSingleObject(handle, 0) == 0x102   # WAIT_TIMEOUT: still running
        finally:
            kernel32.CloseHandle(handle)
    if os.getppid() != parent_pid:   # re-parented: the parent is gone
        return False
    try:
        os.kill(parent_pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def watch_parent(parent_pid: int, poll: float = PARENT_POLL_SECONDS) -> None:
    """A daemon thread that ends this (worker) process as soon as `parent_pid` is gone."""

    def watch() -> None:
        while parent_alive(parent_pid):
            time.sleep(poll)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class WorkerGone(Exception):
    """The worker process ended (or its pipe closed) before the message that was waited for."""


class WorkerFailed(Exception):
    """`fn` raised in the worker an exception that could not be sent back as itself: its type and text."""


class Channel:
    """The worker's end of the pipe."""

    def __init__(self, conn):
        self._conn = conn

    def send(self, message) -> None:
        self._conn.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    def send_bytes(self, data: bytes) -> None:
        self._conn.send_bytes(data)

    def receive(self):
        return pickle.loads(self._conn.recv_bytes())

    def receive_bytes(self) -> bytes:
        return self._conn.recv_bytes()

    def close(self) -> None:
        self._conn.close()


def _main(target, args, conn, parent_pid: int) -> None:
    """The body of every worker process: watch the parent, run the target, close the pipe."""
    watch_parent(parent_pid)
    channel = Channel(conn)
    try:
        target(channel, *args)
    finally:
        channel.close()


class Worker:
    """One spawned process running `target(channel, *args)` (`target` a module-level function)."""

    def __init__(self, target, *args, name: str):
        import multiprocessing  # lazy: multiprocessing loads only when this runs (start-up cost)

        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_main, args=(target, args, child, os.getpid()), name=name, daemon=True)
        self.process.start()
        child.close()

    def send(self, message) -> None:
        self._conn.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    def send_bytes(self, data: bytes) -> None:
        self._conn.send_bytes(data)

    def receive(self, timeout: float | None = None):
        """The next message; `WorkerGone` when the worker ended without sending it, `TimeoutError` when `timeout`
        seconds passed first."""
        try:
            waited = timeout is None or self._conn.poll(timeout)
            data = self._conn.recv_bytes() if waited else None
        except (EOFError, OSError):
            raise WorkerGone() from None
        if data is None:
            raise TimeoutError(f"o processo {self.process.name} não respondeu em {timeout:g} s")
        return pickle.loads(data)

    @property
    def exitcode(self) -> int | None:
        return self.process.exitcode

    def close(self, timeout: float = 10) -> None:
        """Stop the worker (if still running) and release the pipe; never raises."""
        try:
            self._conn.close()
        except OSError:
            pass
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout)

    def __enter__(self) -> "Worker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _call(channel: Channel, fn, args) -> None:
    try:
        result = fn(*args)
    except BaseException as exc:  # noqa: BLE001 — raised again in the parent (`Call.result`)
        try:
            channel.send(("error", exc))
        except Exception:  # noqa: BLE001 — an exception that does not pickle: its type and text
            channel.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    channel.send(("ok", result))


class Call(Worker):
    """`fn(*args)` in a worker process of its own (`submit`)."""

    def __init__(self, fn, *args, name: str):
        super().__init__(_call, fn, args, name=name)

    def result(self, timeout: float | None = None):
        """What `fn` returned, or what it raised; `WorkerGone` when the process died first, `TimeoutError` after
        `timeout` seconds. Closes the worker."""
        try:
            kind, value = self.receive(timeout)
        finally:
            self.close()
        if kind == "ok":
            return value
        if kind == "error":
            raise value
        raise WorkerFailed(value)


def submit(fn, *args, name: str = "worker") -> Call:
    """Start `fn(*args)` in a worker process now; `.result()` waits for it."""
    return Call(fn, *args, name=name)


def map_chunks(fn, chunks: list, *args, name: str = "worker") -> list:
    """`[fn(chunk, *args) for chunk in chunks]`, the first chunk in this process and each other one in a worker
    process of its own, started before this process begins its own chunk. Every worker is stopped on the way out,
    also when one failed."""
    calls: list[Call] = []
    try:
        for chunk in chunks[1:]:
            calls.append(submit(fn, chunk, *args, name=name))
        results = [fn(chunks[0], *args)] if chunks else []
        return results + [call.result() for call in calls]
    finally:
        for call in calls:
            call.close()
