"""The main window hosts navigation only (STYLE: no god window): a sidebar with every module of SPEC, a stack
that creates each module's screen the first time it is opened (its module is imported only then, so start-up
stays fast), the menu and the status bar. Each screen owns its widgets and its operations.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from PySide6.QtCore import QObject, QSettings, QSize, Qt, Signal
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (QAbstractButton, QApplication, QDialog, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QMainWindow, QMessageBox, QPlainTextEdit, QPushButton, QSplitter,
                               QStackedWidget, QTextEdit, QVBoxLayout, QWidget)

from desktop.domain.roles import Role
from desktop.paths import resource
from desktop.settings import settings_path
from pathlib import PurePath
from desktop import APP_NAME, APP_ORG
from desktop.services.demo import DEMO_LABEL, is_demo_db
from desktop.views import keyboard
from desktop.views.table import keyboard_list
from desktop.services.actors import on_session_revoked
from desktop.services.actors import remove_session_listener
from desktop.views.login import LoginDialog
from desktop.views.widgets import fit_size
from PySide6.QtGui import QGuiApplication
from desktop.views.keyboard import has_typed_data
from desktop.views.home import HomePage
from desktop.views.keyboard import with_mnemonics
from desktop.views.keyboard import confirm_discard
from desktop.manual import chapter_page, manual_path
from desktop.views.pdf_preview import PdfPreviewDialog
from desktop.views.database_settings import DatabaseSettingsDialog
from desktop.views.password import ChangePasswordDialog
from desktop import __version__


@dataclass(frozen=True)
class Module:
    key: str
    label: str
    icon: str
    factory: str | None = None          # "package.module:Class" — Class(db, actor, parent)
    unavailable: str = ""               # what to say while the module is not part of this version
    roles: frozenset[Role] = frozenset()  # empty: every user sees it (services still check every action)


MODULES: tuple[Module, ...] = (
    Module("cadastros", "Cadastros", "cadastros.svg", factory="desktop.views.registry.page:RegistryPage"),
    Module("autorizacoes", "Autorizações", "autorizacoes.svg",
           factory="desktop.views.authorizations.page:AuthorizationsPage"),
    Module("vistorias", "Vistorias", "vistorias.svg", factory="desktop.views.inspections.page:InspectionsPage"),
    Module("fiscalizacao", "Fiscalização", "fiscalizacao.svg", factory="desktop.views.enforcement.page:EnforcementPage"),
    Module("financeiro", "Financeiro/ISSQN", "financeiro.svg", factory="desktop.views.finance.page:FinancePage"),
    Module("plataformas", "Plataformas", "plataformas.svg", factory="desktop.views.platforms.page:PlatformsPage"),
    # Issue 16: courses and lectures (Art. 12 §2) are a module of their own — sessions, convocations, attendance
    # and absences touch drivers, documents and autos, more than one Cadastro tab could hold.
    Module("cursos", "Cursos", "cursos.svg", factory="desktop.views.courses.page:CoursesPage"),
    Module("viagens", "Viagens", "viagens.svg", factory="desktop.views.trips.page:TripsPage",
           roles=frozenset({Role.FISCAL, Role.GESTOR})),
    # Issue 26: the correspondence desk (Art. 22, §1-§2) — every notice dispatched, its AR or e-mail reply joined
    Module("correspondencia", "Correspondência", "correspondencia.svg",
           factory="desktop.views.correspondence.page:CorrespondencePage"),
    Module("relatorios", "Relatórios", "relatorios.svg", factory="desktop.views.reports.page:ReportsPage"),
    Module("administracao", "Administração", "administracao.svg", factory="desktop.views.admin.page:AdministrationPage",
           roles=frozenset({Role.ADMINISTRADOR, Role.GESTOR})),
)


HOME_KEY = "inicio"
HOME_LABEL = "Início"
# Issue 29 point 5: a key for each module, fixed whatever the user's roles (the manual lists them)
MODULE_SHORTCUTS = {"cadastros": "Ctrl+1", "autorizacoes": "Ctrl+2", "vistorias": "Ctrl+3", "fiscalizacao": "Ctrl+4",
                    "financeiro": "Ctrl+5", "plataformas": "Ctrl+6", "cursos": "Ctrl+7", "viagens": "Ctrl+8",
                    "relatorios": "Ctrl+9", "administracao": "Ctrl+Shift+A", "correspondencia": "Ctrl+Shift+C", HOME_KEY: "Ctrl+0"}
WINDOW_LIMIT = QSize(1366, 768)   # the office screen: on it (or smaller) the window opens maximized


def window_settings(username: str) -> QSettings:
    """The window's state and geometry, per user (issue 27 point 3), in an .ini beside the program's settings."""

    path = settings_path().with_name("janela.ini")
    settings = QSettings(str(path), QSettings.Format.IniFormat)
    settings.beginGroup(f"usuario_{username}")
    return settings


class UnavailableModulePage(QWidget):
    """What a module that is not part of this version shows: the plain truth, no fake content (issue 2)."""

    def __init__(self, module: Module, parent=None):
        super().__init__(parent)
        title = QLabel(f"<h2>{module.label}</h2>", self)
        self.message = QLabel(module.unavailable, self)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.addWidget(title)
        layout.addWidget(self.message)
        layout.addStretch(1)


def short_description(text: str, limit: int = 48) -> str:
    """"SQLite: /a/long/folder/transporte.sqlite3" → "SQLite: …/transporte.sqlite3" when it would not fit the
    status bar; a server address stays whole."""
    if len(text) <= limit or not text.startswith("SQLite: "):
        return text

    return f"SQLite: …/{PurePath(text[len('SQLite: '):]).name}"


def roles_text(roles) -> str:
    ordered = [role for role in Role if role in set(roles)]
    return ", ".join(role.label for role in ordered) or "nenhum perfil"


class _SessionWatch(QObject):
    """Carries a refused write of this window's user (any thread) to the UI thread as a queued signal."""

    revoked = Signal(str)


