"""The program's own small settings file (JSON) in the user's config folder (platformdirs).

Today it holds the database URL chosen in the settings dialog; `None` means the default SQLite file.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import platformdirs

APP_NAME = "ChapadaTransporte"


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    backup_folder: str | None = None   # automatic backups of this desk (Administração → Cópias de segurança)


def settings_path() -> Path:
    """`<user config dir>/ChapadaTransporte/settings.json`; env DESKTOP_SETTINGS_FILE overrides (tests)."""
    override = os.environ.get("DESKTOP_SETTINGS_FILE")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "settings.json"


def load_settings() -> Settings:
    """Read the settings; a missing or unreadable file gives the defaults (never an error at start-up)."""
    path = settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in raw.items() if k in known}
    url = values.get("database_url")
    if url is not None and not isinstance(url, str):
        values["database_url"] = None
    elif isinstance(url, str) and not url.strip():
        values["database_url"] = None
    folder = values.get("backup_folder")
    if folder is not None and (not isinstance(folder, str) or not folder.strip()):
        values["backup_folder"] = None
    return Settings(**values)


def save_settings(settings: Settings | None = None, **changes) -> Settings:
    """Write the settings atomically (temp file + rename). Pass a Settings, or field changes:
    `save_settings(database_url="postgresql+psycopg://...")`."""
    current = settings if settings is not None else load_settings()
    if changes:
        current = replace(current, **changes)
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(asdict(current), ensure_ascii=False, indent=2)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return current
