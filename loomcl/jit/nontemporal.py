"""Streaming stores, after the O3 pipeline: `!nontemporal` on the vector stores through streaming parameters.

The third piece of codegen/streaming_stores.py's scheme, run by the compile server on optimized IR
text: the vector stores of 32 bytes or more whose address is computed from a streaming parameter
(`%param<i>`) and whose every register-sized piece is aligned get `!nontemporal`; any other store is
left as it was (an unaligned streaming store would be split into 8-byte ones, slower than a cached
store). A store wider than a register is one of the loop vectorizer's interleaved groups (a float4
or float8 kernel's lanes, stored as one <32 x float>): at a power-of-two size and aligned to the
widest register, each of its pieces is aligned too (float4/float8 copies had no streaming stores). Standard library only:
the compile server imports this file as a script's neighbour.
"""
from __future__ import annotations

import re

_MIN_BYTES = 32
_REGISTER_BYTES = 64  # the widest vector register (AVX-512); on narrower ones the pieces are aligned too
_ELEMENT_BYTES = {"float": 4, "double": 8, "half": 2, "i8": 1, "i16": 2, "i32": 4, "i64": 8}
_DEFINITION = re.compile(r"^\s*(%[\w.]+) = (?:getelementptr[^,]*, ptr (%[\w.]+),|phi ptr (.*))")
_VECTOR_STORE = re.compile(r"^(\s*store <(\d+) x (\w+)> [^,]+, ptr (%[\w.]+), align (\d+))(.*)$")


def mark_nontemporal(text: str, params: list[int]) -> str:
    """Optimized LLVM IR `text` with `!nontemporal` on the aligned vector stores through `params`."""
    derived = _derived_pointers(text, {f"%param{i}" for i in params})
    lines = text.split("\n")
    for n, line in enumerate(lines):
        store = _VECTOR_STORE.match(line)
        if store is None or store.group(4) not in derived:
            continue
        count, element, align = int(store.group(2)), store.group(3), int(store.group(5))
        size = count * _ELEMENT_BYTES.get(element, 0)
        pieces_aligned = align >= size or (size & (size - 1) == 0 and align >= _REGISTER_BYTES)
        if size >= _MIN_BYTES and pieces_aligned and "!nontemporal" not in line:
            lines[n] = f"{store.group(1)}{store.group(6)}, !nontemporal !{{i32 1}}"
    return "\n".join(lines)


def _derived_pointers(text: str, roots: set[str]) -> set[str]:
    """The pointer values computed from `roots` by getelementptr, and by phis all of whose incoming
    values are. A loop's pointer phi and its increment depend on each other, so this is the greatest
    fixed point: assume every candidate derived, drop those with an operand that is not, repeat."""
    sources = {}
    for line in text.split("\n"):
        found = _DEFINITION.match(line)
        if found is not None:
            name, base, incoming = found.groups()
            sources[name] = [base] if base is not None else [
                v.strip() for v in re.findall(r"\[\s*([^,\]]+),", incoming)]
    derived, changed = set(roots) | set(sources), True
    while changed:
        changed = False
        for name, operands in sources.items():
            if name in derived and name not in roots and not (operands and all(o in derived for o in operands)):
                derived.discard(name)
                changed = True
    return derived
