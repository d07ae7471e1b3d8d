"""Arithmetic, comparisons, conversions and selection: pure instructions on scalars or vectors.

Opcode families that share a shape (binary arithmetic, comparisons, casts) are one class each with
an enum member saying which. Integers are signless, so signedness lives in the opcode (sdiv/udiv,
slt/ult, sext/zext), as in LLVM, and the verifier checks that an opcode gets the kind it expects.
"""
from __future__ import annotations

import enum
from typing import Iterator

from .. import types as ty
from ..values import Constant, Value
from .base import Instruction, TextReader, TextWriter, read_operands, result_is, same_type
from .shapes import BOTTOM, OPERANDS, UNIFORM, VARYING, Kind, Shape, ShapeOf, UniformityRule, consecutive

__all__ = ["BinaryOpcode", "BinaryOp", "FNeg", "Predicate", "Compare", "CastOpcode", "Cast", "Select"]


class BinaryOpcode(enum.Enum):
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    SDIV = "sdiv"
    UDIV = "udiv"
    SREM = "srem"
    UREM = "urem"
    SHL = "shl"
    LSHR = "lshr"
    ASHR = "ashr"
    AND = "and"
    OR = "or"
    XOR = "xor"
    FADD = "fadd"
    FSUB = "fsub"
    FMUL = "fmul"
    FDIV = "fdiv"
    FREM = "frem"

    @property
    def is_float(self) -> bool:
        return self.value.startswith("f")


def _kind_rule(opcode: str, is_float: bool, t: ty.Type) -> Iterator[str]:
    """Floating-point opcodes take floats, the others integers (scalars or vectors of them)."""
    if is_float and not ty.is_float(t):
        yield f"{opcode} needs floating-point operands, not {t}"
    elif not is_float and not ty.is_int(t):
        yield f"{opcode} needs integer operands, not {t}"


NO_SIGNED_WRAP_OPCODES = frozenset({BinaryOpcode.ADD, BinaryOpcode.SUB, BinaryOpcode.MUL})


def _affine(i: BinaryOp, lanes: ShapeOf) -> Shape:
    """Strides add under add and sub, scale under a multiplication by a constant and a left shift."""
    a, b = lanes.shape(i.lhs), lanes.shape(i.rhs)
    if a.kind is Kind.BOTTOM or b.kind is Kind.BOTTOM:
        return BOTTOM
    if a.is_uniform and b.is_uniform:
        return UNIFORM
    if Kind.VARYING in (a.kind, b.kind) or not isinstance(i.type, ty.IntType):
        return VARYING
    if i.opcode is BinaryOpcode.ADD:
        return consecutive(a.stride + b.stride)
    if i.opcode is BinaryOpcode.SUB:
        return consecutive(a.stride - b.stride)
    const = i.rhs if isinstance(i.rhs, Constant) else i.lhs if isinstance(i.lhs, Constant) else None
    if i.opcode is BinaryOpcode.MUL and const is not None:
        return consecutive((a.stride or b.stride) * const.signed_value)
    if i.opcode is BinaryOpcode.SHL and a.kind is Kind.CONSECUTIVE and isinstance(i.rhs, Constant) and i.rhs.value < 64:
        return consecutive(a.stride << i.rhs.value)
    return VARYING


