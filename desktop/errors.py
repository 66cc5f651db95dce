"""Typed errors raised by services. Each carries the Portuguese message a clerk reads (STYLE: Tryton).

Views catch DesktopError and show `str(error)`; ValidationError also carries the list of problems, so a form
can put each next to its field.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from decimal import InvalidOperation

from desktop.domain.problems import Problem


class DesktopError(Exception):
    """Base of every error a user may see. `str(e)` is the Portuguese message."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ValidationError(DesktopError):
    """Bad input: one or more problems, each naming its field. Nothing was saved."""

    def __init__(self, problems: Iterable[Problem], message: str | None = None):
        self.problems: list[Problem] = list(problems)
        if message is None:
            message = "Corrija os campos indicados:\n" + "\n".join(f"• {p}" for p in self.problems)
        super().__init__(message)


class PermissionDenied(DesktopError):
    """The user lacks the role the service needs (SPEC §4: roles enforced in the service layer)."""


class StaleRecordError(DesktopError):
    """Another desk saved the same record first (optimistic locking). The user must reload."""

    def __init__(self, message: str = (
        "Este registro foi alterado por outro usuário depois que você o abriu. "
        "Nada foi gravado. Recarregue o registro e refaça a alteração."
    )):
        super().__init__(message)


class NotFound(DesktopError):
    """The record asked for does not exist."""


class ConflictError(DesktopError):
    """The change breaks a rule the database keeps (a duplicate CPF, a second active authorization...)."""


class TransitionRefused(DesktopError):
    """A status change that the state machine of desktop.domain does not list."""


class AuthenticationError(DesktopError):
    """Wrong user name or password."""


class AccountLocked(AuthenticationError):
    """Too many wrong passwords: the account is locked until `until`."""

    def __init__(self, message: str, until: datetime | None = None):
        super().__init__(message)
        self.until = until


class TransientDatabaseError(DesktopError):
    """The database gave up on the transaction because of another desk: a deadlock, a serialization failure, a
    lock wait too long, SQLite busy. Nothing was saved; running the same work again normally succeeds
    (`desktop.db.retrying` does it once, transparently)."""


class DatabaseUnavailable(DesktopError):
    """The database cannot be reached or opened (server down, wrong address, missing file, unsupported kind)."""


# ---------------------------------------------------------------------------------------------------------
# Database refusals → typed errors (db.py maps every session's errors with these; services.base re-exports them)
# ---------------------------------------------------------------------------------------------------------

# Constraint name (naming convention of desktop.models.base) → message naming the field.
CONSTRAINT_MESSAGES: dict[str, str] = {
    "uq_drivers_cpf": "Já existe um condutor com este CPF.",
    "uq_vehicles_plate": "Já existe um veículo com esta placa.",
    "uq_vehicles_renavam": "Já existe um veículo com este RENAVAM.",
    "uq_platforms_cnpj": "Já existe uma plataforma com este CNPJ.",
    "uq_platforms_municipal_registration_number":
        "Já existe uma plataforma com este número de inscrição municipal.",
    "uq_lessors_document_number": "Já existe um locador com este CPF/CNPJ.",
    "uq_users_username": "Já existe um usuário com este nome de usuário.",
    "uq_authorizations_number": "Já existe uma autorização com este número.",
    "uq_authorizations_live_driver":
        "Este condutor já tem uma autorização em andamento ou ativa (Art. 8: uma autorização por condutor).",
    "uq_authorizations_live_vehicle":
        "Este veículo já tem uma autorização em andamento ou ativa (Art. 8: uma autorização por veículo).",
    "uq_autos_number": "Já existe um auto de infração com este número.",
    "uq_payment_guides_number": "Já existe uma guia com este número.",
    "uq_fees_guide_number": "Esta guia já está vinculada a outra taxa.",
    "uq_parameters_key_valid_from": "Já existe um valor deste parâmetro com a mesma data de vigência.",
    "uq_infraction_codes_code_valid_from": "Já existe este código de infração com a mesma data de vigência.",
    "uq_inspections_inspector_slot": "Este horário do vistoriador já está reservado para outra vistoria.",
    "uq_driver_platforms_driver_id_platform_id": "Este condutor já está vinculado a esta plataforma.",
    "uq_driver_checklist_items_driver_id_requirement": "Este item da lista do condutor já está registrado.",
    "uq_inspection_places_name": "Já existe um local de vistoria com este nome.",
    "uq_inspector_blocked_days_inspector_id_day": "Este dia já está bloqueado para o vistoriador.",
    "uq_issqn_estimates_vehicle_id_year_month": "Já existe estimativa de ISSQN deste veículo neste mês.",
    "uq_issqn_classes_code": "Já existe uma classe de estimativa com este código.",
    "uq_course_attendances_session_id_driver_id": "Este condutor já foi convocado para esta turma.",
    "uq_trip_rows_platform_id_external_id": "Esta viagem já foi importada desta plataforma.",
    "uq_issued_documents_kind_number": "Já existe um documento emitido deste tipo com este número.",
    "uq_data_requests_number": "Já existe uma requisição de dados com este número.",
    "uq_ledger_entries_reverses_id":
        "Este lançamento já foi estornado (talvez por outra estação neste instante): um lançamento só pode ser "
        "estornado uma vez. Nada foi gravado.",
    "uq_ledger_entries_payment_guide":
        "Esta guia já foi usada em outro pagamento: uma guia paga um só débito. Nada foi gravado.",
}
GENERIC_UNIQUE = "Já existe um registro com estes dados."
GENERIC_INTEGRITY = "A alteração foi recusada pelo banco de dados: ela quebra uma regra de integridade dos registros."
APPEND_ONLY_MARK = "somente inclusão"  # the text of the append-only triggers (see the initial migration)
BUSY_MESSAGE = ("O banco de dados está ocupado por outra estação há muito tempo. Nada foi gravado; "
                "tente de novo em instantes.")

