"""Correspondência (issue 26; Art. 22, §§1-2): the outgoing register — every notice dispatched by post with AR, by
e-mail or by edital — the day's batch, the scanned ARs read back and joined, the e-mail replies imported.

The screen is `page.CorrespondencePage`; its dialogs are in `dialogs.py`, the scanned ARs' matching in `scans.py`.
"""
from desktop.views.correspondence.page import CorrespondencePage

__all__ = ["CorrespondencePage"]
