"""`python -m desktop [--db URL] [comando]` — starts the program, or runs one of the ops commands (issue 2).

Without a command the GUI starts (`desktop.app.run_gui`). The commands are for the administrator and for scripts:

    migrate                      aplica as migrações pendentes
    setup-server                 PostgreSQL: papel dono das tabelas e papel da aplicação (menor privilégio)
    backup --out ARQUIVO         cópia de segurança (SQLite: API de backup online; PostgreSQL: pg_dump -Fc)
    restore ARQUIVO              restaura uma cópia (guarda o arquivo SQLite substituído)
    demo [--drivers N] [--seed S] [--force]   dados de demonstração
    audit verify [--against F]   confere a cadeia de hashes com os pontos de verificação assinados
    audit checkpoint --out F     assina o ponto de verificação e grava o termo em PDF
    audit rotate-key --reason M  troca a chave de assinatura (PostgreSQL: só com a URL do papel dono)
    check-install [--no-qt]      confere a instalação (fontes, ícones, migrações, plugins do Qt; issue 17)
    users add|list|unlock        usuários
    export TIPO --out ARQUIVO    exporta para .csv (;, UTF-8 com BOM) ou .xlsx
    export reconciliation --platform CNPJ --out ARQUIVO   conciliação da última lista da plataforma
    export issqn --month AAAA-MM --out ARQUIVO          ISSQN da competência (Art. 11)
    issqn estimate --month AAAA-MM                      calcula a competência do ISSQN (veículos e total)
    guide --auto NNNN/AAAA | --fee AUTORIZAÇÃO | --issqn AAAA-MM --platform CNPJ --out ARQUIVO   emite a guia
    guide --reissue NNNN/AAAA --out ARQUIVO             reemite uma guia vencida e imprime a nova
    export guides --out ARQUIVO                         todas as guias (DAM), com a situação do débito
    import platform-list --platform CNPJ --delivered DD/MM/AAAA ARQUIVO   lista de 60 dias (Art. 5º, VIII)
    import trips --platform CNPJ ARQUIVO [--routes ARQUIVO]   viagens da plataforma (Art. 4º; CSV ou MDS 2.x)
    export fares --month AAAA-MM --out ARQUIVO   tarifas por condutor, veículo e mês (Art. 4º, §1º)
    export dispatches --out ARQUIVO              registro de expedição (issue 26)
    dispatch batch|scan|receive                  expedição, leitura dos ARs e juntada (desktop.cli_dispatch)

Every command accepts `--db URL` (before or after the command name). Exit codes: 0 done, 1 failure (message in
Portuguese on stderr), 2 wrong usage. Heavy modules (SQLAlchemy, the models, openpyxl) are imported inside the
commands so that starting the GUI pays only for what it uses.

`print …` lives in `desktop.cli_print` with `register(subparsers)`: each parser it adds sets `func=handler`,
`handler(args) -> int`, and reads the database URL from `args.db`.
"""
from __future__ import annotations

import argparse
import getpass
import importlib.util
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from datetime import datetime

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2

EXPORT_KINDS = ("platforms", "drivers", "vehicles", "authorizations", "inspections", "autos", "ledger",
                "divida_ativa", "dispatches")
ISSQN_EXPORT = "issqn"   # issue 13: needs --month AAAA-MM
GUIDES_EXPORT = "guides"   # issue 23: every payment guide (DAM) with its debt's situation
ROLE_NAMES = ("atendente", "vistoriador", "fiscal", "gestor", "administrador")


class _Parser(argparse.ArgumentParser):
    """argparse with its own messages in Portuguese."""

    def __init__(self, *args, **kwargs):
        wants_help = kwargs.pop("add_help", True)
        super().__init__(*args, add_help=False, **kwargs)
        if wants_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help="mostra esta ajuda e sai")

    def format_usage(self) -> str:
        return _translate_help(super().format_usage())

    def format_help(self) -> str:
        return _translate_help(super().format_help())

    def error(self, message: str):  # noqa: D401 - argparse API
        self.print_usage(sys.stderr)
        translated = (
            message.replace("the following arguments are required", "faltam os argumentos obrigatórios")
            .replace("invalid choice", "opção inválida")
            .replace("choose from", "escolha entre")
            .replace("unrecognized arguments", "argumentos não reconhecidos")
            .replace("expected one argument", "falta o valor")
            .replace("invalid int value", "número inválido")
            .replace("argument ", "argumento ")
        )
        self.exit(EXIT_USAGE, f"{self.prog}: erro: {translated}\n")


def _translate_help(text: str) -> str:
    return (text.replace("usage: ", "uso: ", 1).replace("\noptions:\n", "\nopções:\n")
            .replace("\npositional arguments:\n", "\nargumentos posicionais:\n"))


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"número inválido: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("o número não pode ser negativo")
    return value


