"""The reading process of a large trip file (issue 15): the CSV is read, checked and turned into SQLite values in
a process of its own while the importing process only writes, so the two never wait for one interpreter lock.

Measured (bench/bench_trips.py, 1,000,000 trips, 2 cores): with the reader on a thread of the importing process
the writes slowed from 3.8 s to 5-6 s, the two threads handing the lock back and forth on every row; in a process
of its own the writer runs at full speed while the next chunks are read.

What crosses the pipe is what `trip_writer.sqlite_chunk` makes of each clean chunk — trip values only: a passenger
column is never parsed by the reader (Art. 4 caput), so nothing of a passenger reaches the pipe, a log or a file.
The process is a `desktop.processes.Worker` (spawned, ended with its parent: a killed import leaves no reader
running), imports no Qt and no database code, and is terminated when the import stops early (an error, a cancel,
a duplicate).

Messages, in order: ("chunk", SqliteChunk)…, then ("digest", sha256 of the bytes it read), ("end", ReadState,
FareTotals) — or ("file_error", [lines]) / ("error", text) at any point. A chunk goes out only while the file has
no error: once one is found the rest is only read for its errors, as in the importing process.
"""
from __future__ import annotations

import hashlib
import threading

from desktop.errors import DesktopError
from desktop.importers.trip_writer import FareTotals, SqliteChunk, sqlite_chunk
from desktop.importers.trips import ReadState, TripFileError, TripReader
from desktop.processes import Worker, WorkerGone


def run(channel, path: str | None, filename: str, chunk_rows: int | None, window=None) -> None:
    """The reading process's body (the target of a `desktop.processes.Worker`); `window` is the instants a trip
    may have (domain.limits.TripWindow), computed by the importing process so both use the same clock."""
    try:
        if path is not None:
            with open(path, "rb") as handle:
                content = handle.read()
        else:
            content = channel.receive_bytes()
        digest: list[str] = []
        hasher = threading.Thread(target=lambda: digest.append(hashlib.sha256(content).hexdigest()),
                                  name="trip-digest", daemon=True)
        hasher.start()   # hashlib lets go of the interpreter lock: the digest costs the reading nothing
        try:
            reader = TripReader(content, filename, chunk_rows, window=window)
        except TripFileError as exc:
            channel.send(("file_error", exc.errors))
            return
        totals = FareTotals()
        for chunk in reader:
            if reader.state.errors:
                continue
            totals.add(chunk)
            channel.send(("chunk", sqlite_chunk(chunk)))
        hasher.join()
        channel.send(("digest", digest[0]))
        channel.send(("end", reader.state, totals))
    except (BrokenPipeError, EOFError, OSError):
        return   # the importing process stopped reading: nothing to say to anyone
    except BaseException as exc:  # noqa: BLE001 - said to the importing process, which raises it there
        try:
            channel.send(("error", f"{type(exc).__name__}: {exc}"))
        except OSError:
            pass


class ReaderFailed(DesktopError):
    """The reading process ended without finishing (it could not start, or broke); `chunks` it had sent."""

    def __init__(self, message: str, chunks: int):
        super().__init__(message)
        self.chunks = chunks


class ReaderProcess:
    """The importing side: `for chunk in process:` yields SqliteChunk; afterwards `state` and `totals` are the
    file's and `digest` the SHA-256 of the bytes the reader read.

    With `path` the reader reads the file itself (no gigabytes through the pipe); the caller compares `digest`
    with its own: a file changed on disk between the two reads is refused. Without `path` the bytes are sent."""

    def __init__(self, content: bytes | None, path: str | None, filename: str, chunk_rows: int | None = None,
                 window=None):
        self.window = window   # the instants a trip may have (domain.limits.TripWindow), the same in both processes
        self._worker = Worker(run, path, filename, chunk_rows, window, name="trip-reader")
        self.process = self._worker.process
        if path is None:
            self._worker.send_bytes(content or b"")
        self.digest: str | None = None
        self.state: ReadState | None = None
        self.totals: FareTotals | None = None
        self.file_errors: list[str] | None = None
        self.chunks = 0

    def __iter__(self):
        return self

    def __next__(self) -> SqliteChunk:
        while True:
            try:
                kind, *rest = self._worker.receive()
            except WorkerGone:
                self.process.join(5)
                raise ReaderFailed(f"O processo de leitura do arquivo de viagens terminou sem concluir (código "
                                   f"{self.process.exitcode}); nada foi gravado.", self.chunks) from None
            if kind == "chunk":
                self.chunks += 1
                return rest[0]
            if kind == "digest":
                self.digest = rest[0]
            elif kind == "end":
                self.state, self.totals = rest
                raise StopIteration
            elif kind == "file_error":
                self.file_errors = rest[0]
                raise StopIteration
            else:
                raise ReaderFailed(f"A leitura do arquivo de viagens falhou ({rest[0]}); nada foi gravado.",
                                   self.chunks)

    def close(self) -> None:
        """Stop the reader (if still running) and release the pipe; never raises."""
        self._worker.close()
