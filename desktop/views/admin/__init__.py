"""Administração: users and roles, dated parameters, municipal holidays, municipality data, database settings,
automatic backups.

Each tab is its own widget owning its operations (STYLE: no god window); this page only arranges them and
shows the tabs the user's roles can use (the services still check every call).

The module page is `page.AdministrationPage` (issue 22: a whole screen lives in a module of its own, not in
the package's face).
"""