def build_parser() -> argparse.ArgumentParser:
    # --db is accepted both before the command and after it; SUPPRESS keeps the sub-parser from overwriting a
    # value given before the command with its own default.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db", metavar="URL", default=argparse.SUPPRESS,
        help="endereço do banco (ex.: sqlite:///C:/dados/transporte.sqlite3 ou "
             "postgresql+psycopg://usuario:senha@servidor/base); padrão: variável DESKTOP_DB_URL, configuração "
             "salva, ou o arquivo SQLite na pasta de dados do usuário",
    )
    parser = _Parser(
        prog="python -m desktop",
        description="Transporte por aplicativo — Lei nº 2.103/2025 de Chapada dos Guimarães–MT. "
                    "Sem comando, abre o programa.",
        parents=[common],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Códigos de saída: 0 concluído; 1 falha (mensagem em stderr); 2 uso incorreto.",
    )
    parser._positionals.title = "argumentos posicionais"
    parser._optionals.title = "opções"
    sub = parser.add_subparsers(dest="command", metavar="comando", title="comandos", parser_class=_Parser)

    def add(name: str, help_text: str, func: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        p._optionals.title = "opções"
        p._positionals.title = "argumentos posicionais"
        p.set_defaults(func=func)
        return p

    add("migrate", "aplica as migrações pendentes do banco (cria as tabelas num banco vazio)", cmd_migrate)

    p = add("setup-server", "PostgreSQL: cria o papel dono das tabelas e o papel da aplicação (sem DDL, sem "
                            "alterar nem apagar lançamentos e auditoria) e migra o banco", cmd_setup_server)
    p.add_argument("--app-role", default="chapada_app", metavar="NOME", help="usuário das estações (chapada_app)")
    p.add_argument("--app-password", metavar="SENHA", help="senha do usuário das estações")
    p.add_argument("--owner-role", default="chapada_dono", metavar="NOME", help="dono das tabelas (chapada_dono)")
    p.add_argument("--owner-password", metavar="SENHA", help="senha do dono das tabelas")

    p = add("backup", "grava uma cópia de segurança do banco", cmd_backup)
    p.add_argument("--out", required=True, metavar="ARQUIVO", help="arquivo da cópia (.sqlite3 ou .dump)")

    p = add("restore", "substitui o banco pela cópia indicada (o arquivo SQLite atual é guardado ao lado)",
            cmd_restore)
    p.add_argument("file", metavar="ARQUIVO", help="cópia gravada pelo comando backup")

    p = add("demo", "carrega dados de demonstração (plataformas, condutores, veículos, autorizações, vistorias, "
                    "autos e lançamentos)", cmd_demo)
    p.add_argument("--drivers", type=_positive_int, default=1000, metavar="N",
                   help="quantidade de condutores (padrão: 1000)")
    p.add_argument("--seed", type=int, default=2025, metavar="S",
                   help="semente: a mesma semente gera os mesmos dados (padrão: 2025)")
    p.add_argument("--force", action="store_true",
                   help="acrescenta outro conjunto a um banco que já é de demonstração (um banco com registros "
                        "próprios é sempre recusado)")

    p = add("audit", "registro de auditoria", _needs_subcommand)
    audit_sub = p.add_subparsers(dest="audit_command", metavar="ação", title="ações", parser_class=_Parser)
    v = audit_sub.add_parser("verify", parents=[common],
                             help="confere a cadeia de hashes; sai com 1 e mostra o primeiro registro rompido")
    v.add_argument("--against", metavar="ARQUIVO",
                   help="confere também com um ponto de verificação publicado (o termo em PDF ou a linha TPAV1)")
    v.set_defaults(func=cmd_audit_verify)
    c = audit_sub.add_parser("checkpoint", parents=[common],
                             help="assina o ponto de verificação agora e grava o termo de verificação em PDF")
    c.add_argument("--out", required=True, metavar="ARQUIVO", help="arquivo PDF do termo")
    add_user_option(c)
    c.set_defaults(func=cmd_audit_checkpoint)
    r = audit_sub.add_parser("rotate-key", parents=[common],
                             help="troca a chave de assinatura (PostgreSQL: com a URL do papel dono); a chave nova "
                                  "fica neste computador")
    r.add_argument("--reason", required=True, metavar="MOTIVO", help="motivo da troca (vai para a auditoria)")
    r.set_defaults(func=cmd_audit_rotate_key)

    p = add("users", "usuários do programa", _needs_subcommand)
    users_sub = p.add_subparsers(dest="users_command", metavar="ação", title="ações", parser_class=_Parser)
    ua = users_sub.add_parser("add", parents=[common],
                              help="cria um usuário (pergunta o que faltar; a senha sem eco)")
    ua.add_argument("--username", metavar="LOGIN", help="nome de acesso")
    ua.add_argument("--name", metavar="NOME", help="nome completo")
    ua.add_argument("--roles", metavar="PAPEIS",
                    help="papéis separados por vírgula: " + ", ".join(ROLE_NAMES))
    ua.add_argument("--password", metavar="SENHA",
                    help="senha (mínimo 8 caracteres); sem esta opção, é pedida sem eco")
    ua.add_argument("--office", metavar="CARGO", default="",
                    help="cargo impresso sob a assinatura dos atos (Lei 9.784/99, art. 22, §1º)")
    ua.add_argument("--registration", metavar="MATRÍCULA", default="", help="matrícula funcional do servidor")
    ua.set_defaults(func=cmd_users_add)
    ul = users_sub.add_parser("list", parents=[common], help="lista os usuários")
    ul.set_defaults(func=cmd_users_list)
    uu = users_sub.add_parser("unlock", parents=[common], help="desbloqueia um usuário bloqueado por senhas erradas")
    uu.add_argument("username", metavar="LOGIN")
    uu.set_defaults(func=cmd_users_unlock)

    p = add("export", "exporta uma lista para planilha (.csv com ; em UTF-8, ou .xlsx)", cmd_export)
    p.add_argument("kind", choices=EXPORT_KINDS + ("reconciliation", ISSQN_EXPORT, "fares", GUIDES_EXPORT),
                   metavar="TIPO", help="o que exportar: " + ", ".join(
                       EXPORT_KINDS + ("reconciliation", ISSQN_EXPORT, "fares", GUIDES_EXPORT)))
    p.add_argument("--out", required=True, metavar="ARQUIVO", help="arquivo .csv ou .xlsx")
    p.add_argument("--platform", metavar="CNPJ",
                   help="reconciliation: CNPJ da plataforma (a conciliação da sua última lista, em .csv)")
    p.add_argument("--month", metavar="AAAA-MM", help="issqn e fares: a competência (ex.: 2026-10)")

    # issue 13: the ISSQN estimate (Art. 11) and the payment guides (DAM)
    p = add("issqn", "ISSQN estimado por veículo (Art. 11)", _needs_subcommand)
    issqn_sub = p.add_subparsers(dest="issqn_command", metavar="ação", title="ações", parser_class=_Parser)
    ie = issqn_sub.add_parser("estimate", parents=[common],
                              help="calcula (ou recalcula) a competência: veículos, classes, alíquota, plataformas")
    ie.add_argument("--month", required=True, metavar="AAAA-MM", help="a competência (ex.: 2026-10)")
    ie.set_defaults(func=cmd_issqn_estimate)

    p = add("guide", "emite e imprime a guia de arrecadação (DAM) de uma multa, de uma taxa ou do ISSQN", cmd_guide)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--auto", metavar="NNNN/AAAA", help="a multa do auto de infração")
    which.add_argument("--fee", metavar="AUTORIZACAO", help="a taxa pendente da autorização (NNNN/AAAA)")
    which.add_argument("--issqn", metavar="AAAA-MM", help="o ISSQN da competência (com --platform CNPJ)")
    which.add_argument("--reissue", metavar="NNNN/AAAA", help="reemite uma guia vencida (nova guia, novo vencimento)")
    p.add_argument("--platform", metavar="CNPJ", help="--issqn: CNPJ da plataforma")
    p.add_argument("--reason", metavar="MOTIVO", help="--reissue: o motivo da reemissão")
    p.add_argument("--out", required=True, metavar="ARQUIVO", help="arquivo PDF da guia")
    add_user_option(p)

    p = add("import", "importa arquivos entregues pelas plataformas", _needs_subcommand)
    import_sub = p.add_subparsers(dest="import_command", metavar="tipo", title="tipos", parser_class=_Parser)
    pl = import_sub.add_parser("platform-list", parents=[common],
                               help="lista de 60 dias de condutores e veículos (Art. 5º, VIII), CSV ou XLSX")
    pl.add_argument("--platform", required=True, metavar="CNPJ", help="CNPJ da plataforma")
    pl.add_argument("--delivered", required=True, metavar="DD/MM/AAAA", help="data em que a lista foi entregue")
    pl.add_argument("file", metavar="ARQUIVO", help="arquivo .csv ou .xlsx no formato publicado")
    pl.set_defaults(func=cmd_import_platform_list)
    tr = import_sub.add_parser("trips", parents=[common],
                               help="viagens de uma plataforma (Art. 4º, §1º): CSV publicado ou MDS 2.x (JSON); "
                                    "dados de passageiros são descartados na leitura")
    tr.add_argument("--platform", required=True, metavar="CNPJ", help="CNPJ da plataforma")
    tr.add_argument("--routes", metavar="ARQUIVO", help="pontos das rotas (CSV ID da viagem;Momento;Lat;Lon ou "
                                                        "telemetria MDS)")
    tr.add_argument("file", metavar="ARQUIVO", help="arquivo de viagens (.csv ou .json)")
    tr.set_defaults(func=cmd_import_trips)

    p = add("check-install", "confere a instalação: fontes, ícones, migrações e os plugins do Qt (imagens, PDF, "
                             "impressão); sai com 1 e diz o que falta", cmd_check_install)
    p.add_argument("--no-qt", action="store_true", help="só os arquivos (sem abrir o Qt)")

    p = add("payments", "pagamentos recebidos pelo banco", _needs_subcommand)
    payments_sub = p.add_subparsers(dest="payments_command", metavar="ação", title="ações", parser_class=_Parser)
    pi = payments_sub.add_parser("import", parents=[common],
                                 help="importa o arquivo de retorno do banco (padrão FEBRABAN de arrecadação, "
                                      "registros A/G/Z de 150 posições) e registra os pagamentos das guias")
    pi.add_argument("file", metavar="ARQUIVO", help="arquivo de retorno do banco")
    pi.set_defaults(func=cmd_payments_import)

    # `print …` (documents), in a module of its own beside this one
    from desktop import cli_print  # lazy: only when the parser is built (argparse and pathlib only)

    cli_print.register(sub, named_actor)
    from desktop import cli_dispatch  # issue 26: dispatch batch|scan|receive (argparse and pathlib only)

    cli_dispatch.register(sub, _open, _cli_actor)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:   # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_USAGE
    if not hasattr(args, "db"):
        args.db = None
    func = getattr(args, "func", None)
    if func is None:
        return _start_gui(args.db)
    from desktop.db import DatabaseNotCurrent, DatabaseNotFound, retrying  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.errors import DesktopError  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.errors import map_db_error  # lazy: kept off the start-up path (the login window imports this module)

    try:
        try:
            return int(retrying(func, args) or 0)
        except (DatabaseNotFound, DatabaseNotCurrent, DesktopError, KeyboardInterrupt):
            raise
        except Exception as exc:  # a database refusal outside a session (connecting, migrating): in Portuguese
            mapped = map_db_error(exc)
            if mapped is None or mapped is exc:
                raise
            raise mapped from exc
    except (DatabaseNotFound, DatabaseNotCurrent, DesktopError) as exc:
        # a database that is not there is a usage error (issue 11: a read-only command creates nothing)
        print(f"Erro: {exc}", file=sys.stderr)
        return EXIT_USAGE if isinstance(exc, DatabaseNotFound) else EXIT_FAILURE
    except KeyboardInterrupt:
        print("Interrompido.", file=sys.stderr)
        return EXIT_FAILURE
    except Exception as exc:   # anything else: say what, in one line, and fail
        if os.environ.get("DESKTOP_DEBUG"):
            raise
        print(f"Erro inesperado ({type(exc).__name__}): {exc}", file=sys.stderr)
        return EXIT_FAILURE


# --------------------------------------------------------------------------------------------------- the commands

def _start_gui(url: str | None) -> int:
    if importlib.util.find_spec("desktop.app") is None:
        print("Erro: a interface gráfica não está instalada (falta desktop.app).", file=sys.stderr)
        return EXIT_FAILURE
    from desktop.app import run_gui  # lazy: kept off the start-up path (the login window imports this module)

    return int(run_gui(url) or 0)


def _needs_subcommand(args: argparse.Namespace) -> int:
    print(f"Erro: indique a ação do comando {args.command} (use --help).", file=sys.stderr)
    return EXIT_USAGE


def _open(args: argparse.Namespace, migrate: bool = True):
    from desktop.db import resolve_url  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.migrate import open_database  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services.backup import clean_restore_leftovers  # lazy: kept off the start-up path (the login window imports this module)

    clean_restore_leftovers(resolve_url(args.db))   # what a killed restore left (issue 25 item 9), with a log line
    return open_database(args.db, migrate=migrate)


def open_existing(args: argparse.Namespace):
    """The database of a command that only reads: never created nor migrated (`desktop.db.open_existing`); a
    missing database ends the command with exit 2. Other rooms' read-only commands (print reprint) use it too."""
    from desktop.db import open_existing as _existing  # lazy: kept off the start-up path (the login window imports this module)

    return _existing(args.db)


def _cli_actor():
    """The actor of commands run at the terminal. Whoever can run them already holds the database file or its
    server password, so the terminal acts with every role — but the audit log records the operating-system
    login (`terminal:maria`), so an export of personal data still says who took it (SPEC §4, LGPD)."""
    from desktop.domain.roles import Role  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services.actors import Actor  # lazy: kept off the start-up path (the login window imports this module)

    try:
        login = getpass.getuser()
    except Exception:  # no login name in this environment (some services, containers)
        login = "desconhecido"
    return Actor(user_id=None, username=f"terminal:{login}"[:60], full_name=f"Linha de comando ({login})",
                 roles=frozenset(Role))


USER_HELP = ("usuário que emite e assina o ato (nome de acesso); a senha é pedida sem eco. Um ato nunca é "
             "emitido pela conta do computador (Lei 9.784/99, art. 22, §1º)")


def add_user_option(parser: argparse.ArgumentParser) -> None:
    """`--user LOGIN` on every command that issues an act (issue 28 point 2)."""
    parser.add_argument("--user", metavar="LOGIN", help=USER_HELP)


def named_actor(db, username: str | None):
    """The actor of an act issued at the terminal: a named user who types their password (getpass), checked by
    `services.auth.login` (wrong passwords count toward the lock, the audit log records the log-in). Without
    --user the command is refused: routines and the machine's account prepare, a person signs (issue 28)."""
    from desktop.errors import DesktopError  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import auth  # lazy: kept off the start-up path (the login window imports this module)

    if not (username or "").strip():
        raise DesktopError("Este comando emite um ato assinado: informe --user LOGIN (o servidor que o assina); a "
                           "senha é pedida em seguida (Lei 9.784/99, art. 22, §1º).")
    password = _secret(f"Senha de {username.strip()}: ")
    return auth.login(db, username.strip(), password)


def cmd_migrate(args: argparse.Namespace) -> int:
    from desktop import migrate as mig  # lazy: kept off the start-up path (the login window imports this module)

    db = _open(args, migrate=False)
    try:
        before = mig.current(db)
        mig.upgrade(db)
        after = mig.current(db)
        granted = mig.regrant_after_migration(db)
    finally:
        db.dispose()
    if before == after:
        print(f"{db.describe()}: já está na versão {after}.")
    else:
        print(f"{db.describe()}: migrado de {before or 'vazio'} para {after}.")
    if granted:
        print(f"Permissões do usuário da aplicação {granted} atualizadas.")
    return EXIT_OK


def cmd_check_install(args: argparse.Namespace) -> int:
    from desktop import install_check  # lazy: kept off the start-up path (the login window imports this module)

    return install_check.run(with_qt=not args.no_qt)


def cmd_setup_server(args: argparse.Namespace) -> int:
    from desktop import migrate as mig  # lazy: kept off the start-up path (the login window imports this module)

    db = _open(args, migrate=False)
    try:
        if not db.is_postgresql:
            print("Erro: setup-server é só para PostgreSQL (o SQLite não tem usuários do banco).", file=sys.stderr)
            return EXIT_USAGE
        app_password = args.app_password
        if app_password is None and sys.stdin.isatty():
            app_password = _secret(f"Senha do usuário da aplicação {args.app_role} (vazio: não alterar): ") or None
        owner, app = mig.setup_server(db, app_role=args.app_role, app_password=app_password,
                                      owner_role=args.owner_role, owner_password=args.owner_password)
    finally:
        db.dispose()
    print(f"Papéis prontos em {db.describe()}: {owner} é dono das tabelas e roda `migrate`; {app} é o usuário das "
          f"estações (sem DDL; somente SELECT e INSERT no livro de multas e na auditoria). Configure as estações "
          f"com postgresql+psycopg://{app}:SENHA@servidor/base.")
    return EXIT_OK


def cmd_backup(args: argparse.Namespace) -> int:
    from desktop.db import resolve_url  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import backup  # lazy: kept off the start-up path (the login window imports this module)

    started = time.perf_counter()
    result = backup.backup(resolve_url(args.db), args.out)
    print(f"Cópia gravada em {result.path} ({_size(result.size_bytes)}) "
          f"em {time.perf_counter() - started:.1f} s.")
    return EXIT_OK


def cmd_restore(args: argparse.Namespace) -> int:
    from desktop.db import resolve_url  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import backup  # lazy: kept off the start-up path (the login window imports this module)

    url = resolve_url(args.db)
    result = backup.restore(url, args.file)
    if result.replaced_copy is not None:
        print(f"O banco anterior foi guardado em {result.replaced_copy}.")
    print(f"Cópia {args.file} restaurada.")
    # A copy from an older version of the program is brought up to date now, not at the next start.
    db = _open(args, migrate=True)
    db.dispose()
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    from desktop.demo.entry import load_demo  # lazy: the demo package loads only for this command

    db = _open(args)
    last = [0.0]

    def progress(done: int, total: int, text: str) -> None:
        now = time.perf_counter()
        if done >= total or now - last[0] > 0.5:
            last[0] = now
            print(f"  {text}: {done}/{total}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    try:
        summary = load_demo(db, drivers=args.drivers, seed=args.seed, progress=progress, force=args.force)
    finally:
        db.dispose()
    elapsed = time.perf_counter() - started
    print(summary.describe())
    print(f"Dados de demonstração carregados em {elapsed:.1f} s.")
    return EXIT_OK


def cmd_audit_verify(args: argparse.Namespace) -> int:
    from desktop.services import audit  # lazy: kept off the start-up path (the login window imports this module)

    against = None
    if args.against:
        try:
            against = audit.read_published_checkpoint(args.against)
        except OSError as exc:
            print(f"Erro: não foi possível ler {args.against}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
        except ValueError as exc:
            print(f"Erro: {args.against}: {exc}", file=sys.stderr)
            return EXIT_USAGE
    db = open_existing(args)
    try:
        check = audit.verify(db, against=against)
    finally:
        db.dispose()
    if check.ok:
        print(check.reason)
        return EXIT_OK
    print(f"Registro de auditoria ROMPIDO na entrada nº {check.first_broken_id}: {check.reason} "
          f"({check.checked} entradas conferidas).", file=sys.stderr)
    return EXIT_FAILURE


def cmd_audit_checkpoint(args: argparse.Namespace) -> int:

    from desktop.services import checkpoints  # lazy: kept off the start-up path (the login window imports this module)

    db = open_existing(args)
    try:
        cp, check, pdf = checkpoints.checkpoint_term(db, named_actor(db, args.user))
    finally:
        db.dispose()
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pdf)
    print(f"Ponto de verificação assinado: entrada nº {cp.last_id}, {cp.entry_count} entradas, código "
          f"{cp.short_hash}. Termo gravado em {out}.")
    if not check.ok:
        print(f"ATENÇÃO: {check.reason}", file=sys.stderr)
        return EXIT_FAILURE
    return EXIT_OK


def cmd_audit_rotate_key(args: argparse.Namespace) -> int:
    """Issue 25 item 5: the one way to write a new public key on PostgreSQL — connected as the owner role."""
    from desktop.errors import DesktopError  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import setup  # lazy: kept off the start-up path (the login window imports this module)

    db = open_existing(args)
    try:
        info = setup.rotate_signing_key(db, _cli_actor(), args.reason)
    except DesktopError as exc:
        print(f"Erro: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        db.dispose()
    print(f"Chave de assinatura trocada: {info.fingerprint[:16]}… (guardada em {info.holder}). Os adesivos "
          "impressos daqui em diante levam a assinatura da chave nova.")
    return EXIT_OK


def _ask(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        return ""


def _secret(prompt: str) -> str:
    try:
        return getpass.getpass(prompt)
    except EOFError:
        return ""


def cmd_users_add(args: argparse.Namespace) -> int:
    from desktop.domain.roles import Role  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.errors import ValidationError  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.domain.problems import Problem  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import users  # lazy: kept off the start-up path (the login window imports this module)

    username = args.username or _ask("Nome de acesso: ")
    full_name = args.name or _ask("Nome completo: ")
    roles_text = args.roles if args.roles is not None else _ask(f"Papéis ({', '.join(ROLE_NAMES)}): ")
    password = args.password
    if password is None:
        password = _secret("Senha: ")
        if password and _secret("Repita a senha: ") != password:
            raise ValidationError([Problem("password", "As duas senhas digitadas não conferem.")])
    roles: set[Role] = set()
    for part in (r.strip().lower() for r in roles_text.split(",")):
        if not part:
            continue
        try:
            roles.add(Role(part))
        except ValueError:
            raise ValidationError([Problem(
                "roles", f"Papel desconhecido: {part!r}. Use: {', '.join(ROLE_NAMES)}.")]) from None
    db = _open(args)
    try:
        info = users.create_user(
            db, _cli_actor(),
            users.UserDraft(username=username, full_name=full_name, roles=frozenset(roles), password=password,
                            office=args.office, registration=args.registration),
        )
    finally:
        db.dispose()
    print(f"Usuário {info.username} criado ({', '.join(sorted(r.label for r in info.roles))}).")
    return EXIT_OK


def cmd_users_list(args: argparse.Namespace) -> int:
    from desktop.services import users  # lazy: kept off the start-up path (the login window imports this module)

    db = open_existing(args)
    try:
        rows = users.list_users(db, _cli_actor())
    finally:
        db.dispose()
    for u in rows:
        state = "ativo" if u.active else "inativo"
        if u.locked_until is not None:
            state += ", bloqueado até " + users.format_datetime(u.locked_until)
        roles = ", ".join(sorted(r.value for r in u.roles))
        print(f"{u.username:<20} {u.full_name:<40} {roles:<45} {state}")
    return EXIT_OK


def cmd_users_unlock(args: argparse.Namespace) -> int:
    from desktop.services import users  # lazy: kept off the start-up path (the login window imports this module)

    db = _open(args)
    try:
        user = users.find_user(db, args.username)
        users.unlock_user(db, _cli_actor(), user.id)
    finally:
        db.dispose()
    print(f"Usuário {user.username} desbloqueado.")
    return EXIT_OK


def _read_input(path: str) -> bytes | None:
    """The bytes of the file a command imports, or None after telling why it cannot be read (stderr)."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        print(f"Erro: não foi possível ler {path}: {exc.strerror or exc}.", file=sys.stderr)
        return None


def cmd_import_platform_list(args: argparse.Namespace) -> int:
    """exit 0 and the summary when stored; exit 1 and every error line when refused (nothing stored)."""

    from desktop.services import platform_lists  # lazy: kept off the start-up path (the login window imports this module)

    try:
        delivered = datetime.strptime(args.delivered.strip(), "%d/%m/%Y").date()
    except ValueError:
        print(f"Erro: data de entrega inválida: {args.delivered!r} (use DD/MM/AAAA).", file=sys.stderr)
        return EXIT_FAILURE
    content = _read_input(args.file)
    if content is None:
        return EXIT_FAILURE
    db = _open(args)
    try:
        actor = _cli_actor()
        platform_id = platform_lists.platform_by_cnpj(db, actor, args.platform)
        report = platform_lists.import_list(db, actor, platform_id, content, args.file, delivered)
    finally:
        db.dispose()
    print(report.summary())
    return EXIT_OK


def cmd_payments_import(args: argparse.Namespace) -> int:
    """exit 0 and the summary (with the lines not matched) when the file was imported; exit 1 and the error
    lines when the file is refused or was already imported (nothing stored)."""
    from desktop.errors import ValidationError  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import bank_returns  # lazy: kept off the start-up path (the login window imports this module)

    content = _read_input(args.file)
    if content is None:
        return EXIT_FAILURE
    db = _open(args)
    try:
        report = bank_returns.import_bank_return(db, _cli_actor(), content, os.path.basename(args.file))
    except ValidationError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_FAILURE
    finally:
        db.dispose()
    if report.duplicate:
        print(report.describe(), file=sys.stderr)
        return EXIT_FAILURE
    print(report.describe())
    for line in report.rejected_lines:
        print(f"  Linha {line.line}: {line.message}")
    return EXIT_OK if not report.duplicate else EXIT_FAILURE


def cmd_import_trips(args: argparse.Namespace) -> int:
    """exit 0 and the summary when stored; exit 1 and every error line when refused (nothing stored)."""
    from desktop.errors import ValidationError  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import platform_lists, trips  # lazy: kept off the start-up path (the login window imports this module)

    for path in (args.file, args.routes):
        if path and not os.path.isfile(path):
            print(f"Erro: não foi possível ler {path}: arquivo não encontrado.", file=sys.stderr)
            return EXIT_FAILURE
    db = _open(args)
    started = time.perf_counter()
    try:
        actor = _cli_actor()
        platform_id = platform_lists.platform_by_cnpj(db, actor, args.platform)
        report = trips.import_trips(db, actor, platform_id, args.file, routes=args.routes)
    except ValidationError as exc:
        print("Erro: o arquivo de viagens foi recusado; nada foi gravado.", file=sys.stderr)
        for problem in exc.problems:
            print(problem.message, file=sys.stderr)
        return EXIT_FAILURE
    finally:
        db.dispose()
    print(report.summary())
    print(f"Tempo: {time.perf_counter() - started:.1f} s.")
    return EXIT_OK


def _export_needing(args: argparse.Namespace, value, missing: str, write) -> int:
    """An export that needs one option (`value`, refused with `missing` when absent): opens the existing database
    (never creating or migrating it), `write(db, actor)` returns the line to print."""
    if not value:
        print(f"Erro: {missing}", file=sys.stderr)
        return EXIT_USAGE
    db = open_existing(args)
    try:
        done = write(db, _cli_actor())
    finally:
        db.dispose()
    print(done)
    return EXIT_OK


def _export_fares(args: argparse.Namespace) -> int:
    from desktop.services import trips  # lazy: kept off the start-up path (the login window imports this module)

    return _export_needing(args, args.month, "informe --month AAAA-MM para exportar as tarifas.",
                           lambda db, actor: f"{trips.export_fares(db, actor, args.month, args.out)} linhas de "
                                             f"tarifas de {args.month} exportadas para {args.out}.")


def cmd_export(args: argparse.Namespace) -> int:
    from desktop.services import exports  # lazy: kept off the start-up path (the login window imports this module)

    if args.kind == "reconciliation":
        return _export_reconciliation(args)
    if args.kind == ISSQN_EXPORT:
        return _export_issqn(args)
    if args.kind == "fares":
        return _export_fares(args)
    if args.kind == GUIDES_EXPORT:
        from desktop.services.guide_export import export_guides  # lazy: kept off the start-up path (the login window imports this module)

        return _export_needing(args, args.out, "informe --out ARQUIVO.",
                               lambda db, actor: f"{export_guides(db, actor, args.out).rows} guias exportadas para "
                                                 f"{args.out}.")
    db = open_existing(args)   # read-only: never creates or migrates a database (issue 11)
    started = time.perf_counter()
    try:
        result = exports.export(db, _cli_actor(), args.kind, args.out)
    finally:
        db.dispose()
    print(f"{result.rows} linhas exportadas para {result.path} em {time.perf_counter() - started:.1f} s.")
    return EXIT_OK


def _export_reconciliation(args: argparse.Namespace) -> int:
    from desktop.services import platform_lists  # lazy: kept off the start-up path (the login window imports this module)

    def write(db, actor) -> str:
        rows = platform_lists.export_reconciliation(
            db, actor, args.out, platform_id=platform_lists.platform_by_cnpj(db, actor, args.platform))
        return f"{rows} linhas de conciliação exportadas para {args.out}."

    return _export_needing(args, args.platform, "informe --platform CNPJ para exportar a conciliação.", write)


def _export_issqn(args: argparse.Namespace) -> int:
    from desktop.services import issqn  # lazy: kept off the start-up path (the login window imports this module)

    if not args.month:
        return _export_needing(args, None, "informe --month AAAA-MM para exportar o ISSQN.", None)
    year, month = issqn.parse_month(args.month)   # a malformed month is refused before the database is opened

    def write(db, actor) -> str:
        result = issqn.export_issqn(db, actor, year, month, args.out)
        return f"{result.rows} linhas do ISSQN de {month:02d}/{year} exportadas para {result.path}."

    return _export_needing(args, args.month, "", write)


def cmd_issqn_estimate(args: argparse.Namespace) -> int:
    """Prints how many vehicles and the total; the vehicles without a class are listed (not skipped)."""
    from desktop.domain.formatting import format_money  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import issqn  # lazy: kept off the start-up path (the login window imports this module)

    year, month = issqn.parse_month(args.month)
    db = _open(args)
    try:
        result = issqn.run_competence(db, _cli_actor(), year, month)
    finally:
        db.dispose()
    print(f"Competência {month:02d}/{year}: {result.vehicles} veículos, total {format_money(result.total)}.")
    if result.kept:
        print(f"{result.kept} estimativas com guia emitida foram mantidas (cancele a guia para recalcular).")
    for problem in result.without_class + result.without_platform:
        print(f"Atenção: {problem.plate_display} ({problem.driver_name}): {problem.message}.")
    return EXIT_OK


def cmd_guide(args: argparse.Namespace) -> int:
    """`guide --auto N | --fee A | --issqn AAAA-MM --platform CNPJ --out F`: issue the guide and print its DAM."""
    from desktop.errors import ConflictError  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services import documents  # lazy: kept off the start-up path (the login window imports this module)

    if args.issqn and not args.platform:
        print("Erro: informe --platform CNPJ com --issqn.", file=sys.stderr)
        return EXIT_USAGE
    db = _open(args)
    try:
        actor = named_actor(db, args.user)
        if args.issqn:
            from desktop.services import issqn  # lazy: kept off the start-up path (the login window imports this module)

            year, month = issqn.parse_month(args.issqn)
            with db.session() as s:
                platform_id = issqn.platform_by_cnpj(s, args.platform).id
            try:
                number = issqn.issue_issqn_guide(db, actor, platform_id, year, month).number
            except ConflictError:
                number = issqn.open_guide_number(db, platform_id, year, month)
                if number is None:
                    raise
                print(f"A guia nº {number} já estava emitida; imprimindo-a.")
        elif args.reissue:
            from desktop.services import guides  # lazy: the guides of fines and fees (issue 13)

            # issue 23 (pinned): exit 1 with the reason for a guide that is not overdue (TransitionRefused)
            number = guides.reissue_overdue_guide(db, actor, args.reissue,
                                                  args.reason or "Reemissão pedida pela linha de comando").number
            print(f"Guia nº {args.reissue} reemitida como guia nº {number}.")
        else:
            from desktop.services import guides  # lazy: the guides of fines and fees (issue 13)

            if args.auto:
                number = guides.issue_fine_guide(db, actor, args.auto).number
            else:
                number = guides.issue_fee_guide(db, actor, args.fee).number
        issued = documents.print_guide(db, actor, number)
    finally:
        db.dispose()
    with open(args.out, "wb") as handle:
        handle.write(issued.pdf)
    print(f"Guia nº {number} emitida e impressa em {args.out} (documento nº {issued.info.number}).")
    return EXIT_OK


def _size(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}".replace(".", ",")
        n /= 1024
    return f"{n} bytes"


if __name__ == "__main__":
    sys.exit(main())
