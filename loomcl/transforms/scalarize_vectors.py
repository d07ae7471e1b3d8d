"""scalarize-vectors: OpenCL vector values become one scalar value per lane.

Why: the work-item loops are vectorized by LLVM's loop vectorizer, which refuses a loop that
computes with vector types. A float4 kernel left in vector form runs one work-item at a time, 4
lanes wide; scalarized, the loop vectorizer packs 16 work-items' x lanes in one AVX-512 register,
their y lanes in another, and so on (Karrenberg & Hack's and pocl's reason for working on scalars).
Scalarizing before work-group formation also lets uniformity analysis and context arrays see each
lane on its own.

How: in reverse post-order, every instruction that computes a vector (arithmetic, compare, cast,
select, math call, insertelement, shufflevector, phi) is replaced by its scalar form per lane, and
`extractelement` with a constant index by the lane itself. A vector load becomes one load per
lane through `elementptr` to the lane, a vector store one store per lane: memory keeps its layout.
Values that must stay vectors (a bitcast between lane counts for `as_T`, a vector argument) are
taken apart with `extractelement` where they are defined, and rebuilt with `insertelement` only
for a user that needs the whole vector.

Not when a function carries many vector lanes around its loops (`keeps_vectors`, counted over the
lanes of its vector phis against the target's SIMD registers): code written as explicit SIMD for a
CPU, like twelve float8 accumulators in a loop, would need one vector register per lane after
scalarization and spill (the benchmark's fma probe fell from 79 to 43 GFLOP/s); kept as vectors it
runs one work-item at a time at the width its author chose. That is only fast when the kept vectors
are many independent chains: clpeak's float16 kernel carries two (x and y, each computed from the
other), so kept whole every operation waits for the one before (a quarter of float8's rate);
scalarized, its 32 lanes fill the registers with a vector of work-items each, and a spill or two
costs less than the wait.

Expects: SSA (after mem2reg). Guarantees: same behaviour; no vector-typed instruction except those
kept whole (bitcasts changing the lane count and the inserts rebuilding their operand).
"""
from __future__ import annotations

from ..ir.dominators import reverse_post_order
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function
from ..ir.values import Argument, Constant, Undef, Value, VectorConstant
from .passes import PassContext
from .wfv_shapes import most_live_vectors

NAME = "scalarize-vectors"
# Vector phis that keep an out-of-order core's FMA pipes busy when a loop runs one work-item at a
# time: two pipes times four cycles of latency.
INDEPENDENT_CHAINS = 8


def keeps_vectors(phis: list[ins.Phi], registers: int) -> bool:
    """Whether the function stays in vector form: its carried lanes would not fit in the target's
    `registers` once scalarized (a quarter left for the values computed from them), unless the kept
    vectors are too few chains to hide latency and the lanes fit with an eighth of them spilled."""
    lanes = sum(p.type.count for p in phis)
    if lanes <= registers - registers // 4:
        return False
    with_the_id = lanes + 1  # WFV keeps the work-item id live beside them
    return with_the_id > most_live_vectors(registers) or len(phis) >= INDEPENDENT_CHAINS


def _is_vector(t: ty.Type) -> bool:
    return isinstance(t, ty.VectorType)


def _index(i: int) -> Constant:
    return Constant(ty.i32, i)


