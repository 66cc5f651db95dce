"""Service entry of the demonstration data (the setup wizard offers it on first start): see `desktop.demo`.

`load_demo(db, drivers=N, seed=S, progress=None, force=False)` — one transaction, one audit entry, every status;
`progress(done, total, text)` receives the phase being written (it matches `desktop.tasks` state.progress).
"""
from desktop.demo import ADMIN_PASSWORD, ADMIN_USERNAME, DEMO_PASSWORD, STAFF, DemoSummary, load_demo

__all__ = ["load_demo", "DemoSummary", "DEMO_PASSWORD", "ADMIN_USERNAME", "ADMIN_PASSWORD", "STAFF"]
