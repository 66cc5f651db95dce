"""What the Relatórios page can issue: one entry per document the user picks, with the identifier the user knows
(the same one `python -m desktop print KIND --id NUMBER` accepts, see desktop.services.documents.print_kind).
Plain data: no Qt, no database."""
from __future__ import annotations

from dataclasses import dataclass

from desktop.domain.roles import Role
from desktop.services.documents import ALL_ROLES, ISSUE_ROLES

# how the identifier is typed
TEXT = "text"
DATE = "date"


@dataclass(frozen=True, slots=True)
class DocumentEntry:
    key: str                  # unique in the list
    label: str                # what the list shows
    kind: str                 # desktop.services.documents.DOCUMENT_KINDS key
    field_label: str          # the label of the identifier field
    placeholder: str
    help: str                 # one sentence: what is issued and from which record (with its article)
    notice_kind: str = "autuacao"
    input: str = TEXT
    layout_choice: bool = False   # stickers: one per page or label sheet


AUTHORIZATION = "Nº da autorização"
AUTHORIZATION_HINT = "ex.: 0007/2026"

ENTRIES: tuple[DocumentEntry, ...] = (
    DocumentEntry("sticker", "Adesivo do veículo", "sticker", AUTHORIZATION, AUTHORIZATION_HINT,
                  "Adesivo para o para-brisa, com QR code assinado pelo município, de uma autorização Ativa "
                  "(Art. 14).", layout_choice=True),
    DocumentEntry("credential", "Credencial do condutor", "credential", AUTHORIZATION, AUTHORIZATION_HINT,
                  "Credencial em tamanho de cartão, com foto, CPF mascarado, CNH, veículo e validade "
                  "(Art. 13, I)."),
    DocumentEntry("certificate", "Termo de autorização", "certificate", AUTHORIZATION, AUTHORIZATION_HINT,
                  "Termo de autorização com a fundamentação legal, para uma autorização Ativa (Art. 3º)."),
    DocumentEntry("auto", "Auto de infração (2 vias)", "auto", "Nº do auto de infração", "ex.: 0003/2026",
                  "Auto de infração em duas vias: via do processo e via do infrator (Art. 19)."),
    DocumentEntry("notice_autuacao", "Notificação de autuação", "notice", "Nº do auto de infração",
                  "ex.: 0003/2026", "Notificação da autuação ao infrator, com o prazo de defesa (Art. 22).",
                  notice_kind="autuacao"),
    DocumentEntry("notice_penalty", "Notificação de penalidade", "notice", "Nº do auto de infração",
                  "ex.: 0003/2026", "Notificação da penalidade aplicada no julgamento, com o prazo de pagamento "
                  "e de recurso (Art. 22; Art. 24).", notice_kind="penalty"),
    DocumentEntry("notice_regularization", "Notificação de regularização", "notice", "Código da vistoria",
                  "ex.: 12", "Notificação das pendências de uma vistoria reprovada, com o prazo para regularizar "
                  "(Art. 16, §2º).", notice_kind="regularization"),
    DocumentEntry("notice_convocation", "Convocação para vistoria", "notice", "Código da vistoria", "ex.: 12",
                  "Convocação do condutor para a vistoria agendada, com data, hora e local (Art. 16, §1º).",
                  notice_kind="inspection_convocation"),
    DocumentEntry("notice_renewal", "Lembrete de renovação", "notice", AUTHORIZATION, AUTHORIZATION_HINT,
                  "Lembrete do fim da validade e do último dia para pedir a renovação em tempo (Art. 3º, §2º).",
                  notice_kind="renewal_reminder"),
    DocumentEntry("data_request", "Requisição de dados à plataforma", "data_request", "Nº da requisição",
                  "ex.: 0002/2026 (ou o código do rascunho)",
                  "Requisição justificada de dados à plataforma; prazo de 24 horas quando serve a uma "
                  "investigação (Art. 4º, §2º)."),
    DocumentEntry("edital", "Edital de notificação", "edital", "Data de publicação", "",
                  "Lista dos autos notificados por edital na data escolhida (Art. 22, §1º, II a IV).", input=DATE),
    DocumentEntry("inspection", "Laudo de vistoria", "inspection", "Código da vistoria", "ex.: 12",
                  "Laudo de uma vistoria realizada (aprovada ou reprovada) (Art. 9º; Art. 16)."),
    DocumentEntry("statement", "Extrato do infrator", "statement", "CPF ou CNPJ do infrator",
                  "ex.: 529.982.247-25", "Extrato das multas, pagamentos e saldo de um condutor (CPF) ou de uma "
                  "plataforma (CNPJ), na data de hoje (Art. 25)."),
    DocumentEntry("attendance", "Lista de presença do curso", "attendance", "Código da turma", "ex.: 3",
                  "Lista de presença de uma turma do curso obrigatório (Art. 12, §2º)."),
    DocumentEntry("guide", "Guia de pagamento (DAM)", "guide", "Nº da guia", "ex.: 0009/2026",
                  "Documento de arrecadação com código de barras FEBRABAN e, quando configurado, o PIX "
                  "(taxas e multas)."),
    DocumentEntry("divida_ativa", "Certidão de dívida ativa", "divida_ativa", "Nº do auto de infração",
                  "ex.: 0003/2026", "Certidão de um auto inscrito em dívida ativa, com devedor, origem, natureza, "
                  "fundamento, valores, encargos, inscrição e processo (Lei nº 6.830/1980, art. 2º, § 5º)."),
)

ENTRIES_BY_KEY = {entry.key: entry for entry in ENTRIES}

RECORD_LABELS = {
    "authorization": "Autorização",
    "auto": "Auto de infração",
    "payment_guide": "Guia de pagamento",
    "driver": "Condutor",
    "platform": "Plataforma",
    "inspection": "Vistoria",
    "course_session": "Turma do curso",
    "data_request": "Requisição de dados",
}


def record_text(record_type: str, record_id: int) -> str:
    return f"{RECORD_LABELS.get(record_type, record_type)} (código {record_id})"


def roles_text(roles) -> str:
    ordered = [role.label for role in Role if role in set(roles)]
    if len(ordered) <= 1:
        return "".join(ordered)
    return ", ".join(ordered[:-1]) + " ou " + ordered[-1]


def issue_roles(kind: str) -> tuple[Role, ...]:
    return ISSUE_ROLES.get(kind, ALL_ROLES)


def may_issue(actor, kind: str) -> bool:
    """What the screen shows; the services check again on every call (SPEC §4)."""
    return actor.has(*issue_roles(kind))
