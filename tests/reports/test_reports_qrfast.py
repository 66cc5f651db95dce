"""The batch QR encoder gives exactly segno's matrices (so the sticker QR is the standard one), and falls back
to segno for payloads of another shape."""
import random
from datetime import date, timedelta

import segno

from desktop.reports import qrfast
from desktop.signing import generate_keypair, sign_sticker


def _segno(payload: str, level: str = "m", mask: int = 4):
    return tuple(bytearray(row) for row in segno.make(payload, error=level, micro=False, boost_error=False,
                                                     mask=mask).matrix)


def test_art14_signed_payload_matrices_equal_segno():
    keys = generate_keypair()
    rng = random.Random(7)
    payloads = []
    for i in range(150):
        plate = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3)) + str(rng.randrange(10)) + \
            rng.choice("ABCDEFGHIJ0123456789") + f"{rng.randrange(100):02d}"
        payloads.append(sign_sticker(keys.private_bytes, f"{i + 1:04d}/2026", plate,
                                     date(2026, 1, 1) + timedelta(days=rng.randrange(700))))
    matrices = qrfast.batch_matrices(payloads, "m", 4)
    assert all(tuple(bytearray(r) for r in m) == _segno(p) for p, m in zip(payloads, matrices))
    encoder = qrfast.FixedShapeEncoder(payloads[0], "m", 4)
    assert encoder.version == 7 and encoder.size == 45


def test_other_masks_levels_and_shapes_also_match_or_fall_back():
    keys = generate_keypair()
    payload = sign_sticker(keys.private_bytes, "0001/2026", "ABC1D23", date(2026, 12, 31))
    for mask in range(8):
        assert qrfast.FixedShapeEncoder(payload, "m", mask).matrix(payload) == _segno(payload, "m", mask)
    assert qrfast.FixedShapeEncoder(payload, "l", 2).matrix(payload) == _segno(payload, "l", 2)
    mixed = [payload, "curto", payload.replace("0001", "0002")]
    result = qrfast.batch_matrices(mixed, "m", 4)
    assert [tuple(bytearray(r) for r in m) for m in result] == [_segno(p) for p in mixed]


def test_reed_solomon_of_the_iso_example():
    # ISO/IEC 18004 Annex I: "01234567" at 1-M → data 10 20 0C 56 61 80 EC 11 EC 11 EC 11 EC 11 EC 11,
    # error correction A5 24 D4 C1 ED 36 C7 87 2C 55
    data = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
    assert qrfast._rs_remainder(data, 10) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]


def test_qr_path_covers_exactly_the_dark_modules():
    keys = generate_keypair()
    payload = sign_sticker(keys.private_bytes, "0001/2026", "ABC1D23", date(2026, 12, 31))
    matrix = qrfast.batch_matrices([payload])[0]
    n, code = qrfast.unit_path(matrix)
    painted = [[0] * n for _ in range(n)]
    for op in code.splitlines()[:-1]:
        x, y, w, h, name = op.split()
        assert name == "re"
        for row in range(n - int(y) - int(h), n - int(y)):
            for col in range(int(x), int(x) + int(w)):
                painted[row][col] += 1
    assert painted == [list(row) for row in matrix]           # every dark module once, no light one
    assert code.endswith("\nf") and code.count(" re") < sum(map(sum, matrix))
