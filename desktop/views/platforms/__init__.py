"""The Plataformas module (issue 14): per platform, its municipal registration (Art. 6), APP insurance (Art. 5 X),
the 60-day lists delivered (Art. 5 VIII) with the next due date and the overdue flag, the reconciliation of the
latest list with the register, and the data requests (Art. 4) with the live countdown of the 24 hours of §2.

The screen is `page.PlatformsPage` (issue 22: a whole screen lives in a module of its own, not in the package's face).
"""
from desktop.views.platforms.page import PlatformsPage

__all__ = ["PlatformsPage"]
