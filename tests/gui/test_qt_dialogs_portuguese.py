"""Issue 27 point 7: Qt's own dialogs wholly in Portuguese. Qt 6's file dialog labels carry mnemonics ("&Look in:",
"Files of &type:") that the wheel's qtbase_pt_BR lacks; the program's own translator says them."""
from __future__ import annotations

import re

from PySide6.QtWidgets import (QAbstractButton, QComboBox, QDialogButtonBox, QFileDialog, QLabel, QMessageBox,
                               QTreeView)

ENGLISH = re.compile(r"\b(Look|Files?|type|Save|Open|Cancel|Name|Size|Date|Modified|Back|Forward|Parent|Folder|"
                     r"Create|List|Detail|View|Yes|No|Close|Apply|Discard|Reset|Help|Show|Rename|Delete|hidden)\b")


def _texts(dialog) -> list[str]:
    from PySide6.QtCore import Qt

    texts = [w.text() for w in dialog.findChildren(QLabel)]
    texts += [b.text() for b in dialog.findChildren(QAbstractButton)]
    texts += [b.toolTip() for b in dialog.findChildren(QAbstractButton)]
    for tree in dialog.findChildren(QTreeView):
        model = tree.model()
        texts += [str(model.headerData(i, Qt.Orientation.Horizontal)) for i in range(model.columnCount())]
    from PySide6.QtGui import QAction

    texts += [a.text() for a in dialog.findChildren(QAction)]
    return [t.replace("&", "") for t in texts if t]


def test_the_file_dialog_speaks_portuguese_in_every_label(qtbot, tmp_path):
    from desktop.app import create_application

    create_application()
    for mode in (QFileDialog.AcceptMode.AcceptSave, QFileDialog.AcceptMode.AcceptOpen):
        dialog = QFileDialog(None, "Salvar como PDF…", str(tmp_path), "Documentos PDF (*.pdf)")
        qtbot.addWidget(dialog)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setAcceptMode(mode)
        dialog.show()
        labels = {label.objectName(): label.text() for label in dialog.findChildren(QLabel)}
        assert labels["lookInLabel"] == "&Procurar em:"
        assert labels["fileTypeLabel"] == "Arquivos do &tipo:"
        english = [t for t in _texts(dialog) if ENGLISH.search(t)]
        assert english == [], english
        assert [c for c in dialog.findChildren(QComboBox) if c.objectName() == "fileTypeCombo"]
        dialog.close()


def test_message_boxes_and_button_boxes_speak_portuguese(qtbot):
    from desktop.app import create_application

    create_application()
    box = QMessageBox(QMessageBox.Icon.Question, "Pergunta", "Confirma?",
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                      | QMessageBox.StandardButton.Cancel | QMessageBox.StandardButton.Close)
    qtbot.addWidget(box)
    assert [b.text().replace("&", "") for b in box.buttons()] and not [
        b.text() for b in box.buttons() if ENGLISH.search(b.text().replace("&", ""))]
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Discard
                               | QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Reset)
    qtbot.addWidget(buttons)
    assert not [b.text() for b in buttons.buttons() if ENGLISH.search(b.text().replace("&", ""))]
