"""What the system proposes for an auto (Art. 24–27), in words a fiscal and a gestor read at a glance.

The proposal comes from `services.autos.preview_assessment` (before saving) or from the stored assessment of an
auto (`AssessmentView` / `domain.Assessment`); this module only turns it into Portuguese lines.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout

from desktop.domain.formatting import format_date, format_money, format_upfm
from PySide6.QtGui import QTextDocument


def penalty_lines(view) -> list[str]:
    """The penalties beside the fine, each with its article (lower case, to read inside a sentence)."""
    lines: list[str] = []
    if view.suspension_months:
        lines.append(f"suspensão de {view.suspension_months} meses da autorização (Art. 24, parágrafo único)")
    if view.suspension_days:
        lines.append(f"suspensão de {view.suspension_days} dias da autorização (Art. 26, §1)")
    if view.cassation:
        lines.append("cassação da autorização (Art. 24, I, e; Art. 26, §2)")
    if view.vehicle_seizure:
        lines.append("apreensão do veículo até a regularização (Art. 24, II, d; Art. 27, parágrafo único)")
    if view.impediment:
        lines.append("impedimento imediato de realizar o serviço (Art. 16, §2; Art. 26, II)")
    return lines


def recurrence_line(view) -> str:
    since = f" desde {format_date(view.window_start)}" if view.window_start else ""
    if view.recurrence:
        numbers = ", ".join(view.recurrent_autos) if view.recurrent_autos else "anterior"
        return (f"Reincidência encontrada: auto(s) nº {numbers} com decisão definitiva pelo mesmo código"
                f"{since}.")
    return f"Sem reincidência: nenhum auto definitivo do mesmo código e infrator{since}."


def assessment_html(view, year: int | None = None) -> str:
    """The whole proposal as rich text: code, fine in UPFM and reais, recurrence, penalties, articles."""
    year = year or getattr(view, "upfm_year", None)
    year_text = f" (ano {year}, o da lavratura)" if year else " (ano da lavratura)"
    reais = format_money(view.amount_reais)
    lines = [
        f"<p style='font-size:12pt'><b>{view.code}</b> — {view.article} · {view.severity_label}</p>",
        f"<p><b>Multa:</b> {format_upfm(view.upfm)} = <b>{reais}</b><br>"
        f"<span style='color:#555'>Valor da UPFM{year_text}: {format_money(view.upfm_value)}</span></p>",
        f"<p><b>{'⚠ ' if view.recurrence else ''}{recurrence_line(view)}</b></p>" if view.recurrence
        else f"<p>{recurrence_line(view)}</p>",
    ]
    extra = penalty_lines(view)
    if extra:
        items = "".join(f"<li>{line}</li>" for line in extra)
        lines.append(f"<p><b>Penalidades além da multa:</b></p><ul style='margin-top:0'>{items}</ul>")
    else:
        lines.append("<p><b>Penalidades além da multa:</b> nenhuma.</p>")
    lines.append(f"<p><b>Proposta:</b> {view.penalty_text}.</p>")
    lines.append(f"<p><b>Fundamento:</b> {'; '.join(view.articles)}.</p>")
    lines.append("<p style='color:#555'>O sistema propõe; o gestor confirma no julgamento.</p>")
    return "".join(lines)


class AssessmentPanel(QGroupBox):
    """The live panel of the auto form and the detail page: shows a proposal, or why there is none yet."""

    def __init__(self, title: str = "Proposta do sistema (Art. 24 a 27)", parent=None):
        super().__init__(title, parent)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addStretch(1)
        self.view = None
        self.show_waiting([])

    def show_view(self, view, year: int | None = None) -> None:
        self.view = view
        self.label.setText(assessment_html(view, year))

    def show_waiting(self, messages: list[str], intro: str | None = None) -> None:
        self.view = None
        intro = intro or ("Escolha o código da infração e o infrator para ver a proposta: multa em UPFM e em "
                          "reais, reincidência e penalidades.")
        text = f"<p style='color:#555'>{intro}</p>"
        if messages:
            text += "<ul>" + "".join(f"<li>{m}</li>" for m in messages) + "</ul>"
        self.label.setText(text)

    def plain_text(self) -> str:
        """What the panel says, without markup (tests and screen readers)."""

        document = QTextDocument()
        document.setHtml(self.label.text())
        return document.toPlainText()
