"""`python -m desktop print …` (issue 7), registered by desktop.cli (the command line room, above the services).

    (every form takes --user LOGIN: the named user who issues it; the password is asked — issue 28)
    print KIND --id NUMBER --out ARQUIVO      emite, arquiva e grava um documento (NUMBER como o usuário o conhece:
                                              a autorização 0007/2026, a guia 0009/2026, o CPF/CNPJ do extrato)
    print sticker --all-pending --out ARQUIVO os adesivos ainda não impressos, num só PDF
    print reprint --id DOCUMENTO --out ARQUIVO a 2ª via (bytes arquivados + carimbo) do documento nº DOCUMENTO
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

KINDS = ("sticker", "credential", "certificate", "auto", "notice", "data_request", "edital", "inspection",
         "statement", "attendance", "guide", "divida_ativa", "process_extract", "reprint")


def register(subparsers, named_actor) -> None:
    """The `print` parser; `named_actor(db, login)` is the CLI's one way to name who issues an act (issue 28),
    handed down by desktop.cli so that this module does not import it back."""
    help_text = "emite, arquiva e grava em PDF um documento oficial (adesivo, credencial, termo, guia, extrato…)"
    p = subparsers.add_parser("print", help=help_text, description=help_text,
                              epilog="Exemplos: print sticker --id 0007/2026 --out adesivo.pdf · "
                                     "print sticker --all-pending --out adesivos.pdf · "
                                     "print guide --id 0009/2026 --out dam.pdf · "
                                     "print statement --id 529.982.247-25 --out extrato.pdf · "
                                     "print divida_ativa --id 0003/2026 --out certidao.pdf (auto inscrito) · "
                                     "print reprint --id 0001/2026 --out segunda-via.pdf")
    p._optionals.title = "opções"
    p._positionals.title = "argumentos posicionais"
    p.add_argument("--db", metavar="URL", default=argparse.SUPPRESS, help="endereço do banco (como no comando "
                                                                          "principal)")
    p.add_argument("kind", choices=KINDS, metavar="TIPO", help="tipo: " + ", ".join(KINDS))
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--id", metavar="NÚMERO", help="número do registro (autorização NNNN/AAAA, guia NNNN/AAAA, "
                                                      "CPF/CNPJ do infrator; para reprint, o número do documento)")
    which.add_argument("--all-pending", action="store_true",
                       help="(sticker) todos os adesivos pendentes: autorizações ativas sem adesivo impresso "
                            "depois do último pagamento da taxa")
    p.add_argument("--out", required=True, metavar="ARQUIVO", help="arquivo PDF a gravar")
    p.add_argument("--layout", choices=("page", "sheet"), default=None,
                   help="adesivos: page = um por folha A4; sheet = 8 por folha de etiquetas (padrão: page para um, "
                        "sheet para o lote)")
    p.add_argument("--notice", choices=("autuacao", "penalty", "regularization", "inspection_convocation",
                                        "renewal_reminder"), default="autuacao", metavar="TIPO",
                   help="notificação: autuacao ou penalty (--id do auto), regularization ou inspection_convocation "
                        "(--id código da vistoria), renewal_reminder (--id da autorização); padrão: autuacao")
    p.add_argument("--reason", choices=("lost", "damaged", "data_changed"), default=None, metavar="MOTIVO",
                   help="adesivo, credencial ou termo já em vigor emitido de novo: lost (extravio), damaged (dano) "
                        "ou data_changed (dados alterados); fica no registro de auditoria")
    p.add_argument("--user", metavar="LOGIN",
                   help="usuário que emite e assina o documento (nome de acesso); a senha é pedida sem eco — "
                        "nunca a conta do computador (Lei 9.784/99, art. 22, §1º)")
    p.add_argument("--workers", type=int, default=2, metavar="N",
                   help="lote de adesivos: processos para gerar os QR codes (padrão: 2)")
    p.set_defaults(func=lambda args: cmd_print(args, named_actor))


def cmd_print(args: argparse.Namespace, named_actor) -> int:
    from desktop.errors import DesktopError  # lazy: `python -m desktop` builds this parser to start the GUI too
    from desktop.migrate import open_database  # lazy: SQLAlchemy loads only when a document is printed
    from desktop.services import documents  # lazy: the services load only when a document is printed

    out = Path(args.out)
    if out.suffix.lower() != ".pdf":
        out = out.with_suffix(".pdf")
    if args.all_pending and args.kind != "sticker":
        raise DesktopError("--all-pending vale só para adesivos: print sticker --all-pending --out ARQUIVO.")
    started = time.perf_counter()
    db = open_database(getattr(args, "db", None))
    try:
        actor = named_actor(db, args.user)
        if args.kind == "reprint":
            data = documents.reprint(db, actor, args.id)
            out.write_bytes(data)
            print(f"2ª via do documento nº {args.id} gravada em {out} (bytes arquivados com o carimbo de cópia).")
            return 0
        if args.all_pending:
            count = len(documents.pending_sticker_numbers(db, actor))
            issued = documents.print_pending_stickers(db, actor, layout=args.layout or "sheet",
                                                      workers=max(1, args.workers))
            what = f"{count} adesivo(s) pendente(s)"
        else:
            if args.kind == "process_extract":   # issue 28 point 1: the case's present state (services.autos)
                from desktop.services.autos.extract import print_process_extract  # lazy: the services load only when a document is printed

                issued = print_process_extract(db, actor, args.id)
            else:
                issued = documents.print_kind(db, actor, args.kind, args.id, layout=args.layout or "page",
                                              notice_kind=args.notice, reason=args.reason)
            what = documents.DOCUMENT_KINDS[args.kind]
    finally:
        db.dispose()
    out.write_bytes(issued.pdf)
    print(f"{what}: documento nº {issued.info.number} arquivado (SHA-256 {issued.info.sha256[:16]}…) e gravado "
          f"em {out} em {time.perf_counter() - started:.1f} s.")
    return 0


if __name__ == "__main__":   # python -m desktop.cli_print is not an entry point; use python -m desktop
    sys.exit("Use: python -m desktop print …")
