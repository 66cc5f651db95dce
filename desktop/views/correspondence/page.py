"""The Correspondência screen (issue 26; Art. 22, §§1-2): the dispatch register, lazily paged, filtered by state
(and by the lists behind the dashboard's tiles), the chosen dispatch's page, and the desk's jobs — the day's batch
for the post, its 2ª via, the scanned ARs read back, one AR received by hand, the month's edital of the returned
ARs, the e-mail sent through the office's SMTP server, its reply imported, the post offered for an unanswered one.

No SQL and no law here: the screen calls `desktop.services.correspondence` and draws the actions its
`DispatchInfo` carries; writes go through `op(...)` (rendering, reading scans and sending mail in the background).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget)

from desktop.domain.dates import local_today
from desktop.domain.entities import Entity
from desktop.domain.formatting import format_date
from desktop.domain.roles import DISPATCH_ROLES
from desktop.services import correspondence, documents
from desktop.services.correspondence import DISPATCH_FILTERS, SmtpSettings
from desktop.signals import bus
from desktop.views.correspondence.dialogs import DESK_CHANGES, EditalDialog, ReceiveDialog, RegisterPrintedDialog
from desktop.views.correspondence.scans import ScansDialog
from desktop.views.operations import op, query_op
from desktop.views.pdf_preview import PdfPreviewDialog
from desktop.views.registry.paged import ListColumn, PagedList
from desktop.views.widgets import show_info

__all__ = ["CorrespondencePage", "SCAN_FILES", "REPLY_FILES"]

SCAN_FILES = "ARs digitalizados (*.pdf *.jpg *.jpeg *.png *.tif *.tiff)"
REPLY_FILES = "Resposta de e-mail (*.eml *.msg)"
LISTENS = (Entity.DISPATCHES, Entity.AUTOS, Entity.ISSUED_DOCUMENT, Entity.DATA_REQUEST, Entity.DEMO)


def _date(value) -> str:
    return format_date(value) if value else "—"


COLUMNS = (
    ListColumn("Código", lambda r: r.code_text),
    ListColumn("Documento", lambda r: r.document_title),
    ListColumn("Destinatário", lambda r: r.recipient_name),
    ListColumn("Forma", lambda r: r.form_label),
    ListColumn("Situação", lambda r: r.state_label),
    ListColumn("Enviado em", lambda r: r.sent_on),
    ListColumn("Juntado em", lambda r: r.joined_on),
    ListColumn("Processo", lambda r: r.case_label),
)


class CorrespondencePage(QWidget):
    """The register on the left, the chosen dispatch and its actions on the right, the desk's jobs on top."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.sender = actor.has(*DISPATCH_ROLES.send)
        self.last_dialog = None
        self.last_saved: Path | None = None
        self.last_result = None

        title = QLabel("<h2>Correspondência (Art. 22, §§1º-2º)</h2>", self)
        self.batch_button = QPushButton("Expedição do dia…", self)
        self.batch_button.setToolTip("Imprime as notificações que aguardam o correio, um AR para cada e a lista "
                                     "de postagem, num só PDF (Art. 22, §1º, V)")
        self.batch_button.clicked.connect(self.day_batch)
        self.scans_button = QPushButton("Ler ARs digitalizados…", self)
        self.scans_button.setToolTip("PDF ou imagens do scanner: cada página ao lado da sua expedição")
        self.scans_button.clicked.connect(self.choose_scans)
        self.edital_button = QPushButton("Publicar edital do mês…", self)
        self.edital_button.setToolTip("Os processos cujo AR voltou sem entrega, num edital afixado no mural "
                                      "(Art. 22, §1º, II)")
        self.edital_button.clicked.connect(self.edital)
        self.reply_button = QPushButton("Importar resposta de e-mail…", self)
        self.reply_button.setToolTip("A resposta do destinatário (.eml ou .msg) é a prova de recebimento "
                                     "(Art. 22, §1º, VI)")
        self.reply_button.clicked.connect(self.choose_reply)
        self.printed_button = QPushButton("Registrar notificação impressa…", self)
        self.printed_button.setToolTip("Uma notificação impressa em outra tela (auto, ofício, convocação de vistoria) "
                                       "entra no registro com o seu código e a forma de notificação (Art. 22, §1º)")
        self.printed_button.clicked.connect(self.register_printed)
        for button in (self.batch_button, self.scans_button, self.edital_button, self.reply_button,
                       self.printed_button):
            button.setEnabled(self.sender)
            if not self.sender:
                button.setToolTip("Exige o perfil Fiscal ou Gestor.")
        jobs = QHBoxLayout()
        for button in (self.printed_button, self.batch_button, self.scans_button, self.edital_button,
                       self.reply_button):
            jobs.addWidget(button)
        jobs.addStretch(1)

        self.list = PagedList(COLUMNS, self._fetch, self, statuses=DISPATCH_FILTERS,
                              filter_placeholder="Filtrar por código, destinatário, documento ou processo…")
        self.list.set_widths((125, 165, 190, 130, 135, 82, 82))
        self.list.selection_changed.connect(lambda *_: self._chosen())
        self.list.activated.connect(self.open_document)      # Enter or a double-click: the notice that went

        detail = QWidget(self)
        detail.setMinimumWidth(300)
        self.detail_title = QLabel(detail)
        self.detail_title.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.detail_title.setWordWrap(True)
        self.detail = QLabel(detail)
        self.detail.setWordWrap(True)
        self.receive_button = QPushButton("Registrar recebimento…", detail)
        self.receive_button.clicked.connect(self.receive)
        self.email_button = QPushButton("Enviar por e-mail", detail)
        self.email_button.clicked.connect(self.send_email)
        self.post_button = QPushButton("Oferecer via postal", detail)
        self.post_button.setToolTip("O e-mail ficou sem resposta no prazo: a mesma notificação vai por carta com "
                                    "AR (Art. 22, §1º, V)")
        self.post_button.clicked.connect(self.offer_post)
        self.reprint_button = QPushButton("Reimprimir lote (2ª via)…", detail)
        self.reprint_button.setToolTip("O PDF do lote desta carta, com o carimbo de 2ª via; os códigos não mudam")
        self.reprint_button.clicked.connect(self.reprint_batch)
        self.document_button = QPushButton("Ver documento", detail)
        self.document_button.setToolTip("O documento expedido, como foi arquivado (Enter na lista)")
        self.document_button.clicked.connect(lambda: self.open_document())
        self._buttons = {"receive": self.receive_button, "email": self.email_button, "post": self.post_button}
        detail_layout = QVBoxLayout(detail)
        detail_layout.addWidget(self.detail_title)
        detail_layout.addWidget(self.detail)
        for button in (self.document_button, self.receive_button, self.email_button, self.post_button,
                       self.reprint_button):
            detail_layout.addWidget(button)
        detail_layout.addStretch(1)

        splitter = QSplitter(self)
        splitter.addWidget(self.list)
        splitter.addWidget(detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(title)
        layout.addLayout(jobs)
        layout.addWidget(splitter, 1)
        bus.data_changed.connect(self._data_changed)
        self.list.apply_filter()
        self._chosen()

    # -- the list -------------------------------------------------------------------------------------------
    def _fetch(self, query, offset: int, limit: int):
        return correspondence.dispatch_page(self.db, self.actor, query.status, query.text, offset, limit)

    def _data_changed(self, entity) -> None:
        if entity in LISTENS:
            self.reload()

    def reload(self) -> None:
        keep = self.selected()
        self.list.reload()
        if keep is not None:
            self.list.select_where(lambda r: r.id == keep.id)
        self._chosen()

    def selected(self):
        return self.list.selected()

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"status": "pending" | "ars_overdue" | "unanswered" | "for_edital" | a state} → the list so filtered."""
        combo = self.list.status_combo
        index = combo.findData(filter.get("status", ""))
        combo.setCurrentIndex(max(0, index))
        self.list.apply_filter()

    def _chosen(self) -> None:
        d = self.selected()
        for button in (*self._buttons.values(), self.reprint_button, self.document_button):
            button.setVisible(d is not None)
        if d is None:
            self.detail_title.setText("Escolha uma expedição na lista.")
            self.detail.setText("")
            return
        self.detail_title.setText(f"{d.code_text} — {d.state_label}")
        document = f"<b>{d.document_title}</b>" + ("" if d.document_number in d.document_title
                                                    else f" (documento nº {d.document_number})")
        lines = [document, d.case_label,
                 f"Destinatário: {d.recipient_name}", f"Forma: {d.form_label}"]
        if d.address:
            lines.append("Endereço: " + d.address.replace("\n", ", "))
        if d.email:
            lines.append(f"E-mail: {d.email}")
        lines.append(f"Enviado em: {_date(d.sent_on)}")
        if d.received_on:
            lines.append(f"Recebido em {_date(d.received_on)} por {d.received_by}")
        if d.returned_on:
            lines.append(f"Devolvido em {_date(d.returned_on)}: {d.return_reason}")
        if d.edital_posted_on:
            lines.append(f"Edital afixado em {_date(d.edital_posted_on)}")
        if d.joined_on:
            lines.append(f"<b>Prova juntada em {_date(d.joined_on)}</b> — o prazo corre desde "
                         f"{_date(d.term_starts_on)} (Art. 22, §2º)")
        self.detail.setText("<br>".join(lines))
        for key, button in self._buttons.items():
            button.setEnabled(self.sender and key in d.actions)
        self.receive_button.setVisible(d.form.value != "electronic" or "receive" in d.actions)
        self.email_button.setVisible(d.form.value == "electronic")
        self.post_button.setVisible(d.form.value == "electronic")
        self.reprint_button.setVisible(d.batch_id is not None)
        self.reprint_button.setEnabled(self.sender)

    def _show(self, info) -> None:
        """After a write: the list again, with the dispatch written chosen."""
        self.list.reload()
        if info is not None and not self.list.select_where(lambda r: r.id == info.id):
            self.list.status_combo.setCurrentIndex(0)
            self.list.apply_filter()
            self.list.select_where(lambda r: r.id == info.id)
        self._chosen()

    def open_document(self, row=None) -> bool:
        d = row if row is not None else self.selected()
        if d is None:
            return False
        number = d.document_number
        return query_op(self, lambda: documents.archived_bytes(self.db, self.actor, number)).titled("Documento expedido") \
            .success(lambda pdf: self._preview(pdf, f"{d.document_title} — {d.code_text}",
                                               f"{number.replace('/', '-')}.pdf")).run()

    def _preview(self, pdf: bytes, title: str, name: str) -> None:
        preview = PdfPreviewDialog(pdf, title, self, suggested_name=name)
        self.last_dialog = preview
        preview.open()

    # -- the day's batch --------------------------------------------------------------------------------------
    def day_batch(self) -> bool:
        return op(self, lambda: correspondence.day_batch(self.db, self.actor)).titled("Expedição do dia") \
            .changes(*DESK_CHANGES, Entity.ISSUED_DOCUMENT) \
            .background("Expedição do dia", "Montando as notificações, os ARs e a lista de postagem…") \
            .success(self._batch_done).run()

    def _batch_done(self, result) -> None:
        self.last_result = result
        if result is None:
            show_info(self, "Expedição do dia", "Nada a expedir: nenhuma carta com AR aguarda o correio.")
            return
        name = f"expedicao-{local_today():%Y-%m-%d}-lote-{result.batch_id}.pdf"
        saved = self._save_pdf(result.pdf, "Salvar o lote do dia", name)
        where = f"Salvo em {saved}." if saved else ("O arquivo não foi salvo; use «Reimprimir lote (2ª via)…» "
                                                    "numa das cartas do lote para obtê-lo.")
        show_info(self, "Expedição do dia", f"Lote nº {result.batch_id} (documento nº {result.document_number}): "
                                            f"{len(result.items)} carta(s) com AR marcadas como enviadas.\n{where}")

    def reprint_batch(self) -> bool:
        d = self.selected()
        if d is None or d.batch_id is None:
            return False
        batch_id = d.batch_id
        return op(self, lambda: correspondence.reprint_batch(self.db, self.actor, batch_id)) \
            .titled("Reimprimir lote").background("Reimprimir lote", "Montando a 2ª via…") \
            .success(lambda pdf: self._reprinted(batch_id, pdf)).run()

    def _reprinted(self, batch_id: int, pdf: bytes) -> None:
        self.last_result = pdf
        saved = self._save_pdf(pdf, "Salvar a 2ª via do lote", f"lote-{batch_id}-2a-via.pdf")
        if saved:
            show_info(self, "Reimprimir lote", f"2ª via do lote nº {batch_id} salva em {saved}.")

    def _save_pdf(self, pdf: bytes, title: str, name: str) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self, title, name, "Documento PDF (*.pdf)")
        if not path:
            return None
        target = Path(path if path.lower().endswith(".pdf") else path + ".pdf")
        try:
            target.write_bytes(pdf)
        except OSError as error:
            show_info(self, title, f"Não foi possível gravar {target}: {error.strerror or error}.")
            return None
        self.last_saved = target
        return target

    # -- the scanned ARs ----------------------------------------------------------------------------------------
    def choose_scans(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "ARs digitalizados", "", SCAN_FILES)
        if paths:
            self.read_scans(paths)

    def read_scans(self, paths) -> bool:
        try:
            files = [(Path(p).name, Path(p).read_bytes()) for p in paths]
        except OSError as error:
            show_info(self, "Ler ARs digitalizados", f"Não foi possível ler o arquivo: {error.strerror or error}.")
            return False
        return query_op(self, lambda: correspondence.read_scan(self.db, self.actor, files)) \
            .titled("ARs não lidos").background("Ler ARs digitalizados", "Lendo os códigos de barras…") \
            .success(self._scans_read).run()

    def _scans_read(self, lines) -> None:
        if not lines:
            show_info(self, "Ler ARs digitalizados", "Nenhuma página encontrada nos arquivos escolhidos.")
            return
        dialog = ScansDialog(self.db, self.actor, lines, self)
        self.last_dialog = dialog
        dialog.finished.connect(lambda *_: self.reload())
        dialog.open()

    # -- one AR by hand ---------------------------------------------------------------------------------------
    def receive(self) -> None:
        d = self.selected()
        if d is None:
            return
        dialog = ReceiveDialog(self.db, self.actor, d, self)
        self.last_dialog = dialog
        dialog.accepted.connect(lambda: self._show(dialog.saved))
        dialog.open()

    # -- the edital (Art. 22, §1, II) ---------------------------------------------------------------------------
    def edital(self) -> None:
        waiting = query_op(self, lambda: correspondence.returned_for_edital(self.db, self.actor)) \
            .titled("Edital").otherwise(()).get()
        if not waiting:
            show_info(self, "Publicar edital do mês", "Nenhum processo aguarda edital: nenhum AR de auto voltou "
                                                      "sem entrega.")
            return
        dialog = EditalDialog(self.db, self.actor, waiting, self)
        self.last_dialog = dialog
        dialog.accepted.connect(lambda: self._edital_posted(dialog.saved))
        dialog.open()

    # -- notices printed on other screens (issue 26: every printed notice enters the register) ---------------------
    def register_printed(self) -> None:
        printed = query_op(self, lambda: correspondence.printed_notices(self.db, self.actor)) \
            .titled("Registrar notificação impressa").otherwise(()).get()
        if not printed:
            show_info(self, "Registrar notificação impressa", "Todas as notificações impressas já estão no registro "
                                                              "de expedição.")
            return
        dialog = RegisterPrintedDialog(self.db, self.actor, printed, self)
        self.last_dialog = dialog
        dialog.accepted.connect(lambda: self.reload())
        dialog.open()

    def _edital_posted(self, issued) -> None:
        self.reload()
        if issued is None:
            return
        self._preview(issued.pdf, f"Edital nº {issued.info.number}",
                      f"edital-{issued.info.number.replace('/', '-')}.pdf")

    # -- e-mail (Art. 22, §1, VI) -------------------------------------------------------------------------------
    def send_email(self) -> bool:
        d = self.selected()
        if d is None:
            return False
        code = d.code

        def call():
            return correspondence.send_email(self.db, self.actor, code, SmtpSettings.from_environment())

        return op(self, call).titled("E-mail não enviado").changes(*DESK_CHANGES) \
            .background("Enviar por e-mail", "Enviando pelo servidor de e-mail da Secretaria…") \
            .success(self._sent).run()

    def _sent(self, info) -> None:
        self._show(info)
        show_info(self, "E-mail enviado", f"{info.document_title} enviado a {info.email}. A resposta do "
                                          "destinatário será a prova de recebimento: importe-a quando chegar.")

    def choose_reply(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Resposta de e-mail", "", REPLY_FILES)
        if path:
            self.import_reply(path)

    def import_reply(self, path: str) -> bool:
        file = Path(path)
        try:
            content = file.read_bytes()
        except OSError as error:
            show_info(self, "Importar resposta", f"Não foi possível ler {file.name}: {error.strerror or error}.")
            return False
        return op(self, lambda: correspondence.import_reply(self.db, self.actor, content, file.name)) \
            .titled("Resposta não importada").changes(*DESK_CHANGES).success(self._reply_joined).run()

    def _reply_joined(self, info) -> None:
        self._show(info)
        show_info(self, "Resposta importada", f"Resposta de {info.received_by} juntada em {_date(info.joined_on)} "
                                              f"à expedição {info.code_text} ({info.case_label}).")

    def offer_post(self) -> bool:
        d = self.selected()
        if d is None:
            return False
        code = d.code
        return op(self, lambda: correspondence.offer_post(self.db, self.actor, code)).titled("Via postal") \
            .changes(*DESK_CHANGES).success(self._posted).run()

    def _posted(self, info) -> None:
        self._show(info)
        show_info(self, "Via postal", f"Nova expedição {info.code_text} por carta com AR: entra na próxima "
                                      "expedição do dia.")