class MainWindow(QMainWindow):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db = db
        self.actor = actor

        self.is_demo = is_demo_db(db)
        self.setWindowTitle(("DEMONSTRAÇÃO — " if self.is_demo else "") + f"{APP_NAME} — {APP_ORG}")
        self.resize(self.default_size())

        keyboard.install()
        self.modules = [m for m in MODULES if not m.roles or any(r in m.roles for r in actor.roles)]
        self.pages: dict[str, QWidget] = {}

        self.sidebar = QListWidget(self)
        self.sidebar.setIconSize(QSize(24, 24))
        self.sidebar.setMinimumWidth(190)
        self.sidebar.setMaximumWidth(260)
        self.sidebar.setStyleSheet("QListWidget { font-size: 11pt; } QListWidget::item { padding: 8px 6px; }")
        home_item = QListWidgetItem(HOME_LABEL, self.sidebar)     # issue 27 point 4: the way back home
        home_icon = resource("icons", "inicio.svg")
        if home_icon is not None and home_icon.exists():
            home_item.setIcon(QIcon(str(home_icon)))
        home_item.setData(Qt.ItemDataRole.UserRole, HOME_KEY)
        home_item.setToolTip(f"{HOME_LABEL} ({MODULE_SHORTCUTS[HOME_KEY]})")
        for module in self.modules:
            item = QListWidgetItem(module.label, self.sidebar)
            icon_path = resource("icons", module.icon)
            if icon_path is not None and icon_path.exists():
                item.setIcon(QIcon(str(icon_path)))
            item.setData(Qt.ItemDataRole.UserRole, module.key)
            item.setToolTip(f"{module.label} ({MODULE_SHORTCUTS.get(module.key, '')})")
        self.stack = QStackedWidget(self)
        self.home = self._home_page()
        self.stack.addWidget(self.home)
        splitter = QSplitter(self)
        splitter.addWidget(self.sidebar)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        self.setCentralWidget(splitter)
        # Issue 29 point 5: the arrows move through the sidebar without opening each module they pass; a click or
        # Enter opens (type-ahead by the first letters still moves)
        self.sidebar.itemClicked.connect(lambda item: self._open_row(self.sidebar.row(item)))
        self.sidebar.itemActivated.connect(lambda item: self._open_row(self.sidebar.row(item)))

        keyboard_list(self.sidebar)
        self.sidebar.setCurrentRow(0)

        self._build_menu()
        self.user_label = QLabel(f"Usuário: {actor.full_name} ({actor.username})", self)
        self.roles_label = QLabel(f"Perfis: {roles_text(actor.roles)}", self)
        self.database_label = QLabel(f"Banco de dados: {short_description(db.describe())}", self)
        self.database_label.setToolTip(f"Banco de dados: {db.describe()}")   # the whole path (issue 27: it fits)
        for index, label in enumerate((self.user_label, self.roles_label, self.database_label)):
            label.setStyleSheet("padding: 0 8px;" + (" border-left: 1px solid #b0b0b0;" if index else ""))
            self.statusBar().addPermanentWidget(label)
        self.security_label = QLabel(self._security_warning(DEMO_LABEL), self)
        self.security_label.setStyleSheet("padding: 0 8px; color: #b00020; font-weight: bold;")
        self.security_label.setVisible(bool(self.security_label.text()))
        self.statusBar().addPermanentWidget(self.security_label)
        self.backup_label = QLabel(self)   # the day's automatic copy (issue 17), once it has run
        self.backup_label.setVisible(False)
        self.statusBar().addPermanentWidget(self.backup_label)
        self._watch_session()
        # No module is opened at start (each screen is created when first chosen, so the main window appears
        # at once even with 100,000 drivers). The home page takes the focus, or the sidebar would pick its first
        # row by itself when the window is activated.
        self.home.setFocus()

    def show_backup_outcome(self, outcome, failure: str | None = None) -> None:
        """The automatic copy's result in the status bar: green when made or already made today, red when the
        folder is missing, not chosen or the copy failed (an alert, never a crash)."""
        if outcome is None:
            text, alert = f"Cópia de segurança não feita: {failure}", True
        else:
            text, alert = outcome.message, outcome.alert
        short = "Cópia de segurança do dia: " + ("ATENÇÃO" if alert else "ok")
        self.backup_label.setText(short)
        self.backup_label.setToolTip(text)
        self.backup_label.setStyleSheet("padding: 0 8px; color: %s; font-weight: bold;"
                                        % ("#b00020" if alert else "#1b5e20"))
        self.backup_label.setVisible(True)
        self.statusBar().showMessage(text, 20000)

    def _security_warning(self, demo_label: str) -> str:
        """Issue 11: the status bar says when the data has no legal value, or when this desk connects to
        PostgreSQL as the owner of the tables (it could switch the append-only triggers off)."""
        parts = [demo_label] if self.is_demo else []
        try:
            owner = self.db.runs_as_table_owner()
        except Exception:  # noqa: BLE001 — a warning must never keep the window from opening
            owner = False
        if owner:
            parts.append("ATENÇÃO: conectado ao PostgreSQL como dono das tabelas — use o usuário da aplicação "
                         "(setup-server)")
        return " · ".join(parts)

    # -- live session (issue 11): a deactivated, locked or demoted user goes back to the login ---------------
    def _watch_session(self) -> None:

        self._session_watch = _SessionWatch(self)
        self._session_watch.revoked.connect(self.return_to_login, Qt.ConnectionType.QueuedConnection)
        self.successor = None
        self.relogin = None
        on_session_revoked(self._session_revoked)

    def _session_revoked(self, actor, message: str) -> None:
        if actor.user_id == self.actor.user_id:
            self._session_watch.revoked.emit(message)

    def return_to_login(self, message: str) -> None:
        """Hide this window and show the login with the reason; a new login opens a fresh main window."""

        if self.relogin is not None:
            return
        remove_session_listener(self._session_revoked)
        self.relogin = LoginDialog(self.db, None, username=self.actor.username)
        self.relogin._say(message + " Entre de novo para continuar.")
        self.relogin.accepted.connect(self._logged_in_again)
        self.relogin.rejected.connect(self.close)
        self.relogin.show()
        self.hide()

    def _logged_in_again(self) -> None:
        self.successor = MainWindow(self.db, self.relogin.actor)
        self.successor.show_as_remembered()
        self._switching = True
        self.close()

    def closeEvent(self, event) -> None:  # noqa: N802 — Qt name

        asked = event.spontaneous() or getattr(self, "_quit_requested", False)   # × or Ctrl+Q, not a program close
        self._quit_requested = False
        if asked and self.relogin is None and not getattr(self, "_switching", False) and self.has_typed_data():
            from desktop.views.keyboard import confirm_discard  # local: imported only on this branch

            if not confirm_discard(self):        # Ctrl+Q / × with typed work asks first (issue 29 point 5)
                event.ignore()
                return
        self.remember_geometry()
        remove_session_listener(self._session_revoked)
        super().closeEvent(event)

    # -- the window on the screen (issue 27 point 3) --------------------------------------------------------
    def default_size(self) -> QSize:

        return fit_size(1366, 768, self)

    def show_as_remembered(self) -> None:
        """Show the window as this user left it; the first time maximized on a screen up to 1366×768, otherwise
        inside the free area of the screen (taskbar excluded), never larger than the screen."""

        settings = window_settings(self.actor.username)
        geometry, maximized = settings.value("geometry"), settings.value("maximized")
        screen = self.screen() or QGuiApplication.primaryScreen()
        free = screen.availableGeometry() if screen is not None else None
        if geometry is not None:
            self.restoreGeometry(geometry)
        if free is not None and not free.contains(self.frameGeometry()):
            size = self.default_size()
            self.resize(size)
            self.move(free.x() + max(0, (free.width() - size.width()) // 2),
                      free.y() + max(0, (free.height() - size.height() - 32) // 2))
        small = free is not None and free.width() <= WINDOW_LIMIT.width() and free.height() <= WINDOW_LIMIT.height()
        if str(maximized).lower() == "true" or (maximized is None and small):
            self.showMaximized()
        else:
            self.show()

    def remember_geometry(self) -> None:
        try:
            settings = window_settings(self.actor.username)
            settings.setValue("geometry", self.saveGeometry())
            settings.setValue("maximized", self.isMaximized())
            settings.sync()
        except Exception:  # noqa: BLE001 — a settings folder that cannot be written never keeps the window open
            pass

    def has_typed_data(self) -> bool:
        """A dialog or wizard of this window with typed data, or a form of the screen with text edited."""

        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QDialog) and widget.isVisible() and has_typed_data(widget):
                return True
        page = self.stack.currentWidget()
        for edit in page.findChildren(QLineEdit) if page is not None else ():
            if edit.isVisible() and edit.isModified() and edit.text().strip() and not edit.isReadOnly() \
                    and not (edit.placeholderText() or "").lower().startswith(("filtrar", "buscar", "pesquisar")):
                return True
        for kind in (QPlainTextEdit, QTextEdit):
            for edit in page.findChildren(kind) if page is not None else ():
                if edit.isVisible() and not edit.isReadOnly() and edit.document().isModified() \
                        and edit.toPlainText().strip():
                    return True
        return False

    # -- navigation -----------------------------------------------------------------------------------------
    def module_labels(self) -> list[str]:
        """The modules of the sidebar (after "Início")."""
        return [self.sidebar.item(i).text() for i in range(1, self.sidebar.count())]

    def sidebar_labels(self) -> list[str]:
        return [self.sidebar.item(i).text() for i in range(self.sidebar.count())]

    def open_module(self, key: str) -> QWidget:
        if key == HOME_KEY:
            self.go_home()
            return self.home
        for row, module in enumerate(self.modules):
            if module.key == key:
                self._open_row(row + 1)
                return self.pages[key]
        raise KeyError(key)

    def go_home(self) -> None:
        self._open_row(0)

    def _open_row(self, row: int) -> None:
        if row < 0:
            return
        self.sidebar.blockSignals(True)
        self.sidebar.setCurrentRow(row)
        self.sidebar.blockSignals(False)
        if row == 0:
            self.stack.setCurrentWidget(self.home)
            return
        module = self.modules[row - 1]
        page = self.pages.get(module.key)
        if page is None:
            page = self._create_page(module)
            self.pages[module.key] = page
            self.stack.addWidget(page)
        self.stack.setCurrentWidget(page)

    def _create_page(self, module: Module) -> QWidget:
        if module.factory is None:
            return UnavailableModulePage(module, self.stack)
        module_name, _, class_name = module.factory.partition(":")
        page_class = getattr(importlib.import_module(module_name), class_name)
        return page_class(self.db, self.actor, self.stack)

    def _home_page(self) -> QWidget:
        """Issue 16: the dashboard of what is due today (desktop.views.home); its tiles open filtered lists."""

        page = HomePage(self.db, self.actor, self)
        page.target_requested.connect(self.open_target)
        return page

    def open_target(self, target) -> QWidget | None:
        """Open the module of a dashboard tile and apply its filter (the screen's `open_filtered`)."""
        if not any(m.key == target.module for m in self.modules):
            return None
        page = self.open_module(target.module)
        if hasattr(page, "open_filtered"):
            page.open_filtered(dict(target.filter))
        return page

    # -- menu -----------------------------------------------------------------------------------------------
    def _build_menu(self) -> None:
        file_menu = self.menuBar().addMenu("&Arquivo")
        self.database_action = QAction("Configurar &banco de dados…", self)
        self.database_action.triggered.connect(self.configure_database)
        file_menu.addAction(self.database_action)
        password_action = QAction("Alterar minha &senha…", self)
        password_action.triggered.connect(self.change_password)
        file_menu.addAction(password_action)
        self.switch_user_action = QAction("&Trocar usuário…", self)      # issue 27 point 4
        self.switch_user_action.triggered.connect(self.switch_user)
        file_menu.addAction(self.switch_user_action)
        file_menu.addSeparator()
        self.quit_action = QAction("Sai&r", self)
        self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.quit_action.triggered.connect(self.quit_asking)
        file_menu.addAction(self.quit_action)
        go_menu = self.menuBar().addMenu("&Ir")
        self.go_actions: dict[str, QAction] = {}

        entries = [(HOME_KEY, HOME_LABEL)] + [(m.key, m.label) for m in self.modules]
        labels = with_mnemonics([label for _key, label in entries], taken="fnvt")   # F, N, V, T: the four below
        entries = [(key, label) for (key, _old), label in zip(entries, labels)]
        for key, label in entries:
            action = QAction(label, self)
            action.setShortcut(QKeySequence(MODULE_SHORTCUTS[key]))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(lambda _checked=False, k=key: self.open_module(k))
            go_menu.addAction(action)
            self.go_actions[key] = action
        go_menu.addSeparator()
        for text, keys, slot in (("&Filtrar a lista", "Ctrl+F", self.focus_filter),
                                 ("&Novo…", "Ctrl+N", self.new_record),
                                 ("Edi&tar o registro…", "F2", self.edit_record),
                                 ("&Voltar à lista", "Esc", self.back_to_list)):
            action = QAction(text, self)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(slot)
            go_menu.addAction(action)
            self.go_actions[keys] = action
        help_menu = self.menuBar().addMenu("Aj&uda")
        self.manual_action = QAction("&Manual", self)
        self.manual_action.setShortcut(QKeySequence.StandardKey.HelpContents)   # F1
        self.manual_action.triggered.connect(self.open_manual)
        help_menu.addAction(self.manual_action)
        about_action = QAction("&Sobre", self)
        about_action.triggered.connect(self.about)
        help_menu.addAction(about_action)

    # -- keys of the screen on display (issue 29 point 5) ---------------------------------------------------
    def _visible(self, kind):
        page = self.stack.currentWidget()
        return [w for w in page.findChildren(kind) if w.isVisible() and w.isEnabled()] if page is not None else []

    def focus_filter(self) -> QWidget | None:
        """Ctrl+F: the filter box of the list on screen."""
        for edit in self._visible(QLineEdit):
            if (edit.placeholderText() or "").lower().startswith(("filtrar", "buscar", "pesquisar")):
                edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
                edit.selectAll()
                return edit
        return None

    def new_record(self) -> QAbstractButton | None:
        """Ctrl+N: the module's "Novo…"/"Nova…" button on screen."""
        for button in self._visible(QPushButton):
            text = button.text().replace("&", "")
            if text.startswith(("Novo", "Nova")):
                button.click()
                return button
        return None

    def edit_record(self) -> QAbstractButton | None:
        """F2: the "Editar…" button of the record on screen (or of the row chosen in its list), when enabled."""
        for button in self._visible(QPushButton):
            if button.text().replace("&", "").startswith("Editar"):
                button.click()
                return button
        return None

    def back_to_list(self) -> QAbstractButton | None:
        """Esc on a record: its "Voltar à lista" button."""
        for button in self._visible(QPushButton):
            if "Voltar à lista" in button.text().replace("&", ""):
                button.click()
                return button
        return None

    def quit_asking(self) -> None:
        """Arquivo → Sair (Ctrl+Q): asks first when a form has typed data."""
        self._quit_requested = True
        self.close()

    def switch_user(self) -> None:
        """Arquivo → Trocar usuário…: back to the login without closing the program (issue 27 point 4)."""

        if self.has_typed_data() and not confirm_discard(self):
            return
        if self.relogin is not None:
            return
        self.remember_geometry()
        remove_session_listener(self._session_revoked)
        self.relogin = LoginDialog(self.db, None)
        self.relogin.accepted.connect(self._logged_in_again)
        self.relogin.rejected.connect(self._switch_cancelled)
        self._switching = True
        self.hide()
        self.relogin.show()

    def _switch_cancelled(self) -> None:
        self.close()

    def current_module_key(self) -> str | None:
        """The key of the module on screen (None on the home page)."""
        current = self.stack.currentWidget()
        return next((key for key, page in self.pages.items() if page is current), None)

    def open_manual(self):
        """Ajuda → Manual (F1): the manual inside the program, at the chapter of the open module (issue 17)."""

        path = manual_path()
        if path is None:
            QMessageBox.information(self, "Manual", "O manual não foi encontrado nesta instalação. Ele é gerado "
                                                    "com o comando python tools/manual.py.")
            return None

        dialog = PdfPreviewDialog(path.read_bytes(), "Manual do usuário", self, suggested_name="manual.pdf")
        self.manual_dialog = dialog
        dialog.show()
        dialog.go_to_page(chapter_page(self.current_module_key()))   # once shown: the view has its pages laid out
        return dialog

    def configure_database(self) -> None:

        DatabaseSettingsDialog(current=self.db.describe(), parent=self).exec()

    def change_password(self) -> None:

        if ChangePasswordDialog(self.db, self.actor, self).exec() == ChangePasswordDialog.DialogCode.Accepted:
            QMessageBox.information(self, "Senha alterada", "Sua senha foi alterada.")

    def about(self) -> None:

        QMessageBox.about(
            self, f"Sobre — {APP_NAME}",
            f"<b>{APP_NAME}</b> — versão {__version__}<br>{APP_ORG}<br><br>"
            "Gestão do serviço de transporte remunerado privado individual de passageiros por aplicativo, "
            "conforme a Lei Municipal nº 2.103/2025 de Chapada dos Guimarães–MT.<br><br>"
            f"Banco de dados: {self.db.describe()}")
