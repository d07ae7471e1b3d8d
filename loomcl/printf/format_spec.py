"""The grammar of OpenCL C printf formats (OpenCL C 1.2, 6.12.13.2) and what each conversion takes.

A conversion specification is

    %  flags*  width?  ("." precision?)?  ("v" N length)?  length?  conversion

with flags from `-+ #0`, width and precision as decimal digits (OpenCL has no `*`), N one of
2, 3, 4, 8, 16, the length modifiers `hh`, `h`, `hl` (vectors only) and `l`, and the conversions
`d i o u x X f F e E g G a A c s p %`. With a vector specifier the length modifier gives the lane
type: `hh` char, `h` short (half for floating conversions), `hl` int or float, `l` long or double.

Every argument travels in a fixed *storage* type that the conversion alone determines, so the
compiler converts each argument to it and the runtime reads it back without any other table:
scalar integers are int (`l`: long), characters int, scalar floating values double (the default
argument promotions of C), pointers 64 bits, vectors their lane type. The front end checks the
arguments against this (sema_printf.py) and rewrites `%s` of literal strings into the format text.
"""
from __future__ import annotations

from dataclasses import dataclass

FLAGS = "-+ #0"
INTEGER_CONVERSIONS = "diouxX"
SIGNED_CONVERSIONS = "di"
FLOAT_CONVERSIONS = "fFeEgGaA"
CONVERSIONS = INTEGER_CONVERSIONS + FLOAT_CONVERSIONS + "csp%"
VECTOR_LANES = (2, 3, 4, 8, 16)
VECTOR_LENGTHS = ("hh", "h", "hl", "l")
_INTEGER_LANE_BYTES = {"hh": 1, "h": 2, "hl": 4, "l": 8}
_FLOAT_LANE_BYTES = {"h": 2, "hl": 4, "l": 8}


class FormatError(ValueError):
    """A malformed format: `offset` is the byte of the format where the problem starts."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


@dataclass(frozen=True)
class Storage:
    """How one argument travels: `kind` is "int", "uint", "float" or "pointer"; `lane_bytes` the
    size of one lane; `lanes` 1 for a scalar."""

    kind: str
    lane_bytes: int
    lanes: int = 1

    @property
    def bytes(self) -> int:
        return self.lane_bytes * self.lanes


@dataclass(frozen=True)
class Conversion:
    """One conversion specification; `offset` and `text` locate it in the format."""

    offset: int
    text: str
    flags: str
    width: int | None
    precision: int | None
    lanes: int | None  # the N of a vector specifier `vN`
    length: str
    conversion: str

    @property
    def takes_argument(self) -> bool:
        return self.conversion != "%"

    @property
    def is_integer(self) -> bool:
        return self.conversion in INTEGER_CONVERSIONS

    @property
    def is_float(self) -> bool:
        return self.conversion in FLOAT_CONVERSIONS

    @property
    def storage(self) -> Storage:
        """The type its argument travels in (the module docstring); `%s` travels in the format."""
        c, length, lanes = self.conversion, self.length, self.lanes or 1
        if self.is_integer:
            kind = "int" if c in SIGNED_CONVERSIONS else "uint"
            if self.lanes:
                return Storage(kind, _INTEGER_LANE_BYTES[length], lanes)
            return Storage(kind, 8 if length == "l" else 4)
        if self.is_float:
            return Storage("float", _FLOAT_LANE_BYTES[length] if self.lanes else 8, lanes)
        if c == "c":
            return Storage("int", 4)
        return Storage("pointer", 8)

    def with_length(self, length: str) -> Conversion:
        """This vector conversion with its length modifier written out (the compiler infers an
        omitted one from the argument, so the runtime sees only complete conversions)."""
        head = self.text[:self.text.index("v") + 1 + len(str(self.lanes))]
        return Conversion(self.offset, f"{head}{length}{self.conversion}", self.flags, self.width,
                          self.precision, self.lanes, length, self.conversion)


def parse_format(fmt: bytes) -> list[bytes | Conversion]:
    """The format as literal byte runs and conversions, in order; raises FormatError."""
    pieces: list[bytes | Conversion] = []
    start = pos = 0
    while True:
        pos = fmt.find(b"%", start)
        if pos < 0:
            break
        if pos > start:
            pieces.append(fmt[start:pos])
        conversion = _conversion(fmt, pos)
        pieces.append(conversion)
        start = pos + len(conversion.text)
    if start < len(fmt):
        pieces.append(fmt[start:])
    return pieces


def _conversion(fmt: bytes, start: int) -> Conversion:
    text = fmt.decode("latin-1")
    pos = start + 1
    flags, pos = _span(text, pos, lambda ch: ch in FLAGS)
    width, pos = _number(text, pos)
    precision = None
    if text.startswith(".", pos):
        digits, pos = _span(text, pos + 1, str.isdigit)
        precision = int(digits or "0")
    if text.startswith("*", pos):
        raise FormatError(pos, "'*' for a field width or precision is not allowed in OpenCL C")
    lanes = None
    if text.startswith("v", pos):
        lanes, pos = _vector_lanes(text, pos)
    length, pos = _length(text, pos)
    if pos >= len(text):
        raise FormatError(start, "incomplete conversion specifier at the end of the format")
    c = text[pos]
    if c not in CONVERSIONS:
        raise FormatError(pos, f"invalid conversion specifier '{c}'")
    conversion = Conversion(start, text[start:pos + 1], flags, int(width) if width else None,
                            precision, lanes, length, c)
    _check(conversion, pos)
    return conversion


def _span(text: str, pos: int, accept) -> tuple[str, int]:
    end = pos
    while end < len(text) and accept(text[end]):
        end += 1
    return text[pos:end], end


def _number(text: str, pos: int) -> tuple[str, int]:
    return _span(text, pos, str.isdigit)


def _vector_lanes(text: str, pos: int) -> tuple[int, int]:
    digits, end = _number(text, pos + 1)
    if not digits or int(digits) not in VECTOR_LANES:
        raise FormatError(pos, f"invalid vector specifier 'v{digits}': the lane count must be 2, 3, 4, 8 "
                               f"or 16")
    return int(digits), end


def _length(text: str, pos: int) -> tuple[str, int]:
    for length in ("hh", "hl", "h", "ll", "l", "j", "z", "t", "L"):
        if text.startswith(length, pos):
            if length not in VECTOR_LENGTHS:
                raise FormatError(pos, f"length modifier '{length}' is not supported in OpenCL C")
            return length, pos + len(length)
    return "", pos


def _check(conv: Conversion, pos: int) -> None:
    """The combinations the grammar allows but OpenCL C does not."""
    c, length = conv.conversion, conv.length
    if c == "%" and conv.text != "%%":
        raise FormatError(conv.offset, "'%%' takes no flags, width, precision or length modifier")
    if conv.lanes and not (conv.is_integer or conv.is_float):
        raise FormatError(pos, f"a vector specifier cannot be used with the '{c}' conversion")
    if length == "hl" and not conv.lanes:
        raise FormatError(pos - 2, "length modifier 'hl' is only allowed with a vector specifier")
    if length and c in "csp":
        raise FormatError(pos - len(length), f"length modifier '{length}' cannot be used with the "
                                             f"'{c}' conversion")
    if length in ("hh", "h") and conv.is_float and not (conv.lanes and length == "h"):
        raise FormatError(pos - len(length), f"length modifier '{length}' cannot be used with the "
                                             f"'{c}' conversion")
