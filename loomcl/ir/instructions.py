"""The instructions of the kernel IR: one class per kind, operands as typed properties.

Opcode families that share a shape (binary arithmetic, comparisons, casts, math functions, atomics) are
one class each with an enum member saying which; everything else is its own class. Barriers and
work-item queries are instructions, never calls recognized by name. Every instruction may carry a
source location (`loc`) for diagnostics and for `--emit` output.
"""
from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from . import types as ty
from .values import Value

if TYPE_CHECKING:
    from .function import Block, Function


class Instruction(Value):
    is_terminator = False
    has_side_effects = False

    def __init__(self, type: ty.Type, operands: list[Value], name: str = "") -> None:
        super().__init__(type, name)
        self.block: Block | None = None
        self.loc = None
        self._operands: list[Value] = []
        for operand in operands:
            self._add_operand(operand)

    # -- operands and use-lists -------------------------------------------------------------

    @property
    def operands(self) -> tuple[Value, ...]:
        return tuple(self._operands)

    def _add_operand(self, value: Value) -> None:
        self._operands.append(value)
        if value.tracks_users:
            value.users.append(self)

    def set_operand(self, index: int, value: Value) -> None:
        old = self._operands[index]
        if old.tracks_users:
            old.users.remove(self)
        self._operands[index] = value
        if value.tracks_users:
            value.users.append(self)

    def replace_uses_of(self, old: Value, new: Value) -> None:
        for i, operand in enumerate(self._operands):
            if operand is old:
                self.set_operand(i, new)

    def drop_operands(self) -> None:
        for operand in self._operands:
            if operand.tracks_users:
                operand.users.remove(self)
        self._operands = []

    # -- placement ---------------------------------------------------------------------------

    def erase(self) -> None:
        """Remove from its block and drop its operands; it must have no users left."""
        assert not self.users, f"erasing {type(self).__name__} that still has users"
        if self.block is not None:
            self.block.instructions.remove(self)
            self.block = None
        self.drop_operands()

    def detach(self) -> None:
        """Remove from its block, keeping operands (to re-insert elsewhere)."""
        if self.block is not None:
            self.block.instructions.remove(self)
            self.block = None

    @property
    def function(self) -> Function | None:
        return self.block.function if self.block is not None else None


# -- arithmetic ---------------------------------------------------------------------------------


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


class BinaryOp(Instruction):
    def __init__(self, opcode: BinaryOpcode, lhs: Value, rhs: Value, name: str = "") -> None:
        super().__init__(lhs.type, [lhs, rhs], name)
        self.opcode = opcode

    lhs = property(lambda self: self._operands[0])
    rhs = property(lambda self: self._operands[1])


class FNeg(Instruction):
    def __init__(self, value: Value, name: str = "") -> None:
        super().__init__(value.type, [value], name)

    value = property(lambda self: self._operands[0])


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


class Compare(Instruction):
    """Integer or floating-point comparison giving i1 (or a vector of i1)."""

    def __init__(self, predicate: Predicate, lhs: Value, rhs: Value, name: str = "") -> None:
        result = ty.VectorType(ty.i1, lhs.type.count) if isinstance(lhs.type, ty.VectorType) else ty.i1
        super().__init__(result, [lhs, rhs], name)
        self.predicate = predicate

    lhs = property(lambda self: self._operands[0])
    rhs = property(lambda self: self._operands[1])


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


class Cast(Instruction):
    """A conversion. `no_wrap` on a TRUNC promises the value fits the narrower type (LLVM's
    `trunc nuw nsw`): work-item ids narrowed to int stay affine, so their accesses vectorize."""

    def __init__(self, opcode: CastOpcode, value: Value, to: ty.Type, name: str = "", no_wrap: bool = False) -> None:
        super().__init__(to, [value], name)
        self.opcode = opcode
        self.no_wrap = no_wrap

    value = property(lambda self: self._operands[0])


class Select(Instruction):
    def __init__(self, condition: Value, if_true: Value, if_false: Value, name: str = "") -> None:
        super().__init__(if_true.type, [condition, if_true, if_false], name)

    condition = property(lambda self: self._operands[0])
    if_true = property(lambda self: self._operands[1])
    if_false = property(lambda self: self._operands[2])


