"""The typed AST: what the parser builds, sema completes, and the lowering consumes.

One dataclass per node kind; operators are enums, never strings. Nodes compare by identity (eq=False),
so they can be dict keys (the lowerer maps `VarDecl`/`ParamDecl` -> storage).

Contract after `parse_program` (i.e. after sema), which the lowering may rely on without re-checking:

* Every `Expr` has `.type` (a types.Type) and `.lvalue` (True: the expression designates an object;
  lower it to an *address*. False: lower it to a *value*). Lvalue kinds: VarRef of a variable or
  parameter, Deref, Index. Array-typed lvalues are only ever operands of ARRAY_TO_POINTER casts,
  AddressOf or sizeof (already folded).
* Every read of an object is explicit: `Cast(kind=LOAD)` around an lvalue produces its value (C's
  lvalue-to-rvalue conversion). Every other implicit conversion is a `Cast(implicit=True)` with a
  `CastKind` saying what to do (integral resize/sign change, int<->float, float resize, to-bool,
  array decay, pointer conversions). The lowerer needs no C conversion rules.
* `Binary` arithmetic/bitwise operands have the same type as the result (usual arithmetic
  conversions done). Comparisons: both operands have one common type (arithmetic or pointer), the
  result is int. Shifts: left operand promoted, right operand converted to the left's type, result
  is the left's type; OpenCL C 6.3(j) says the shift count is taken modulo the bit width, so the
  lowerer must mask it. `LOGICAL_AND`/`LOGICAL_OR` operands are bool (TO_BOOL casts done), result
  int, evaluate the right operand only when needed. Division/modulo of integers follow the operand
  signedness (C truncation).
* Pointer arithmetic has its own nodes: `PointerArith` (pointer +/- integer offset in elements, the
  offset converted to long) and `PointerDiff` (element count between two pointers, long).
  `Index(base, index)`: base is a pointer rvalue (arrays were decayed), index is long; the node is
  an lvalue of the element type.
* `Assign.value` is already converted to the target's unqualified type. `CompoundAssign` is
  `target = from_computation(to_computation(target) op value)`: `value` already has
  `computation_type`; the two CastKinds convert the loaded target into and the result out of it.
  For a pointer target (`p += n`) op is ADD/SUB, value is long and both casts are NOOP.
* `IncDec`: operand is a modifiable lvalue of arithmetic or pointer type; the step is 1 (one element
  for pointers); the node's value is the new value (prefix) or the old one (postfix).
* `Conditional`: cond is bool; both arms have the node's type (or both void).
* `Call.function` is the `FunctionDecl` called (its `.definition` has the body); args are converted
  to the parameter types. `BuiltinCall.builtin` names the builtin (builtins.Builtin) and
  `.overload` the chosen signature; args are converted to its parameter types; `.type` is its result.
* `PrintfCall`: printf with its format checked (sema_printf.py): `%s` literals written into the
  format, each argument converted to its conversion's storage type; `.type` is int.
* `VarRef.decl` is the VarDecl/ParamDecl referred to. Scalars of every kind are read through LOAD.
  A VarRef of a ParamDecl has the parameter's type placed in the private address space.
* Expressions whose value is discarded (`ExprStmt.expr`, `Comma.left`, `ForStmt.step`) may be
  lvalues; lowering them as addresses and dropping the result is correct.
* Integer constant expressions were folded where C needs a constant: array lengths (`ArrayType.length`
  is an int), case labels (`CaseStmt.value`), `reqd_work_group_size`, sizeof (an `IntLiteral` of
  type ulong). Program-scope initializers are folded to literals (`IntLiteral`/`FloatLiteral`, nested
  `InitList` for arrays).
* Statements: `BreakStmt.target`/`ContinueStmt.target` is the loop or switch they leave;
  `SwitchStmt.cases` lists its `CaseStmt`s in source order and `.default` its DefaultStmt (cases are
  labels on a statement inside the body, C-style, so fall-through is the body's own order);
  `ReturnStmt.value` is converted to the function's result type.
* Variables: `VarDecl.address_space` is PRIVATE (function-scope private), LOCAL (a `__local` variable
  of a kernel: one instance per work-group, no initializer) or CONSTANT (program scope, initialized).
  `VarDecl.init` is an Expr converted to the variable's type, or an `InitList` for arrays (items in
  order, each converted to the element type or a nested InitList; missing trailing elements are zero).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Optional

from .source import Location
from .types import AddressSpace, Type


class UnaryOp(enum.Enum):
    PLUS = "+"
    MINUS = "-"
    LOGICAL_NOT = "!"
    BIT_NOT = "~"


class IncDecOp(enum.Enum):
    PRE_INC = "++x"
    PRE_DEC = "--x"
    POST_INC = "x++"
    POST_DEC = "x--"

    @property
    def is_prefix(self) -> bool:
        return self in (IncDecOp.PRE_INC, IncDecOp.PRE_DEC)

    @property
    def is_increment(self) -> bool:
        return self in (IncDecOp.PRE_INC, IncDecOp.POST_INC)


class BinaryOp(enum.Enum):
    MUL = "*"
    DIV = "/"
    MOD = "%"
    ADD = "+"
    SUB = "-"
    SHL = "<<"
    SHR = ">>"
    LT = "<"
    GT = ">"
    LE = "<="
    GE = ">="
    EQ = "=="
    NE = "!="
    BIT_AND = "&"
    BIT_XOR = "^"
    BIT_OR = "|"
    LOGICAL_AND = "&&"
    LOGICAL_OR = "||"

    @property
    def is_comparison(self) -> bool:
        return self in _COMPARISONS

    @property
    def is_logical(self) -> bool:
        return self in (BinaryOp.LOGICAL_AND, BinaryOp.LOGICAL_OR)

    @property
    def is_shift(self) -> bool:
        return self in (BinaryOp.SHL, BinaryOp.SHR)

    @property
    def is_bitwise(self) -> bool:
        return self in (BinaryOp.BIT_AND, BinaryOp.BIT_XOR, BinaryOp.BIT_OR)


_COMPARISONS = frozenset({BinaryOp.LT, BinaryOp.GT, BinaryOp.LE, BinaryOp.GE, BinaryOp.EQ,
                          BinaryOp.NE})


class CastKind(enum.Enum):
    LOAD = "load"                           # lvalue -> its current value
    ARRAY_TO_POINTER = "array-to-pointer"   # array lvalue -> pointer to its first element
    INTEGRAL = "integral"                   # integer -> integer (trunc, or sext/zext by source sign)
    INT_TO_FLOAT = "int-to-float"           # by source signedness
    FLOAT_TO_INT = "float-to-int"           # truncating toward zero, by target signedness
    FLOAT_TO_FLOAT = "float-to-float"       # fpext / fptrunc
    INT_TO_BOOL = "int-to-bool"             # x != 0
    FLOAT_TO_BOOL = "float-to-bool"         # x != 0.0
    POINTER_TO_BOOL = "pointer-to-bool"     # p != null
    POINTER_TO_POINTER = "pointer-to-pointer"  # bitcast / address-space cast
    NULL_TO_POINTER = "null-to-pointer"     # integer constant 0 -> null pointer
    NULL_TO_EVENT = "null-to-event"         # integer constant 0 -> event_t (no event)
    INT_TO_POINTER = "int-to-pointer"
    POINTER_TO_INT = "pointer-to-int"
    TO_VOID = "to-void"                     # evaluate and discard
    SCALAR_TO_VECTOR = "scalar-to-vector"   # an element-typed scalar copied into every lane
    NOOP = "noop"                           # only qualifiers change


# ---- expressions ------------------------------------------------------------------------------

@dataclass(eq=False)
class Expr:
    loc: Location
    type: Optional[Type] = field(default=None, kw_only=True)
    lvalue: bool = field(default=False, kw_only=True)


@dataclass(eq=False)
class IntLiteral(Expr):
    value: int


@dataclass(eq=False)
class FloatLiteral(Expr):
    value: float


@dataclass(eq=False)
class StringLiteral(Expr):
    value: bytes


@dataclass(eq=False)
class VarRef(Expr):
    """A use of a named variable, parameter or function (the callee of a Call)."""

    name: str
    decl: Optional["VarDecl | ParamDecl | FunctionDecl"] = None


@dataclass(eq=False)
class Unary(Expr):
    op: UnaryOp
    operand: Expr


@dataclass(eq=False)
class AddressOf(Expr):
    operand: Expr


@dataclass(eq=False)
class Deref(Expr):
    operand: Expr


@dataclass(eq=False)
class IncDec(Expr):
    op: IncDecOp
    operand: Expr


@dataclass(eq=False)
class Binary(Expr):
    op: BinaryOp
    left: Expr
    right: Expr


@dataclass(eq=False)
class PointerArith(Expr):
    """pointer + offset or pointer - offset (op is ADD or SUB), offset in elements."""

    op: BinaryOp
    pointer: Expr
    offset: Expr


@dataclass(eq=False)
class PointerDiff(Expr):
    """left - right for two pointers to the same type: the distance in elements (long)."""

    left: Expr
    right: Expr


@dataclass(eq=False)
class Assign(Expr):
    target: Expr
    value: Expr


@dataclass(eq=False)
class CompoundAssign(Expr):
    op: BinaryOp
    target: Expr
    value: Expr
    computation_type: Optional[Type] = None
    to_computation: CastKind = CastKind.NOOP
    from_computation: CastKind = CastKind.NOOP


@dataclass(eq=False)
class Conditional(Expr):
    cond: Expr
    then: Expr
    else_: Expr


@dataclass(eq=False)
class Comma(Expr):
    left: Expr
    right: Expr


@dataclass(eq=False)
class Cast(Expr):
    """A conversion of operand to .type; implicit ones are inserted by sema."""

    kind: Optional[CastKind]
    operand: Expr
    implicit: bool = False


@dataclass(eq=False)
class Call(Expr):
    """A call of a user function. The parser leaves `function` None; sema resolves it."""

    callee: Expr
    args: list[Expr]
    function: Optional["FunctionDecl"] = None


@dataclass(eq=False)
class BuiltinCall(Expr):
    """A call of an OpenCL builtin, resolved to one overload."""

    builtin: object          # builtins.Builtin
    overload: object         # builtins.Overload
    args: list[Expr]


@dataclass(eq=False)
class PrintfCall(Expr):
    """printf (OpenCL C 6.12.13) checked by sema: `format` with every `%s` of a literal string
    already written in, `args` converted to their conversions' storage types (printf/format_spec.py),
    `unused` the extra arguments, evaluated for their effects only."""

    format: bytes
    args: list[Expr]
    unused: list[Expr] = field(default_factory=list)


@dataclass(eq=False)
class Index(Expr):
    base: Expr
    index: Expr


@dataclass(eq=False)
class Member(Expr):
    """`base.name` or `base->name` as parsed; sema turns a vector's into a Swizzle, and sets
    `field` for a struct or union (a member of an anonymous member becomes two Members)."""

    base: Expr
    name: str
    arrow: bool = False
    field: Optional[object] = None     # types.Field


@dataclass(eq=False)
class Swizzle(Expr):
    """Lanes of a vector (`v.xz`, `v.s31`, `v.hi`): one lane gives its element, several a vector.
    An lvalue when the base is one and no lane repeats."""

    base: Expr
    lanes: tuple[int, ...]


@dataclass(eq=False)
class VectorIndex(Expr):
    """One lane of a vector picked by an integer, constant or not (`v[i]`, clang's extension of
    OpenCL C); an lvalue when the base is one. `index` is a long."""

    base: Expr
    index: Expr


@dataclass(eq=False)
class VectorLiteral(Expr):
    """`(float4)(a, v.xy, 1.0f)`: scalars and vectors whose lanes fill the vector in order, or one
    scalar copied into every lane."""

    items: list[Expr]


@dataclass(eq=False)
class SizeOf(Expr):
    """sizeof expr / sizeof(type), or with `alignment` _Alignof / __alignof__, or with `vec_step`
    OpenCL C's vec_step (the lanes of a vector type, 4 for a 3-lane one; 1 for a scalar): only
    between parser and sema (sema folds it to IntLiteral)."""

    operand: Optional[Expr] = None
    type_operand: Optional[Type] = None
    alignment: bool = False
    vec_step: bool = False


@dataclass(eq=False)
class Designation(Expr):
    """`.name = value` in a struct or union initializer list (sema places it, then drops it)."""

    name: str
    value: Expr


@dataclass(eq=False)
class CompoundLiteral(Expr):
    """`(int2){x, y}` (C 6.5.2.5): .type is the type named, init its brace list; only between parser
    and sema (sema makes a vector's a VectorLiteral, a scalar's its converted value)."""

    init: "InitList"


@dataclass(eq=False)
class InitList(Expr):
    """A brace initializer `{a, b, {c}}`; after sema .type is the initialized aggregate type."""

    items: list[Expr]


# ---- statements -------------------------------------------------------------------------------

@dataclass(eq=False)
class Stmt:
    loc: Location


@dataclass(eq=False)
class CompoundStmt(Stmt):
    items: list[Stmt]


@dataclass(eq=False)
class DeclStmt(Stmt):
    decls: list["VarDecl"]


@dataclass(eq=False)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(eq=False)
class NullStmt(Stmt):
    pass


@dataclass(eq=False)
class IfStmt(Stmt):
    cond: Expr
    then: Stmt
    else_: Optional[Stmt] = None


@dataclass(eq=False)
class WhileStmt(Stmt):
    cond: Expr
    body: Stmt


@dataclass(eq=False)
class DoWhileStmt(Stmt):
    body: Stmt
    cond: Expr


@dataclass(eq=False)
class ForStmt(Stmt):
    init: Optional[Stmt]      # DeclStmt or ExprStmt
    cond: Optional[Expr]      # None: loop forever
    step: Optional[Expr]
    body: Stmt


@dataclass(eq=False)
class SwitchStmt(Stmt):
    cond: Expr                # promoted integer
    body: Stmt
    cases: list["CaseStmt"] = field(default_factory=list)
    default: Optional["DefaultStmt"] = None


@dataclass(eq=False)
class CaseStmt(Stmt):
    """`case expr: body`; value is expr folded and converted to the switch's type."""

    expr: Expr
    body: Stmt
    value: Optional[int] = None


