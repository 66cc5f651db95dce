"""A recipient's answer to a notice sent by e-mail (issue 26; Art. 22, §1, VI), as any mail program saves it:
an Internet message (.eml, RFC 5322) or an Outlook message (.msg, a Compound File Binary of MAPI properties).

What the desk needs from it is the same for both: the ids it answers (In-Reply-To, then References — the match to
the e-mail the program sent), its own Message-ID, the sender, the subject and the date it was sent.

.msg files are read with `olefile`; the MAPI properties are the `__substg1.0_IIIITTTT` streams (IIII the property
id, TTTT its type: 001F UTF-16LE, 001E 8-bit text) — PR_IN_REPLY_TO_ID 0x1042, PR_INTERNET_REFERENCES 0x1039,
PR_INTERNET_MESSAGE_ID 0x1035, PR_SUBJECT 0x0037, PR_SENDER_EMAIL_ADDRESS 0x0C1F / PR_SENDER_SMTP_ADDRESS
0x5D01, PR_SENDER_NAME 0x0C1A — and, when the message came over the Internet, its transport headers
(PR_TRANSPORT_MESSAGE_HEADERS 0x007D), read for whatever the properties lack. The sending time is
PR_CLIENT_SUBMIT_TIME (0x0039, a FILETIME in `__properties_version1.0`) or the headers' Date.

A file that is neither, a truncated or damaged .msg, one larger than a mail reply can be, or a message that answers
nothing is refused with a Portuguese message naming the file."""
from __future__ import annotations

import email
import email.policy
import email.utils
import io
import re
import struct
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from desktop.domain.problems import Problem
from desktop.errors import ValidationError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
MAX_REPLY_BYTES = 20 * 1024 * 1024          # a reply with its quoted notice; the attachment policy's limit
MAX_PROPERTY_BYTES = 1024 * 1024            # one header or id property; anything larger is not a header
EML_MIME, MSG_MIME = "message/rfc822", "application/vnd.ms-outlook"

PR_SUBJECT = 0x0037
PR_CLIENT_SUBMIT_TIME = 0x0039
PR_TRANSPORT_MESSAGE_HEADERS = 0x007D
PR_SENDER_NAME = 0x0C1A
PR_SENDER_EMAIL_ADDRESS = 0x0C1F
PR_INTERNET_MESSAGE_ID = 0x1035
PR_INTERNET_REFERENCES = 0x1039
PR_IN_REPLY_TO_ID = 0x1042
PR_SENDER_SMTP_ADDRESS = 0x5D01
PT_SYSTIME = 0x0040
_FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=timezone.utc)
_ID = re.compile(r"<[^<>\s]+>")


@dataclass(frozen=True, slots=True)
class MailReply:
    ids: tuple[str, ...]        # the Message-IDs it answers: In-Reply-To first, then References ("<…>")
    message_id: str
    sender: str                 # the sender's address (or name when no address is given)
    subject: str
    sent_at: datetime | None    # timezone-aware
    mime: str                   # message/rfc822 or application/vnd.ms-outlook


def _refuse(filename: str, text: str) -> ValidationError:
    return ValidationError([Problem("file", f"{filename}: {text}")])


def message_ids(text: str | None) -> list[str]:
    """The "<id>" tokens of a header value; a bare id (some programs drop the brackets) gets them back."""
    if not text:
        return []
    found = _ID.findall(text)
    if found:
        return found
    bare = text.strip()
    return [f"<{bare}>"] if bare and " " not in bare and "@" in bare else []


def _unique(ids) -> tuple[str, ...]:
    seen: list[str] = []
    for i in ids:
        if i not in seen:
            seen.append(i)
    return tuple(seen)


def read_reply(content: bytes, filename: str) -> MailReply:
    """The reply saved as .eml or .msg (told apart by the bytes, not the name)."""
    if not content:
        raise _refuse(filename, "o arquivo está vazio.")
    if len(content) > MAX_REPLY_BYTES:
        raise _refuse(filename, f"o arquivo tem mais de {MAX_REPLY_BYTES // (1024 * 1024)} MB; não é uma "
                                "resposta de e-mail.")
    if content[:8] == OLE_MAGIC:
        reply = _read_msg(content, filename)
    elif filename.lower().endswith(".msg"):
        raise _refuse(filename, "não é um arquivo .msg do Outlook (o conteúdo não é um documento composto OLE).")
    else:
        reply = _read_eml(content, filename)
    if not reply.ids:
        raise _refuse(filename, "a mensagem não responde a nenhum e-mail (sem In-Reply-To nem References).")
    return reply


