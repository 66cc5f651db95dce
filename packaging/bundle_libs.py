"""The links between the bundle's ELF libraries (issue 17), read and cut in pure Python (no patchelf on a fresh
Debian): packaging/desktop.spec drops pyarrow's Parquet, Dataset, Acero and Substrait libraries, which the Linux
wheel lists as DT_NEEDED in every module (linked without --as-needed) although the modules the program loads call
no function of theirs. The loader would refuse to open a module whose DT_NEEDED file is missing, so the spec
removes those entries — only after `symbols_used_from` shows that not one symbol comes from the dropped file.
(The Windows wheel's .pyd files do not import those DLLs at all: MSVC links only what is used.)

The second part rebuilds the ICU data library of the Linux Qt wheel (libicudata, 30 MB) with only what Qt can ask
of it for a Brazilian office: Qt 6 calls ICU for collation (QCollator, the file dialog's order), case mapping,
time-zone names and named text codecs, never for break iteration or transliteration. The Windows wheel has no ICU.

Loaded by path (`packaging` is also a PyPI distribution's name): see desktop.spec and tests/packaging/test_bundle_libs.py.
"""
from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

DT_NULL, DT_NEEDED = 0, 1
SHT_DYNAMIC, SHT_DYNSYM = 6, 11
PT_DYNAMIC = 2
STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE = 1, 2, 10
_DYN = struct.Struct("<qQ")
_SYM = struct.Struct("<IBBHQQ")
_SHDR = struct.Struct("<IIQQQQIIQQ")
_PHDR = struct.Struct("<IIQQQQQQ")


