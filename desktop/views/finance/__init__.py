"""Financeiro screens of issue 13: the guides (DAM) of every debt, the bank's return file (and the ISSQN)."""
