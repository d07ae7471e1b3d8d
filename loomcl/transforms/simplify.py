"""simplify: constant folding, dead-code elimination and CFG cleanup, to a fixed point.

Small on purpose: LLVM's O3 does the heavy lifting later. This pass exists so that what the
work-group passes analyse and emit is not cluttered: after specialization the local size is a
constant, so `local_size`-based conditions fold away, and sub-CFG formation leaves empty blocks,
jump chains and constant switches behind.

* Folding: integer binary operations, comparisons, casts and min/max of constants; `select` on a
  constant;
  a few identities (x+0, x*1, x*0, x&0, x|0, x-0, shifts by 0); a phi whose incoming values are all
  the same value (or itself).
* Dead code: instructions without side effects and without users (loads included; they cannot
  trap in valid OpenCL), and allocas used only by stores.
* CFG: a branch or switch on a constant becomes a jump; a branch with equal targets becomes a jump;
  unreachable blocks are deleted (their edges removed from phis); a block is merged into its single
  predecessor when that predecessor has it as single successor; an empty block that only jumps is
  bypassed when that keeps phis unambiguous.
Work-item loops (`function.work_item_loops`) are structure, not side state: their headers and
latches are never merged away or bypassed (a latch holds only the loop's own counting, see
`WorkItemLoop`), a loop whose header is deleted is dropped, and a loop that does nothing is removed.

Expects: a verified function. Guarantees: a verified function with the same behaviour.
"""
from __future__ import annotations

from ..ir.dominators import reverse_post_order
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function
from ..ir.values import Constant, Value
from .passes import PassContext

NAME = "simplify"
Op = ins.BinaryOpcode


def _signed(value: int, bits: int) -> int:
    return value - (1 << bits) if value >> (bits - 1) else value


def fold_binary(opcode: Op, a: Constant, b: Constant) -> Constant | None:
    bits = a.type.bits
    x, y = a.value, b.value
    sx, sy = _signed(x, bits), _signed(y, bits)
    if opcode in (Op.SDIV, Op.UDIV, Op.SREM, Op.UREM) and y == 0:
        return None
    if opcode in (Op.SHL, Op.LSHR, Op.ASHR) and y >= bits:
        return None
    result = {
        Op.ADD: lambda: x + y, Op.SUB: lambda: x - y, Op.MUL: lambda: x * y,
        Op.UDIV: lambda: x // y, Op.UREM: lambda: x % y,
        Op.SDIV: lambda: abs(sx) // abs(sy) * (1 if (sx < 0) == (sy < 0) else -1),
        Op.SREM: lambda: abs(sx) % abs(sy) * (1 if sx >= 0 else -1),
        Op.SHL: lambda: x << y, Op.LSHR: lambda: x >> y, Op.ASHR: lambda: sx >> y,
        Op.AND: lambda: x & y, Op.OR: lambda: x | y, Op.XOR: lambda: x ^ y,
    }.get(opcode)
    return None if result is None else Constant(a.type, result())


def fold_compare(predicate: ins.Predicate, a: Constant, b: Constant) -> Constant | None:
    bits = a.type.bits
    x, y = a.value, b.value
    sx, sy = _signed(x, bits), _signed(y, bits)
    P = ins.Predicate
    table = {P.EQ: x == y, P.NE: x != y, P.ULT: x < y, P.ULE: x <= y, P.UGT: x > y, P.UGE: x >= y,
             P.SLT: sx < sy, P.SLE: sx <= sy, P.SGT: sx > sy, P.SGE: sx >= sy}
    return Constant(ty.i1, int(table[predicate])) if predicate in table else None


def fold_cast(opcode: ins.CastOpcode, a: Constant, to: ty.Type) -> Constant | None:
    if not isinstance(to, ty.IntType):
        return None
    if opcode in (ins.CastOpcode.TRUNC, ins.CastOpcode.ZEXT):
        return Constant(to, a.value)
    if opcode is ins.CastOpcode.SEXT:
        return Constant(to, _signed(a.value, a.type.bits))
    return None


def _is_int_constant(v: Value) -> bool:
    return isinstance(v, Constant) and isinstance(v.type, ty.IntType)


def _identity(i: ins.BinaryOp) -> Value | None:
    lhs, rhs = i.lhs, i.rhs
    if not _is_int_constant(rhs):
        if _is_int_constant(lhs) and i.opcode in (Op.ADD, Op.MUL, Op.AND, Op.OR, Op.XOR):
            lhs, rhs = rhs, lhs  # commutative: constant to the right
        else:
            return None
    c = rhs.value
    if c == 0 and i.opcode in (Op.ADD, Op.SUB, Op.OR, Op.XOR, Op.SHL, Op.LSHR, Op.ASHR):
        return lhs
    if c == 0 and i.opcode in (Op.MUL, Op.AND):
        return rhs
    if c == 1 and i.opcode in (Op.MUL, Op.SDIV, Op.UDIV):
        return lhs
    return None


