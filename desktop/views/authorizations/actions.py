"""The dialogs of an authorization's action bar: the small dialog each action opens (one service call each).

Which actions exist, who may press them and when they are enabled is not decided here: every AuthorizationInfo
carries `available` — the `Action`s of the domain's table (`desktop.domain.authorization_steps`: the status moves
of AUTHORIZATION_MACHINE and the steps that are not status moves), each enabled or with the reason it is not (the
status or the role that would enable it). The page draws its buttons from them; the services refuse with the
same table.
"""
from __future__ import annotations

from datetime import date

from desktop.domain.inspection import failure_preview
from desktop.views.registry.dialogs import ActionDialog, FieldSpec
from desktop.services import authorizations as svc
from desktop.views.formatting import format_date
from PySide6.QtWidgets import QLabel


def _problems_html(problems) -> str:
    if not problems:
        return ""
    return ("<br><br><b style='color:#c62828'>Pendências:</b><br>" + "<br>".join(f"• {p}" for p in problems))


def build_dialog(key: str, db, actor, info, parent, on_stale, today: date | None = None) -> ActionDialog:
    """The dialog of one action: collects reason/act/dates and makes its one service call on Confirmar."""

    a = info
    who = f"Autorização {a.number or '(sem número)'} — {a.driver_name}, veículo {a.plate_display}"
    v = a.version

    def dialog(title, intro, fields, submit, ok_text="Confirmar"):
        return ActionDialog(title, f"<b>{who}</b><br>{intro}", fields, submit, parent, ok_text=ok_text,
                            on_stale=on_stale, today=today)

    if key == "analysis":
        return dialog("Iniciar análise", "Os documentos do condutor e do veículo passam a ser conferidos (Art. 3).",
                      [], lambda _v: svc.start_analysis(db, actor, a.id, v, on=today))
    if key == "approve":
        problems = svc.analysis_problems(db, actor, a.id, on=today)
        return dialog(
            "Aprovar requerimento",
            "Com a aprovação, o condutor tem 5 dias para apresentar o veículo à vistoria (Art. 9), salvo dispensa "
            "(Art. 9, §1)." + _problems_html(problems),
            [FieldSpec("note", "Observação", "multiline", required=False),
             FieldSpec("act_number", "Número do ato", required=False)],
            lambda x: svc.approve_authorization(db, actor, a.id, v, on=today, note=x["note"],
                                                act_number=x["act_number"] or None), "Aprovar")
    if key == "refuse":
        return dialog("Indeferir requerimento", "Informe o motivo do indeferimento.",
                      [FieldSpec("reason", "Motivo", "multiline"),
                       FieldSpec("act_number", "Número do ato", required=False)],
                      lambda x: svc.refuse_authorization(db, actor, a.id, x["reason"], v, on=today,
                                                         act_number=x["act_number"] or None), "Indeferir")
    if key == "waive":
        return dialog("Dispensar vistoria", "O Município pode dispensar a vistoria no cadastramento (Art. 9, §1).",
                      [FieldSpec("reason", "Motivo", "multiline")],
                      lambda x: svc.waive_inspection(db, actor, a.id, x["reason"], v, on=today), "Dispensar")
    if key == "inspection":
        return dialog(
            "Resultado da vistoria",
            "Vistoria inicial (Art. 9), do novo veículo (Art. 8, §2) ou nova vistoria. Reprovada: "
            + failure_preview(a.status),
            [FieldSpec("approved", "Resultado", "combo", options=((True, "Aprovada"), (False, "Reprovada"))),
             FieldSpec("on", "Data da vistoria", "date"),
             FieldSpec("note", "Observações", "multiline", required=False,
                       help="Obrigatório quando reprovada: o que reprovou o veículo.")],
            lambda x: svc.record_inspection_result(db, actor, a.id, x["approved"], on=x["on"], note=x["note"],
                                                   expected_version=v), "Registrar")
    if key == "fee":
        renewal = a.renewal_fee
        return dialog(
            "Pagamento da taxa",
            ("Renovação: a validade é contada de novo a partir deste pagamento (Art. 3, §§1º e 2º)." if renewal
             else "Sem a taxa paga não há autorização ativa (Art. 10; Art. 15, VII). A validade de até 12 meses "
                  "conta do pagamento (Art. 3, §1)."),
            [FieldSpec("paid_on", "Data do pagamento", "date"), FieldSpec("guide_number", "Número da guia"),
             FieldSpec("amount", "Valor pago", "money", default=svc.proposed_fee(db, actor, a.id, today))],
            lambda x: svc.record_fee_payment(db, actor, a.id, x["paid_on"], x["guide_number"], x["amount"], v),
            "Registrar")
    if key == "renewal":
        from desktop.views.formatting import format_date  # local: imported only on this branch

        deadline = f" O último dia para pedir no prazo é <b>{format_date(a.renewal_deadline)}</b>; depois dele o " \
                   "pedido é recebido e marcado como fora do prazo." if a.renewal_deadline else ""
        return dialog("Solicitar renovação",
                      f"A renovação deve ser pedida com pelo menos 15 dias úteis de antecedência (Art. 3, §2)."
                      f"{deadline}",
                      [FieldSpec("requested_on", "Data do pedido", "date")],
                      lambda x: svc.request_renewal(db, actor, a.id, x["requested_on"], v), "Solicitar")
    if key == "substitute":
        from desktop.views.authorizations.request import vehicle_picker  # local: imported only on this branch

        picker = vehicle_picker(db, actor)
        return dialog(
            "Substituir veículo",
            "Sinistro, venda ou locação (Art. 8, §2): o novo veículo deve atender ao Art. 2 e passar por nova "
            "vistoria; o número da autorização é mantido.",
            [FieldSpec("vehicle", "Novo veículo", "widget", widget=picker),
             FieldSpec("reason", "Motivo", "multiline"), FieldSpec("on", "Data", "date")],
            lambda x: svc.substitute_vehicle(db, actor, a.id, x["vehicle"], x["reason"], x["on"], v), "Substituir")
    if key == "suspend":
        return _suspend_dialog(dialog, svc, db, actor, a)
    if key in ("revoke", "cassate"):
        revoke = key == "revoke"
        call = svc.revoke_authorization if revoke else svc.cassate_authorization
        return dialog(
            "Revogar autorização" if revoke else "Cassar autorização",
            ("Revogação por ato do gestor (Art. 24, I, c)." if revoke
             else "Cassação por ato do gestor (Art. 24, I, e; Art. 26, §2)."),
            [FieldSpec("reason", "Motivo", "multiline"), FieldSpec("act_number", "Número do ato"),
             FieldSpec("on", "Data", "date")],
            lambda x: call(db, actor, a.id, x["reason"], x["act_number"], x["on"], v),
            "Revogar" if revoke else "Cassar")
    if key in ("deregister_driver", "deregister_vehicle"):
        return _deregister_dialog(key, dialog, db, actor, a)
    raise KeyError(key)