class BinaryOp(Instruction):
    """Binary arithmetic. `no_signed_wrap` (LLVM's `nsw`) on add, sub or mul says the signed result
    does not overflow: C leaves signed overflow undefined, so the lowering of `int` and `long`
    arithmetic sets it, and `sext(i + 1)` stays `sext(i) + 1`. That keeps an index computed in `int`
    (`y * width + x`) affine in 64 bits, so its loads and stores vectorize as consecutive accesses.
    A pass that rebuilds an operation from other operands must not carry the flag over."""

    keywords = tuple(op.value for op in BinaryOpcode)
    fields = ("opcode", "no_signed_wrap")
    operand_names = ("lhs", "rhs")
    is_pure = True
    is_lanewise = True
    uniformity = UniformityRule("affine", _affine)

    def __init__(self, opcode: BinaryOpcode, lhs: Value, rhs: Value, name: str = "",
                 no_signed_wrap: bool = False) -> None:
        super().__init__(lhs.type, [lhs, rhs], name)
        self.opcode = opcode
        self.no_signed_wrap = no_signed_wrap

    @property
    def keyword(self) -> str:
        return self.opcode.value

    def print_operands(self, p: TextWriter) -> str:
        return ("nsw " if self.no_signed_wrap else "") + p.operands(self._operands)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> BinaryOp:
        no_signed_wrap = r.accept("nsw")
        lhs = r.operand()
        r.expect(",")
        return cls(BinaryOpcode(keyword), lhs, r.operand(), name, no_signed_wrap)

    def verify(self) -> Iterator[str]:
        yield from same_type(self.lhs, self.rhs)
        yield from result_is(self, self.lhs.type, "the operands are")
        yield from _kind_rule(self.opcode.value, self.opcode.is_float, self.lhs.type)
        if self.no_signed_wrap and self.opcode not in NO_SIGNED_WRAP_OPCODES:
            yield f"{self.opcode.value} has no nsw form (only add, sub and mul have)"


class FNeg(Instruction):
    keywords = ("fneg",)
    operand_names = ("value",)
    is_pure = True
    is_lanewise = True
    uniformity = OPERANDS

    def __init__(self, value: Value, name: str = "") -> None:
        super().__init__(value.type, [value], name)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> FNeg:
        return cls(r.operand(), name)

    def verify(self) -> Iterator[str]:
        yield from result_is(self, self.value.type, "the operand is")
        yield from _kind_rule("fneg", True, self.value.type)


class Predicate(enum.Enum):
    EQ = "eq"
    NE = "ne"
    SLT = "slt"
    SLE = "sle"
    SGT = "sgt"
    SGE = "sge"
    ULT = "ult"
    ULE = "ule"
    UGT = "ugt"
    UGE = "uge"
    # floating point: ordered (false if either is NaN) and the unordered not-equal C uses for !=
    OEQ = "oeq"
    ONE = "one"
    OLT = "olt"
    OLE = "ole"
    OGT = "ogt"
    OGE = "oge"
    UNE = "une"
    ORD = "ord"
    UNO = "uno"

    @property
    def is_float(self) -> bool:
        return self.value[0] in "ou" and self not in _UNSIGNED_INT_PREDICATES


_UNSIGNED_INT_PREDICATES = {Predicate.ULT, Predicate.ULE, Predicate.UGT, Predicate.UGE}


def _truth_type(t: ty.Type) -> ty.Type:
    """i1, or a vector of i1 as wide as a vector `t`."""
    return ty.VectorType(ty.i1, t.count) if isinstance(t, ty.VectorType) else ty.i1


