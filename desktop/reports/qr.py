"""QR codes of the documents (the signed sticker, the credential, the PIX BR Code) through `segno`
(ISO/IEC 18004), drawn as ONE filled path per code.

segno picks the "best" of the eight masks by scoring each one, which is about 3/4 of its time; any mask decodes
alike, so documents fix it (`mask=`): ≈ 2 ms per 120-byte code (NOTES). No ReportLab here, so a worker process
of a sticker batch (desktop.reports.sticker through desktop.processes) imports only this module and segno.
"""
from __future__ import annotations

import re

_DARK_RUN = re.compile(rb"\x01+")


def matrix(payload: str, error: str = "m", mask: int | None = None) -> tuple:
    """segno's module matrix (rows of 0/1 bytes, no quiet zone) in byte mode, at `error` level exactly."""
    import segno  # lazy: segno loads only when this runs (start-up cost)
    return segno.make(payload, error=error, micro=False, boost_error=False, mask=mask).matrix


def unit_path(modules) -> tuple[int, str]:
    """(modules per side, PDF path operators) for the dark modules in module units, origin at the lower left:
    each horizontal run of dark modules is a rectangle, grown downwards while the rows below repeat the same run,
    and the whole set is filled at once ("f") — one path per code, never one rectangle per module."""
    n = len(modules)
    ops = []
    open_runs: dict[tuple[int, int], int] = {}     # (first, end) column span → first row of the rectangle
    for r, row in enumerate(modules):
        current = {}
        for m in _DARK_RUN.finditer(bytes(row)):
            span = m.span()
            current[span] = open_runs.pop(span, r)
        for (first, end), top in open_runs.items():
            ops.append("%d %d %d %d re" % (first, n - r, end - first, r - top))
        open_runs = current
    for (first, end), top in open_runs.items():
        ops.append("%d 0 %d %d re" % (first, end - first, n - top))
    ops.append("f")
    return n, "\n".join(ops)


def payload_path(payload: str, error: str = "m", mask: int | None = None) -> tuple[int, str]:
    return unit_path(matrix(payload, error, mask))


def unit_paths(payloads: list[str], error: str = "m", mask: int | None = None) -> list[tuple[int, str]]:
    """The paths of many payloads: the work a sticker batch sends to its worker processes (plain tuples of
    str, cheap to send back)."""
    return [payload_path(payload, error, mask) for payload in payloads]
