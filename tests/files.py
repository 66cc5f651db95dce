"""Real small files for tests that attach evidence (issue 11: the one attachment policy reads the type from the
bytes and proves it by parsing, so fake "%PDF-" bytes are refused). Deterministic: the same text gives the same
bytes (ReportLab's invariant mode), so "the same file again" tests still find the same SHA-256."""
from __future__ import annotations

import struct
import zlib


def tiny_pdf(text: str = "Documento de teste") -> bytes:
    """A one-page PDF with `text` on it (different text → different bytes and hash)."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 100), invariant=1)
    canvas.drawString(10, 50, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def tiny_png(width: int = 2, height: int = 2, rgb: tuple[int, int, int] = (255, 255, 255)) -> bytes:
    """A real PNG built with zlib (no Pillow): `width`×`height` pixels of one colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def tiny_jpeg(width: int = 4, height: int = 4, rgb: tuple[int, int, int] = (200, 200, 200)) -> bytes:
    """A real JPEG (Pillow, which ReportLab already brings)."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), rgb).save(buffer, "JPEG")
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------------ Outlook .msg
_FREE, _END, _FAT, _NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A Compound File Binary (MS-CFB, version 3: 512-byte sectors, 64-byte mini sectors below 4096 bytes) holding
    `streams` in its root storage — what Outlook writes a saved .msg as. Small on purpose: as many FAT sectors as
    the file needs (no DIFAT chain: up to 109 of them), a mini FAT, the directory as a chain of right siblings."""
    sector, mini_size, cutoff = 512, 64, 4096
    fat: list[int] = []
    chunks: list[bytes] = []

    def alloc(data: bytes) -> int:
        if not data:
            return _END
        count = -(-len(data) // sector)
        start = len(fat)
        fat.extend(start + i + 1 if i < count - 1 else _END for i in range(count))
        chunks.append(data + b"\0" * (count * sector - len(data)))
        return start

    mini = bytearray()
    minifat: list[int] = []
    starts: dict[str, int] = {}
    big: dict[str, bytes] = {}
    for name, data in streams.items():
        if len(data) >= cutoff:
            big[name] = data
            continue
        if not data:
            starts[name] = _END
            continue
        first, count = len(mini) // mini_size, -(-len(data) // mini_size)
        minifat.extend(first + i + 1 if i < count - 1 else _END for i in range(count))
        mini += data + b"\0" * (count * mini_size - len(data))
        starts[name] = first
    root_start = alloc(bytes(mini))
    for name, data in big.items():
        starts[name] = alloc(data)
    minifat_raw = struct.pack(f"<{len(minifat)}I", *minifat) if minifat else b""
    if minifat_raw:
        minifat_raw += struct.pack("<I", _FREE) * ((-len(minifat_raw) // 4) % 128)
    minifat_start = alloc(minifat_raw) if minifat_raw else _END

    def entry(name: str, kind: int, start: int, size: int, right: int = _NOSTREAM, child: int = _NOSTREAM) -> bytes:
        encoded = name.encode("utf-16-le") + b"\0\0"
        return (encoded.ljust(64, b"\0") + struct.pack("<HBB", len(encoded), kind, 1)
                + struct.pack("<III", _NOSTREAM, right, child) + b"\0" * 16 + b"\0" * 4 + b"\0" * 16
                + struct.pack("<IQ", start, size))

    names = list(streams)
    directory = entry("Root Entry", 5, root_start, len(mini), child=1 if names else _NOSTREAM)
    for i, name in enumerate(names, start=1):
        directory += entry(name, 2, starts[name], len(streams[name]), right=i + 1 if i < len(names) else _NOSTREAM)
    empty = b"\0" * 64 + struct.pack("<HBB", 0, 0, 0) + struct.pack("<III", _NOSTREAM, _NOSTREAM, _NOSTREAM) \
        + b"\0" * 48
    directory += empty * ((-len(directory) // 128) % 4)
    dir_start = alloc(directory)
    fat_sectors = 1
    while len(fat) + fat_sectors > fat_sectors * 128:
        fat_sectors += 1
    fat_start = len(fat)
    fat.extend([_FAT] * fat_sectors)
    fat.extend([_FREE] * (fat_sectors * 128 - len(fat)))
    chunks.append(struct.pack(f"<{len(fat)}I", *fat))
    difat = [fat_start + i for i in range(fat_sectors)] + [_FREE] * (109 - fat_sectors)
    header = (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 16 + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
              + b"\0" * 6 + struct.pack("<IIIIIIIII", 0, fat_sectors, dir_start, 0, cutoff, minifat_start,
                                        len(minifat_raw) // sector, _END, 0)
              + struct.pack("<109I", *difat))
    assert len(header) == 512
    return header + b"".join(chunks)


def outlook_msg(*, in_reply_to: str | None = None, references: str | None = None,
                message_id: str = "<resposta-msg@plataforma.example>", subject: str = "RE: Notificação",
                sender: str = "juridico@plataforma.example", sender_name: str = "Jurídico da Plataforma",
                headers: str | None = None, submitted=None, body: str = "Recebemos a notificação.",
                unicode: bool = True) -> bytes:
    """An Outlook .msg as Outlook saves one: the MAPI properties as `__substg1.0_IIIITTTT` streams (UTF-16 or
    8-bit text), PR_CLIENT_SUBMIT_TIME in `__properties_version1.0`, the transport headers when given."""
    kind, encoding = ("001F", "utf-16-le") if unicode else ("001E", "cp1252")
    props = {0x0037: subject, 0x0C1A: sender_name, 0x0C1F: sender, 0x1000: body, 0x1035: message_id,
             0x1039: references, 0x1042: in_reply_to, 0x007D: headers}
    streams = {f"__substg1.0_{pid:04X}{kind}": (value + "\0").encode(encoding) for pid, value in props.items()
               if value is not None}
    entries = [struct.pack("<IIQ", 0x001A001F if unicode else 0x001A001E, 6, 0)]   # PR_MESSAGE_CLASS tag
    streams[f"__substg1.0_001A{kind}"] = ("IPM.Note\0").encode(encoding)
    if submitted is not None:
        from datetime import datetime, timezone

        ticks = int((submitted - datetime(1601, 1, 1, tzinfo=timezone.utc)).total_seconds() * 10_000_000)
        entries.append(struct.pack("<IIQ", 0x00390040, 6, ticks))
    streams["__properties_version1.0"] = b"\0" * 32 + b"".join(entries)
    return compound_file(streams)
