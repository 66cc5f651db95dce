"""Fast, reproducible generators of Brazilian demo values: people, CPF, CNPJ, RENAVAM, plates, addresses.

Every generator takes a `random.Random` so one seed reproduces the whole data set. Faker supplies the pools of
pt_BR names and street names once (calling Faker per row costs ≈ 50 µs; 100,000 drivers would spend seconds on
names alone); the rows are drawn from those pools with `random.Random`, which is ≈ 1 µs per draw.

Check digits are computed here (the Receita Federal algorithms for CPF and CNPJ, DENATRAN's for RENAVAM), and the
tests confirm each against `validate-docbr`.
"""
from __future__ import annotations

import random
import string
import unicodedata
from dataclasses import dataclass

_CNPJ_W1 = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
_CNPJ_W2 = (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)


def _mod11_digit(digits: list[int], weights: tuple[int, ...]) -> int:
    r = sum(d * w for d, w in zip(digits, weights)) % 11
    return 0 if r < 2 else 11 - r


def cpf_from_base(base: int) -> str:
    """The 11 digits of the CPF whose first nine digits are `base` (zero-padded). Unrolled: 100,000 CPFs ≈ 0.3 s."""
    s = f"{base:09d}"
    a, b, c, d, e, f, g, h, i = (ord(ch) - 48 for ch in s)
    r = (10 * a + 9 * b + 8 * c + 7 * d + 6 * e + 5 * f + 4 * g + 3 * h + 2 * i) % 11
    d1 = 0 if r < 2 else 11 - r
    r = (11 * a + 10 * b + 9 * c + 8 * d + 7 * e + 6 * f + 5 * g + 4 * h + 3 * i + 2 * d1) % 11
    d2 = 0 if r < 2 else 11 - r
    return f"{s}{d1}{d2}"


def cnpj_from_base(base: int, branch: int = 1) -> str:
    """The 14 digits of the CNPJ with root `base` (8 digits) and branch `branch` (4 digits, 0001 = head office)."""
    digits = [int(c) for c in f"{base:08d}{branch:04d}"]
    digits.append(_mod11_digit(digits, _CNPJ_W1))
    digits.append(_mod11_digit(digits, _CNPJ_W2))
    return "".join(map(str, digits))


def renavam_from_base(base: int) -> str:
    """The 11 digits of the RENAVAM whose first ten digits are `base` (DENATRAN check digit)."""
    s = f"{base:010d}"
    a, b, c, d, e, f, g, h, i, j = (ord(ch) - 48 for ch in s)
    check = ((3 * a + 2 * b + 9 * c + 8 * d + 7 * e + 6 * f + 5 * g + 4 * h + 3 * i + 2 * j) * 10) % 11
    return f"{s}{0 if check == 10 else check}"


def unique_bases(rng: random.Random, n: int, lo: int, hi: int) -> list[int]:
    """`n` distinct integers in [lo, hi), in random order, reproducible by the generator's seed."""
    return rng.sample(range(lo, hi), n)


def cpfs(rng: random.Random, n: int) -> list[str]:
    # Bases from 1 so "000000000xx" never appears; the repeated-digit CPFs (111.111.111-11...) are invalid by
    # rule: they are removed.
    out: list[str] = []
    bases = unique_bases(rng, n + 16, 1, 999_999_999)
    for b in bases:
        c = cpf_from_base(b)
        if len(set(c)) > 1:
            out.append(c)
        if len(out) == n:
            break
    return out


def cnpjs(rng: random.Random, n: int) -> list[str]:
    return [cnpj_from_base(b) for b in unique_bases(rng, n, 1_000_000, 99_999_999)]


def renavams(rng: random.Random, n: int) -> list[str]:
    return [renavam_from_base(b) for b in unique_bases(rng, n, 100_000_000, 9_999_999_999)]


_LETTERS = string.ascii_uppercase


