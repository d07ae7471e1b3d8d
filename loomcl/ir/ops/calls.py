"""Calls: of a function of the same module, of the pure math builtins that code generation
expands inline, and printf.
"""
from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Iterator

from .. import types as ty
from ..values import Value
from .base import Instruction, TextReader, TextWriter, result_is
from .shapes import OPERANDS, PER_WORK_ITEM

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["Call", "MathFunction", "MathCall", "Printf"]


class Call(Instruction):
    """A call of a function of the same module (all are inlined before work-group formation)."""

    keywords = ("call",)
    fields = ("callee",)
    operand_names = ("args*",)
    reads_memory = True  # the callee may do anything
    writes_memory = True
    has_other_effects = True
    uniformity = PER_WORK_ITEM

    def __init__(self, callee: Function, args: list[Value], name: str = "") -> None:
        super().__init__(callee.return_type, args, name)
        self.callee = callee

    def print_operands(self, p: TextWriter) -> str:
        return f"@{self.callee.name}({p.operands(self.args)})"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Call:
        callee = r.callee()
        r.expect("(")
        if r.accept(")"):
            return cls(callee, [], name)
        args = r.operand_list()
        r.expect(")")
        return cls(callee, args, name)

    def verify(self) -> Iterator[str]:
        if [a.type for a in self.args] != [p.type for p in self.callee.params]:
            yield f"argument types do not match @{self.callee.name}'s parameters"
        if self.type is not self.callee.return_type:
            yield f"result is {self.type}, @{self.callee.name} returns {self.callee.return_type}"


class MathFunction(enum.Enum):
    """Pure builtins that code generation expands inline (LLVM intrinsics or open-coded), so they
    vectorize inside work-item loops. Integer ones carry signedness in the name."""

    SQRT = "sqrt"
    FABS = "fabs"
    FMIN = "fmin"
    FMAX = "fmax"
    FLOOR = "floor"
    CEIL = "ceil"
    TRUNC = "trunc"
    ROUND = "round"
    RINT = "rint"
    EXP = "exp"
    EXP2 = "exp2"
    LOG = "log"
    LOG2 = "log2"
    LOG10 = "log10"
    POW = "pow"
    SIN = "sin"
    COS = "cos"
    TAN = "tan"
    FMA = "fma"
    COPYSIGN = "copysign"
    # the OpenCL 1.2 math library (6.12.2): our own code for float (llvm_libm_*.py), libm for double
    EXP10 = "exp10"
    EXPM1 = "expm1"
    LOG1P = "log1p"
    CBRT = "cbrt"
    HYPOT = "hypot"
    SINH = "sinh"
    COSH = "cosh"
    TANH = "tanh"
    ASINH = "asinh"
    ACOSH = "acosh"
    ATANH = "atanh"
    ASIN = "asin"
    ACOS = "acos"
    ATAN = "atan"
    ATAN2 = "atan2"
    ERF = "erf"
    ERFC = "erfc"
    TGAMMA = "tgamma"
    LGAMMA = "lgamma"
    SMIN = "smin"
    SMAX = "smax"
    UMIN = "umin"
    UMAX = "umax"
    ABS = "abs"  # integer absolute value
    CLZ = "clz"  # of 0: the width (as OpenCL's clz)
    CTZ = "ctz"  # of 0: the width (as OpenCL's ctz)
    POPCOUNT = "popcount"
    ROTATE = "rotate"  # left, by the second operand modulo the width
    SADD_SAT = "sadd_sat"
    UADD_SAT = "uadd_sat"
    SSUB_SAT = "ssub_sat"
    USUB_SAT = "usub_sat"

    @property
    def arity(self) -> int:
        return _ARITY.get(self, 1)

    @property
    def is_integer(self) -> bool:
        return self in _INTEGER_FUNCTIONS

    @property
    def reduces_by_period(self) -> bool:
        """sin, cos and tan reduce their argument modulo pi/2: cheaply for the arguments kernels meet,
        at length for huge ones. devlib's vector functions take one way or the other per vector, a
        branch that only whole-function vectorization keeps (LLVM's loop vectorizer if-converts it)."""
        return self in _PERIODIC


