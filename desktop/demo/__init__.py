"""Demonstration data (issue 2): `load_demo(db, drivers=N, seed=S, progress=None)` — see `desktop.demo.loader`."""
from desktop.demo.loader import ADMIN_PASSWORD, ADMIN_USERNAME, DEMO_PASSWORD, STAFF, DemoSummary, load_demo

__all__ = ["load_demo", "DemoSummary", "DEMO_PASSWORD", "ADMIN_USERNAME", "ADMIN_PASSWORD", "STAFF"]
