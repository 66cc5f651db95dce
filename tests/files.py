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