class Compare(Instruction):
    """Integer or floating-point comparison giving i1 (or a vector of i1). Integer predicates also
    compare pointers."""

    keywords = ("cmp",)
    fields = ("predicate",)
    operand_names = ("lhs", "rhs")
    is_pure = True
    is_lanewise = True
    uniformity = OPERANDS

    def __init__(self, predicate: Predicate, lhs: Value, rhs: Value, name: str = "") -> None:
        super().__init__(_truth_type(lhs.type), [lhs, rhs], name)
        self.predicate = predicate

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.predicate.value} {p.operand(self.lhs)}, {p.operand(self.rhs)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Compare:
        predicate = Predicate(r.next())
        lhs = r.operand()
        r.expect(",")
        return cls(predicate, lhs, r.operand(), name)

    def verify(self) -> Iterator[str]:
        yield from same_type(self.lhs, self.rhs)
        t = self.lhs.type
        yield from result_is(self, _truth_type(t), "comparing operands of that shape gives")
        if self.predicate.is_float and not ty.is_float(t):
            yield f"cmp {self.predicate.value} needs floating-point operands, not {t}"
        elif not self.predicate.is_float and not (ty.is_int(t) or isinstance(t, ty.PointerType)):
            yield f"cmp {self.predicate.value} needs integer or pointer operands, not {t}"


class CastOpcode(enum.Enum):
    TRUNC = "trunc"
    ZEXT = "zext"
    SEXT = "sext"
    FPTRUNC = "fptrunc"
    FPEXT = "fpext"
    FPTOSI = "fptosi"
    FPTOUI = "fptoui"
    SITOFP = "sitofp"
    UITOFP = "uitofp"
    BITCAST = "bitcast"
    PTRTOINT = "ptrtoint"
    INTTOPTR = "inttoptr"
    ADDRSPACECAST = "addrspacecast"


_INT, _FLOAT, _POINTER = "an integer", "a floating-point", "a pointer"
_NARROWS, _WIDENS = "narrow", "widen"

# opcode: (source kind, destination kind, what the width must do); bitcast has its own rule
_CAST_RULES = {
    CastOpcode.TRUNC: (_INT, _INT, _NARROWS), CastOpcode.ZEXT: (_INT, _INT, _WIDENS),
    CastOpcode.SEXT: (_INT, _INT, _WIDENS), CastOpcode.FPTRUNC: (_FLOAT, _FLOAT, _NARROWS),
    CastOpcode.FPEXT: (_FLOAT, _FLOAT, _WIDENS), CastOpcode.FPTOSI: (_FLOAT, _INT, None),
    CastOpcode.FPTOUI: (_FLOAT, _INT, None), CastOpcode.SITOFP: (_INT, _FLOAT, None),
    CastOpcode.UITOFP: (_INT, _FLOAT, None), CastOpcode.PTRTOINT: (_POINTER, _INT, None),
    CastOpcode.INTTOPTR: (_INT, _POINTER, None), CastOpcode.ADDRSPACECAST: (_POINTER, _POINTER, None),
}
_KIND_TYPES = {_INT: ty.IntType, _FLOAT: ty.FloatType, _POINTER: ty.PointerType}


def _bits(t: ty.Type) -> int | None:
    """The width of a bitcast's operand: lanes times element bits; None for pointers and aggregates."""
    if isinstance(t, ty.VectorType):
        element = _bits(t.element)
        return None if element is None else element * t.count
    return t.bits if isinstance(t, (ty.IntType, ty.FloatType)) else None


_POINTER_CASTS = frozenset({CastOpcode.BITCAST, CastOpcode.ADDRSPACECAST})
_STRIDE_KEEPING_CASTS = frozenset({CastOpcode.TRUNC, CastOpcode.ZEXT, CastOpcode.SEXT})


def _cast_shape(i: Cast, lanes: ShapeOf) -> Shape:
    """Integer resizes keep a stride; other conversions of a consecutive value vary."""
    s = lanes.shape(i.value)
    return s if s.kind is not Kind.CONSECUTIVE or i.opcode in _STRIDE_KEEPING_CASTS else VARYING


class Cast(Instruction):
    """A conversion. `no_wrap` on a TRUNC promises the value fits the narrower type (LLVM's
    `trunc nuw nsw`): work-item ids narrowed to int stay affine, so their accesses vectorize.
    Lane-wise only between vectors of one lane count (a bitcast may change it)."""

    keywords = tuple(op.value for op in CastOpcode)
    fields = ("opcode", "no_wrap")
    operand_names = ("value",)
    is_pure = True
    uniformity = UniformityRule("keeps integer strides", _cast_shape)

    def __init__(self, opcode: CastOpcode, value: Value, to: ty.Type, name: str = "", no_wrap: bool = False) -> None:
        super().__init__(to, [value], name)
        self.opcode = opcode
        self.no_wrap = no_wrap

    @property
    def is_lanewise(self) -> bool:
        """Lane k of the result comes from lane k of the operand only when both have the same number
        of lanes: `as_uchar3(int)` or `as_uint3(float4)` reinterpret bits across lanes."""
        source, to = self.value.type, self.type
        return getattr(source, "count", None) == getattr(to, "count", None)

    @property
    def address_origin(self) -> Value | None:
        same_object = self.opcode in _POINTER_CASTS and isinstance(self.value.type, ty.PointerType)
        return self.value if same_object else None

    @property
    def keyword(self) -> str:
        return self.opcode.value

    def print_operands(self, p: TextWriter) -> str:
        flags = "nuw nsw " if self.no_wrap else ""
        return f"{flags}{p.operand(self.value)} to {self.type}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Cast:
        no_wrap = r.accept("nuw")
        if no_wrap:
            r.expect("nsw")
        value = r.operand()
        r.expect("to")
        return cls(CastOpcode(keyword), value, r.type(), name, no_wrap)

    def verify(self) -> Iterator[str]:
        source, to = self.value.type, self.type
        if self.no_wrap and self.opcode is not CastOpcode.TRUNC:
            yield f"{self.opcode.value} has no nuw nsw form (only trunc has)"
        if self.opcode is CastOpcode.BITCAST:
            yield from self.verify_bitcast(source, to)
            return
        if isinstance(source, ty.VectorType) or isinstance(to, ty.VectorType):
            if not (isinstance(source, ty.VectorType) and isinstance(to, ty.VectorType)
                    and source.count == to.count):
                yield f"{self.opcode.value} from {source} to {to} changes the number of lanes"
                return
            source, to = source.element, to.element
        yield from self.verify_kinds(source, to)

    def verify_kinds(self, source: ty.Type, to: ty.Type) -> Iterator[str]:
        want_source, want_to, width = _CAST_RULES[self.opcode]
        op = self.opcode.value
        if not isinstance(source, _KIND_TYPES[want_source]):
            yield f"{op} needs {want_source} source, not {self.value.type}"
        elif not isinstance(to, _KIND_TYPES[want_to]):
            yield f"{op} needs {want_to} result, not {self.type}"
        elif width == _NARROWS and not to.bits < source.bits:
            yield f"{op} from {self.value.type} to {self.type} does not narrow"
        elif width == _WIDENS and not to.bits > source.bits:
            yield f"{op} from {self.value.type} to {self.type} does not widen"

    @staticmethod
    def verify_bitcast(source: ty.Type, to: ty.Type) -> Iterator[str]:
        if isinstance(source, ty.PointerType) and isinstance(to, ty.PointerType):
            return
        have, want = _bits(source), _bits(to)
        if have is None or want is None:
            yield f"bitcast from {source} to {to}: only scalars and vectors (or pointer to pointer)"
        elif have != want:
            yield f"bitcast from {source} ({have} bits) to {to} ({want} bits) changes the size"


class Select(Instruction):
    """`condition ? if_true : if_false`; a vector of i1 picks lane by lane from vector arms."""

    keywords = ("select",)
    operand_names = ("condition", "if_true", "if_false")
    is_pure = True
    is_lanewise = True
    uniformity = OPERANDS

    def __init__(self, condition: Value, if_true: Value, if_false: Value, name: str = "") -> None:
        super().__init__(if_true.type, [condition, if_true, if_false], name)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Select:
        return cls(*read_operands(r, 3), name=name)

    def verify(self) -> Iterator[str]:
        arms = self.if_true.type
        if arms is not self.if_false.type:
            yield f"select arms differ: {arms} and {self.if_false.type}"
        yield from result_is(self, arms, "the arms are")
        condition = self.condition.type
        if condition is not ty.i1 and condition is not _truth_type(arms):
            yield f"select condition is {condition}, not i1" + (
                f" or {_truth_type(arms)}" if isinstance(arms, ty.VectorType) else "")