def plate_from_index(i: int, mercosul: bool) -> str:
    """A plate made from an integer, distinct for distinct `i` (< 26³·10⁴): `ABC1D23` (Mercosul) or `ABC1234`.

    The Mercosul plate is the old one with its second digit turned into a letter (0→A … 9→J), as DENATRAN
    converts them, so the two forms of one index never collide with each other's pattern.
    """
    letters_part, number = divmod(i, 10_000)
    a, rem = divmod(letters_part, 26 * 26)
    b, c = divmod(rem, 26)
    prefix = _LETTERS[a % 26] + _LETTERS[b] + _LETTERS[c]
    digits = f"{number:04d}"
    if mercosul:
        return f"{prefix}{digits[0]}{_LETTERS[int(digits[1])]}{digits[2:]}"
    return f"{prefix}{digits}"


def plates(rng: random.Random, n: int, mercosul_share: float = 0.6) -> list[str]:
    """`n` distinct plates; about `mercosul_share` of them in the Mercosul pattern. Mato Grosso's old series
    start around N/O/Q; any prefix is accepted by the rules, so the generator keeps it simple and unique."""
    idx = unique_bases(rng, n, 0, 26 * 26 * 26 * 10_000)
    return [plate_from_index(i, rng.random() < mercosul_share) for i in idx]


