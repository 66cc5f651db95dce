"""Custody of the secretariat's private signing key (issue 11: a copy of the database alone must never be enough
to sign a sticker or a checkpoint). The public keys stay in the database (`signing_keys`, with their periods);
the private key lives on the desk that signs:

1. the operating system's credential store through `keyring` (Windows Credential Manager on the office desks:
   protected by the Windows login, nothing to type) — the first choice, whenever a real backend exists;
2. otherwise a PKCS#8 file in a folder readable by the user alone (`<user config dir>/ChapadaTransporte/chaves`,
   mode 0700, the file 0600), encrypted with a passphrase when one is given: a gestor then enters it once per
   session (`unlock`). Env `DESKTOP_KEY_DIR` moves the folder, `DESKTOP_KEY_STORE=file` skips the keyring.

A desk without the key still verifies everything (public keys) and refuses to sign with `KeyUnavailable`,
whose message says which desk holds it. No Qt, no database here.
"""
from __future__ import annotations

import base64
import os
import socket
from pathlib import Path

from desktop.errors import DesktopError
from desktop.settings import APP_NAME

SERVICE = "ChapadaTransporte-assinatura"

_passphrase: str | None = None
_loaded: dict[str, bytes] = {}


class KeyUnavailable(DesktopError):
    """This desk holds no private key for the secretariat's current public key: it verifies, it cannot sign."""


class KeyLocked(KeyUnavailable):
    """The key file is encrypted and no passphrase was entered in this session (or it was wrong)."""


def key_dir() -> Path:
    override = os.environ.get("DESKTOP_KEY_DIR")
    if override:
        return Path(override)
    import platformdirs  # lazy: platformdirs loads only when this runs (start-up cost)

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "chaves"


def _fingerprint(public: bytes) -> str:
    from desktop.signing import fingerprint  # lazy: loads cryptography only when this runs

    return fingerprint(public)


def _keyring():
    """The keyring module when a real credential store backs it, else None."""
    if os.environ.get("DESKTOP_KEY_STORE", "").lower() == "file":
        return None
    try:
        import keyring  # lazy: keyring loads only when this runs (start-up cost)
        from keyring.backends import fail  # lazy: keyring loads only when this runs (start-up cost)

        backend = keyring.get_keyring()
    except Exception:  # noqa: BLE001 — no keyring installed or its backend broken: the file is used
        return None
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 0) <= 0:
        return None
    return keyring


def unlock(passphrase: str | None) -> None:
    """The passphrase of the key file for this session (a gestor types it once)."""
    global _passphrase
    _passphrase = passphrase or None
    _loaded.clear()


def holder_description(where: str) -> str:
    return f"estação {socket.gethostname()} ({where})"


def _key_file(fp: str) -> Path:
    return key_dir() / f"{fp[:32]}.pem"


def _private_dir() -> Path:
    folder = key_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if os.name == "posix":
        os.chmod(folder, 0o700)
    return folder


PENDING_SUFFIX = ".pendente"


def _slot(fp: str, pending: bool) -> str:
    """The keyring user name of a key: its fingerprint, or `pendente:<fp>` while its database part is uncommitted."""
    return f"pendente:{fp}" if pending else fp


def _pending_file(fp: str) -> Path:
    path = _key_file(fp)
    return path.with_name(path.name + PENDING_SUFFIX)


def store(private: bytes, passphrase: str | None = None, *, pending: bool = False) -> str:
    """Keep the private key on this desk; returns where, in Portuguese (recorded beside the public key).

    `pending=True` (key rotation, issue 11): the key goes to a pending slot (`<key>.pem.pendente`, or the keyring
    name `pendente:<fp>`) that `load` does not use; `promote` makes it the key once the database part has
    committed, `discard_pending` drops it when the transaction rolled back. The old key is never touched."""
    from cryptography.hazmat.primitives import serialization  # lazy: cryptography loads only when this runs (start-up cost)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # lazy: cryptography loads only when this runs (start-up cost)

    from desktop.signing import public_key_of  # lazy: loads cryptography only when this runs

    fp = _fingerprint(public_key_of(private))
    kr = _keyring()
    if kr is not None and passphrase is None:
        kr.set_password(SERVICE, _slot(fp, pending), base64.b64encode(private).decode("ascii"))
        if not pending:
            _loaded[fp] = bytes(private)
        return holder_description("cofre de credenciais do sistema")
    key = Ed25519PrivateKey.from_private_bytes(bytes(private))
    passphrase = passphrase or os.environ.get("DESKTOP_KEY_PASSPHRASE") or None
    encryption = (serialization.BestAvailableEncryption(passphrase.encode("utf-8")) if passphrase
                  else serialization.NoEncryption())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    path = _key_file(fp)
    _private_dir()
    target = _pending_file(fp) if pending else path
    tmp = path.with_name(path.name + ".novo")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    os.replace(tmp, target)
    if not pending:
        _loaded[fp] = bytes(private)
    return holder_description(f"arquivo {'protegido por senha' if passphrase else 'legível só pelo usuário'} "
                              f"{path}")