_INT_MIN_MAX = {
    ins.MathFunction.SMIN: lambda ops, bits: min(ops, key=lambda c: _signed(c.value, bits)),
    ins.MathFunction.SMAX: lambda ops, bits: max(ops, key=lambda c: _signed(c.value, bits)),
    ins.MathFunction.UMIN: lambda ops, bits: min(ops, key=lambda c: c.value),
    ins.MathFunction.UMAX: lambda ops, bits: max(ops, key=lambda c: c.value),
}


def simplified_value(i: ins.Instruction) -> Value | None:
    """A value equal to `i`'s result, if folding finds one."""
    ops = i.operands
    if isinstance(i, ins.BinaryOp) and isinstance(i.type, ty.IntType):
        if all(map(_is_int_constant, ops)):
            return fold_binary(i.opcode, *ops)
        return _identity(i)
    if isinstance(i, ins.Compare) and isinstance(i.lhs.type, ty.IntType) and all(map(_is_int_constant, ops)):
        return fold_compare(i.predicate, *ops)
    if isinstance(i, ins.Cast) and _is_int_constant(i.value):
        return fold_cast(i.opcode, i.value, i.type)
    if isinstance(i, ins.MathCall) and i.math_function in _INT_MIN_MAX and all(map(_is_int_constant, ops)):
        return _INT_MIN_MAX[i.math_function](ops, i.type.bits)
    if isinstance(i, ins.Select):
        if isinstance(i.condition, Constant):
            return i.if_true if i.condition.value else i.if_false
        if i.if_true is i.if_false:
            return i.if_true
    if isinstance(i, ins.Phi):
        # All incoming values equal v (or the phi itself): v then dominates every predecessor,
        # hence the phi's block, unless v is defined in that very block (only possible in
        # unreachable code, which is left alone).
        distinct = {id(v): v for v in ops if v is not i}
        if len(distinct) == 1:
            value = next(iter(distinct.values()))
            if not isinstance(value, ins.Instruction) or value.block is not i.block:
                return value
    return None


def fold_constants(function: Function) -> bool:
    changed = False
    work = list(function.instructions())
    while work:
        inst = work.pop()
        if inst.block is None:
            continue
        value = simplified_value(inst)
        if value is not None and value is not inst:
            work += [u for u in inst.users]
            inst.replace_all_uses_with(value)
            inst.erase()
            changed = True
    return changed


def _is_dead(inst: ins.Instruction) -> bool:
    if inst.has_side_effects:  # terminators, barriers and fences included
        return False
    if getattr(inst, "volatile", False):  # a volatile load stays
        return False
    if isinstance(inst, ins.Alloca):
        return all(isinstance(u, ins.Store) and u.pointer is inst for u in inst.users)
    return not inst.users


def eliminate_dead_code(function: Function) -> bool:
    changed = False
    work = list(function.instructions())
    while work:
        inst = work.pop()
        if inst.block is None or not _is_dead(inst):
            continue
        for store in list(inst.users):  # a dead alloca's stores die with it
            store.erase()
        work += [op for op in inst.operands if isinstance(op, ins.Instruction)]
        inst.erase()
        changed = True
    return changed


# -- CFG ----------------------------------------------------------------------------------------------


def _replace_terminator(block: Block, new: ins.Terminator) -> None:
    old = block.terminator
    old.detach()
    old.drop_operands()
    block.append(new)


def _drop_edge(source: Block, target: Block) -> None:
    for phi in target.phis:
        while source in phi.incoming_blocks:
            phi.remove_incoming(source)


def fold_branches(function: Function) -> bool:
    changed = False
    for block in function.blocks:
        term = block.terminator
        target = None
        if isinstance(term, ins.Branch):
            if term.if_true is term.if_false:
                target = term.if_true
            elif isinstance(term.condition, Constant):
                target = term.if_true if term.condition.value else term.if_false
        elif isinstance(term, ins.Switch):
            if isinstance(term.value, Constant):
                target = term.target_for(term.value.value)
            elif all(b is term.default for _, b in term.cases):
                target = term.default
        if target is None:
            continue
        for succ in set(term.successors) - {target}:
            _drop_edge(block, succ)
        _dedupe_incoming(block, target)
        _replace_terminator(block, ins.Jump(target))
        changed = True
    return changed


def _dedupe_incoming(source: Block, target: Block) -> None:
    """After collapsing several edges source->target into one, keep one phi entry."""
    for phi in target.phis:
        while phi.incoming_blocks.count(source) > 1:
            phi.remove_incoming(source)


def remove_unreachable_blocks(function: Function) -> bool:
    reachable = set(reverse_post_order(function.entry, lambda b: b.successors))
    dead = [b for b in function.blocks if b not in reachable]
    if not dead:
        return False
    for block in dead:
        for succ in set(block.successors):
            if succ in reachable:
                _drop_edge(block, succ)
    dead_values = {i for b in dead for i in b.instructions}
    for block in dead:
        for inst in block.instructions:
            for user in list(inst.users):
                if user not in dead_values:
                    user.replace_uses_of(inst, _undef_like(inst))
    for block in dead:
        function.remove_block(block)
    return True


