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


def test_document_service_import_does_not_load_reportlab_segno_or_pypdf():
    """The GUI imports the document service at start-up; ReportLab, segno and pypdf load only when printing."""
    import subprocess
    import sys
    code = ("import sys, desktop.services.documents, desktop.views.pdf_preview; "
            "print(sorted(m for m in ('reportlab', 'segno', 'pypdf', 'babel') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.stdout.strip() == "[]"
