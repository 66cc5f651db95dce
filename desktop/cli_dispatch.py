"""`python -m desktop dispatch …` (issue 26, the correspondence desk), registered by desktop.cli:

    dispatch batch --out ARQUIVO          a expedição do dia (notificações com código, ARs, lista de postagem);
                                          "nada a expedir" quando não há nada pendente
    dispatch scan ARQUIVO…                lê os ARs digitalizados: uma linha por página,
                                          "página N: CÓDIGO — DOCUMENTO" ou "página N: sem código legível"
    dispatch receive CÓDIGO (--on DD/MM/AAAA --by NOME | --returned MOTIVO) --proof ARQUIVO
                                          junta a prova (ou registra a devolução); sai com 1 e o motivo para um
                                          código desconhecido ou já juntado

The terminal acts as `desktop.cli._cli_actor()` (every role, the operating-system login in the audit log), the
office's pattern for commands while the CLI has no --user option.
"""
from __future__ import annotations

import argparse
import mimetypes
import sys
from datetime import datetime
from pathlib import Path

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


def register(subparsers, open_db, actor) -> None:
    """`open_db(args)` opens (and migrates) the database, `actor()` is the terminal's actor (desktop.cli's)."""
    global _open_db, _make_actor
    _open_db, _make_actor = open_db, actor
    help_text = "expedição de notificações: lote do dia, leitura dos ARs digitalizados e juntada da prova (Art. 22)"
    p = subparsers.add_parser("dispatch", help=help_text, description=help_text)
    p._optionals.title = "opções"
    p.add_argument("--db", metavar="URL", default=argparse.SUPPRESS, help="endereço do banco")
    sub = p.add_subparsers(dest="dispatch_command", metavar="ação", title="ações", parser_class=type(p))
    p.set_defaults(func=_needs_action)

    b = sub.add_parser("batch", help="imprime a expedição do dia (notificações, ARs e lista de postagem) num PDF")
    b.add_argument("--db", metavar="URL", default=argparse.SUPPRESS, help="endereço do banco")
    b.add_argument("--out", required=True, metavar="ARQUIVO", help="arquivo PDF")
    b.set_defaults(func=cmd_batch)

    s = sub.add_parser("scan", help="lê os códigos dos ARs digitalizados (PDF de várias páginas ou imagens)")
    s.add_argument("--db", metavar="URL", default=argparse.SUPPRESS, help="endereço do banco")
    s.add_argument("files", nargs="+", metavar="ARQUIVO", help="PDF, JPG, PNG ou TIFF da digitalização")
    s.set_defaults(func=cmd_scan)

    r = sub.add_parser("receive", help="registra o AR: recebimento (data e recebedor) ou devolução (motivo)")
    r.add_argument("--db", metavar="URL", default=argparse.SUPPRESS, help="endereço do banco")
    r.add_argument("code", metavar="CÓDIGO", help="código de expedição impresso no AR")
    r.add_argument("--on", metavar="DD/MM/AAAA", help="data do recebimento escrita pelo carteiro")
    r.add_argument("--by", metavar="NOME", help="nome do recebedor")
    r.add_argument("--returned", metavar="MOTIVO",
                   help="devolvido: mudou-se, desconhecido, ausente três vezes, recusado, endereço insuficiente")
    r.add_argument("--proof", required=True, metavar="ARQUIVO", help="a página digitalizada do AR (PDF/JPG/PNG)")
    r.set_defaults(func=cmd_receive)


def _needs_action(args) -> int:
    print("Erro: indique a ação do comando dispatch (batch, scan ou receive; use --help).", file=sys.stderr)
    return EXIT_USAGE


_open_db = None
_make_actor = None


def _db(args):
    return _open_db(args)


def _actor():
    return _make_actor()


def cmd_batch(args) -> int:
    from desktop.services import correspondence  # lazy: the command loads the services only when it runs

    out = Path(args.out)
    if not out.parent.exists():
        print(f"Erro: a pasta {out.parent} não existe.", file=sys.stderr)
        return EXIT_FAILURE
    db = _db(args)
    try:
        result = correspondence.day_batch(db, _actor())
    finally:
        db.dispose()
    if result is None:
        print("nada a expedir")
        return EXIT_OK
    out.write_bytes(result.pdf)
    print(f"Lote nº {result.batch_id} (documento nº {result.document_number}): {len(result.items)} "
          f"objeto(s) gravado(s) em {out}.")
    return EXIT_OK


def cmd_scan(args) -> int:
    from desktop.services import correspondence  # lazy: the command loads the services only when it runs

    files = []
    for name in args.files:
        path = Path(name)
        if not path.is_file():
            print(f"Erro: arquivo não encontrado: {name}", file=sys.stderr)
            return EXIT_FAILURE
        files.append((path.name, path.read_bytes()))
    db = _db(args)
    try:
        lines = correspondence.read_scan(db, _actor(), files)
    finally:
        db.dispose()
    for line in lines:
        print(line.text)
    return EXIT_OK


def cmd_receive(args) -> int:
    from desktop.errors import ConflictError, NotFound  # lazy: the command loads the services only when it runs
    from desktop.services import correspondence  # lazy: the command loads the services only when it runs

    if args.returned is None and (args.on is None or args.by is None):
        print("Erro: informe --on DD/MM/AAAA e --by NOME (recebido) ou --returned MOTIVO (devolvido).",
              file=sys.stderr)
        return EXIT_USAGE
    if args.returned is not None and (args.on is not None or args.by is not None):
        print("Erro: use --returned sozinho, ou --on e --by.", file=sys.stderr)
        return EXIT_USAGE
    received_on = None
    if args.on is not None:
        try:
            received_on = datetime.strptime(args.on, "%d/%m/%Y").date()
        except ValueError:
            print(f"Erro: data inválida em --on: {args.on} (use DD/MM/AAAA).", file=sys.stderr)
            return EXIT_USAGE
    proof = Path(args.proof)
    if not proof.is_file():
        print(f"Erro: arquivo não encontrado: {args.proof}", file=sys.stderr)
        return EXIT_FAILURE
    mime = mimetypes.guess_type(proof.name)[0] or "application/octet-stream"
    db = _db(args)
    try:
        got = correspondence.receive(db, _actor(), args.code, received_on=received_on, received_by=args.by,
                                     returned=args.returned, proof=(proof.name, proof.read_bytes(), mime))
    except (ConflictError, NotFound) as exc:
        print(f"Erro: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        db.dispose()
    if got.return_reason:
        print(f"{got.code}: devolvido ({got.return_reason}); o edital fica disponível (Art. 22, §1º, II).")
    else:
        print(f"{got.code}: recebido em {got.received_on:%d/%m/%Y} por {got.received_by}; prova juntada em "
              f"{got.joined_on:%d/%m/%Y} — {got.case_label}: o prazo corre desta data (Art. 22, §2º).")
    return EXIT_OK