def has_pending(public_or_fp: bytes | str) -> bool:
    """True while a key written with `pending=True` waits for `promote` or `discard_pending`."""
    fp = public_or_fp if isinstance(public_or_fp, str) else _fingerprint(public_or_fp)
    if _pending_file(fp).exists():
        return True
    kr = _keyring()
    if kr is not None:
        try:
            return bool(kr.get_password(SERVICE, _slot(fp, True)))
        except Exception:  # noqa: BLE001 — a broken credential store holds nothing usable
            return False
    return False


def promote(public_or_fp: bytes | str) -> bool:
    """The database part of a rotation committed: the pending key becomes the key of its fingerprint (an atomic
    rename of the file, or keyring set then delete). False when nothing was pending."""
    fp = public_or_fp if isinstance(public_or_fp, str) else _fingerprint(public_or_fp)
    done = False
    pending = _pending_file(fp)
    if pending.exists():
        os.replace(pending, _key_file(fp))
        done = True
    kr = _keyring()
    if kr is not None:
        try:
            stored = kr.get_password(SERVICE, _slot(fp, True))
            if stored:
                kr.set_password(SERVICE, fp, stored)
                kr.delete_password(SERVICE, _slot(fp, True))
                done = True
        except Exception:  # noqa: BLE001 — `load` promotes it later, once the database names the key
            pass
    return done


def discard_pending(public_or_fp: bytes | str) -> None:
    """The rotation rolled back: its new key never becomes usable; the old key stays as it was."""
    fp = public_or_fp if isinstance(public_or_fp, str) else _fingerprint(public_or_fp)
    _pending_file(fp).unlink(missing_ok=True)
    _loaded.pop(fp, None)
    kr = _keyring()
    if kr is not None:
        try:
            if kr.get_password(SERVICE, _slot(fp, True)):
                kr.delete_password(SERVICE, _slot(fp, True))
        except Exception:  # noqa: BLE001 — nothing to drop
            pass


def load(public: bytes, holder: str | None = None) -> bytes:
    """The private key of `public` on this desk. `KeyUnavailable` (saying where it is) or `KeyLocked`."""
    from cryptography.hazmat.primitives import serialization  # lazy: cryptography loads only when this runs (start-up cost)

    from desktop.signing import public_key_of  # lazy: loads cryptography only when this runs

    fp = _fingerprint(public)
    if fp in _loaded:
        return _loaded[fp]
    if has_pending(fp):
        # Asked for by the database's public key, so the rotation did commit; the program stopped before
        # `promote` (a crash between the commit and the rename): promote now.
        promote(fp)
    kr = _keyring()
    if kr is not None:
        try:
            stored = kr.get_password(SERVICE, fp)
        except Exception:  # noqa: BLE001 — a broken credential store: try the file
            stored = None
        if stored:
            private = base64.b64decode(stored)
            if public_key_of(private) == bytes(public):
                _loaded[fp] = private
                return private
    path = _key_file(fp)
    if path.is_file():
        data = path.read_bytes()
        encrypted = b"ENCRYPTED" in data
        passphrase = _passphrase or os.environ.get("DESKTOP_KEY_PASSPHRASE")
        if encrypted and not passphrase:
            raise KeyLocked("A chave de assinatura desta estação está protegida por senha: um gestor deve "
                            "informá-la (uma vez por sessão) antes de assinar.")
        try:
            key = serialization.load_pem_private_key(
                data, password=passphrase.encode("utf-8") if encrypted else None)
        except (ValueError, TypeError):
            raise KeyLocked("A senha da chave de assinatura não confere: nada foi assinado.") from None
        private = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                    serialization.NoEncryption())
        if public_key_of(private) == bytes(public):
            _loaded[fp] = private
            return private
    where = f" Ela está na {holder}: assine (e imprima adesivos) nessa estação." if holder else ""
    raise KeyUnavailable(
        f"Esta estação não tem a chave privada de assinatura da secretaria (chave {fp[:16]}…): ela confere "
        f"documentos e adesivos, mas não assina.{where}")


def has_key(public: bytes) -> bool:
    try:
        load(public)
    except KeyLocked:
        return True
    except KeyUnavailable:
        return False
    return True


def forget_loaded() -> None:
    """Drop the keys held in memory (end of session, tests)."""
    _loaded.clear()
