"""Where the embedded fonts come from: resources/ of the source checkout, an override folder, or the system."""
from pathlib import Path

from desktop.reports import fonts


def test_resources_found_in_the_source_checkout():
    fonts.resources_dir.cache_clear()
    folder = fonts.resources_dir()
    assert folder is not None and (folder / "fonts" / "DejaVuSans.ttf").is_file()
    assert (folder / "fonts" / "LICENSE-DejaVu.txt").read_text(encoding="utf-8").count("Bitstream") >= 2
    assert fonts.font_file(fonts.BOLD).name == "DejaVuSans-Bold.ttf"


def test_override_folder_comes_first_and_missing_fonts_fall_back(tmp_path, monkeypatch):
    (tmp_path / "fonts").mkdir()
    source = Path(fonts.font_file(fonts.REGULAR))
    (tmp_path / "fonts" / "DejaVuSans.ttf").write_bytes(source.read_bytes())
    monkeypatch.setenv("DESKTOP_RESOURCES", str(tmp_path))
    fonts.resources_dir.cache_clear()
    try:
        assert fonts.resources_dir() == tmp_path
        assert fonts.font_file(fonts.REGULAR) == tmp_path / "fonts" / "DejaVuSans.ttf"
        bold = fonts.font_file(fonts.BOLD)          # not in the override: found elsewhere, never None here
        assert bold is not None and bold.name == "DejaVuSans-Bold.ttf"
    finally:
        monkeypatch.delenv("DESKTOP_RESOURCES")
        fonts.resources_dir.cache_clear()


def test_registered_font_names_are_dejavu():
    assert fonts.register_fonts() == ("DejaVuSans", "DejaVuSans-Bold")
