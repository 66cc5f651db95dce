"""First start: the municipality's settings, the UPFM value, the default parameters, the signing key and the
first administrator — all in one transaction (issue 2). Also the settings screen's read and update.

The first user receives the roles **administrador and gestor**: in a fresh installation somebody must be able both
to manage users and to enter the parameters and legal decisions; the administrator can later create a separate
gestor and remove the role from themself (services.users keeps one active administrador at all times).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from desktop.domain.pix import normalize_pix_key, pix_key_problems
from desktop.domain.problems import Problem
from desktop.domain.revenue_codes import FIELDS as REVENUE_CODE_FIELDS, revenue_code_problems
from desktop.domain.roles import SETUP_ROLES
from desktop.errors import ConflictError, NotFound, ValidationError
from sqlalchemy import select
from desktop.models.admin import MunicipalitySettings
from desktop.domain import normalize_cnpj
from desktop.models.admin import Parameter, User
from desktop import keystore
from desktop.models import SigningKey, now
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError

FIRST_USER_ROLES = frozenset(SETUP_ROLES.first_user)
UFS = frozenset(
    "AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO".split()
)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_BRASAO_BYTES = 2 * 1024 * 1024
MAX_PIX_KEY = 77     # BACEN: a PIX key (random EVP, e-mail, phone, CPF/CNPJ) has at most 77 characters
_PHONE_SHORT = re.compile(r"^\d{3,4}$")  # 156 and similar municipal service numbers


@dataclass(frozen=True, slots=True)
class MunicipalityDraft:
    """What the setup wizard and the settings screen collect. `upfm_year`/`upfm_value` are required by
    `initialize`; `update_municipality` ignores them (the UPFM table is kept in Parâmetros). On update,
    `brasao_png=None` keeps the current image."""

    name: str
    uf: str
    secretariat: str
    ouvidoria_phone: str
    upfm_year: int | None = None
    upfm_value: Decimal | None = None
    brasao_png: bytes | None = None
    pix_key: str | None = None
    cnpj: str | None = None
    address: str | None = None
    febraban_agreement: str | None = None
    febraban_bank: str | None = None      # the collecting bank's 3-digit code (return file A.05); None: keep
    # Issue 23 point 10: the fees of the Código Tributário Municipal, asked at set-up with the act that fixes them
    # (no invented default): ((parameter key, value in UPFM), ...) of FEE_KEYS; `initialize` only.
    fees: tuple[tuple[str, Decimal], ...] = ()
    fees_act: str = ""
    # Issue 28 point 4: the código da receita of each kind of debt, ((field of REVENUE_CODES, code), ...); None
    # keeps the configured codes (screens that do not show them: the setup wizard).
    revenue_codes: tuple[tuple[str, str], ...] | None = None


FEE_KEYS = ("fee.authorization", "fee.renewal", "fee.inspection")


@dataclass(frozen=True, slots=True)
class AdminDraft:
    username: str
    full_name: str
    password: str


@dataclass(frozen=True, slots=True)
class MunicipalityInfo:
    name: str
    uf: str
    secretariat: str
    ouvidoria_phone: str
    brasao_png: bytes | None
    pix_key: str | None
    cnpj: str | None
    address: str | None
    febraban_agreement: str | None
    signing_public_key: bytes | None
    version: int
    febraban_bank: str | None = None     # the collecting bank's code: a return file of another bank is refused
    revenue_codes: tuple[tuple[str, str | None], ...] = ()   # issue 28 point 4: (field, code or None), every field

    def revenue_code(self, field: str) -> str | None:
        """The código da receita configured in `field` (desktop.domain.revenue_codes), or None."""
        return dict(self.revenue_codes).get(field)

    @property
    def title(self) -> str:
        """"Prefeitura Municipal de Chapada dos Guimarães–MT"."""
        return f"Prefeitura Municipal de {self.name}–{self.uf}"


def _digits(text: str | None) -> str:
    return "".join(ch for ch in (text or "") if ch.isdigit())


def phone_problems(phone: str | None, field: str = "ouvidoria_phone") -> list[Problem]:
    """A Brazilian phone: DDD + 8 or 9 digits, a 0800/0300 number, or a short service number (156)."""
    digits = _digits(phone)
    if not digits:
        return [Problem(field, "Informe o telefone da Ouvidoria (impresso no adesivo do veículo).", "Art. 14")]
    ok = (
        (len(digits) in (10, 11) and digits[0] != "0" and digits[:2] >= "11")
        or (len(digits) == 11 and digits[:4] in ("0800", "0300", "0500", "0900"))
        or bool(_PHONE_SHORT.match(digits))
    )
    if not ok:
        return [Problem(field, "Telefone inválido: use DDD e número, por exemplo (65) 3301-1234, "
                               "ou um número 0800.", "Art. 14")]
    return []


def municipality_problems(draft: MunicipalityDraft, initial: bool) -> list[Problem]:
    problems: list[Problem] = []
    if not (draft.name or "").strip():
        problems.append(Problem("name", "Informe o nome do município."))
    elif len(draft.name.strip()) > 120:
        problems.append(Problem("name", "O nome do município deve ter no máximo 120 caracteres."))
    uf = (draft.uf or "").strip().upper()
    if len(uf) != 2 or not uf.isalpha():
        problems.append(Problem("uf", "A UF deve ter duas letras (ex.: MT)."))
    elif uf not in UFS:
        problems.append(Problem("uf", f"UF desconhecida: {uf}."))
    if not (draft.secretariat or "").strip():
        problems.append(Problem("secretariat", "Informe a secretaria responsável."))
    elif len(draft.secretariat.strip()) > 200:
        problems.append(Problem("secretariat", "O nome da secretaria deve ter no máximo 200 caracteres."))
    problems += phone_problems(draft.ouvidoria_phone)
    if initial:
        if not isinstance(draft.upfm_year, int) or not 2000 <= draft.upfm_year <= 2999:
            problems.append(Problem("upfm_year", "Informe o ano do valor da UPFM (ex.: 2026)."))
        value = draft.upfm_value
        try:
            if value is None or isinstance(value, float):
                raise InvalidOperation
            value = Decimal(str(value).replace(",", ".")) if not isinstance(value, Decimal) else value
            if not value.is_finite():
                raise InvalidOperation
        except (InvalidOperation, ValueError):
            problems.append(Problem("upfm_value", "Informe o valor da UPFM em reais (ex.: 112,45).", "Art. 25"))
        else:
            if value <= 0:
                problems.append(Problem("upfm_value", "O valor da UPFM deve ser maior que zero.", "Art. 25"))
            elif value > Decimal("100000"):
                problems.append(Problem("upfm_value", "Valor da UPFM alto demais; confira os dígitos.", "Art. 25"))
    if draft.brasao_png is not None:
        if not draft.brasao_png.startswith(PNG_MAGIC):
            problems.append(Problem("brasao_png", "O brasão deve ser uma imagem PNG."))
        elif len(draft.brasao_png) > MAX_BRASAO_BYTES:
            problems.append(Problem("brasao_png", "A imagem do brasão deve ter no máximo 2 MB."))
    if draft.revenue_codes is not None:
        problems += revenue_code_problems(draft.revenue_codes)
    problems += pix_key_problems(draft.pix_key)  # BR Code: CPF/CNPJ digits, +55 phone, e-mail, random key
    if draft.cnpj:
        from desktop.domain import validate_cnpj  # local: imported only on this branch

        problem = validate_cnpj(draft.cnpj, field="cnpj", required=False)
        if problem is not None:
            problems.append(problem)
    if initial:
        problems += fee_problems(draft.fees, draft.fees_act)
    bank = (draft.febraban_bank or "").strip()
    if bank and not (bank.isdigit() and len(bank) <= 3):
        problems.append(Problem("febraban_bank", "Código do banco arrecadador: 3 dígitos (ex.: 001 Banco do Brasil)."))
    if draft.febraban_agreement and not (_digits(draft.febraban_agreement) == draft.febraban_agreement.strip()
                                         and len(draft.febraban_agreement.strip()) == 4):
        problems.append(Problem("febraban_agreement",
                                "O código do órgão na FEBRABAN tem 4 dígitos (guias de arrecadação)."))
    return problems


def fee_problems(fees, act: str) -> list[Problem]:
    """The fees typed at set-up (issue 23 point 10): each within its parameter's bounds, and — when any is given —
    the law or decree that fixes them (the dated parameter's note), since the law leaves them to the CTM."""
    from desktop.services.parameters import PARAMETERS  # lazy: the catalogue of parameters loads with the database

    problems: list[Problem] = []
    for key, value in fees:
        spec = PARAMETERS[key] if key in FEE_KEYS else None
        if spec is None:
            problems.append(Problem("fees", f"Taxa desconhecida: {key}."))
        elif not isinstance(value, Decimal) or not value.is_finite():
            problems.append(Problem(key, f"{spec.label}: informe um número em UPFM (ex.: 10,00).", spec.article))
        elif (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum):
            problems.append(Problem(key, f"{spec.label}: entre {spec.minimum} e {spec.maximum} UPFM.", spec.article))
    if fees and not (act or "").strip():
        problems.append(Problem("fees_act", "Informe a lei ou o decreto que fixa as taxas (Código Tributário "
                                            "Municipal): fica registrado com cada valor.", "Art. 10"))
    elif len((act or "").strip()) > 200:
        problems.append(Problem("fees_act", "A referência da lei ou do decreto deve ter no máximo 200 caracteres."))
    return problems


def admin_problems(admin: AdminDraft) -> list[Problem]:
    from desktop.services.auth import normalize_username, password_problems, username_problems  # lazy: SQLAlchemy loads once the database is used (start-up)

    problems = username_problems(admin.username)
    if not (admin.full_name or "").strip():
        problems.append(Problem("full_name", "Informe o nome completo do administrador."))
    problems += password_problems(admin.password, "password", normalize_username(admin.username))
    return problems


def needs_setup(db) -> bool:
    """True until `initialize` has run (no settings row yet)."""

    with db.session(write=False) as s:
        return s.scalar(select(MunicipalitySettings.id).where(MunicipalitySettings.id == 1)) is None


def new_signing_key() -> tuple[bytes, bytes]:
    """(private, public) raw 32-byte Ed25519 keys; the sticker's QR payload is signed with it (issue 7)."""
    from cryptography.hazmat.primitives import serialization  # lazy: cryptography loads only when this runs (start-up cost)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # lazy: cryptography loads only when this runs (start-up cost)

    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return private, public


def _bank_code(text: str | None) -> str | None:
    """The collecting bank's code, 3 digits (001), or None."""
    code = (text or "").strip()
    return code.zfill(3) if code else None


def _clean_cnpj(text: str | None) -> str | None:

    return normalize_cnpj(text) or None


def initialize(db, municipality: MunicipalityDraft, admin: AdminDraft, key_passphrase: str | None = None):
    """Create the settings row, the UPFM value of `upfm_year`, the default parameters, the Ed25519 signing key
    and the first administrator (roles administrador + gestor) in one transaction. Returns the admin's Actor.
    The private key goes to this desk's key store (`desktop.keystore`; encrypted with `key_passphrase` when
    given), never into the database; its public half is the first period of `signing_keys`."""

    from desktop.services import audit, parameters  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.auth import actor_of, hash_password, normalize_username  # lazy: SQLAlchemy loads once the database is used (start-up)

    problems = municipality_problems(municipality, initial=True) + admin_problems(admin)
    if problems:
        raise ValidationError(problems)
    upfm = municipality.upfm_value if isinstance(municipality.upfm_value, Decimal) else \
        Decimal(str(municipality.upfm_value).replace(",", "."))
    from desktop.signing import fingerprint  # lazy: loads cryptography only when this runs

    private, public = new_signing_key()
    username = normalize_username(admin.username)
    with db.session() as s:
        if s.scalar(select(MunicipalitySettings.id)) is not None:
            raise ConflictError("O programa já foi configurado; altere os dados em Administração → Município.")
        if s.scalar(select(User.id).where(User.username == username)) is not None:
            raise ConflictError(f"Já existe um usuário com o nome de acesso {username!r}.")
        user = User(username=username, full_name=admin.full_name.strip(), password_hash=hash_password(admin.password),
                    active=True, failed_logins=0)
        user.set_roles(FIRST_USER_ROLES)
        s.add(user)
        s.flush()
        actor = actor_of(user)
        settings = MunicipalitySettings(
            id=1, name=municipality.name.strip(), uf=municipality.uf.strip().upper(),
            secretariat=municipality.secretariat.strip(), ouvidoria_phone=municipality.ouvidoria_phone.strip(),
            brasao_png=municipality.brasao_png, pix_key=normalize_pix_key(municipality.pix_key) or None,
            cnpj=_clean_cnpj(municipality.cnpj), address=(municipality.address or "").strip() or None,
            febraban_agreement=(municipality.febraban_agreement or "").strip() or None,
            febraban_bank=_bank_code(municipality.febraban_bank),
            signing_public_key=public,
        )
        _set_revenue_codes(settings, municipality.revenue_codes)
        s.add(settings)
        s.add(SigningKey(fingerprint=fingerprint(public), public_key=public, valid_from=now(), created_by=user.id,
                         holder=keystore.store(private, key_passphrase), note="Chave criada na configuração inicial"))
        # The UPFM value of the year, unless an earlier run (e.g. demo data) already has a row that day.
        upfm_from = date(municipality.upfm_year, 1, 1)
        if s.scalar(select(Parameter.id).where(Parameter.key == "upfm_value",
                                               Parameter.valid_from == upfm_from)) is None:
            s.add(Parameter(key="upfm_value", valid_from=upfm_from, value=upfm,
                            note="Informado na configuração inicial", created_by=user.id))
        parameters.seed_defaults(s, actor)
        for key, value in municipality.fees:   # the fees of the CTM, dated from the year like the UPFM, with the act
            if s.scalar(select(Parameter.id).where(Parameter.key == key, Parameter.valid_from == upfm_from)) is None:
                s.add(Parameter(key=key, valid_from=upfm_from, value=value, note=municipality.fees_act.strip(),
                                created_by=user.id))
        s.flush()
        audit.record(s, actor, "user.create", "user", str(user.id), None,
                     {"username": user.username, "full_name": user.full_name,
                      "roles": sorted(r.value for r in FIRST_USER_ROLES), "active": True})
        # the key's anchor in the chain (issue 25 item 5): the sticker check trusts only a key announced here
        audit.record(s, actor, "signing_key.create", "municipality", "1", None,
                     {"key": fingerprint(public), "reason": "configuração inicial"})
        audit.record(s, actor, "setup.initialize", "municipality", "1", None, {
            **_settings_snapshot(settings),
            "upfm_year": municipality.upfm_year, "upfm_value": str(upfm),
            "fees": {key: str(value) for key, value in municipality.fees}, "fees_act": municipality.fees_act.strip(),
            "default_parameters": {k: str(p.default) for k, p in parameters.PARAMETERS.items()
                                   if p.default is not None},
        })
    return actor


def _settings_snapshot(row) -> dict:
    """What the audit log keeps of the settings (no private key; the brasão by size only)."""
    return {
        "name": row.name, "uf": row.uf, "secretariat": row.secretariat, "ouvidoria_phone": row.ouvidoria_phone,
        "pix_key": row.pix_key, "cnpj": row.cnpj, "address": row.address,
        "febraban_agreement": row.febraban_agreement, "febraban_bank": row.febraban_bank,
        "brasao_png_bytes": len(row.brasao_png) if row.brasao_png else 0,
        **{field: getattr(row, field) for field in REVENUE_CODE_FIELDS},
    }


def _set_revenue_codes(row, codes) -> None:
    """The códigos da receita of `codes` ((field, text), ...) on the settings row; an empty text clears one;
    None leaves them all as they are."""
    for field, text in codes or ():
        if field in REVENUE_CODE_FIELDS:
            setattr(row, field, " ".join((text or "").split()) or None)


def _info(row) -> MunicipalityInfo:
    return MunicipalityInfo(
        name=row.name, uf=row.uf, secretariat=row.secretariat, ouvidoria_phone=row.ouvidoria_phone,
        brasao_png=row.brasao_png, pix_key=row.pix_key, cnpj=row.cnpj, address=row.address,
        febraban_agreement=row.febraban_agreement, signing_public_key=row.signing_public_key, version=row.version,
        febraban_bank=row.febraban_bank,
        revenue_codes=tuple((field, getattr(row, field)) for field in REVENUE_CODE_FIELDS),
    )


def _load(s):

    row = s.get(MunicipalitySettings, 1)
    if row is None:
        raise NotFound("O programa ainda não foi configurado (falta a configuração inicial do município).")
    return row


def get_municipality(db) -> MunicipalityInfo:
    with db.session(write=False) as s:
        return _info(_load(s))


def signing_private_key(db) -> bytes:
    """The raw Ed25519 private key that signs sticker payloads and audit checkpoints, from this desk's key store
    (issue 11: never from the database). `keystore.KeyUnavailable` on a desk without it (the message says which
    desk holds it), `KeyLocked` when its passphrase was not entered this session."""

    with db.session(write=False) as s:
        public = _load(s).signing_public_key
        if public is None:
            raise NotFound("A chave de assinatura do município não foi criada.")
        holder = _holder_of(s, bytes(public))
    return keystore.load(bytes(public), holder)


def _holder_of(s, public: bytes) -> str | None:

    from desktop.signing import fingerprint  # lazy: loads cryptography only when this runs

    return s.scalar(select(SigningKey.holder).where(SigningKey.fingerprint == fingerprint(public))) or None


@dataclass(frozen=True, slots=True)
class SigningKeyInfo:
    """A public key of the secretariat and the period it signed in; `holder` names the desk with the private key."""

    fingerprint: str
    public_key: bytes
    valid_from: object
    valid_to: object
    holder: str
    note: str
    current: bool


def signing_keys(db) -> list[SigningKeyInfo]:
    """Every public key with its validity period, newest first: old stickers and checkpoints still verify with
    the key of their time after a rotation (documents' sticker check should try these)."""

    with db.session(write=False) as s:
        current = _load(s).signing_public_key
        rows = s.scalars(select(SigningKey).order_by(SigningKey.valid_from.desc(), SigningKey.id.desc())).all()
        return [SigningKeyInfo(r.fingerprint, bytes(r.public_key), r.valid_from, r.valid_to, r.holder, r.note,
                               current is not None and bytes(r.public_key) == bytes(current)) for r in rows]


def _promote_on_commit(session, fp: str) -> None:
    """Promote the pending key `fp` after the session's transaction commits; discard it after a rollback
    (whichever comes first decides; the listeners die with the session)."""

    decided = []

    def committed(_session) -> None:
        if not decided:
            decided.append("commit")
            try:
                keystore.promote(fp)
            except OSError:   # the database names the key: `keystore.load` promotes it on first use
                pass

    def rolled_back(_session) -> None:
        if not decided:
            decided.append("rollback")
            keystore.discard_pending(fp)

    event.listen(session, "after_commit", committed)
    event.listen(session, "after_rollback", rolled_back)


def _handing_key(session, anchors) -> bytes | None:
    """The private half of the key the audit chain has in force (`audit.key_anchors_in`: normally the
    municipality's current key; after a key was swapped behind the program's back, the last one the chain vouches
    for), from this desk's key store; None when no key was ever anchored (nothing to hand over from)."""
    if anchors.current is None:
        return None
    public = anchors.public_keys.get(anchors.current)
    holder = session.scalar(select(SigningKey.holder).where(SigningKey.fingerprint == anchors.current)) or None
    try:
        if public is None:
            raise keystore.KeyUnavailable(f"A chave pública {anchors.current[:16]}… não está na tabela de chaves.")
        return keystore.load(public, holder)
    except keystore.KeyUnavailable as exc:
        raise type(exc)("A troca de chave é assinada pela chave em vigor, que passa a assinatura para a nova (ponto "
                        f"de verificação de passagem): sem ela, nada foi alterado. {exc}") from None


def rotate_signing_key_in(session, actor, reason: str, key_passphrase: str | None = None) -> SigningKeyInfo:
    """Same as `rotate_signing_key` inside the transaction the caller opened
    (the role check and the audit record included)."""

    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.permissions import require_role  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.signing import fingerprint  # lazy: loads cryptography only when this runs

    require_role(actor, *SETUP_ROLES.rotate_key)
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo da troca da chave de assinatura.")])
    # Issue 25 item 5: the key in force signs the hand-over to the new one (a checkpoint whose entry names the
    # rotation), or the new key is anchored nowhere — fetched first, so a desk without it changes nothing.
    anchors = audit.key_anchors_in(session)
    handing = _handing_key(session, anchors)
    private, public = new_signing_key()
    # The new private key goes to the key store's pending slot and becomes the key only once this transaction
    # has committed; a rollback drops it and leaves the old key, and the database, as they were.
    holder = keystore.store(private, key_passphrase, pending=True)
    _promote_on_commit(session, fingerprint(public))
    moment = now()
    row = _load(session)
    old = bytes(row.signing_public_key) if row.signing_public_key else None
    if old is not None:
        for key in session.scalars(select(SigningKey).where(SigningKey.valid_to.is_(None))):
            key.valid_to = moment
    new = SigningKey(fingerprint=fingerprint(public), public_key=public, valid_from=moment,
                     created_by=actor.user_id, holder=holder, note=reason.strip())
    session.add(new)
    row.signing_public_key = public
    session.flush()
    entry = audit.record(session, actor, "signing_key.rotate", "municipality", "1",
                         {"key": fingerprint(old) if old else None},
                         {"key": new.fingerprint, "holder": holder, "reason": reason.strip()})
    if handing is not None:
        audit.make_checkpoint_in(session, actor, handing, reason="troca da chave de assinatura",
                                 hand_over={"entry": entry.id, "key": new.fingerprint})
    return SigningKeyInfo(new.fingerprint, public, new.valid_from, None, holder, new.note, True)


def rotate_signing_key(db, actor, reason: str, key_passphrase: str | None = None) -> SigningKeyInfo:
    """A gestor replaces the secretariat's signing key (issue 11): a new pair, the private half to this desk's key
    store, the old public key closed (it keeps verifying what it signed), audited. Stickers printed from now on
    carry signatures of the new key. On PostgreSQL only the owner role writes a key (issue 25 item 5): through the
    desks' application role the rotation is refused, in Portuguese, and nothing changes. The key in force signs the
    hand-over (a checkpoint naming the rotation: `audit.key_anchors_in`), so the rotation runs on the desk that
    holds it; elsewhere it is refused before anything is written."""

    try:
        with db.session() as s:
            return rotate_signing_key_in(s, actor, reason, key_passphrase)
    except DBAPIError as exc:
        code = getattr(getattr(exc, "orig", None), "sqlstate", None)
        if code == "42501" or "permission denied" in str(exc) or "permissão negada" in str(exc):
            from desktop.errors import PermissionDenied  # local: imported only on this branch

            raise PermissionDenied(
                "A chave de assinatura só é trocada pelo papel dono do banco (o usuário das estações não pode "
                "gravá-la): rode `python -m desktop --db <URL do papel dono> audit rotate-key --reason \"…\"` no "
                "computador que guardará a chave. Nada foi alterado.") from None
        raise


def update_municipality_in(session, actor, draft: MunicipalityDraft, expected_version: int) -> MunicipalityInfo:
    """Same as `update_municipality` inside the transaction the caller opened
    (the role check and the audit record included)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.locking import check_version  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.permissions import require_role  # lazy: SQLAlchemy loads once the database is used (start-up)

    require_role(actor, *SETUP_ROLES.municipality)
    problems = municipality_problems(draft, initial=False)
    if problems:
        raise ValidationError(problems)
    row = _load(session)
    check_version(row, expected_version)
    before = _settings_snapshot(row)
    row.name = draft.name.strip()
    row.uf = draft.uf.strip().upper()
    row.secretariat = draft.secretariat.strip()
    row.ouvidoria_phone = draft.ouvidoria_phone.strip()
    if draft.brasao_png is not None:
        row.brasao_png = draft.brasao_png
    row.pix_key = normalize_pix_key(draft.pix_key) or None
    row.cnpj = _clean_cnpj(draft.cnpj)
    row.address = (draft.address or "").strip() or None
    row.febraban_agreement = (draft.febraban_agreement or "").strip() or None
    if draft.febraban_bank is not None:   # None keeps the configured bank (screens that do not show it)
        row.febraban_bank = draft.febraban_bank.strip().zfill(3) if draft.febraban_bank.strip() else None
    _set_revenue_codes(row, draft.revenue_codes)
    session.flush()
    audit.record(session, actor, "municipality.update", "municipality", "1", before, _settings_snapshot(row))
    return _info(row)


def update_municipality(db, actor, draft: MunicipalityDraft, expected_version: int) -> MunicipalityInfo:
    """Change the settings (administrador). The UPFM fields of the draft are ignored (see Parâmetros)."""
    with db.session() as s:
        return update_municipality_in(s, actor, draft, expected_version)