def _undef_like(inst: ins.Instruction) -> Value:
    from ..ir.values import Undef

    return Undef(inst.type)


def drop_broken_loops(function: Function) -> None:
    """Forget work-item loops that folding took apart (a deleted header or latch, a back edge
    folded away): what is left of them is ordinary code."""
    function.work_item_loops = [loop for loop in function.work_item_loops
                                if loop.header.function is function and loop.latch.function is function
                                and loop.header in loop.latch.successors]


def _loop_scaffolding(function: Function) -> set[Block]:
    return {b for loop in function.work_item_loops for b in (loop.header, loop.latch)}


def merge_blocks(function: Function) -> bool:
    changed = False
    preds = function.predecessors()
    scaffolding = _loop_scaffolding(function)
    for block in list(function.blocks):
        if block is function.entry or block.function is None or block in scaffolding:
            continue
        ps = preds[block]
        if len(ps) != 1 or ps[0] is block or ps[0].successors != [block]:
            continue
        pred = ps[0]
        for phi in block.phis:
            phi.replace_all_uses_with(phi.operands[0])
            phi.erase()
        pred.terminator.detach()
        for inst in list(block.instructions):
            inst.detach()
            pred.append(inst)
        for succ in pred.successors:
            for phi in succ.phis:
                phi.replace_incoming_block(block, pred)
            preds[succ] = [pred if p is block else p for p in preds[succ]]
        function.remove_block(block)
        changed = True
    return changed


def bypass_empty_blocks(function: Function) -> bool:
    """Redirect the predecessors of a block holding only `jump T` to T, where T's phis allow it."""
    changed = False
    scaffolding = _loop_scaffolding(function)
    headers = {loop.header for loop in function.work_item_loops}
    all_preds = function.predecessors()
    for block in list(function.blocks):
        if block is function.entry or len(block.instructions) != 1 or block in scaffolding:
            continue
        term = block.terminator
        if not isinstance(term, ins.Jump) or term.target is block:
            continue
        target = term.target
        if target in headers:
            continue  # the loop's preheader: a loop has one way in
        preds = all_preds[block]
        if not preds:
            continue  # unreachable: remove_unreachable_blocks deals with it
        if target.phis and any(p in preds for p in all_preds[target]):
            continue  # a predecessor reaching T both ways would need two phi entries
        if target.phis and any(len(set(p.successors)) != len(p.successors) for p in preds):
            continue
        for pred in preds:
            pred.terminator.replace_successor(block, target)
            for phi in target.phis:
                phi.add_incoming(phi.value_for(block), pred)
        for phi in target.phis:
            phi.remove_incoming(block)
        all_preds[target] = list(dict.fromkeys([p for p in all_preds[target] if p is not block] + preds))
        function.remove_block(block)
        changed = True
    return changed


def _has_user_loop(blocks: set[Block], function: Function) -> bool:
    """Whether `blocks` hold a cycle other than the work-item loops' own back edges: a loop the
    user wrote, which may never end (a spin loop waiting on memory). OpenCL C 1.2 is C99, which
    has no forward-progress rule, so such a loop must stay even when it has no side effects."""
    own = {(loop.latch, loop.header) for loop in function.work_item_loops}
    state: dict[Block, int] = {}  # 1: on the DFS stack, 2: done

    def visit(block: Block) -> bool:
        state[block] = 1
        for succ in block.successors:
            if succ not in blocks or (block, succ) in own:
                continue
            if state.get(succ) == 1 or (succ not in state and visit(succ)):
                return True
        state[block] = 2
        return False
    return any(block not in state and visit(block) for block in blocks)


def remove_empty_work_item_loops(function: Function) -> bool:
    """A work-item loop (or nest) without side effects whose values are not used after it does
    nothing: its preheader goes straight to its exit, and the loop becomes unreachable. A loop of
    the user's inside it keeps it (it may never end)."""
    for loop in function.work_item_loops:
        blocks = loop.blocks
        if any(i.has_side_effects and not i.is_terminator for b in blocks for i in b.instructions):
            continue
        if _has_user_loop(blocks, function):
            continue
        if any(u.block not in blocks for b in blocks for i in b.instructions for u in i.users):
            continue
        exit_block = loop.exit
        if exit_block.phis or any(s not in blocks and s is not exit_block for b in blocks for s in b.successors):
            continue
        preheader = loop.preheader
        preheader.terminator.replace_successor(loop.header, exit_block)
        loop.counter.remove_incoming(preheader)
        remove_unreachable_blocks(function)
        return True
    return False


def simplify(function: Function) -> bool:
    """Simplify to a fixed point; whether anything changed."""
    passes = (fold_constants, eliminate_dead_code, fold_branches, remove_unreachable_blocks,
              merge_blocks, bypass_empty_blocks, remove_empty_work_item_loops)
    changed, any_change = True, False
    while changed:
        changed = False
        for step in passes:
            changed |= step(function)
            drop_broken_loops(function)
        any_change |= changed
    return any_change


def run(function: Function, analyses: PassContext) -> bool:
    return simplify(function)
