"""One way for a screen to call a service (STYLE: Anki's `CollectionOp`, `qt/aqt/operations/__init__.py`).

    op(self, lambda: drivers.save_driver(db, actor, draft)) \\
        .fields(self.errors).changes(Entity.DRIVERS).success(self._saved).run()

- `ValidationError` → its problems next to their fields (`.fields(FieldErrors)`, or a callable taking the
  problems); without fields, one message box listing them.
- `StaleRecordError` → "another desk saved first", with "Recarregar" when `.stale(reload)` was given;
  `.stale(reload, ask=False)` says so and reloads at once (a screen that shows the record itself).
- any other `DesktopError` → a message box with its Portuguese text; anything else → "Erro inesperado" (and the
  traceback on stderr, so a bug is never swallowed).
- a call that failed on a deadlock, a serialization failure or a busy database before it committed anything runs
  once more (`desktop.db.retrying`, issue 12 item 19); the user sees nothing of it.
- on success, `bus.data_changed` is emitted for each entity named in `.changes(...)`, then the success callback.
- `.cancelled(fn)` is called instead when a background call stopped on "Cancelar".
- `.background(title, label)` runs the call on a worker (desktop.background) with the delayed progress dialog and
  "Cancelar": use it whenever the call renders a PDF, imports a file or loops over many records. The call then
  receives the `TaskState` when `pass_state=True` (to report progress and to stop on cancel).

`run()` returns True when the call succeeded (synchronous form), so a dialog can `accept()` only then; in the
background form it returns True once started and the callbacks decide the rest.

A READ goes through `query_op` (Anki's `QueryOp`) instead of a try/except in each screen:

    query_op(self, lambda: catalog.list_codes(self.db)).titled("Não foi possível ler o catálogo") \
        .otherwise([]).success(self._fill).run()

- a failure is a message box titled as given, with the error's Portuguese text (`error_text`); `.inline(label)`
  puts that text in the screen's error label instead, `.failure(fn)` hands the error to the screen;
- `.otherwise(value)`: after the failure is shown, the success callback receives `value` (an empty list: the
  screen stays usable); without it, nothing more happens;
- nothing is announced on the bus (a read changes nothing); `.background(...)` runs it on a worker
  (desktop.background) and calls back on the UI thread, for the reads that may be slow.
"""
from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtWidgets import QMessageBox, QWidget

from desktop.domain.entities import Entity
from desktop.errors import DesktopError, StaleRecordError, ValidationError

STALE_TITLE = "Registro alterado por outro usuário"
FAILURE_TITLE = "Não foi possível concluir"


def error_text(error: BaseException) -> str:
    """What the user reads: the Portuguese message of a DesktopError; for anything else, a plain sentence."""
    if isinstance(error, DesktopError):
        return str(error)
    detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return f"Erro inesperado: {detail}"


def problems_text(problems: Iterable) -> str:
    return "\n".join(f"• {problem}" for problem in problems)


def reload_after_stale(parent: QWidget | None, error: BaseException, reload: Callable[[], None]) -> None:
    """Optimistic locking, when the screen shows the record itself: say another desk saved first, then show
    the current version (the user checks it and redoes the change)."""
    QMessageBox.warning(parent, STALE_TITLE, f"{error}\n\nO registro foi alterado por outro usuário; a versão "
                                             "atual foi carregada: confira e refaça a alteração.")
    reload()


