"""The links between the bundle's ELF libraries (issue 17), read and cut in pure Python (no patchelf on a fresh
Debian): packaging/desktop.spec drops pyarrow's Parquet, Dataset, Acero and Substrait libraries, which the Linux
wheel lists as DT_NEEDED in every module (linked without --as-needed) although the modules the program loads call
no function of theirs. The loader would refuse to open a module whose DT_NEEDED file is missing, so the spec
removes those entries — only after `symbols_used_from` shows that not one symbol comes from the dropped file.
(The Windows wheel's .pyd files do not import those DLLs at all: MSVC links only what is used.)

Loaded by path (`packaging` is also a PyPI distribution's name): see desktop.spec and tests/unit/test_bundle_libs.py.
"""
from __future__ import annotations

import struct
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
    path.write_bytes(bytes(data))
    return removed
