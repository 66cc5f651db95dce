"""Cadastros (issue 4): condutores, veículos (com locadores) e plataformas — lists, wizards, detail pages.

Each tab owns its widgets and operations (STYLE: no god window); every write goes through one service call and
is announced on `bus.data_changed`, so every open list and detail page reloads itself.

The module page is `page.RegistryPage` (issue 22: a whole screen lives in a module of its own, not in the
package's face).
"""