# ------------------------------------------------------------------------------------------------ .eml
def _read_eml(content: bytes, filename: str) -> MailReply:
    if b"\x00" in content[:4096]:
        raise _refuse(filename, "não é uma mensagem de e-mail (.eml) nem um .msg do Outlook.")
    msg = email.message_from_bytes(content, policy=email.policy.compat32)
    if not msg.keys():
        raise _refuse(filename, "não é uma mensagem de e-mail (.eml): nenhum cabeçalho encontrado.")
    return _from_headers(msg, EML_MIME)


def _from_headers(msg, mime: str, **known) -> MailReply:
    ids: list[str] = []
    for header in ("In-Reply-To", "References"):
        for value in msg.get_all(header, []):
            ids += message_ids(str(value))
    own = message_ids(str(msg.get("Message-ID", "")))
    name, address = email.utils.parseaddr(str(msg.get("From", "")))
    return MailReply(_unique(known.get("ids") or ids), known.get("message_id") or (own[0] if own else ""),
                     known.get("sender") or address or name or known.get("fallback_sender", ""),
                     known.get("subject") or str(msg.get("Subject", "")),
                     known.get("sent_at") or _date(msg.get("Date")), mime)


def _date(value) -> datetime | None:
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError, IndexError):
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


# ------------------------------------------------------------------------------------------------ .msg
def _read_msg(content: bytes, filename: str) -> MailReply:
    import olefile  # lazy: only a .msg reply needs it

    damaged = _refuse(filename, "o arquivo .msg está danificado ou incompleto e não pôde ser lido.")
    try:
        ole = olefile.OleFileIO(io.BytesIO(content))
    except Exception:  # noqa: BLE001 — any refusal of the container is a damaged file for the clerk
        raise damaged from None
    try:
        with ole:
            text = _properties(ole)
            submitted = _submit_time(ole)
    except ValidationError:
        raise
    except Exception:  # noqa: BLE001 — a stream that points outside the file, a bad sector chain…
        raise damaged from None
    if not text:
        if getattr(ole, "parsing_issues", None):     # a FAT or directory olefile could not follow
            raise damaged
        raise _refuse(filename, "o arquivo é um documento OLE, mas não uma mensagem do Outlook (.msg).")
    ids = message_ids(text.get(PR_IN_REPLY_TO_ID)) + message_ids(text.get(PR_INTERNET_REFERENCES))
    own = message_ids(text.get(PR_INTERNET_MESSAGE_ID))
    sender = text.get(PR_SENDER_SMTP_ADDRESS) or text.get(PR_SENDER_EMAIL_ADDRESS) or ""
    if "@" not in sender:       # an Exchange address (/O=…) is no address: the headers' From, else the name
        sender = ""
    headers = email.message_from_string(text.get(PR_TRANSPORT_MESSAGE_HEADERS, ""),
                                        policy=email.policy.compat32)
    return _from_headers(headers, MSG_MIME, ids=_unique(ids), message_id=own[0] if own else "",
                         sender=sender.strip(), subject=text.get(PR_SUBJECT, ""), sent_at=submitted,
                         fallback_sender=text.get(PR_SENDER_NAME, "").strip())


_STREAM = re.compile(r"^__substg1\.0_([0-9A-F]{4})(001F|001E)$", re.IGNORECASE)


def _properties(ole) -> dict[int, str]:
    """The message's own text properties (top level only: recipients and attachments are sub-storages)."""
    out: dict[int, str] = {}
    for entry in ole.listdir(streams=True, storages=False):
        if len(entry) != 1:
            continue
        m = _STREAM.match(entry[0])
        if m is None:
            continue
        prop, kind = int(m.group(1), 16), m.group(2).upper()
        if ole.get_size(entry[0]) > MAX_PROPERTY_BYTES:
            continue
        raw = ole.openstream(entry[0]).read(MAX_PROPERTY_BYTES)
        value = raw.decode("utf-16-le", "replace") if kind == "001F" else raw.decode("cp1252", "replace")
        out[prop] = value.split("\x00", 1)[0]
    return out


def _submit_time(ole) -> datetime | None:
    """PR_CLIENT_SUBMIT_TIME from the fixed-length property stream (32-byte header, 16-byte entries)."""
    name = "__properties_version1.0"
    if not ole.exists(name) or ole.get_size(name) > MAX_PROPERTY_BYTES:
        return None
    data = ole.openstream(name).read()
    for offset in range(32, len(data) - 15, 16):
        tag, _flags, value = struct.unpack_from("<IIQ", data, offset)
        if tag == (PR_CLIENT_SUBMIT_TIME << 16 | PT_SYSTIME) and value:
            try:
                return _FILETIME_EPOCH + timedelta(microseconds=value // 10)
            except OverflowError:
                return None
    return None