DEADLOCK_MESSAGE = ("Outra estação gravava os mesmos registros ao mesmo tempo e o banco de dados desfez esta "
                    "gravação para não travar as duas. Nada foi gravado; tente de novo.")
UNAVAILABLE_MESSAGE = ("Não foi possível falar com o banco de dados ({detail}). Nada foi gravado. Confira a rede e "
                       "o endereço do servidor em Administração › Banco de dados, ou chame o suporte.")
NUMBER_MESSAGE = ("Um valor numérico é inválido: não é um número finito ou passa do limite aceito "
                  "(999.999.999,99). Confira os valores digitados; nada foi gravado.")
# SQLSTATE → kind (PostgreSQL error codes, appendix A of its manual)
TRANSIENT_SQLSTATES = {"40P01": DEADLOCK_MESSAGE, "40001": DEADLOCK_MESSAGE, "55P03": BUSY_MESSAGE}
# Data the database refused that the limits of desktop.domain.limits should have caught first (22xxx).
DATA_SQLSTATES = {
    "22001": "Um texto é mais longo do que o campo permite.",
    "22003": "Um número está fora do intervalo que o campo permite.",
    "22007": "Uma data ou hora é inválida.",
    "22008": "Uma data ou hora está fora do intervalo permitido.",
    "22021": "Um texto contém caracteres inválidos (caractere nulo ou de controle).",
    "22P05": "Um texto contém caracteres inválidos (caractere nulo ou de controle).",
    "22P02": "Um valor tem formato inválido para o campo.",
}


def _sqlstate(error: BaseException) -> str | None:
    orig = getattr(error, "orig", None)
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


_SQLITE_UNIQUE = re.compile(r"UNIQUE constraint failed: (?P<cols>.+)$", re.MULTILINE)


# The models' metadata, registered by desktop.models when it is imported (the models lie above this module in the
# room order, so they hand their tables down instead of being imported here).
_METADATA: list = []


def register_metadata(metadata) -> None:
    """Called once by desktop.models: the tables whose UNIQUE constraints SQLite's refusals are matched against."""
    global _SQLITE_COLUMNS
    if metadata not in _METADATA:
        _METADATA.append(metadata)
        _SQLITE_COLUMNS = None


def _sqlite_column_index() -> dict[str, str]:
    """'table.col1, table.col2' (as SQLite reports a UNIQUE failure) → constraint name."""
    from sqlalchemy import UniqueConstraint  # lazy: SQLAlchemy loads only once a database refusal is mapped

    index: dict[str, str] = {}
    for table in (t for metadata in _METADATA for t in metadata.tables.values()):
        groups = [c for c in table.constraints if isinstance(c, UniqueConstraint)]
        groups += [i for i in table.indexes if i.unique]
        for group in groups:
            cols = ", ".join(f"{table.name}.{c.name}" for c in group.columns)
            if group.name:
                index.setdefault(cols, str(group.name))
    return index


_SQLITE_COLUMNS: dict[str, str] | None = None


def constraint_of(error: BaseException) -> str | None:
    """The name of the constraint a database refusal names, on PostgreSQL or SQLite."""
    global _SQLITE_COLUMNS
    orig = getattr(error, "orig", None)
    diag = getattr(orig, "diag", None)
    if diag is not None and getattr(diag, "constraint_name", None):
        return diag.constraint_name
    match = _SQLITE_UNIQUE.search(str(orig))
    if match:
        if _SQLITE_COLUMNS is None:
            _SQLITE_COLUMNS = _sqlite_column_index()
        cols = match.group("cols").strip()
        if cols.startswith("index '"):
            return cols[len("index '"):-1]
        return _SQLITE_COLUMNS.get(cols)
    return None


