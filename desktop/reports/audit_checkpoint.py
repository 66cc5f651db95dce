"""Termo de verificação do registro de auditoria (issue 11): the signed head of the audit chain, for publication
(Diário Oficial, the municipality's site, a notary). Anyone holding the printed or the PDF termo can later run
`python -m desktop audit verify --against TERMO.pdf`: the signed line travels in the PDF's metadata (`/Keywords`)
and is printed on the page, so it is read back from the file or typed from the paper."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_moment
from desktop.reports import records
import io


@dataclass(frozen=True, slots=True)
class CheckpointTermContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    day: date
    at: datetime
    last_id: int
    last_hash: str
    entry_count: int
    key_fingerprint: str
    short_hash: str
    line: str                   # the published line: message | signature
    made_by: str
    verified: bool              # the chain was verified when the termo was made
    verdict: str                # the sentence of `audit verify`
    signer: Signer | None = None  # the gestor who signs the termo (issue 28 point 8); required to render


def build_context(session, checkpoint, verdict_ok: bool, verdict: str, *, meta: DocumentMeta,
                  signer: Signer) -> CheckpointTermContext:
    """From the session: the letterhead (with the demo mark of a demo database); the checkpoint comes from
    services.audit, `meta` from the archive (the termo is numbered NNNN/AAAA in the documents' series)."""

    header = records.header(session)
    return CheckpointTermContext(
        header=header, meta=meta, day=checkpoint.day, at=checkpoint.at, last_id=checkpoint.last_id,
        last_hash=checkpoint.last_hash, entry_count=checkpoint.entry_count,
        key_fingerprint=checkpoint.key_fingerprint, short_hash=checkpoint.short_hash, line=checkpoint.line,
        made_by=checkpoint.made_by, verified=verdict_ok, verdict=verdict, signer=signer,
    )


def _chunks(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


def render(ctx: CheckpointTermContext) -> bytes:

    from pypdf import PdfReader, PdfWriter  # lazy: pypdf loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block("TERMO DE VERIFICAÇÃO DO REGISTRO DE AUDITORIA",
                             f"Ponto de verificação assinado — {LAW}")
    story.append(_pdf.field_table([
        ("Data do ponto", fmt_date(ctx.day)),
        ("Assinado em", fmt_moment(ctx.at)),
        ("Última entrada", f"nº {ctx.last_id}"),
        ("Entradas", str(ctx.entry_count)),
        ("Hash da última entrada", ctx.last_hash),
        ("Código curto", ctx.short_hash),
        ("Chave da secretaria", ctx.key_fingerprint),
        ("Assinado por", ctx.signer.inline if ctx.signer else ctx.made_by),
    ]))
    story.append(_pdf.spacer(3))
    story.append(_pdf.pm(
        f"A {e(ctx.header.secretariat)} declara que, em {e(fmt_moment(ctx.at))}, o registro de auditoria do "
        f"sistema de transporte por aplicativo continha {b(str(ctx.entry_count))} entradas encadeadas por SHA-256, "
        f"a última de nº {b(str(ctx.last_id))}, e assina esse estado com a chave Ed25519 da secretaria. "
        f"Verificação do encadeamento no momento da emissão: {e(ctx.verdict)}"))
    story.append(_pdf.p("Como conferir", "h2"))
    story.append(_pdf.p(
        "Guarde este termo fora do sistema (publicação oficial, sítio da Prefeitura, cartório). Para conferir o "
        "registro a qualquer tempo: python -m desktop audit verify --against ESTE_ARQUIVO.pdf. Se entradas "
        "anteriores a este ponto forem alteradas, removidas ou reencadeadas, ou se o final do registro for apagado, "
        "a conferência aponta a primeira entrada afetada. Os documentos emitidos trazem no rodapé o código curto do "
        "ponto de verificação mais recente."))
    story.append(_pdf.p("Linha assinada (texto e assinatura)", "h2"))
    for piece in _chunks(ctx.line, 70):
        story.append(_pdf.p(piece, "left"))
    if ctx.signer is None:
        raise ValueError("O termo de verificação precisa do(a) gestor(a) que o assina.")
    story.append(_pdf.signer_block(ctx.signer))
    pdf = _pdf.build_story_pdf(ctx.header, ctx.meta, "Termo de verificação do registro de auditoria", story)
    # The signed line in the metadata, so `audit verify --against` reads it back without any text extraction.
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.add_metadata({"/Keywords": ctx.line, "/Subject": f"Ponto de verificação {ctx.short_hash}"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
