"""Autorizações (issue 4): requests, decisions, fee, inspection, activation with the NNNN/AAAA number, renewal,
vehicle substitution, suspension, revocation, cassation — and the change communications of Art. 13 XVIII.

The module page is `page.AuthorizationsPage` (its list `page.AuthorizationsScreen`; issue 22: a whole screen
lives in a module of its own, not in the package's face).
"""