_M = MathFunction
_ARITY = {_M.FMIN: 2, _M.FMAX: 2, _M.POW: 2, _M.COPYSIGN: 2, _M.SMIN: 2, _M.SMAX: 2, _M.UMIN: 2, _M.UMAX: 2,
          _M.FMA: 3, _M.HYPOT: 2, _M.ATAN2: 2,
          _M.ROTATE: 2, _M.SADD_SAT: 2, _M.UADD_SAT: 2, _M.SSUB_SAT: 2, _M.USUB_SAT: 2}
_PERIODIC = {_M.SIN, _M.COS, _M.TAN}
_INTEGER_FUNCTIONS = {_M.SMIN, _M.SMAX, _M.UMIN, _M.UMAX, _M.ABS,
                      _M.CLZ, _M.CTZ, _M.POPCOUNT, _M.ROTATE, _M.SADD_SAT, _M.UADD_SAT, _M.SSUB_SAT,
                      _M.USUB_SAT}


class MathCall(Instruction):
    """`math_function` names the builtin (not `function`: that is the enclosing Function). Every
    argument has the result's type (a scalar or a vector, the same for all)."""

    keywords = tuple(f"math.{m.value}" for m in MathFunction)
    fields = ("math_function",)
    operand_names = ("args*",)
    is_pure = True
    is_lanewise = True
    uniformity = OPERANDS

    def __init__(self, function: MathFunction, args: list[Value], type: ty.Type, name: str = "") -> None:
        super().__init__(type, args, name)
        self.math_function = function

    @property
    def keyword(self) -> str:
        return f"math.{self.math_function.value}"

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.type} {p.operands(self.args)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> MathCall:
        function = MathFunction(keyword[len("math."):])
        type = r.type()
        return cls(function, r.operand_list(), type, name)

    def verify(self) -> Iterator[str]:
        f = self.math_function
        if len(self.args) != f.arity:
            yield f"math.{f.value} takes {f.arity} argument{'s' if f.arity > 1 else ''}, not {len(self.args)}"
        if f.is_integer and not ty.is_int(self.type):
            yield f"math.{f.value} gives integers, not {self.type}"
        elif not f.is_integer and not ty.is_float(self.type):
            yield f"math.{f.value} gives floating-point values, not {self.type}"
        for i, arg in enumerate(self.args):
            if arg.type is not self.type:
                yield f"argument {i} is {arg.type}, not the result's {self.type}"


class Printf(Instruction):
    """OpenCL C printf: appends a record of `format_id` and the arguments to the launch's printf
    buffer (printf/record.py) and gives 0, or -1 when the record did not fit. The arguments are in
    their storage types (printf/format_spec.py); `format` is the text the runtime renders them with,
    `format_id` its number in the program (from 1). A side effect: never removed, merged or moved,
    and each call is one record, so a work-item's lines never mix with another's."""

    keywords = ("printf",)
    fields = ("format_id", "format")
    operand_names = ("args*",)
    has_other_effects = True
    uniformity = PER_WORK_ITEM  # -1 for the calls whose record did not fit

    def __init__(self, format_id: int, format: bytes, args: list[Value], name: str = "") -> None:
        super().__init__(ty.i32, args, name)
        self.format_id = format_id
        self.format = format

    def print_operands(self, p: TextWriter) -> str:
        text = f'{self.format_id} "{_escaped(self.format)}"'
        return f"{text}, {p.operands(self.args)}" if self.args else text

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Printf:
        format_id, text = r.int(), r.next()
        args = r.operand_list() if r.accept(",") else []
        return cls(format_id, _unescaped(text[1:-1]), args, name)

    def verify(self) -> Iterator[str]:
        if not isinstance(self.format_id, int) or self.format_id < 1:
            yield f"format id {self.format_id!r} is not a positive integer"
        for i, arg in enumerate(self.args):
            t = arg.type.element if isinstance(arg.type, ty.VectorType) else arg.type
            if not isinstance(t, (ty.IntType, ty.FloatType)) or t == ty.i1:
                yield f"argument {i} is {arg.type}, not a number or a vector of numbers"
        yield from result_is(self, ty.i32, "printf gives")


def _escaped(data: bytes) -> str:
    """Printable ASCII as itself, other bytes (and quote and backslash) as \\XX, like LLVM's c"..."."""
    return "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}" for b in data)


def _unescaped(text: str) -> bytes:
    out, i = bytearray(), 0
    while i < len(text):
        if text[i] == "\\":
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(ord(text[i]))
            i += 1
    return bytes(out)
