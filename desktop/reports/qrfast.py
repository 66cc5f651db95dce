"""Fast QR matrices for a batch of payloads of one fixed shape (the signed sticker payloads all have 120
bytes), checked against segno.

segno (pure Python) spends ~3 ms per code on placing bits and masking; 1,000 stickers need 1,000 codes.
Every sticker payload has the same length, so the version, the error-correction blocks, the mask, the
format and version information and the function patterns are the same for all of them: only the data modules
differ. `FixedShapeEncoder` takes the function patterns and format/version bits from segno's matrix of a first
payload (ISO/IEC 18004: byte mode, Reed–Solomon over GF(256) with polynomial 0x11D, zigzag placement, fixed
mask), and places the data bits of each payload with a precomputed module order.

Safety: the encoder is built only if its matrix for the sample payload is identical to segno's; each batch is
checked again on its first payload; any other shape (another length, version or level) goes to segno.
"""
from __future__ import annotations

import re
from functools import lru_cache

# (version, level) → (EC codewords per block, [data codewords of each block]) — ISO/IEC 18004 table 9.
_BLOCKS = {
    (5, "m"): (24, [43, 43]),
    (6, "m"): (16, [27, 27, 27, 27]),
    (7, "m"): (18, [31, 31, 31, 31]),
    (8, "m"): (22, [38, 38, 39, 39]),
    (9, "m"): (22, [36, 36, 36, 37, 37]),
    (6, "l"): (18, [68, 68]),
    (7, "l"): (20, [78, 78]),
}
_REMAINDER_BITS = {5: 7, 6: 7, 7: 0, 8: 0, 9: 0}
_ALIGNMENT = {5: [6, 30], 6: [6, 34], 7: [6, 22, 38], 8: [6, 24, 42], 9: [6, 26, 46]}
_MASKS = {
    0: lambda i, j: (i + j) % 2 == 0,
    1: lambda i, j: i % 2 == 0,
    2: lambda i, j: j % 3 == 0,
    3: lambda i, j: (i + j) % 3 == 0,
    4: lambda i, j: (i // 2 + j // 3) % 2 == 0,
    5: lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    6: lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    7: lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
}

# GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


@lru_cache(maxsize=16)
def _generator(degree: int) -> tuple[int, ...]:
    poly = [1]
    for i in range(degree):
        nxt = [0] * (len(poly) + 1)
        for j, coef in enumerate(poly):
            nxt[j] ^= coef
            if coef:
                nxt[j + 1] ^= _EXP[_LOG[coef] + i]
        poly = nxt
    return tuple(poly)


@lru_cache(maxsize=16)
def _product_table(degree: int) -> tuple[tuple[int, ...], ...]:
    """For each factor 0..255, the generator's coefficients (without the leading 1) multiplied by it."""
    log_gen = [_LOG[g] for g in _generator(degree)[1:]]
    table = [(0,) * degree]
    for factor in range(1, 256):
        lf = _LOG[factor]
        table.append(tuple(_EXP[lf + lg] for lg in log_gen))
    return tuple(table)


def _rs_remainder(data: list[int], degree: int) -> list[int]:
    """Reed–Solomon error-correction codewords (polynomial division remainder)."""
    products = _product_table(degree)
    rem = [0] * degree
    for byte in data:
        row = products[byte ^ rem[0]]
        rem.append(0)
        del rem[0]
        rem = [a ^ b for a, b in zip(rem, row)]
    return rem


_BITS = tuple(bytes((w >> (7 - k)) & 1 for k in range(8)) for w in range(256))


def _function_modules(version: int) -> set[tuple[int, int]]:
    size = 17 + 4 * version
    taken: set[tuple[int, int]] = set()

    def box(r0, c0, rows, cols):
        for r in range(r0, r0 + rows):
            for c in range(c0, c0 + cols):
                if 0 <= r < size and 0 <= c < size:
                    taken.add((r, c))

    box(0, 0, 9, 9)                    # finder + separator + format (top-left)
    box(0, size - 8, 9, 8)             # top-right finder + separator + format row
    box(size - 8, 0, 8, 9)             # bottom-left finder + separator + format column (and the dark module)
    for k in range(size):              # timing patterns
        taken.add((6, k))
        taken.add((k, 6))
    centres = _ALIGNMENT[version]
    for r in centres:
        for c in centres:
            if (r, c) in ((6, 6), (6, centres[-1]), (centres[-1], 6)):
                continue
            box(r - 2, c - 2, 5, 5)
    if version >= 7:                   # version information blocks
        box(size - 11, 0, 3, 6)
        box(0, size - 11, 6, 3)
    return taken


def _placement_order(version: int) -> list[tuple[int, int]]:
    size = 17 + 4 * version
    taken = _function_modules(version)
    order = []
    upward = True
    col = size - 1
    while col > 0:
        if col == 6:
            col -= 1
        rows = range(size - 1, -1, -1) if upward else range(size)
        for r in rows:
            for c in (col, col - 1):
                if (r, c) not in taken:
                    order.append((r, c))
        upward = not upward
        col -= 2
    return order


class FixedShapeEncoder:
    """QR matrices (tuples of bytearrays, 1 = dark) for payloads of `length` bytes at (version, level, mask)."""

    def __init__(self, sample: str, level: str = "m", mask: int = 4):
        import segno

        data = sample.encode("utf-8")
        qr = segno.make(sample, error=level, micro=False, boost_error=False, mask=mask)
        self.version, self.level, self.mask = qr.version, level.lower(), mask
        self.length = len(data)
        if (self.version, self.level) not in _BLOCKS or self.version > 9:
            raise ValueError("forma de QR sem tabela")
        self.ec_per_block, self.blocks = _BLOCKS[(self.version, self.level)]
        self.size = 17 + 4 * self.version
        self.order = _placement_order(self.version)
        total_bits = (sum(self.blocks) + self.ec_per_block * len(self.blocks)) * 8 + _REMAINDER_BITS[self.version]
        if len(self.order) != total_bits:
            raise ValueError("ordem de módulos inconsistente")
        mask_fn = _MASKS[mask]
        self._mask_int = int.from_bytes(bytes(1 if mask_fn(r, c) else 0 for r, c in self.order), "big")
        template = bytearray()
        for row in qr.matrix:
            template.extend(row)
        self._template = bytes(template)
        # flat module i comes from the template (function patterns, format and version bits) or from the k-th
        # data bit: one C-level itemgetter call assembles the whole matrix.
        n_modules = self.size * self.size
        source = list(range(n_modules))
        for k, (r, c) in enumerate(self.order):
            source[r * self.size + c] = n_modules + k
        from operator import itemgetter
        self._assemble = itemgetter(*source)
        self._n_bits = len(self.order)
        if self.matrix(sample) != tuple(bytearray(row) for row in qr.matrix):
            raise ValueError("matriz diferente da do segno")

    def _codewords(self, data: bytes) -> list[int]:
        capacity = sum(self.blocks)
        # byte mode (0100), 8-bit count (versions 1–9), the data — as one big integer, shifted, no strings
        n_bits = 12 + 8 * len(data)
        value = (((0b0100 << 8) | len(data)) << (8 * len(data))) | int.from_bytes(data, "big")
        terminator = min(4, capacity * 8 - n_bits)
        n_bits += terminator
        # As segno does (so both give the same matrix): 1 to 8 zero bits up to the codeword boundary — a whole
        # zero byte when already aligned. Decoders stop at the terminator; what follows is padding either way.
        padding = min(8 - n_bits % 8, capacity * 8 - n_bits)
        n_bits += padding
        value <<= terminator + padding
        words = list(value.to_bytes(n_bits // 8, "big"))
        pad = (0xEC, 0x11)
        k = 0
        while len(words) < capacity:
            words.append(pad[k % 2])
            k += 1
        blocks, start = [], 0
        for n in self.blocks:
            blocks.append(words[start:start + n])
            start += n
        ecs = [_rs_remainder(block, self.ec_per_block) for block in blocks]
        out = []
        for i in range(max(self.blocks)):
            out.extend(block[i] for block in blocks if i < len(block))
        for i in range(self.ec_per_block):
            out.extend(ec[i] for ec in ecs)
        return out

    def fits(self, payload: str) -> bool:
        return len(payload.encode("utf-8")) == self.length

    def matrix(self, payload: str) -> tuple[bytearray, ...]:
        data = payload.encode("utf-8")
        if len(data) != self.length:
            raise ValueError("payload de outro tamanho")
        bits = b"".join([_BITS[w] for w in self._codewords(data)]) + bytes(_REMAINDER_BITS[self.version])
        # one byte (0 or 1) per data module: XOR with the mask as big integers never carries between bytes
        masked = (int.from_bytes(bits, "big") ^ self._mask_int).to_bytes(self._n_bits, "big")
        flat = bytes(self._assemble(self._template + masked))
        n = self.size
        return tuple(bytearray(flat[r * n:(r + 1) * n]) for r in range(n))


def batch_matrices(payloads: list[str], level: str = "m", mask: int = 4) -> list:
    """Matrices for all `payloads`: the fast encoder for those of the sample's shape (checked against segno),
    segno itself for any other."""
    import segno

    if not payloads:
        return []
    try:
        encoder = FixedShapeEncoder(payloads[0], level, mask)
    except ValueError:
        encoder = None
    out = []
    for payload in payloads:
        if encoder is not None and encoder.fits(payload):
            out.append(encoder.matrix(payload))
        else:
            out.append(segno.make(payload, error=level, micro=False, boost_error=False, mask=mask).matrix)
    return out


_DARK_RUN = re.compile(rb"\x01+")


def unit_path(matrix) -> tuple[int, str]:
    """(modules per side, PDF path operators) for the dark modules in module units, origin at the lower left:
    each horizontal run of dark modules is a rectangle, grown downwards while the rows below repeat the same run,
    and the whole set is filled at once ("f") — one path per code."""
    n = len(matrix)
    ops = []
    open_runs: dict[tuple[int, int], int] = {}     # (first, end) column span → first row of the rectangle
    for r, row in enumerate(matrix):
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


def unit_paths(payloads: list[str], level: str = "m", mask: int = 4) -> list[tuple[int, str]]:
    """The paths of many payloads — the work a sticker batch sends to other processes (no ReportLab here, so a
    spawned worker starts fast)."""
    return [unit_path(matrix) for matrix in batch_matrices(payloads, level, mask)]
