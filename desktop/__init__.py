"""Back office of Lei nº 2.103/2025 of Chapada dos Guimarães–MT (app-based private passenger transport).

Rooms (../shared/STYLE.md): domain (pure law), models (tables), services (use cases), reports (PDF),
importers (pandas), views (PySide6), background (background work), processes (worker processes), migrations (Alembic), db, cli.
Nothing heavy is imported here: the start-up time of the program depends on it.
"""

__version__ = "0.1.0"
APP_NAME = "Transporte por Aplicativo"
APP_ORG = "Prefeitura de Chapada dos Guimarães"
APP_SLUG = "chapada-transporte"
