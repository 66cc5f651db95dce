"""Demo: a portrait for every demo driver (issue 28 point 7: the credential needs the photo, Art. 13, I —
"pessoal e intransferível"). Six drawn silhouettes, each stamped "DEMO", chosen by the driver's position in
the load — no random numbers are drawn, so the rest of the demo stays the same for the same seed. Not photos
of anyone."""
from __future__ import annotations

import io
from functools import lru_cache

PALETTE = ((0x8D, 0x5B, 0x3E), (0xC6, 0x86, 0x42), (0xE0, 0xAC, 0x69), (0x6B, 0x44, 0x23),
           (0xF1, 0xC2, 0x7D), (0x4A, 0x31, 0x2C))
BACKGROUNDS = ((0xDD, 0xE6, 0xF0), (0xE8, 0xE8, 0xE8), (0xF0, 0xE6, 0xDA))


@lru_cache(maxsize=1)
def demo_photos() -> tuple[bytes, ...]:
    """Six 3×4 portraits (PNG, 150 × 200 points) of no one."""
    from PIL import Image, ImageDraw  # lazy: Pillow loads only when this runs (start-up cost)

    photos = []
    for k, skin in enumerate(PALETTE):
        image = Image.new("RGB", (150, 200), BACKGROUNDS[k % len(BACKGROUNDS)])
        draw = ImageDraw.Draw(image)
        draw.ellipse((15, 120, 135, 260), fill=(0x2F, 0x4F, 0x6F) if k % 2 else (0x55, 0x55, 0x55))  # shoulders
        draw.ellipse((45, 40, 105, 115), fill=skin)                                                  # head
        draw.rectangle((0, 178, 150, 200), fill=(0xB0, 0x20, 0x20))
        draw.text((52, 183), "DEMO", fill=(255, 255, 255))
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        photos.append(out.getvalue())
    return tuple(photos)


def photo_for(index: int) -> bytes:
    photos = demo_photos()
    return photos[index % len(photos)]