class Phi(Instruction):
    """An SSA join. `incoming_blocks[i]` is the predecessor that supplies `operands[i]`."""

    def __init__(self, type: ty.Type, name: str = "") -> None:
        super().__init__(type, [], name)
        self.incoming_blocks: list[Block] = []

    def add_incoming(self, value: Value, block: Block) -> None:
        self._add_operand(value)
        self.incoming_blocks.append(block)

    @property
    def incoming(self) -> list[tuple[Value, Block]]:
        return list(zip(self._operands, self.incoming_blocks))

    def value_for(self, block: Block) -> Value:
        return self._operands[self.incoming_blocks.index(block)]

    def remove_incoming(self, block: Block) -> None:
        i = self.incoming_blocks.index(block)
        value = self._operands.pop(i)
        if value.tracks_users:
            value.users.remove(self)
        del self.incoming_blocks[i]

    def replace_incoming_block(self, old: Block, new: Block) -> None:
        self.incoming_blocks = [new if b is old else b for b in self.incoming_blocks]


# -- memory ---------------------------------------------------------------------------------------


class Alloca(Instruction):
    """Private storage for one `allocated_type`, alive for the whole function invocation."""

    has_side_effects = False

    def __init__(self, allocated_type: ty.Type, name: str = "") -> None:
        super().__init__(ty.pointer(ty.AddressSpace.PRIVATE), [], name)
        self.allocated_type = allocated_type


class Load(Instruction):
    def __init__(self, type: ty.Type, pointer: Value, name: str = "") -> None:
        super().__init__(type, [pointer], name)
        self.volatile = False

    pointer = property(lambda self: self._operands[0])


class Store(Instruction):
    has_side_effects = True

    def __init__(self, value: Value, pointer: Value) -> None:
        super().__init__(ty.void, [value, pointer])
        self.volatile = False

    value = property(lambda self: self._operands[0])
    pointer = property(lambda self: self._operands[1])


class ElementPtr(Instruction):
    """`base + index * sizeof(element_type)`, staying in the base pointer's address space.
    With `field` set, the address of member `field` of the struct at that element instead."""

    def __init__(self, element_type: ty.Type, base: Value, index: Value, name: str = "") -> None:
        super().__init__(base.type, [base, index], name)
        self.element_type = element_type

    base = property(lambda self: self._operands[0])
    index = property(lambda self: self._operands[1])


class FieldPtr(Instruction):
    """Address of member `field` of the struct at `base`."""

    def __init__(self, struct_type: ty.StructType, base: Value, field: int, name: str = "") -> None:
        super().__init__(base.type, [base], name)
        self.struct_type = struct_type
        self.field = field

    base = property(lambda self: self._operands[0])


class AtomicOpcode(enum.Enum):
    ADD = "add"
    SUB = "sub"
    XCHG = "xchg"
    SMIN = "smin"
    SMAX = "smax"
    UMIN = "umin"
    UMAX = "umax"
    AND = "and"
    OR = "or"
    XOR = "xor"


class AtomicRMW(Instruction):
    """Atomically `*pointer = *pointer <op> value`, giving the old value (sequentially consistent)."""

    has_side_effects = True

    def __init__(self, opcode: AtomicOpcode, pointer: Value, value: Value, name: str = "") -> None:
        super().__init__(value.type, [pointer, value], name)
        self.opcode = opcode

    pointer = property(lambda self: self._operands[0])
    value = property(lambda self: self._operands[1])


class AtomicCmpXchg(Instruction):
    """Atomically replace `*pointer` by `new` if it equals `expected`; gives the old value."""

    has_side_effects = True

    def __init__(self, pointer: Value, expected: Value, new: Value, name: str = "") -> None:
        super().__init__(expected.type, [pointer, expected, new], name)

    pointer = property(lambda self: self._operands[0])
    expected = property(lambda self: self._operands[1])
    new = property(lambda self: self._operands[2])


# -- calls and builtins -----------------------------------------------------------------------------


class Call(Instruction):
    """A call of a function of the same module (all are inlined before work-group formation)."""

    has_side_effects = True

    def __init__(self, callee: Function, args: list[Value], name: str = "") -> None:
        super().__init__(callee.return_type, args, name)
        self.callee = callee

    args = property(lambda self: self.operands)


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
    SMIN = "smin"
    SMAX = "smax"
    UMIN = "umin"
    UMAX = "umax"
    ABS = "abs"  # integer absolute value


