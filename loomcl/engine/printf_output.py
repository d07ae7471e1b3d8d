"""printf output of a kernel: the buffer its launches write records into, and the text printed
from them after each launch (OpenCL C 6.12.13.1: a launch's output is flushed when its event
completes; here the text is written when the launch ends, before its event completes).

The buffer (layout in printf/record.py) belongs to the kernel object; before a launch its cursor
and drop count are reset. After the launch every record becomes the text of one printf call,
rendered with C's rules (printf/render.py), and all of it goes to `sys.stdout` in one write, in the
order the calls reserved their records: the calls of one work-item in program order, those of
different work-items in the order they ran (OpenCL leaves it unspecified), and never one call's
text inside another's. A call whose record did not fit printed nothing and returned -1; a line on
`sys.stderr` says how many were dropped, and the buffer grows to fit the demand of that launch for
the next one (up to MAX_BUFFER_BYTES).
"""
from __future__ import annotations

import math
import operator
import struct
import sys

import numpy as np

from ..printf.format_spec import Conversion, parse_format
from ..printf.record import (
    CAPACITY_OFFSET, CURSOR_OFFSET, DATA_OFFSET, DROPPED_OFFSET, END_MARKER, RECORD_HEADER_BYTES, record_layout,
)
from ..printf.render import python_spec, render

BUFFER_BYTES = 1 << 20  # CL_DEVICE_PRINTF_BUFFER_SIZE: a launch's first buffer (pocl's default too)
MAX_BUFFER_BYTES = 256 << 20
_LANE_FORMATS = {("int", 1): "b", ("int", 2): "h", ("int", 4): "i", ("int", 8): "q",
                 ("uint", 1): "B", ("uint", 2): "H", ("uint", 4): "I", ("uint", 8): "Q",
                 ("float", 2): "e", ("float", 4): "f", ("float", 8): "d", ("pointer", 8): "Q"}


class _Format:
    """A format read for rendering: its pieces, the layout of its records, and where possible one
    Python `%` template for the whole record (render.python_spec), which is several times faster
    than converting piece by piece; records with an infinity or a NaN take the piece-wise path."""

    def __init__(self, text: bytes) -> None:
        self.pieces = parse_format(text)
        self.arguments = [p for p in self.pieces if isinstance(p, Conversion) and p.takes_argument]
        storages = [c.storage for c in self.arguments]
        offsets, self.size = record_layout([(s.lane_bytes, s.lanes) for s in storages])
        self.record = struct.Struct("<" + "".join(_field(s, offset - end) for s, offset, end in
                                                  zip(storages, offsets, _ends(storages, offsets))))
        self.lanes = [s.lanes for s in storages]
        self.all_finite = _finiteness_check([n for n, i in enumerate(_value_owners(storages))
                                             if storages[i].kind == "float"])
        self.template = _template(self.pieces)

    def text(self, record: memoryview) -> str:
        values = self.record.unpack_from(record)
        if self.template is not None and self.all_finite(values):
            return self.template % values
        out, at, arguments = [], 0, iter(zip(self.arguments, self.lanes))
        for piece in self.pieces:
            if isinstance(piece, bytes):
                out.append(piece.decode("latin-1"))
            elif piece.takes_argument:
                conv, lanes = next(arguments)
                out.append(render(conv, list(values[at:at + lanes]) if conv.lanes else values[at]))
                at += lanes
            else:
                out.append("%")
        return "".join(out)


def _field(storage, padding: int) -> str:
    return "x" * padding + f"{storage.lanes}{_LANE_FORMATS[(storage.kind, storage.lane_bytes)]}"


def _ends(storages, offsets) -> list[int]:
    """Where the previous argument ended, before each argument (the record header first)."""
    return [RECORD_HEADER_BYTES] + [o + s.bytes for s, o in zip(storages, offsets)][:-1]


def _value_owners(storages) -> list[int]:
    """For each unpacked value, the index of the argument it belongs to."""
    return [i for i, s in enumerate(storages) for _ in range(s.lanes)]