@dataclass(eq=False)
class DefaultStmt(Stmt):
    body: Stmt


@dataclass(eq=False)
class BreakStmt(Stmt):
    target: Optional[Stmt] = None


@dataclass(eq=False)
class ContinueStmt(Stmt):
    target: Optional[Stmt] = None


@dataclass(eq=False)
class ReturnStmt(Stmt):
    value: Optional[Expr] = None


@dataclass(eq=False)
class LabelStmt(Stmt):
    """`name: body`, the target of gotos."""

    name: str
    body: Stmt


@dataclass(eq=False)
class GotoStmt(Stmt):
    name: str
    target: Optional[LabelStmt] = None    # sema


# ---- declarations -----------------------------------------------------------------------------

@dataclass(eq=False)
class EnumConstant:
    """One enumerator; `value` is its expression as written, then (sema) its value, of `type`
    (int, or the enum's wider underlying type for a value outside int's range)."""

    loc: Location
    name: str
    value: Optional[object] = None
    type: Optional[Type] = None


@dataclass(eq=False)
class RecordDecl:
    """A struct or union definition, where sema lays it out (and then drops the node)."""

    loc: Location
    record: object     # types.Record


@dataclass(eq=False)
class EnumDecl:
    """The constants an enum specifier declares; sema folds them into scope and drops the node."""

    loc: Location
    constants: list[EnumConstant]

