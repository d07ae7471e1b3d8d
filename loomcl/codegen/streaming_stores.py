"""Streaming (non-temporal) stores to large write-only buffers.

A store to a line that is not in the cache first reads the line from memory (write-allocate), so a
kernel that writes a large output moves it twice; a non-temporal store (`vmovntps`) writes whole lines
past the caches, and a copy then moves 2 bytes per byte copied instead of 3. It only pays for memory
the kernel does not read back and that will not fit in the cache anyway, so the runtime chooses it per
launch (runtime/streaming.py): `CompilerOptions.streaming` names the parameters, and the work-group
function is specialized for them.

Three pieces, because LLVM's loop vectorizer refuses a loop whose scalar stores carry `!nontemporal`
at element alignment (x86 has no unaligned vector streaming store):
  * the entry tells LLVM what the runtime checked: each streaming parameter is 64-byte aligned, and
    the dimension-0 global offset and enqueued local size are multiples of 64 (`llvm.assume`), so
    the vector stores of a work-item loop get provably line-aligned;
  * after the O3 pipeline (in the compile server), `mark_nontemporal` adds `!nontemporal` to the
    vector stores, of 32 bytes or more and aligned to their size, whose address is computed from a
    streaming parameter; any other store is left as it was (an unaligned streaming store would be
    split into 8-byte ones, slower than a cached store);
  * the entry ends with `sfence`: streaming stores are weakly ordered, and the thread that waits for
    the launch must see them once the group counter says the work is done.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the compile server imports this file as a script's neighbour: standard library only
    from .llvm_module import ModuleText

STREAM_ALIGN = 64
_MIN_BYTES = 32
_ELEMENT_BYTES = {"float": 4, "double": 8, "half": 2, "i8": 1, "i16": 2, "i32": 4, "i64": 8}
_DEFINITION = re.compile(r"^\s*(%[\w.]+) = (?:getelementptr[^,]*, ptr (%[\w.]+),|phi ptr (.*))")
_VECTOR_STORE = re.compile(r"^(\s*store <(\d+) x (\w+)> [^,]+, ptr (%[\w.]+), align (\d+))(.*)$")


def streaming_lines(module: "ModuleText", params: tuple[int, ...]) -> tuple[list[str], list[str]]:
    """(lines after the entry decodes its arguments, lines before it returns) for `params`."""
    if not params:
        return [], []
    module.declare("llvm.assume", "declare void @llvm.assume(i1 noundef)")
    module.declare("llvm.x86.sse.sfence", "declare void @llvm.x86.sse.sfence()")
    aligned = [f'  call void @llvm.assume(i1 true) ["align"(ptr %param{i}, i64 {STREAM_ALIGN})]' for i in params]
    return aligned, ["  call void @llvm.x86.sse.sfence()"]


def launch_value_lines(module: "ModuleText", value: str) -> list[str]:
    """Lines (unindented) that tell LLVM the launch value `value` (an i64) is a multiple of STREAM_ALIGN."""
    module.declare("llvm.assume", "declare void @llvm.assume(i1 noundef)")
    low, zero = f"{value}.low", f"{value}.aligned"
    return [f"{low} = and i64 {value}, {STREAM_ALIGN - 1}", f"{zero} = icmp eq i64 {low}, 0",
            f"call void @llvm.assume(i1 {zero})"]


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
        if size >= _MIN_BYTES and align >= size and "!nontemporal" not in line:
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