def _suspend_dialog(dialog, svc, db, actor, a):

    bases = tuple((basis.value, basis.label) for basis in svc.SuspensionBasis)
    result = dialog(
        "Suspender autorização",
        "A suspensão retira a autorização e afasta condutor e veículo pelo prazo (Art. 24, I, b e parágrafo único; "
        "Art. 26, §1). Ela termina sozinha no dia seguinte ao último dia.",
        [FieldSpec("basis", "Prazo", "combo", options=bases), FieldSpec("start_on", "Início", "date"),
         FieldSpec("act_number", "Número do ato"), FieldSpec("reason", "Motivo", "multiline")],
        lambda x: svc.suspend_authorization(db, actor, a.id, x["basis"], x["start_on"], x["act_number"],
                                            x["reason"], a.version), "Suspender")
    # The last day suspended, under the start date, recomputed as the user changes the start or the basis.

    start, basis = result.widget("start_on"), result.widget("basis")
    until = QLabel(result)
    until.setStyleSheet("color: #555;")
    start.parentWidget().layout().addWidget(until)
    result.until_label = until

    def update():
        day = start.value()
        if day is None:
            until.setText("")
            return
        dates = svc.suspension_dates(basis.currentData(), day)
        until.setText(f"Suspensa até {format_date(dates.last_day)} (último dia); volta a ficar ativa em "
                      f"{format_date(dates.resumes_on)}.")

    start.changed.connect(update)
    basis.currentIndexChanged.connect(lambda _i: update())
    update()
    return result


def _deregister_dialog(key, dialog, db, actor, a):
    driver = key == "deregister_driver"
    if driver:
        from desktop.services import drivers as svc  # local: imported only on this branch

        record = svc.get_driver(db, actor, a.driver_id)
        call, what = svc.deregister_driver, f"do condutor <b>{a.driver_name}</b> (Art. 24, I, d)"
    else:
        from desktop.services import vehicles as svc  # local: imported only on this branch

        record = svc.get_vehicle(db, actor, a.vehicle_id)
        call, what = svc.deregister_vehicle, f"do veículo <b>{a.plate_display}</b> (Art. 24, I, f)"
    return dialog(
        "Descadastrar condutor" if driver else "Descadastrar veículo",
        f"Descadastramento {what}: a autorização em curso é encerrada.",
        [FieldSpec("reason", "Motivo", "multiline"), FieldSpec("act_number", "Número do ato"),
         FieldSpec("on", "Data", "date")],
        lambda x: call(db, actor, record.id, x["reason"], x["act_number"], x["on"], record.version),
        "Descadastrar")
