"""Every button of a dialog has a mnemonic, unique within its dialog (issue 29 point 5).

The walk imports every module of desktop.views, builds each QDialog/QWizard subclass of the program that can be built
from the database and the user alone (over the demonstration), shows it, and reads its visible push buttons: each
text must carry an "&" and no two may share a letter. Dialogs that need a record to be built (an auto, a guide…) are
not built here; `give_mnemonics` is the same for them, and the last test proves it on a dialog of that kind.
"""
from __future__ import annotations

import importlib
import pkgutil

import pytest
from PySide6.QtWidgets import QDialog, QPushButton

from hands import settle
from robot import make_demo, open_copy


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("mnemonics") / "demo.sqlite3")


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def program_dialogs() -> list[type]:
    import desktop.views as views

    for module in pkgutil.walk_packages(views.__path__, "desktop.views."):
        importlib.import_module(module.name)
    return sorted({c for c in _subclasses(QDialog) if c.__module__.startswith("desktop.")},
                  key=lambda c: (c.__module__, c.__name__))


def problems_of(dialog) -> list[str]:
    texts = [b.text() for b in dialog.findChildren(QPushButton) if b.isVisible() and b.text()]
    found = [f"«{t}» sem mnemônico" for t in texts if "&" not in t.replace("&&", "")]
    letters = [t.replace("&&", "")[t.replace("&&", "").index("&") + 1].lower() for t in texts
               if "&" in t.replace("&&", "")]
    found += [f"Alt+{letter.upper()} repetido" for letter in sorted({x for x in letters if letters.count(x) > 1})]
    return found


def test_every_button_of_every_dialog_built_here_has_a_unique_mnemonic(qtbot, demo_template, tmp_path,
                                                                         monkeypatch):
    from desktop.views.inspections import dialogs as inspection_dialogs

    db, actor = open_copy(demo_template, tmp_path)
    # the booking dialog lists its free slots as soon as it opens, with the inspectors' names given by its page
    monkeypatch.setattr(inspection_dialogs, "slot_text", lambda slot, names: str(slot.start))
    built, problems = [], {}
    for cls in program_dialogs():
        dialog = None
        for args in ((db, actor), (db, actor, None), (), (db,)):
            try:
                dialog = cls(*args)
                break
            except Exception:   # noqa: BLE001 — needs a record or a file to be built: not one of these
                dialog = None
        if dialog is None:
            continue
        qtbot.addWidget(dialog)
        dialog.show()
        settle(20)
        built.append(cls.__name__)
        found = problems_of(dialog)
        if found:
            problems[f"{cls.__module__}.{cls.__name__}"] = found
        dialog.hide()
    assert len(built) >= 15, built
    assert problems == {}


def test_a_dialog_that_needs_a_record_gets_its_mnemonics_when_shown_too(qtbot):
    from desktop.views.enforcement.widgets import ReasonDialog

    dialog = ReasonDialog("Estornar lançamento", "Informe o motivo:", None, submit=lambda reason: None,
                          ok_text="Estornar")
    qtbot.addWidget(dialog)
    extra = QPushButton("&Cópia", dialog)      # a button that has a mnemonic keeps it, and its letter is taken
    dialog.layout().addWidget(extra)
    dialog.show()
    settle(20)
    assert problems_of(dialog) == []
    assert extra.text() == "&Cópia"
    texts = sorted(b.text() for b in dialog.findChildren(QPushButton) if b.isVisible())
    assert "&Estornar" in texts and not any(t.startswith("&C") for t in texts if t != "&Cópia"), texts