@dataclass(eq=False)
class Attribute:
    """`__attribute__((name(args)))`; args are parsed expressions (or identifiers as VarRef), or a
    type (`type_arg`: vec_type_hint(float4)), which is only a hint that CL_KERNEL_ATTRIBUTES reports."""

    loc: Location
    name: str
    args: list[Expr]
    type_arg: Optional[Type] = None


@dataclass(eq=False)
class VarDecl:
    loc: Location
    name: str
    type: Type
    init: Optional[Expr] = None
    is_program_scope: bool = False
    sampler_bits: Optional[int] = None      # a `const sampler_t`: its folded initializer (no storage)
    storage: Optional[str] = None           # "static" or "extern" as written (program scope)

    @property
    def address_space(self) -> AddressSpace:
        return self.type.address_space or AddressSpace.PRIVATE


@dataclass(eq=False)
class ParamDecl:
    loc: Location
    name: str
    type: Type


@dataclass(eq=False)
class FunctionDecl:
    loc: Location
    name: str
    result_type: Type
    params: list[ParamDecl]
    body: Optional[CompoundStmt] = None
    is_kernel: bool = False
    is_inline: bool = False
    is_static: bool = False   # internal linkage: invisible to other units when programs are linked
    attributes: list[Attribute] = field(default_factory=list)
    reqd_work_group_size: Optional[tuple[int, int, int]] = None
    definition: Optional["FunctionDecl"] = None   # the declaration with the body (sema); None for
    #                                               a function another unit defines (compile mode)

    @property
    def type(self):
        """The function's type: a parameter's own qualifiers (`const u64x v`) are not part of it
        (C11 6.7.6.3p15), so a prototype and a definition may differ in them."""
        from .types import function_type
        return function_type(self.result_type, tuple(p.type.unqualified() for p in self.params))


@dataclass(eq=False)
class TranslationUnit:
    decls: list["FunctionDecl | VarDecl"]
    warnings: str = ""  # the rendered warnings of a successful build: the build log

    @property
    def functions(self) -> list[FunctionDecl]:
        """Function definitions (with bodies), in source order."""
        return [d for d in self.decls if isinstance(d, FunctionDecl) and d.body is not None]

    @property
    def kernels(self) -> list[FunctionDecl]:
        return [f for f in self.functions if f.is_kernel]

    @property
    def globals(self) -> list[VarDecl]:
        return [d for d in self.decls if isinstance(d, VarDecl)]

    def kernel(self, name: str) -> FunctionDecl:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(name)