def offer_reload(parent: QWidget | None, error: BaseException, reload: Callable[[], None] | None) -> bool:
    """Optimistic locking (SPEC §4): tell the user another desk saved first and offer "Recarregar".
    Calls `reload` and returns True when the user chose it. Without `reload`, only the warning."""
    if reload is None:
        QMessageBox.warning(parent, STALE_TITLE, f"{error}\n\nO registro foi alterado por outro usuário.")
        return False
    box = QMessageBox(QMessageBox.Icon.Warning, STALE_TITLE,
                      f"{error}\n\nO registro foi alterado por outro usuário. Recarregue para ver a versão atual.",
                      QMessageBox.StandardButton.NoButton, parent)
    reload_button = box.addButton("Recarregar", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Fechar", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(reload_button)
    box.exec()
    if box.clickedButton() is reload_button:
        reload()
        return True
    return False


class Op:
    """A service call made from a screen. Build with `op()`, chain, then `run()`."""

    def __init__(self, parent: QWidget | None, call: Callable[..., Any]):
        self._parent = parent
        self._call = call
        self._success: Callable[[Any], None] | None = None
        self._failure: Callable[[BaseException], bool | None] | None = None
        self._cancelled: Callable[[], None] | None = None
        self._fields: Any = None
        self._stale: Callable[[], None] | None = None
        self._stale_given = False
        self._stale_ask = True
        self._changes: tuple[str, ...] = ()
        self._background: dict | None = None
        self._title = FAILURE_TITLE
        self.result: Any = None
        self.error: BaseException | None = None
        self.task = None

    # -- chaining -----------------------------------------------------------------------------------------
    def success(self, callback: Callable[[Any], None]) -> "Op":
        self._success = callback
        return self

    def failure(self, callback: Callable[[BaseException], bool | None]) -> "Op":
        """Called first on any failure; return True to say "handled" (nothing else is shown)."""
        self._failure = callback
        return self

    def cancelled(self, callback: Callable[[], None]) -> "Op":
        """Called when a background call stopped because the user pressed "Cancelar" (nothing else is shown)."""
        self._cancelled = callback
        return self

    def fields(self, target: Any) -> "Op":
        """Where a ValidationError's problems go: a FieldErrors (its `show(problems)`), or a callable."""
        self._fields = target
        return self

    def stale(self, reload: Callable[[], None] | None, ask: bool = True) -> "Op":
        """On StaleRecordError: offer "Recarregar" (ask=True) or reload after the warning (ask=False)."""
        self._stale = reload
        self._stale_given = True
        self._stale_ask = ask
        return self

    def changes(self, *entities: Entity) -> "Op":
        """What the call changes, announced on the bus after it succeeded (`desktop.domain.entities`); a name that
        is no Entity raises at once, so nothing is ever announced that no screen can listen for."""
        self._changes = tuple(Entity(e) for e in entities)
        return self

    def titled(self, title: str) -> "Op":
        """The title of the message box shown on failure."""
        self._title = title
        return self

    def background(self, title: str | None = None, label: str = "Aguarde…", pass_state: bool = False,
                   show_progress: bool = True) -> "Op":
        self._background = {"title": title, "label": label, "pass_state": pass_state,
                            "show_progress": show_progress}
        return self

    # -- running ------------------------------------------------------------------------------------------
    def run(self) -> bool:
        if self._background is not None:
            return self._run_in_background()
        from desktop.db import retrying  # lazy: kept off the start-up path (the login window imports this module)

        try:
            result = retrying(self._call)
        except Exception as error:  # noqa: BLE001 — every failure becomes a message; nothing escapes the slot
            self._failed(error)
            return False
        self._succeeded(result)
        return True

    def _run_in_background(self) -> bool:
        from desktop.background import Task  # lazy: kept off the start-up path (the login window imports this module)

        from desktop.db import retrying  # lazy: kept off the start-up path (the login window imports this module)

        options = self._background or {}
        call = self._call
        if options.get("pass_state"):
            def job(state):
                return retrying(call, state)
        else:
            def job(state):
                return retrying(call)
        self.task = Task(job).success(self._succeeded).failure(self._failed)
        self.task.run_in_background(self._parent, title=options.get("title"), label=options.get("label", ""),
                                    show_progress=options.get("show_progress", True))
        return True

    def _succeeded(self, result: Any) -> None:
        self.result = result
        if self._changes:
            from desktop.signals import bus  # lazy: kept off the start-up path (the login window imports this module)

            for entity in self._changes:
                bus.data_changed.emit(entity)
        if self._success is not None:
            self._success(result)

    def _failed(self, error: BaseException) -> None:
        from desktop.background import Cancelled  # lazy: kept off the start-up path (the login window imports this module)

        self.error = error
        if isinstance(error, Cancelled):
            if self._cancelled is not None:
                self._cancelled()
            return
        if self._failure is not None and self._failure(error):
            return
        if isinstance(error, ValidationError):
            if self._fields is not None:
                show = getattr(self._fields, "show", self._fields)
                show(error.problems)
            else:
                QMessageBox.warning(self._parent, self._title, problems_text(error.problems) or str(error))
            return
        if isinstance(error, StaleRecordError):
            if self._stale is not None and not self._stale_ask:
                reload_after_stale(self._parent, error, self._stale)
            else:
                offer_reload(self._parent, error, self._stale)
            return
        if not isinstance(error, DesktopError):
            from desktop.errors import map_db_error  # a refusal raised outside a session

            mapped = map_db_error(error)
            if isinstance(mapped, DesktopError) and mapped is not error:
                mapped.__cause__ = error
                self._failed(mapped)
                return
        if not isinstance(error, DesktopError):
            text = getattr(error, "__traceback_text__", None) or "".join(
                traceback.format_exception(type(error), error, error.__traceback__))
            print(text, file=sys.stderr)
        QMessageBox.warning(self._parent, self._title, error_text(error))


def op(parent: QWidget | None, call: Callable[..., Any]) -> Op:
    """A service call from a screen: see the module's text."""
    return Op(parent, call)


class QueryOp:
    """A read made from a screen. Build with `query_op()`, chain, then `run()`."""

    def __init__(self, parent: QWidget | None, call: Callable[[], Any]):
        self._parent = parent
        self._call = call
        self._success: Callable[[Any], None] | None = None
        self._failure: Callable[[BaseException], None] | None = None
        self._inline = None
        self._fallback: tuple[Any] | None = None
        self._background: dict | None = None
        self._title = FAILURE_TITLE
        self.result: Any = None
        self.error: BaseException | None = None
        self.task = None

    def success(self, callback: Callable[[Any], None]) -> "QueryOp":
        self._success = callback
        return self

    def failure(self, callback: Callable[[BaseException], None]) -> "QueryOp":
        """The screen shows the error itself (no message box)."""
        self._failure = callback
        return self

    def titled(self, title: str) -> "QueryOp":
        self._title = title
        return self

    def inline(self, label) -> "QueryOp":
        """The error's text in `label` (made visible) instead of a message box."""
        self._inline = label
        return self

    def otherwise(self, value: Any) -> "QueryOp":
        """After a failure is shown, call the success callback with `value`."""
        self._fallback = (value,)
        return self

    def background(self, title: str | None = None, label: str = "Aguarde…", show_progress: bool = True) -> "QueryOp":
        self._background = {"title": title, "label": label, "show_progress": show_progress}
        return self

    def run(self) -> bool:
        if self._background is not None:
            from desktop.background import Task  # lazy: kept off the start-up path (the login window imports this module)

            call, options = self._call, self._background
            self.task = Task(lambda state: call()).success(self._succeeded).failure(self._failed)
            self.task.run_in_background(self._parent, title=options["title"], label=options["label"],
                                        show_progress=options["show_progress"])
            return True
        try:
            result = self._call()
        except Exception as error:  # noqa: BLE001 — every failure becomes a message; nothing escapes the slot
            self._failed(error)
            return False
        self._succeeded(result)
        return True

    def get(self) -> Any:
        """Run now (on this thread) and return what the read returned — or, after its failure was shown, the
        `otherwise` value (None without one). A background read answers through `.success` instead."""
        if self._background is not None:
            raise RuntimeError("query_op(...).background() entrega o resultado em .success(), não em .get().")
        self.run()
        return self.result

    def _succeeded(self, result: Any) -> None:
        self.result = result
        if self._success is not None:
            self._success(result)

    def _failed(self, error: BaseException) -> None:
        from desktop.background import Cancelled  # lazy: kept off the start-up path (the login window imports this module)

        self.error = error
        if isinstance(error, Cancelled):
            return
        if self._failure is not None:
            self._failure(error)
        elif self._inline is not None:
            self._inline.setText(error_text(error))
            self._inline.setVisible(True)
        else:
            QMessageBox.warning(self._parent, self._title, error_text(error))
        if self._fallback is not None:
            self._succeeded(self._fallback[0])


def query_op(parent: QWidget | None, call: Callable[[], Any]) -> QueryOp:
    """A read from a screen: see the module's text."""
    return QueryOp(parent, call)