class _Scalarizer:
    def __init__(self, function: Function, registers: int) -> None:
        self.function = function
        self.registers = registers
        self.lanes: dict[Value, list[Value]] = {}
        self.replaced: list[ins.Instruction] = []

    # -- lanes of any value ----------------------------------------------------------------------

    def lanes_of(self, v: Value) -> list[Value]:
        found = self.lanes.get(v)
        if found is not None:
            return found
        t = v.type
        if isinstance(v, VectorConstant):
            found = list(v.lanes)
        elif isinstance(v, Undef):
            found = [Undef(t.element) for _ in range(t.count)]
        else:
            found = self._extract_where_defined(v)
        self.lanes[v] = found
        return found

    def _extract_where_defined(self, v: Value) -> list[Value]:
        if isinstance(v, Argument):
            block, index = self.function.entry, 0
        else:
            block = v.block
            index = block.first_non_phi_index if isinstance(v, ins.Phi) else block.instructions.index(v) + 1
        extracts = [ins.ExtractElement(v, _index(i)) for i in range(v.type.count)]
        for offset, e in enumerate(extracts):
            block.insert(index + offset, e)
        return extracts

    # -- rewriting -------------------------------------------------------------------------------

    def run(self) -> bool:
        order = reverse_post_order(self.function.entry, lambda b: b.successors)
        phis = [p for b in order for p in b.phis if _is_vector(p.type)]
        if keeps_vectors(phis, self.registers):
            return False
        for phi in phis:
            self._split_phi(phi)
        for block in order:
            for inst in list(block.instructions):
                if not isinstance(inst, ins.Phi):
                    self._visit(inst)
        for phi in phis:
            for value, block in phi.incoming:
                for lane_phi, lane in zip(self.lanes[phi], self.lanes_of(value)):
                    lane_phi.add_incoming(lane, block)
        self._retire()
        return bool(phis or self.replaced)

    def _split_phi(self, phi: ins.Phi) -> None:
        block = phi.block
        lane_phis = [ins.Phi(phi.type.element, f"{phi.name}.{i}" if phi.name else "") for i in range(phi.type.count)]
        for offset, p in enumerate(lane_phis):
            block.insert(block.instructions.index(phi) + 1 + offset, p)
        self.lanes[phi] = lane_phis
        self.replaced.append(phi)

    def _visit(self, inst: ins.Instruction) -> None:
        if isinstance(inst, ins.Store) and _is_vector(inst.value.type):
            return self._store(inst)
        if isinstance(inst, ins.ExtractElement) and isinstance(inst.index, Constant):
            inst.replace_all_uses_with(self.lanes_of(inst.vector)[inst.index.value])
            self.replaced.append(inst)
            return
        if not _is_vector(inst.type):
            return
        lanes = self._scalar_lanes(inst)
        if lanes is None:
            return  # kept whole; users take its lanes through extractelement
        self.lanes[inst] = lanes
        self.replaced.append(inst)

    def _before(self, inst: ins.Instruction, new: ins.Instruction) -> Value:
        inst.block.insert_before(inst, new)
        return new

    def _scalar_lanes(self, inst: ins.Instruction) -> list[Value] | None:
        n = inst.type.count
        put = lambda new: self._before(inst, new)  # noqa: E731
        if inst.is_lanewise:
            return self._lanewise(inst, put)
        if isinstance(inst, ins.InsertElement) and isinstance(inst.index, Constant):
            lanes = list(self.lanes_of(inst.vector))
            lanes[inst.index.value] = inst.value
            return lanes
        if isinstance(inst, ins.ShuffleVector):
            a, b = inst.operands
            pool = self.lanes_of(a) + self.lanes_of(b)
            return [pool[m] if m >= 0 else Undef(inst.type.element) for m in inst.mask]
        if isinstance(inst, ins.Load):
            element = inst.type.element
            lanes = []
            for i in range(n):
                pointer = put(ins.ElementPtr(element, inst.pointer, Constant(ty.i64, i)))
                load = put(ins.Load(element, pointer))
                load.volatile = inst.volatile
                lanes.append(load)
            return lanes
        return None

    def _lanewise(self, inst: ins.Instruction, put) -> list[Value] | None:
        """Lane k: the same operation on lane k of each vector operand (a scalar operand, such as a
        select's condition, serves every lane). A bitcast that changes the lane count stays whole."""
        n = inst.type.count
        if any(_is_vector(v.type) and v.type.count != n for v in inst.operands):
            return None
        lanes = [self.lanes_of(v) if _is_vector(v.type) else [v] * n for v in inst.operands]
        result = []
        for k in range(n):
            lane = inst.with_operands([operand[k] for operand in lanes], inst.type.element)
            lane.name = ""
            result.append(put(lane))
        return result

    def _store(self, inst: ins.Store) -> None:
        element = inst.value.type.element
        for i, lane in enumerate(self.lanes_of(inst.value)):
            pointer = self._before(inst, ins.ElementPtr(element, inst.pointer, Constant(ty.i64, i)))
            store = self._before(inst, ins.Store(lane, pointer))
            store.volatile = inst.volatile
        inst.erase()

    def _retire(self) -> None:
        """Rebuild a whole vector for users that still need one, then drop the vector forms."""
        retired = set(self.replaced)
        for inst in self.replaced:
            needing = [u for u in inst.users if u not in retired]
            if needing and _is_vector(inst.type):
                vector = self._rebuild(inst)
                for user in needing:
                    user.replace_uses_of(inst, vector)
        for inst in reversed(self.replaced):
            inst.drop_operands()
        for inst in self.replaced:
            inst.detach()

    def _rebuild(self, inst: ins.Instruction) -> Value:
        block: Block = inst.block
        index = block.first_non_phi_index if isinstance(inst, ins.Phi) else block.instructions.index(inst) + 1
        vector: Value = Undef(inst.type)
        for i, lane in enumerate(self.lanes[inst]):
            vector = ins.InsertElement(vector, lane, _index(i))
            block.insert(index + i, vector)
        return vector


def run(function: Function, analyses: PassContext) -> bool:
    return _Scalarizer(function, analyses.vector_registers).run()