class MathCall(Instruction):
    """`math_function` names the builtin (not `function`: that is the enclosing Function)."""

    def __init__(self, function: MathFunction, args: list[Value], type: ty.Type, name: str = "") -> None:
        super().__init__(type, args, name)
        self.math_function = function

    args = property(lambda self: self.operands)


class Query(enum.Enum):
    LOCAL_ID = "local_id"
    GROUP_ID = "group_id"
    LOCAL_SIZE = "local_size"
    ENQUEUED_LOCAL_SIZE = "enqueued_local_size"
    NUM_GROUPS = "num_groups"
    GLOBAL_SIZE = "global_size"
    GLOBAL_OFFSET = "global_offset"
    WORK_DIM = "work_dim"


class WorkItemQuery(Instruction):
    """A work-item or NDRange property in dimension `dim` (0..2), as i64. `get_global_id` is
    lowered to group_id * enqueued_local_size + local_id + global_offset."""

    def __init__(self, query: Query, dim: int = 0, name: str = "") -> None:
        super().__init__(ty.i64, [], name)
        self.query = query
        self.dim = dim


class Barrier(Instruction):
    """A work-group barrier. `flags` holds CLK_LOCAL_MEM_FENCE (1) | CLK_GLOBAL_MEM_FENCE (2)."""

    has_side_effects = True

    def __init__(self, flags: int) -> None:
        super().__init__(ty.void, [])
        self.flags = flags


class Fence(Instruction):
    """A memory fence (mem_fence / read_mem_fence / write_mem_fence) of one work-item."""

    has_side_effects = True

    def __init__(self, flags: int) -> None:
        super().__init__(ty.void, [])
        self.flags = flags


# -- vectors (used by the vector-type issue and by vectorizing passes) -------------------------------


class ExtractElement(Instruction):
    def __init__(self, vector: Value, index: Value, name: str = "") -> None:
        super().__init__(vector.type.element, [vector, index], name)

    vector = property(lambda self: self._operands[0])
    index = property(lambda self: self._operands[1])


class InsertElement(Instruction):
    def __init__(self, vector: Value, value: Value, index: Value, name: str = "") -> None:
        super().__init__(vector.type, [vector, value, index], name)

    vector = property(lambda self: self._operands[0])
    value = property(lambda self: self._operands[1])
    index = property(lambda self: self._operands[2])


class ShuffleVector(Instruction):
    """Lanes picked from the concatenation of `a` and `b` by the constant `mask`."""

    def __init__(self, a: Value, b: Value, mask: list[int], name: str = "") -> None:
        super().__init__(ty.VectorType(a.type.element, len(mask)), [a, b], name)
        self.mask = tuple(mask)


# -- terminators ------------------------------------------------------------------------------------


class Terminator(Instruction):
    is_terminator = True
    has_side_effects = True

    @property
    def successors(self) -> list[Block]:
        return []

    def replace_successor(self, old: Block, new: Block) -> None:
        raise NotImplementedError


class Jump(Terminator):
    def __init__(self, target: Block) -> None:
        super().__init__(ty.void, [])
        self.target = target

    @property
    def successors(self) -> list[Block]:
        return [self.target]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.target is old:
            self.target = new


class Branch(Terminator):
    def __init__(self, condition: Value, if_true: Block, if_false: Block) -> None:
        super().__init__(ty.void, [condition])
        self.if_true = if_true
        self.if_false = if_false

    condition = property(lambda self: self._operands[0])

    @property
    def successors(self) -> list[Block]:
        return [self.if_true, self.if_false]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.if_true is old:
            self.if_true = new
        if self.if_false is old:
            self.if_false = new


class Switch(Terminator):
    def __init__(self, value: Value, default: Block, cases: list[tuple[int, Block]] | None = None) -> None:
        super().__init__(ty.void, [value])
        self.default = default
        self.cases: list[tuple[int, Block]] = list(cases or [])

    value = property(lambda self: self._operands[0])

    @property
    def successors(self) -> list[Block]:
        return [self.default] + [block for _, block in self.cases]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.default is old:
            self.default = new
        self.cases = [(v, new if b is old else b) for v, b in self.cases]


class Return(Terminator):
    def __init__(self, value: Value | None = None) -> None:
        super().__init__(ty.void, [] if value is None else [value])

    @property
    def value(self) -> Value | None:
        return self._operands[0] if self._operands else None


class Unreachable(Terminator):
    def __init__(self) -> None:
        super().__init__(ty.void, [])