class _Elf:
    def __init__(self, data: bytes):
        if data[:4] != b"\x7fELF":
            raise ValueError("não é um arquivo ELF")
        if data[4] != 2 or data[5] != 1:
            raise ValueError("só ELF de 64 bits little-endian")     # the bundle is built on x86-64 / aarch64
        self.data = data
        phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
        phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 0x36)
        self.programs = [_PHDR.unpack_from(data, phoff + i * phentsize) for i in range(phnum)]
        self.sections = [_SHDR.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]

    def _section(self, kind: int):
        found = [s for s in self.sections if s[1] == kind]
        return found[0] if found else None

    def _string(self, strtab, offset: int) -> str:
        start = strtab[4] + offset
        return self.data[start:self.data.index(b"\0", start)].decode("utf-8", "replace")

    def dynamic(self) -> tuple[int, int, list[tuple[int, int]], tuple]:
        """(file offset, slots, entries up to DT_NULL, string table) of the dynamic section."""
        section = self._section(SHT_DYNAMIC)
        if section is None:
            return 0, 0, [], ()
        offset, size = section[4], section[5]
        # the loader reads PT_DYNAMIC, not the section table: both must name the same bytes before any write
        segments = [p for p in self.programs if p[0] == PT_DYNAMIC]
        if not segments or segments[0][2] != offset:
            raise ValueError("PT_DYNAMIC e a seção .dynamic não coincidem")
        entries = []
        for i in range(size // _DYN.size):
            tag, value = _DYN.unpack_from(self.data, offset + i * _DYN.size)
            if tag == DT_NULL:
                break
            entries.append((tag, value))
        return offset, size // _DYN.size, entries, self.sections[section[6]]

    def needed(self) -> list[str]:
        _offset, _slots, entries, strtab = self.dynamic()
        return [self._string(strtab, value) for tag, value in entries if tag == DT_NEEDED]

    def symbol(self, wanted: str) -> tuple[int, int] | None:
        """(file offset, size) of a defined dynamic symbol's bytes."""
        section = self._section(SHT_DYNSYM)
        strtab = self.sections[section[6]]
        for i in range(1, section[5] // _SYM.size):
            name, _info, _other, shndx, value, size = _SYM.unpack_from(self.data, section[4] + i * _SYM.size)
            if name and shndx and self._string(strtab, name) == wanted:
                holder = self.sections[shndx]
                return value - holder[3] + holder[4], size
        return None

    def symbols(self) -> tuple[set[str], set[str]]:
        """(defined and exported, undefined) names of the dynamic symbol table."""
        section = self._section(SHT_DYNSYM)
        defined, undefined = set(), set()
        if section is None:
            return defined, undefined
        strtab = self.sections[section[6]]
        for i in range(1, section[5] // _SYM.size):
            name, info, _other, shndx, _value, _size = _SYM.unpack_from(self.data, section[4] + i * _SYM.size)
            if not name:
                continue
            if shndx == 0:
                undefined.add(self._string(strtab, name))
            elif info >> 4 in (STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE):
                defined.add(self._string(strtab, name))
        return defined, undefined


def is_elf(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(4) == b"\x7fELF"


def needed(path: Path) -> list[str]:
    """The DT_NEEDED file names of an ELF library or module, in order."""
    return _Elf(Path(path).read_bytes()).needed()


def symbols_used_from(binary: Path, library: Path) -> set[str]:
    """The symbols `binary` leaves undefined that `library` defines: empty when the link is never used."""
    _defined, undefined = _Elf(Path(binary).read_bytes()).symbols()
    defined, _undefined = _Elf(Path(library).read_bytes()).symbols()
    return undefined & defined


def remove_needed(path: Path, names: set[str]) -> list[str]:
    """Remove the DT_NEEDED entries naming `names` from the file in place (the later entries move up, DT_NULL
    fills the end, as patchelf --remove-needed does); returns the names removed."""
    path = Path(path)
    data = bytearray(path.read_bytes())
    elf = _Elf(bytes(data))
    offset, slots, entries, strtab = elf.dynamic()
    kept, removed = [], []
    for tag, value in entries:
        if tag == DT_NEEDED and elf._string(strtab, value) in names:
            removed.append(elf._string(strtab, value))
        else:
            kept.append((tag, value))
    if not removed:
        return []
    for i in range(slots):
        _DYN.pack_into(data, offset + i * _DYN.size, *(kept[i] if i < len(kept) else (DT_NULL, 0)))
    # a new file in its place: were the bundle's copy a hard link, the venv's library would stay as it was
    fresh = path.with_name(path.name + ".tmp")
    fresh.write_bytes(bytes(data))
    shutil.copymode(path, fresh)
    fresh.replace(path)
    return removed


# ------------------------------------------------------------------------------------------------ ICU data
# The languages the program shows (pt_BR) and ICU's own fallback (root, en): every locale file of another
# language goes, in every tree (names, currencies, units, zones, collation, number spelling).
ICU_LANGUAGES = ("root", "pt", "en")
# Trees Qt never reaches: break iteration (ubrk_*, with the 3 MB CJK/Thai dictionaries) and transliteration.
ICU_UNUSED_TREES = ("brkitr", "translit")
# Named codecs (QStringDecoder("windows-1252")): the Western ones a file from a Brazilian office may be in. UTF-8,
# UTF-16/32 and ISO-8859-1 are algorithmic in ICU and built into Qt: no file.
ICU_CODECS = ("ibm-5348_P100-1997.cnv", "ibm-923_P100-1998.cnv", "ibm-1252_P100-2000.cnv")
_LOCALE_FILE = re.compile(r"^([a-z]{2,3}|root)(_[A-Za-z0-9]*)*\.res$")


def icu_item_kept(name: str) -> bool:
    """Whether an item of the ICU package (`icudt73l/coll/pt.res`) stays."""
    parts = name.split("/")[1:]          # without the package name
    tree, file = (parts[0] if len(parts) > 1 else ""), parts[-1]
    if tree in ICU_UNUSED_TREES:
        return False
    if file.endswith(".cnv"):
        return file in ICU_CODECS
    match = _LOCALE_FILE.match(file)
    # res_index.res (the list of a tree's locales) has a locale file's shape
    return match is None or match.group(1) in ICU_LANGUAGES or file == "res_index.res"


def icu_items(package: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """(header, [(name, bytes)]) of an ICU common data package (.dat, "CmnD"), in the package's order."""
    header_size = struct.unpack_from("<H", package, 0)[0]
    if package[2:4] != b"\xda\x27" or package[12:16] != b"CmnD":
        raise ValueError("não é um pacote de dados do ICU")
    count = struct.unpack_from("<I", package, header_size)[0]
    toc = [struct.unpack_from("<II", package, header_size + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_at, data_at) in enumerate(toc):
        end = toc[i + 1][1] if i + 1 < count else len(package) - header_size
        start = header_size + name_at
        items.append((package[start:package.index(b"\0", start)].decode("ascii"),
                      package[header_size + data_at:header_size + end]))
    return package[:header_size], items


def icu_package(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    """The package again (names in the order given, which must stay sorted: ICU searches it by bisection), every
    item on a 16-byte boundary, padded with 0xAA as icupkg writes them (the unchanged list gives the same bytes)."""
    names = b"".join(name.encode("ascii") + b"\0" for name, _data in items)
    toc_size = 4 + 8 * len(items)
    data_at = toc_size + len(names)
    data_at += -data_at % 16
    toc, blobs, name_at = [struct.pack("<I", len(items))], [], toc_size
    for name, data in items:
        toc.append(struct.pack("<II", name_at, data_at))
        name_at += len(name) + 1
        blobs.append(data + b"\xaa" * (-len(data) % 16))
        data_at += len(blobs[-1])
    body = b"".join(toc) + names
    return header + body + b"\xaa" * (-len(body) % 16) + b"".join(blobs)


def trim_icu_data(library: Path, out_dir: Path) -> Path | None:
    """A copy of libicudataNN.so holding only the items `icu_item_kept` keeps, built with binutils' as and ld
    (the data is one exported symbol, icudtNN_dat); None when as/ld are missing or the library is not the
    expected one (the bundle then keeps the original)."""
    tools = shutil.which("as"), shutil.which("ld")
    match = re.match(r"libicudata\.so\.(\d+)", library.name)
    if None in tools or match is None:
        return None
    symbol = f"icudt{match.group(1)}_dat"
    data = Path(library).read_bytes()
    where = _Elf(data).symbol(symbol)
    if where is None:
        return None
    header, items = icu_items(data[where[0]:where[0] + where[1]])
    package = icu_package(header, [item for item in items if icu_item_kept(item[0])])
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        dat = Path(work) / "icudata.dat"
        dat.write_bytes(package)
        source = Path(work) / "icudata.s"
        source.write_text(f"""    .section .rodata
    .globl {symbol}
    .type {symbol}, @object
    .balign 16
{symbol}:
    .incbin "{dat}"
    .size {symbol}, {len(package)}
    .section .note.GNU-stack,"",@progbits
""", encoding="ascii")
        obj = Path(work) / "icudata.o"
        out = out_dir / library.name
        subprocess.run([tools[0], "-o", str(obj), str(source)], check=True, capture_output=True)
        subprocess.run([tools[1], "-shared", "-soname", library.name, "-o", str(out), str(obj)], check=True,
                       capture_output=True)
    return out
