"""Reader of the bank's return file of the Padrão FEBRABAN de arrecadação (issue 13; SPEC §3 Taxes).

Source of the layout: FEBRABAN, "Layout Padrão de Arrecadação/Recebimento com Utilização do Código de Barras",
versão 05 (in force since 01/08/2016), the return of the payments identified by barcode — as implemented by the
PyPI package `febraban-barcode` (`febraban_barcode.retorno.layout5.registro_A/G/Z`, project WilliamSampaio/
febraban_barcode, with its sample "Modelo arquivo retorno tipo G.txt"). Every record is 150 bytes, one per line
(CR LF or LF); positions are 1-based and inclusive; numbers are zero-padded on the left, texts blank-padded on the
right; values are in cents.

Registro "A" — header (one, first line)
    A.01    1        "A"
    A.02    2        código de remessa: "2" = retorno (sent by the bank to the municipality)
    A.03    3–22     código do convênio (defined by the bank), 20
    A.04    23–42    nome da empresa/órgão, 20
    A.05    43–45    código do banco na câmara de compensação, 3
    A.06    46–65    nome do banco, 20
    A.07    66–73    data de geração do arquivo, AAAAMMDD
    A.08    74–79    NSA — número seqüencial do arquivo, 6 (grows by 1 for each file)
    A.09    80–81    versão do layout ("05"), 2
    A.10    82–98    identificação do serviço, "CODIGO DE BARRAS", 17
    A.11    99–150   reservado (filler), 52

Registro "G" — one per payment identified by barcode
    G.01    1        "G"
    G.02    2–21     banco (3) + agência, conta e dígito (17) of the municipality's account credited, 20
    G.03    22–29    data de pagamento, AAAAMMDD   ← the date the payment counts from (Art. 3 §1)
    G.04    30–37    data de crédito, AAAAMMDD
    G.05    38–81    código de barras, 44
    G.06    82–93    valor recebido, in cents, 12
    G.07    94–100   valor da tarifa, in cents, 7
    G.08    101–108  NSR — número seqüencial do registro, 8
    G.09    109–116  código da agência arrecadadora, 8
    G.10    117      forma de arrecadação/captura (1 guichê … 7 lotérica; a … g without the printed guide), 1
    G.11    118–140  número de autenticação ou código de transação, 23
    G.12    141      forma de pagamento (1 dinheiro, 2 cheque, 3 outras), 1
    G.13    142–150  reservado (filler), 9

Registro "Z" — trailer (one, last line)
    Z.01    1        "Z"
    Z.02    2–7      total de registros do arquivo, header and trailer included, 6
    Z.03    8–24     valor total recebido dos registros do arquivo, in cents, 17
    Z.04    25–150   reservado (filler), 126

`parse_return(content, name)` reads the whole file and raises `ValidationError` naming every line that is wrong
(length, record type, dates, digits, trailer count or total): a file with any such problem records nothing. The
matching of the G records to the guides is the service's (`desktop.services.bank_returns`).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from collections.abc import Iterable
from datetime import timedelta
from decimal import Decimal

from desktop.domain.money import cents_of, from_cents, round_cents
from desktop.domain.problems import Problem
from desktop.errors import ValidationError
from desktop.domain.clock import today

RECORD_LENGTH = 150
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_PROBLEMS = 200
CENT = Decimal("0.01")

__all__ = ["RECORD_LENGTH", "ReturnFile", "ReturnHeader", "ReturnPayment", "build_return", "header_problems",
           "parse_return",
           "record_a", "record_g", "record_z"]


@dataclass(frozen=True, slots=True)
class ReturnHeader:
    agreement: str
    company_name: str
    bank_code: str
    bank_name: str
    generated_on: date
    nsa: int
    layout_version: str
    service: str


@dataclass(frozen=True, slots=True)
class ReturnPayment:
    line: int
    credited_account: str
    paid_on: date
    credited_on: date
    barcode: str
    amount: Decimal
    bank_fee: Decimal
    nsr: int
    agency: str
    channel: str
    authentication: str
    payment_form: str


@dataclass(frozen=True, slots=True)
class ReturnFile:
    name: str
    sha256: str
    header: ReturnHeader
    payments: tuple[ReturnPayment, ...]
    total_records: int
    total_amount: Decimal


def _date(text: str) -> date | None:
    if len(text) != 8 or not text.isdigit():
        return None
    try:
        return date(int(text[:4]), int(text[4:6]), int(text[6:]))
    except ValueError:
        return None


def _cents(text: str) -> Decimal | None:
    if not text.isdigit():
        return None
    return from_cents(int(text))


def _field(n: int, name: str, message: str) -> Problem:
    return Problem(f"linha {n}", f"Linha {n}: {name} {message}")


def parse_return(content: bytes, name: str = "") -> ReturnFile:
    """The header, the payments and the trailer of a return file; `ValidationError` (one Problem per bad line,
    field `linha N`) when anything is wrong."""
    if len(content) > MAX_FILE_BYTES:
        raise ValidationError([Problem("arquivo", "O arquivo tem mais de 64 MB: não é um retorno de arrecadação.")])
    sha = hashlib.sha256(content).hexdigest()
    try:
        text = content.decode("ascii")
    except UnicodeDecodeError:
        text = content.decode("latin-1")
    raw_lines = text.split("\n")
    if raw_lines and raw_lines[-1] == "":
        raw_lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in raw_lines]
    problems: list[Problem] = []
    if not lines:
        raise ValidationError([Problem("arquivo", "O arquivo está vazio: falta o registro A (header).")])
    for n, line in enumerate(lines, start=1):
        if len(line) != RECORD_LENGTH:
            problems.append(Problem(f"linha {n}", f"Linha {n}: o registro tem {len(line)} caracteres; o padrão "
                                                  f"FEBRABAN de arrecadação exige {RECORD_LENGTH}."))
    if problems:
        raise ValidationError(problems[:MAX_PROBLEMS], _message(problems))
    header = _header(lines[0], problems)
    payments: list[ReturnPayment] = []
    trailer = None
    for n, line in enumerate(lines[1:], start=2):
        kind = line[0]
        if kind == "G":
            if trailer is not None:
                problems.append(Problem(f"linha {n}", f"Linha {n}: registro G depois do trailer (registro Z)."))
            payment = _payment(n, line, problems)
            if payment is not None:
                payments.append(payment)
        elif kind == "Z":
            if trailer is not None:
                problems.append(Problem(f"linha {n}", f"Linha {n}: segundo trailer (registro Z) no arquivo."))
            trailer = (n, line)
        elif kind == "A":
            problems.append(Problem(f"linha {n}", f"Linha {n}: segundo header (registro A) no arquivo."))
        else:
            problems.append(Problem(f"linha {n}", f"Linha {n}: tipo de registro «{kind}» desconhecido (o retorno de "
                                                  "arrecadação por código de barras tem somente A, G e Z)."))
    total = sum((p.amount for p in payments), Decimal("0.00"))
    if trailer is None:
        problems.append(Problem(f"linha {len(lines)}", f"Linha {len(lines)}: falta o trailer (registro Z) no fim do "
                                                       "arquivo — o arquivo pode estar incompleto."))
    else:
        n, line = trailer
        if n != len(lines):
            problems.append(Problem(f"linha {n}", f"Linha {n}: o trailer (registro Z) deve ser a última linha."))
        count_text, total_text = line[1:7], line[7:24]
        if not count_text.isdigit():
            problems.append(_field(n, "Z.02 (total de registros)", "não é numérico."))
        elif int(count_text) != len(lines):
            problems.append(Problem(f"linha {n}", f"Linha {n}: o trailer informa {int(count_text)} registros, mas o "
                                                  f"arquivo tem {len(lines)} (header e trailer incluídos)."))
        amount = _cents(total_text)
        if amount is None:
            problems.append(_field(n, "Z.03 (valor total)", "não é numérico."))
        elif amount != total:
            problems.append(Problem(f"linha {n}", f"Linha {n}: o trailer informa o total de R$ {_br(amount)}, mas a "
                                                  f"soma dos registros G é R$ {_br(total)}."))
    if problems or header is None:
        raise ValidationError(problems[:MAX_PROBLEMS], _message(problems))
    return ReturnFile(name or "", sha, header, tuple(payments), len(lines), total)


def _br(value: Decimal) -> str:
    text = f"{value:,.2f}"
    return text.replace(",", "_").replace(".", ",").replace("_", ".")


def _message(problems: list[Problem]) -> str:
    shown = problems[:MAX_PROBLEMS]
    more = len(problems) - len(shown)
    text = "Arquivo de retorno recusado; nada foi registrado:\n" + "\n".join(f"• {p.message}" for p in shown)
    if more:
        text += f"\n… e mais {more} problema(s)."
    return text


def _header(line: str, problems: list[Problem]) -> ReturnHeader | None:
    if line[0] != "A":
        problems.append(Problem("linha 1", f"Linha 1: o arquivo deve começar pelo header (registro A); encontrado "
                                           f"registro «{line[0]}»."))
        return None
    ok = True
    if line[1] != "2":
        problems.append(_field(1, "A.02 (código de remessa)", f"é «{line[1]}»; um arquivo de retorno tem «2»."))
        ok = False
    generated = _date(line[65:73])
    if generated is None:
        problems.append(_field(1, "A.07 (data de geração)", f"«{line[65:73]}» não é uma data AAAAMMDD."))
        ok = False
    nsa_text = line[73:79]
    if not nsa_text.isdigit() or int(nsa_text) == 0:
        problems.append(_field(1, "A.08 (NSA)", f"«{nsa_text}» não é um número seqüencial de arquivo."))
        ok = False
    if not line[42:45].isdigit():
        problems.append(_field(1, "A.05 (código do banco)", f"«{line[42:45]}» não é numérico."))
        ok = False
    if not ok:
        return None
    return ReturnHeader(agreement=line[2:22].strip(), company_name=line[22:42].strip(), bank_code=line[42:45],
                        bank_name=line[45:65].strip(), generated_on=generated, nsa=int(nsa_text),
                        layout_version=line[79:81], service=line[81:98].strip())


def _payment(n: int, line: str, problems: list[Problem]) -> ReturnPayment | None:
    before = len(problems)
    paid_on = _date(line[21:29])
    if paid_on is None:
        problems.append(_field(n, "G.03 (data de pagamento)", f"«{line[21:29]}» não é uma data AAAAMMDD."))
    credited_on = _date(line[29:37])
    if credited_on is None:
        problems.append(_field(n, "G.04 (data de crédito)", f"«{line[29:37]}» não é uma data AAAAMMDD."))
    barcode = line[37:81]
    if not barcode.isdigit():
        problems.append(_field(n, "G.05 (código de barras)", "deve ter 44 dígitos."))
    amount = _cents(line[81:93])
    if amount is None:
        problems.append(_field(n, "G.06 (valor recebido)", f"«{line[81:93]}» não é numérico."))
    elif amount <= 0:
        problems.append(_field(n, "G.06 (valor recebido)", "é zero."))
    bank_fee = _cents(line[93:100])
    if bank_fee is None:
        problems.append(_field(n, "G.07 (tarifa)", f"«{line[93:100]}» não é numérico."))
    nsr_text = line[100:108]
    if not nsr_text.isdigit():
        problems.append(_field(n, "G.08 (NSR)", f"«{nsr_text}» não é numérico."))
    if len(problems) != before:
        return None
    return ReturnPayment(line=n, credited_account=line[1:21], paid_on=paid_on, credited_on=credited_on,
                         barcode=barcode, amount=amount, bank_fee=bank_fee, nsr=int(nsr_text),
                         agency=line[108:116].strip(), channel=line[116], authentication=line[117:140].strip(),
                         payment_form=line[140])


def header_problems(header: ReturnHeader, agreement: str | None, bank_code: str | None, today: date) -> list[Problem]:
    """Why the file is not the municipality's, or not yet possible (issue 23 point 8): the convênio (A.03) must be
    the municipality's FEBRABAN code, the bank (A.05) its collecting bank when one is configured, and the
    generation date (A.07) not after today. Each problem names what the file says and what was expected."""
    problems: list[Problem] = []
    mine = (agreement or "").strip()
    theirs = header.agreement.strip()
    if not mine:
        problems.append(Problem("A.03", "O código FEBRABAN do município não está configurado (Administração → "
                                        "Município): não há guias com código de barras a conciliar."))
    elif theirs.lstrip("0") != mine.lstrip("0"):
        problems.append(Problem("A.03", f"Linha 1, A.03 (convênio): o arquivo é do convênio {theirs or '—'}; o do "
                                        f"município é {mine}. Arquivo recusado: nada foi registrado."))
    bank = (bank_code or "").strip()
    if bank and header.bank_code.strip().zfill(3) != bank.zfill(3):
        problems.append(Problem("A.05", f"Linha 1, A.05 (banco): o arquivo é do banco {header.bank_code} "
                                        f"{header.bank_name}; o banco arrecadador do município é {bank.zfill(3)}. "
                                        "Arquivo recusado: nada foi registrado."))
    if header.generated_on > today:
        problems.append(Problem("A.07", f"Linha 1, A.07 (data de geração): {header.generated_on:%d/%m/%Y} é "
                                        f"posterior a hoje ({today:%d/%m/%Y}). Arquivo recusado: nada foi "
                                        "registrado."))
    return problems


# ---------------------------------------------------------------------------------------------------- writing
# The same layout written (tools/make_bank_return.py, the tests, the demo's example file and the benchmark).

def _clock_today() -> date:
    return today()


def _to_cents(amount) -> int:
    return cents_of(amount)


def record_a(*, agreement: str = "0421", company: str = "PREF CHAPADA GUIMARAE", bank_code: str = "001",
             bank_name: str = "BANCO DO BRASIL S.A.", generated_on: date, nsa: int, version: str = "05") -> str:
    line = ("A" + "2" + agreement[:20].ljust(20) + company[:20].ljust(20) + bank_code[:3].zfill(3)
            + bank_name[:20].ljust(20) + generated_on.strftime("%Y%m%d") + f"{int(nsa):06d}" + version[:2].zfill(2)
            + "CODIGO DE BARRAS".ljust(17) + " " * 52)
    assert len(line) == 150, len(line)
    return line


def record_g(*, barcode: str, amount, paid_on: date, credited_on: date | None = None, nsr: int = 1,
             account: str = "00100012000000123456", bank_fee=Decimal("0"), agency: str = "0012", channel: str = "1",
             authentication: str = "", payment_form: str = "1") -> str:
    credited_on = credited_on or paid_on + timedelta(days=1)
    line = ("G" + account[:20].rjust(20, "0") + paid_on.strftime("%Y%m%d") + credited_on.strftime("%Y%m%d")
            + barcode[:44].ljust(44) + f"{_to_cents(amount):012d}" + f"{_to_cents(bank_fee):07d}" + f"{int(nsr):08d}"
            + agency[:8].ljust(8) + channel[:1] + (authentication or f"AUT{nsr:08d}")[:23].ljust(23)
            + payment_form[:1] + " " * 9)
    assert len(line) == 150, len(line)
    return line


def record_z(*, records: int, total) -> str:
    line = "Z" + f"{int(records):06d}" + f"{_to_cents(total):017d}" + " " * 126
    assert len(line) == 150, len(line)
    return line


def build_return(payments: Iterable[tuple[str, Decimal, date]], *, nsa: int = 1, generated_on: date | None = None,
                 agreement: str = "0421", newline: str = "\r\n", trailer_records: int | None = None,
                 trailer_total: Decimal | None = None, bank_code: str = "001") -> bytes:
    """The bytes of a return file paying `payments` = (barcode, amount, paid_on). `trailer_records` /
    `trailer_total` override the trailer (to write a wrong one)."""
    payments = list(payments)
    # the bank writes the file the day after the payments, never after today (a later date is refused)
    generated_on = generated_on or min(max((p[2] for p in payments), default=_clock_today()) + timedelta(days=1),
                                       _clock_today())
    lines = [record_a(agreement=agreement, generated_on=generated_on, nsa=nsa, bank_code=bank_code)]
    total = Decimal("0.00")
    for k, (barcode, amount, paid_on) in enumerate(payments, start=1):
        lines.append(record_g(barcode=barcode, amount=amount, paid_on=paid_on, nsr=k + 1))
        total += round_cents(amount)
    count = len(lines) + 1 if trailer_records is None else trailer_records
    lines.append(record_z(records=count, total=total if trailer_total is None else trailer_total))
    return (newline.join(lines) + newline).encode("ascii")