def _finiteness_check(float_values: list[int]):
    """A test that the values at these positions are all finite (a sum of finite values is finite
    unless it overflows, which then takes the exact path, so one `isfinite` does)."""
    if not float_values:
        return lambda values: True
    pick = operator.itemgetter(*float_values)
    if len(float_values) == 1:
        return lambda values: math.isfinite(pick(values))
    return lambda values: math.isfinite(sum(pick(values)))


def _template(pieces) -> str | None:
    out = []
    for piece in pieces:
        if isinstance(piece, bytes):
            out.append(piece.decode("latin-1").replace("%", "%%"))
        elif not piece.takes_argument:
            out.append("%%")
        else:
            spec = python_spec(piece)
            if spec is None:
                return None
            out.append(spec)
    return "".join(out)


class PrintfOutput:
    """The printf buffer of one kernel and the printing of its records."""

    def __init__(self, kernel_name: str, formats: dict[int, bytes]) -> None:
        self.kernel_name = kernel_name
        self.formats = {format_id: _Format(text) for format_id, text in formats.items()}
        self._allocate(BUFFER_BYTES)

    def _allocate(self, capacity: int) -> None:
        raw = np.zeros(DATA_OFFSET + capacity + 64, np.uint8)
        start = -raw.ctypes.data % 64
        self.memory = raw[start:start + DATA_OFFSET + capacity]
        self.counters = self.memory[:DATA_OFFSET].view(np.uint64)
        self.counters[CAPACITY_OFFSET // 8] = capacity
        self.capacity = capacity
        self.address = self.memory.ctypes.data

    def reset(self) -> None:
        """Empty the buffer. The bytes the last launch used are zeroed, so that a launch cut short
        (a fault) leaves an end marker, not an old record, where a call had reserved but not written."""
        used = min(int(self.counters[CURSOR_OFFSET // 8]), self.capacity)
        self.memory[DATA_OFFSET:DATA_OFFSET + used] = 0
        self.counters[CURSOR_OFFSET // 8] = 0
        self.counters[DROPPED_OFFSET // 8] = 0

    def flush(self) -> None:
        """Print the records of the launch that just finished (see the module docstring)."""
        texts = self.texts()
        if texts and sys.stdout is not None:  # None: a process without a console (pythonw)
            sys.stdout.write(_as_text("".join(texts)))
            sys.stdout.flush()
        dropped = int(self.counters[DROPPED_OFFSET // 8])
        if dropped:
            self._report_dropped(dropped, len(texts))

    def texts(self) -> list[str]:
        """The text of every record, in buffer order (bytes as latin-1 characters)."""
        data = memoryview(self.memory)[DATA_OFFSET:]
        end = min(int(self.counters[CURSOR_OFFSET // 8]), self.capacity)
        texts, at = [], 0
        while at + RECORD_HEADER_BYTES <= end:
            format_id, size = struct.unpack_from("<II", data, at)
            fmt = self.formats.get(format_id)
            if format_id == END_MARKER or fmt is None or size != fmt.size or at + size > end:
                break  # the end, or a record overwritten by a kernel's stray store
            texts.append(fmt.text(data[at + RECORD_HEADER_BYTES:at + size]))
            at += size
        return texts

    def _report_dropped(self, dropped: int, printed: int) -> None:
        demand = int(self.counters[CURSOR_OFFSET // 8])
        grown = min(MAX_BUFFER_BYTES, max(self.capacity * 2, -(-demand // 4096) * 4096))
        message = (f"loomcl: the printf buffer of kernel '{self.kernel_name}' ({self.capacity} bytes) "
                   f"was full: {dropped} of {dropped + printed} printf calls printed nothing and "
                   f"returned -1")
        if grown > self.capacity:
            self._allocate(grown)
            message += f"; later launches get {grown} bytes"
        if sys.stderr is not None:
            sys.stderr.write(message + "\n")


def _as_text(chars: str) -> str:
    """Bytes (one latin-1 character each) as the text they spell: UTF-8 in string literals prints
    as itself, stray bytes as U+FFFD."""
    return chars.encode("latin-1").decode("utf-8", errors="replace")
