"""What a scanned sticker (Art. 14) means against the register: pure rules, no database.

The sticker's QR code carries a signed text — authorization number, plate, valid-until (desktop.signing). A
valid signature proves the Municipality signed that text once; it does not prove the text is still the truth,
nor that the signing key never leaked. So the check compares every signed field with the register
(issue 11, "Sticker check against the register"):

- the number is not in the register, the plate was never the authorization's vehicle, or the validity goes
  beyond the register's → adesivo ADULTERADO (Art. 14: the sticker shows the register's number and validity);
- the plate of a vehicle replaced in the authorization (Art. 8, §2) → the sticker no longer holds;
- a true sticker of an authorization now suspended (Art. 24, I, b), impeded (Art. 16, §2), revoked (Art. 24, I, c),
  cassada (Art. 24, I, e) or expired (Art. 3, §1) says so, each in its own word (a cassada one is not
  "revogada": issue 12 item 11);
- a sticker superseded by a newer one of the same authorization (a 2nd issue for loss, damage or changed data,
  issue 12 item 17) → "substituído pelo adesivo nº …": the printed document number (the sticker's footer) is
  looked up among the authorization's stickers at check time; the signed text need not change;
- without the register (offline), the signed data and the signature's verdict are shown, and the current
  situation must be confirmed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

VALID = "valid"
EXPIRED = "expired"
FORGED = "forged"
MALFORMED = "malformed"
SUSPENDED = "suspended"
REVOKED = "revoked"
CASSADA = "cassada"
TAMPERED = "tampered"        # signature right, signed data not the register's
REPLACED = "replaced"        # sticker of a vehicle replaced in the authorization (Art. 8, §2)
NOT_ACTIVE = "not_active"    # an authorization that never became active (requested, refused…)
UNCONFIRMED = "unconfirmed"  # offline: signature right, the register not consulted
SUPERSEDED = "superseded"    # a newer sticker of the same authorization was issued (issue 12 item 17)

TAMPERED_ACTION = "Retenha o adesivo e lavre o auto cabível (Art. 27 da Lei nº 2.103/2025)."


@dataclass(frozen=True, slots=True)
class SignedSticker:
    """The data signed on the sticker (already checked against the signature)."""

    number: str
    plate: str          # normalized: ABC1D23
    valid_until: date


@dataclass(frozen=True, slots=True)
class StickerIssue:
    """One sticker printed for the authorization (its document number, the day, why it was issued again)."""

    number: str
    issued_on: date
    reason: str = ""    # "extravio", "dano", "dados alterados"; "" for the first one


@dataclass(frozen=True, slots=True)
class RegisterEntry:
    """What the register says of the authorization a sticker names."""

    number: str
    status: str                           # desktop.domain.workflow.AuthorizationStatus value
    status_label: str
    valid_until: date | None
    plate: str                            # the current vehicle's, normalized
    former_plates: frozenset[str] = field(default=frozenset())   # vehicles replaced (Art. 8, §2)
    suspended_until: date | None = None
    regularize_by: date | None = None
    stickers: tuple[StickerIssue, ...] = ()   # oldest first; the last one is in force


def _number_key(number: str) -> str:
    """'7/2026', '0007/2026' and ' 0007/2026 ' are one number."""
    text = (number or "").strip()
    if "/" in text:
        seq, _, year = text.partition("/")
        if seq.strip().isdigit():
            return f"{int(seq)}/{year.strip()}"
    return text


def superseding(entry: RegisterEntry, sticker_number: str) -> tuple[StickerIssue | None, StickerIssue | None]:
    """(the sticker `sticker_number` among the authorization's, the one that superseded it or None)."""
    key = _number_key(sticker_number)
    for i, issue in enumerate(entry.stickers):
        if _number_key(issue.number) == key:
            later = entry.stickers[i + 1:]
            return issue, (later[-1] if later else None)
    return None, None


@dataclass(frozen=True, slots=True)
class Verdict:
    status: str
    message: str


def _br(day: date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else "—"


def register_verdict(signed: SignedSticker, entry: RegisterEntry | None, today: date,
                     sticker_number: str | None = None) -> Verdict:
    """The verdict on a sticker whose signature is right, against the register's `entry` (None: not found).
    `sticker_number`: the document number printed on the sticker, when the agent typed it (issue 12 item 17)."""
    n, plate = signed.number, signed.plate
    if entry is None:
        return Verdict(TAMPERED, f"ADESIVO ADULTERADO: a autorização nº {n} não consta do cadastro. "
                                 + TAMPERED_ACTION)
    if plate != entry.plate:
        if plate in entry.former_plates:
            return Verdict(REPLACED, f"Adesivo do veículo {plate}, substituído na autorização nº {n} pelo veículo "
                                     f"{entry.plate} (Art. 8º, §2º): o adesivo não vale mais.")
        return Verdict(TAMPERED, f"ADESIVO ADULTERADO: a placa {plate} do adesivo não é a da autorização nº {n} "
                                 f"no cadastro ({entry.plate}). " + TAMPERED_ACTION)
    if entry.valid_until is None or signed.valid_until > entry.valid_until:
        return Verdict(TAMPERED, f"ADESIVO ADULTERADO: o adesivo diz válida até {_br(signed.valid_until)}, mas a "
                                 f"autorização nº {n} vale até {_br(entry.valid_until)} no cadastro. "
                                 + TAMPERED_ACTION)
    label = entry.status_label.upper()
    if entry.status == "suspended":
        until = f" até {_br(entry.suspended_until)}" if entry.suspended_until else ""
        return Verdict(SUSPENDED, f"Autorização nº {n} {label}{until} (Art. 24, I, b): o veículo {plate} não pode "
                                  "prestar o serviço.")
    if entry.status == "impeded":
        until = f" até {_br(entry.regularize_by)}" if entry.regularize_by else ""
        return Verdict(SUSPENDED, f"Autorização nº {n} {label}{until} (Art. 16, §2º): o veículo {plate} não pode "
                                  "prestar o serviço.")
    if entry.status == "revoked":
        return Verdict(REVOKED, f"Autorização nº {n} {label} (Art. 24, I, c): o adesivo não vale mais.")
    if entry.status == "cassada":
        return Verdict(CASSADA, f"Autorização nº {n} {label} (Art. 24, I, e): o adesivo não vale mais.")
    if entry.status == "expired":
        return Verdict(EXPIRED, f"Autorização nº {n} {label} desde {_br(entry.valid_until)} (Art. 3º, §1º): o "
                                "adesivo não vale mais.")
    if entry.status != "active":
        return Verdict(NOT_ACTIVE, f"Autorização nº {n} {label}: nunca esteve ativa com este adesivo; o adesivo não "
                                   "vale.")
    if sticker_number and sticker_number.strip():
        issue, newer = superseding(entry, sticker_number)
        if issue is None:
            return Verdict(TAMPERED, f"ADESIVO ADULTERADO: o adesivo nº {sticker_number.strip()} não foi emitido para "
                                     f"a autorização nº {n}. " + TAMPERED_ACTION)
        if newer is not None:
            why = f", por {newer.reason}" if newer.reason else ""
            return Verdict(SUPERSEDED, f"Adesivo nº {issue.number} SUBSTITUÍDO pelo adesivo nº {newer.number} "
                                       f"(emitido em {_br(newer.issued_on)}{why}): o adesivo não vale mais. Retenha-o; "
                                       f"o válido da autorização nº {n} é o nº {newer.number} (Art. 14).")
    renewed = signed.valid_until < entry.valid_until
    if today > signed.valid_until:
        if renewed and entry.valid_until >= today:
            return Verdict(EXPIRED, f"Adesivo autêntico, mas VENCIDO em {_br(signed.valid_until)}: a autorização "
                                    f"nº {n} foi renovada até {_br(entry.valid_until)}: o condutor deve afixar o "
                                    "adesivo novo (Art. 14).")
        return Verdict(EXPIRED, f"Adesivo autêntico, mas VENCIDO em {_br(signed.valid_until)}: autorização nº {n}, "
                                f"placa {plate} (Art. 3º, §1º da Lei nº 2.103/2025).")
    text = (f"Adesivo autêntico e conferido com o cadastro: autorização nº {n} ATIVA, placa {plate}, válida até "
            f"{_br(signed.valid_until)}.")
    if renewed:
        text += f" A autorização foi renovada até {_br(entry.valid_until)}: o condutor deve afixar o adesivo novo."
    elif len(entry.stickers) > 1 and not (sticker_number and sticker_number.strip()):
        text += (f" Atenção: esta autorização teve {len(entry.stickers)} adesivos emitidos; o que vale é o nº "
                 f"{entry.stickers[-1].number} (número no rodapé do adesivo): informe-o para conferir.")
    return Verdict(VALID, text)


def offline_verdict(signed: SignedSticker, today: date) -> Verdict:
    """Without the register: the signature is right; the situation now (suspension, revocation, cassation,
    substitution) must be confirmed with the Secretaria."""
    vencido = today > signed.valid_until
    state = f"VENCIDO em {_br(signed.valid_until)}" if vencido else f"válida até {_br(signed.valid_until)}"
    return Verdict(EXPIRED if vencido else UNCONFIRMED,
                   f"Assinatura do município conferida (sem consulta ao cadastro): autorização nº {signed.number}, "
                   f"placa {signed.plate}, {state}. CONFIRME A SITUAÇÃO ATUAL da autorização com a Secretaria: "
                   "suspensão, revogação, cassação ou troca de veículo não aparecem no adesivo.")