def fold(text: str) -> str:
    """Lower case without accents, for the search columns (domain.fold when present does the same)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)).casefold()


# ----------------------------------------------------------------------------------------------- people and places

# Neighbourhoods and streets of Chapada dos Guimarães (CEP 78195-000) used for the demo addresses (Art. 12 VI).
NEIGHBOURHOODS = (
    "Centro", "Bom Clima", "Vila Esmeralda", "Aldeia Velha", "Jardim Panorama", "São Sebastião",
    "Parque das Araras", "Cidade Alta", "Jardim Cachoeira Rica", "Vila Nova", "Recanto dos Pássaros",
    "Quilombo", "Jardim Atalaia", "Rio Claro",
)
STREETS = (
    "Rua Cipriano Curvo", "Rua Quinco Caldas", "Avenida Fernando Corrêa da Costa", "Rua Tiradentes",
    "Rua Dr. Pedro Reindel", "Rua Clariana", "Rua Penha Ribeiro", "Avenida Rio da Casca", "Rua Sete de Setembro",
    "Rua Treze de Junho", "Rua do Véu de Noiva", "Rua Portão do Inferno", "Rua Buriti", "Rua Pequi",
    "Rua das Seriemas", "Rua Cuiabá", "Rua Campo Verde", "Travessa Morro de São Jerônimo", "Rua Salgadeira",
    "Rua Cidade de Pedra", "Avenida Perimetral", "Rua Mirante", "Rua dos Ipês", "Rua Ouro Fino",
)
CITY = "Chapada dos Guimarães"
UF = "MT"
CEP = "78195-000"

CAR_MODELS = (
    ("Chevrolet", "Onix Plus"), ("Chevrolet", "Spin"), ("Chevrolet", "Cruze"), ("Fiat", "Cronos"),
    ("Fiat", "Argo"), ("Fiat", "Grand Siena"), ("Volkswagen", "Virtus"), ("Volkswagen", "Voyage"),
    ("Volkswagen", "Polo"), ("Toyota", "Corolla"), ("Toyota", "Yaris Sedan"), ("Hyundai", "HB20S"),
    ("Renault", "Logan"), ("Nissan", "Versa"), ("Honda", "City"), ("Jeep", "Renegade"), ("Citroën", "C4 Cactus"),
)
COLOURS = ("Branca", "Prata", "Preta", "Cinza", "Vermelha", "Azul", "Bege")

PLATFORMS = (
    # razão social, nome fantasia
    ("Uber do Brasil Tecnologia Ltda.", "Uber"),
    ("99 Tecnologia Ltda.", "99"),
    ("Chapada Mobilidade Urbana Ltda.", "ChapadaCar"),
    ("InDrive Brasil Serviços de Tecnologia Ltda.", "inDrive"),
    ("Cerrado Transportes por Aplicativo Ltda.", "Vai Cerrado"),
)

LESSOR_COMPANIES = (
    "Localiza Rent a Car S.A.", "Movida Locação de Veículos S.A.", "Unidas Locadora S.A.",
    "Chapada Locadora de Veículos Ltda.", "Guimarães Rent Ltda.",
)


@dataclass(frozen=True, slots=True)
class NamePools:
    """Name pools as (name, folded name) pairs, folded once (the search key of a full name is the folded parts
    joined by spaces — the same text `desktop.domain.fold` gives)."""

    male: tuple[tuple[str, str], ...]
    female: tuple[tuple[str, str], ...]
    last: tuple[tuple[str, str], ...]


def name_pools(seed: int) -> NamePools:
    """First and last names of Faker's pt_BR provider (deduplicated and sorted, so the pools depend only on
    the names the installed Faker knows, not on its list order)."""
    from faker.providers.person.pt_BR import Provider as PersonProvider  # lazy: Faker loads only when this runs (start-up cost)

    def clean(names) -> tuple[tuple[str, str], ...]:
        return tuple((n, fold(n)) for n in sorted(set(names)))

    return NamePools(
        male=clean(PersonProvider.first_names_male),
        female=clean(PersonProvider.first_names_female),
        last=clean(PersonProvider.last_names),
    )


def person(rng: random.Random, pools: NamePools) -> tuple[str, str]:
    """(full name, its folded search key): one or two first names and two surnames, as most Brazilians have."""
    r = rng.random
    firsts = pools.female if r() < 0.3 else pools.male
    last = pools.last
    f1 = firsts[int(r() * len(firsts))]
    l1 = last[int(r() * len(last))]
    l2 = last[int(r() * len(last))]
    if r() < 0.25:
        f2 = firsts[int(r() * len(firsts))]
        return f"{f1[0]} {f2[0]} {l1[0]} {l2[0]}", f"{f1[1]} {f2[1]} {l1[1]} {l2[1]}"
    return f"{f1[0]} {l1[0]} {l2[0]}", f"{f1[1]} {l1[1]} {l2[1]}"


def person_name(rng: random.Random, pools: NamePools) -> tuple[str, str]:
    """(full name, search key) — kept for callers that want only a name: `person_name(...)[0]`."""
    return person(rng, pools)


def address(rng: random.Random) -> str:
    r = rng.random
    return (f"{STREETS[int(r() * len(STREETS))]}, {1 + int(r() * 2200)} — "
            f"{NEIGHBOURHOODS[int(r() * len(NEIGHBOURHOODS))]}, {CITY}–{UF}, CEP {CEP}")


def phone(rng: random.Random) -> str:
    """A mobile number of area code 65 (Mato Grosso)."""
    r = rng.random
    return f"(65) 9{8000 + int(r() * 2000)}-{int(r() * 10000):04d}"


def email_for(folded_name: str, i: int) -> str:
    parts = folded_name.split()
    return f"{parts[0]}.{parts[-1]}{i}@condutor.example"   # RFC 2606 reserved domain: no one's mailbox


def cnh_number(rng: random.Random) -> str:
    """An 11-digit CNH registration number with DENATRAN's two check digits."""
    s = f"{int(rng.random() * 1_000_000_000):09d}"
    a, b, c, d, e, f, g, h, i = (ord(ch) - 48 for ch in s)
    d1 = (9 * a + 8 * b + 7 * c + 6 * d + 5 * e + 4 * f + 3 * g + 2 * h + i) % 11
    dsc = 0
    if d1 >= 10:
        d1, dsc = 0, 2
    d2 = ((a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i) % 11 - dsc) % 11
    if d2 >= 10:
        d2 = 0
    return f"{s}{d1}{d2}"


_VIN = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def chassis(rng: random.Random) -> str:
    """A 17-character VIN without I, O, Q (ISO 3779), starting with 9 (Brazil)."""
    r = rng.random
    return "9" + "".join([_VIN[int(r() * 33)] for _ in range(16)])