def map_db_error(error: BaseException) -> DesktopError | None:
    """The typed error for a database exception, or None when it is not one we translate."""
    if isinstance(error, DesktopError):
        return error
    # lazy: SQLAlchemy (≈ 300 ms) loads with the first database, never for a screen that only raises a DesktopError
    from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError  # lazy: kept off the start-up path (the login window imports this module)
    from sqlalchemy.orm.exc import StaleDataError  # lazy: kept off the start-up path (the login window imports this module)

    if isinstance(error, StaleDataError):
        return StaleRecordError()
    if isinstance(error, InvalidOperation) or (isinstance(error, OverflowError) and "SQLite INTEGER" in str(error)):
        # a NaN compared, a 1e30 quantized, a number beyond SQLite's 64 bits: the service did not check the
        # limits of desktop.domain.limits first; still a message, never "Erro inesperado"
        return ValidationError([Problem("", NUMBER_MESSAGE)])
    if isinstance(error, ValueError) and "NUL" in str(error):
        # psycopg refuses a NUL byte before sending it ("PostgreSQL text fields cannot contain NUL")
        return ValidationError([Problem("", DATA_SQLSTATES["22021"])])
    if isinstance(error, DBAPIError):
        text = str(getattr(error, "orig", error))
        state = _sqlstate(error)
        if state in TRANSIENT_SQLSTATES:
            return TransientDatabaseError(TRANSIENT_SQLSTATES[state])
        if state in DATA_SQLSTATES:
            return ValidationError([Problem("", DATA_SQLSTATES[state])])
        if APPEND_ONLY_MARK in text:
            first = text.strip().splitlines()[0]
            return ConflictError(first)
        if isinstance(error, IntegrityError):
            name = constraint_of(error)
            if name and name in CONSTRAINT_MESSAGES:
                return ConflictError(CONSTRAINT_MESSAGES[name])
            if "unique" in text.lower() or "duplicate key" in text.lower():
                return ConflictError(GENERIC_UNIQUE)
            return ConflictError(GENERIC_INTEGRITY)
        if isinstance(error, OperationalError) and ("database is locked" in text or "database is busy" in text):
            return TransientDatabaseError(BUSY_MESSAGE)
        if isinstance(error, OperationalError) and (error.connection_invalidated or _is_connection_failure(text)):
            return DatabaseUnavailable(UNAVAILABLE_MESSAGE.format(detail=_connection_detail(text)))
        if isinstance(error, OperationalError) and "unable to open database file" in text:
            return DatabaseUnavailable("Não foi possível abrir o arquivo do banco de dados SQLite (a pasta não existe "
                                       "ou não há permissão). Confira o caminho em Administração › Banco de dados.")
        if isinstance(error, OperationalError) and ("disk I/O error" in text or "database disk image" in text):
            return DatabaseUnavailable("O arquivo do banco de dados SQLite está danificado ou ilegível. Nada foi "
                                       "gravado; restaure a última cópia de segurança.")
    return None


_CONNECTION_MARKS = ("connection refused", "could not connect", "connection timeout", "timeout expired",
                     "could not translate host name", "name or service not known", "server closed the connection",
                     "connection to server", "no route to host", "network is unreachable", "terminating connection",
                     "password authentication failed")


def _is_connection_failure(text: str) -> bool:
    low = text.lower()
    return any(mark in low for mark in _CONNECTION_MARKS)


def _connection_detail(text: str) -> str:
    low = text.lower()
    if "could not translate host name" in low or "name or service not known" in low:
        return "o nome do servidor não foi encontrado"
    if "timeout" in low:
        return "o servidor não respondeu a tempo"
    if "password authentication failed" in low:
        return "usuário ou senha recusados"
    if "does not exist" in low and "database" in low:
        return "a base indicada não existe no servidor"
    if "refused" in low:
        return "o servidor recusou a conexão: ele está ligado?"
    return "o servidor está inacessível"


@contextmanager
def translate_db_errors() -> Iterator[None]:
    """`with translate_db_errors(): ...` re-raises database refusals as typed Portuguese errors
    (the original stays as `__cause__`). `Database.session()` already does this around each transaction."""
    try:
        yield
    except Exception as exc:
        mapped = map_db_error(exc)
        if mapped is None or mapped is exc:
            raise
        raise mapped from exc
