"""The demonstration's coat of arms (issue 17): `resources/brasao/brasao-demo.png`, a free drawing that is NOT the
municipality's official brasão, so that the demo's stickers, credentials and guides carry an image in their
header as the real ones will (and the bundle's smoke test proves a PNG from resources/ reaches the printed PDF).
A missing file gives None: the documents then print their text header alone, as for a municipality without one.
"""
from __future__ import annotations

from desktop.paths import resource

FILE = ("brasao", "brasao-demo.png")


def demo_brasao_png() -> bytes | None:
    path = resource(*FILE)
    if path is None or not path.is_file():
        return None
    return path.read_bytes()
