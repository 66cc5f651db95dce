"""Entry point of the frozen program (PyInstaller, `packaging/desktop.spec`): the same as `python -m desktop`.

- `multiprocessing.freeze_support()` comes first: the sticker batch (`print sticker --all-pending`, the reports
  screen) draws its QR codes in worker processes, and a frozen program starts those workers by running itself.
- On Windows the program is windowed (no console), so `sys.stdout` is None: a command started from the Start menu
  (the installer's "Cópia de segurança" shortcut runs `TransporteAplicativo.exe backup --out …`) would say nothing.
  Its messages are then collected and shown in a message box at the end (an error box when it failed).
"""
from __future__ import annotations

import io
import multiprocessing
import sys


def _message_box(code: int, text: str) -> None:
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication(sys.argv[:1])
    icon = QMessageBox.Icon.Information if code == 0 else QMessageBox.Icon.Critical
    box = QMessageBox(icon, "Transporte por Aplicativo", text.strip() or "Concluído.")
    box.exec()
    del app


def starts_gui(argv: list[str]) -> bool:
    """No command word (only `--db URL`): the program opens its window, which shows its own messages."""
    rest, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--db":
            skip = True
        elif not arg.startswith("--db="):
            rest.append(arg)
    return not any(not arg.startswith("-") for arg in rest) and not {"-h", "--help"} & set(rest)


def run(argv: list[str] | None = None, show=_message_box) -> int:
    from desktop.cli import main

    argv = sys.argv[1:] if argv is None else list(argv)
    if (sys.stdout is not None and sys.stderr is not None) or starts_gui(argv):
        return main(argv)
    captured = io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = captured
    try:
        code = main(argv)
    except SystemExit as exc:  # a command that exits by itself
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdout, sys.stderr = saved
    text = captured.getvalue()
    show(code, text)
    return code


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(run())
