"""Whole-function vectorization, part 3: control flow of the x loop's body as masks (K&H 3.3-3.4).

The body is a tree of levels: the top level (the x loop's body) and one per natural loop inside it,
each an acyclic graph of blocks and child loops. A level is emitted in topological order, every node
under its entry mask; a node that post-dominates its immediate dominator in the level has that
node's mask (all its lanes arrive), any other the union of its incoming edge masks. Phis become
blends by edge masks. A block with memory accesses or much code whose mask is not known to have an
active lane is skipped when no lane is active (branch-on-superword-condition); its values are then
zero, which nothing active reads.

A child loop runs as a loop. If it leaves by one edge whose condition is uniform for the lanes inside,
it keeps scalar control flow and its values stay in registers as they are. Otherwise it runs until
no lane wants another iteration: `active` is the mask of lanes still iterating, each exit edge's mask
accumulates the lanes that left by it, and a value used after the loop is blended per lane at the
iteration its lane leaves (K&H's loop live values). Edges to the x loop's latch end a work-item
(`return`): its lanes just drop out.
"""
from __future__ import annotations

from ..analysis.loops import Loop, LoopInfo
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block
from ..ir.values import Constant
from .wfv_widen import TRUE, Mask, Op, Unsupported, Widened, Widener, zero_of

_GUARD_SIZE = 12  # instructions from which a block is worth skipping when no lane is active


class Linearizer:
    def __init__(self, widener: Widener, loops: LoopInfo, x_header: Block, x_latch: Block) -> None:
        self.w = widener
        self.loops = loops
        self.x_header = x_header
        self.x_latch = x_latch
        self.edge_masks: dict[tuple[object, Block], Mask] = {}
        self.edge_source: dict[Block, Loop] = {}  # blocks of emitted loops -> the outermost such loop
        self.top_tests: dict[Block, tuple[Loop, Block]] = {}  # while-loop headers -> (loop, exit block)
        self.exit_values: dict[tuple[ins.Phi, Loop], ins.Instruction] = {}  # a varying loop's value for a phi

    # -- levels -------------------------------------------------------------------------------------

    def child_of(self, loop: Loop | None, block: Block) -> Block | Loop:
        """The node of `loop`'s level (None: the top level) that holds `block`."""
        inner = self.loops.loop_of(block)
        node = block
        while inner is not None and inner is not loop and inner.header in self.w.body and inner.header is not self.x_header:
            node, inner = inner, inner.parent
        return node

    def level_blocks(self, loop: Loop | None) -> set[Block]:
        return loop.blocks if loop is not None else self.w.body

    def out_edges(self, node) -> list[tuple[object, Block]]:
        if isinstance(node, Block):
            return [(node, s) for s in node.successors]
        return [(node, s) for _, s in node.exits()]

    def level_graph(self, loop: Loop | None, entry: Block):
        """Nodes in topological order and their in-level successors (None: leaves the level)."""
        blocks = self.level_blocks(loop)
        succs: dict[object, list] = {}
        order, seen = [], set()

        def visit(node):
            seen.add(node)
            targets = []
            for _, s in self.out_edges(node):
                if s not in blocks or (loop is not None and s is loop.header) or s is self.x_latch:
                    targets.append(None)
                    continue
                target = self.child_of(loop, s)
                targets.append(target)
                if target not in seen:
                    visit(target)
            succs[node] = targets
            order.append(node)

        visit(self.child_of(loop, entry))
        order.reverse()
        return order, succs

    # -- emission -----------------------------------------------------------------------------------

    def emit_level(self, loop: Loop | None, entry: Block, mask: Mask) -> None:
        order, succs = self.level_graph(loop, entry)
        idom, postdominates = _dominance(order, succs)
        masks: dict[object, Mask] = {}
        for node in order:
            if node is order[0]:
                m = mask
            elif postdominates(node, idom[node]):
                m = masks[idom[node]]
            else:
                m = self.w.union([self.edge(p, b) for p in order if p in masks
                                  for (_, b) in self.out_edges(p) if b is _entry_of(node)])
            masks[node] = m
            if isinstance(node, Block):
                self.emit_block(node, m, is_level_mask=m is mask, skip_phis=node is order[0])
            else:
                self.emit_loop(node, m, is_level_mask=m is mask)

    def needs_guard(self, m: Mask, is_level_mask: bool, heavy: bool) -> bool:
        if m == TRUE or (is_level_mask and m.s is None):
            return False
        return heavy or m.v is None

    def guarded(self, m: Mask, defined: list[ins.Instruction], body, node) -> None:
        """Run `body()` (the emission of `node`) only when a lane of `m` is active; the values of
        `defined` and the masks of the node's out-edges are zero otherwise."""
        w = self.w
        cond = w.any(m)
        if cond is None:
            body()
            return
        skip_from, inside = w.block, w.new_block("active")
        w.block = inside
        w.scopes.append({})
        known = m.v is not None and m.v not in w.nonempty
        if known:
            w.nonempty.add(m.v)
        body()
        if known:
            w.nonempty.discard(m.v)
        w.scopes.pop()
        end, merge = w.block, w.new_block("join")
        skip_from.append(ins.Branch(cond, inside, merge))
        end.append(ins.Jump(merge))
        w.block = merge
        region = set(w.new_blocks[w.new_blocks.index(inside):-1])

        def merged(value):
            if not ins.defined_in(value, region):
                return value
            phi = ins.Phi(value.type)
            merge.insert(len(merge.phis), phi)
            phi.add_incoming(value, end)
            phi.add_incoming(zero_of(value.type), skip_from)
            return phi

        for value in defined:
            for table in (w.scalar, w.vector):
                if value in table:
                    table[value] = merged(table[value])
            if value in w.pointer:
                base, offsets = w.pointer[value]
                w.pointer[value] = (merged(base), merged(offsets))
        for key in self.out_edges(node):  # edges inside the node are not used after it
            if key in self.edge_masks:
                em = self.edge_masks[key]
                self.edge_masks[key] = Mask(merged(em.s), merged(em.v))
        for key, value in list(self.exit_values.items()):
            if key[1] is node:
                self.exit_values[key] = merged(value)

    def emit_block(self, block: Block, m: Mask, is_level_mask: bool, skip_phis: bool) -> None:
        body = block.instructions[block.first_non_phi_index:-1]
        heavy = len(body) >= _GUARD_SIZE or any(i.address is not None for i in body)
        defined = [i for i in block.instructions if any(u.block is not block for u in i.users)]

        def run():
            if not skip_phis:
                for phi in block.phis:
                    self.w.blend(phi, self.incoming(phi))
            for inst in body:
                self.w.widen(inst, m)
            self.branch_masks(block, m)
            if block in self.top_tests:
                self.test_on_top(block, m)

        if self.needs_guard(m, is_level_mask, heavy):
            self.guarded(m, defined, run, block)
        else:
            run()

    def test_on_top(self, header: Block, m: Mask) -> None:
        """The uniform exit test of a while loop's header as a branch: the body runs with the header's
        lanes (all of them stay), and no lane-free trip through the body remains to be skipped."""
        loop, exit_block = self.top_tests.pop(header)
        w, term = self.w, header.terminator
        stay = term.if_true if term.if_true in loop.blocks else term.if_false
        s = w.sca(term.condition)
        if stay is term.if_false:
            s = w.negate(s)
        self.edge_masks[(header, stay)] = m
        body = w.new_block("loop.body")
        w.emit(ins.Branch(s, body, exit_block))
        w.block = body
        w.scopes.append({})

    def incoming(self, phi: ins.Phi) -> list[tuple[object, Mask]]:
        arms, seen = [], {}
        for value, pred in phi.incoming:
            node = self.node_key(pred)
            key = (node, phi.block)
            if key not in self.edge_masks:
                raise Unsupported("a phi edge from an unlinearized block")
            if (phi, node) in self.exit_values:
                if node not in seen:
                    seen[node] = value
                    arms.append((Widened(self.exit_values[(phi, node)]), self.edge_masks[key]))
                continue
            if node in seen and seen[node] is not value:
                raise Unsupported("a phi with different values from one loop's exits")
            if node not in seen:
                seen[node] = value
                arms.append((value, self.edge_masks[key]))
        return arms

    def node_key(self, pred: Block):
        """The node of the level where the edge `pred -> phi block` is seen."""
        return self.edge_source.get(pred, pred)

    def branch_masks(self, block: Block, m: Mask) -> None:
        w, term = self.w, block.terminator
        if isinstance(term, ins.Jump):
            self.edge_masks[(block, term.target)] = m
        elif isinstance(term, ins.Branch):
            if term.if_true is term.if_false:
                self.edge_masks[(block, term.if_true)] = m
                return
            c = term.condition
            if w.shape(c).is_uniform:
                s = w.sca(c)
                t, f = w.and_uniform(m, s), w.and_uniform(m, w.negate(s))
            else:
                v = w.vec(c)
                t, f = w.and_varying(m, v), w.and_varying(m, w.negate(v))
            self.edge_masks[(block, term.if_true)] = t
            self.edge_masks[(block, term.if_false)] = f
        elif isinstance(term, ins.Switch):
            self.switch_masks(block, term, m)
        else:
            raise Unsupported(f"a {term.keyword} in the body")

    def switch_masks(self, block: Block, term: ins.Switch, m: Mask) -> None:
        w = self.w
        uniform = w.shape(term.value).is_uniform
        value = w.sca(term.value) if uniform else w.vec(term.value)
        taken: dict[Block, list] = {}
        none = None
        for case, target in term.cases:
            const = Constant(term.value.type, case)
            rhs = const if uniform else w.splat(const)
            eq = w.emit(ins.Compare(ins.Predicate.EQ, value, rhs))
            taken.setdefault(target, []).append(eq)
            none = w.negate(eq) if none is None else w.logic(Op.AND, none, w.negate(eq))
        taken.setdefault(term.default, []).append(none)
        for target, conds in taken.items():
            c = conds[0]
            for other in conds[1:]:
                c = w.logic(Op.OR, c, other)
            mask = m if c is None else (w.and_uniform(m, c) if uniform else w.and_varying(m, c))
            self.edge_masks[(block, target)] = mask

    # -- loops --------------------------------------------------------------------------------------

    def is_uniform_loop(self, loop: Loop) -> bool:
        """Whether all lanes leave `loop` together, by the same exit: every exit is taken on a uniform
        condition outside the loop's divergent regions. Such a loop keeps scalar control flow, and its
        values stay as the uniformity analysis sees them (a helper's `for` with a `break`, called with
        uniform arguments, gives a uniform result: treated as varying, it left per-lane values where
        the analysis promised scalars)."""
        exits = loop.exits()
        regions = self.w.shapes.regions
        for source, _ in exits:
            term = source.terminator
            if term.selector is not None and not self.w.shape(term.selector).is_uniform:
                return False
            if any(source in region for branch, region in regions.items() if branch in loop.blocks):
                return False
        return bool(exits)

    def emit_loop(self, loop: Loop, m: Mask, is_level_mask: bool) -> None:
        position = {b: n for n, b in enumerate(self.w.function.blocks)}
        in_order = sorted(loop.blocks, key=lambda b: position.get(b, len(position)))  # the same IR every run
        defined = [i for b in in_order for i in b.instructions if any(u.block not in loop.blocks for u in i.users)]
        if self.needs_guard(m, is_level_mask, heavy=True):
            self.guarded(m, defined, lambda: self.run_loop(loop, m, defined), loop)
        else:
            self.run_loop(loop, m, defined)
        for b in loop.blocks:
            self.edge_source[b] = loop

    def run_loop(self, loop: Loop, m: Mask, live_out: list[ins.Instruction]) -> None:
        w = self.w
        uniform = self.is_uniform_loop(loop)
        entry_arms = self.incoming_arms(loop, from_inside=False)
        for phi in loop.header.phis:
            arms = entry_arms[phi]
            w.blend(phi, arms) if len(arms) > 1 else w.copy_value(phi, arms[0][0])
        entry_active = None if uniform else w.full(m)
        pre = w.block
        header = w.new_block("loop")
        w.emit(ins.Jump(header))
        w.block = header
        phis = [self.loop_phi(phi, header, pre) for phi in loop.header.phis]
        inner_mask = Mask(None, m.v)
        active = exits = values = None
        if not uniform:
            active = ins.Phi(w.vtype(ty.i1))
            header.insert(len(header.phis), active)
            active.add_incoming(entry_active, pre)
            inner_mask = Mask(None, active)
            exits = {}
            for source, target in loop.exits():
                if target is not self.x_latch and target not in exits:
                    exits[target] = self.accumulator(header, pre, w.vtype(ty.i1))
            if any(isinstance(v.type, ty.PointerType) for v in live_out):
                raise Unsupported("a pointer live after a varying loop")
            values = {v: self.accumulator(header, pre, w.vtype(v.type)) for v in live_out}
            exit_phis = {p: self.accumulator(header, pre, w.vtype(p.type)) for target in exits for p in target.phis
                         if any(b in loop.blocks for _, b in p.incoming)}
            if any(isinstance(p.type, ty.PointerType) for p in exit_phis):
                raise Unsupported("a pointer phi after a varying loop")
        if inner_mask.v is not None:
            w.nonempty.add(inner_mask.v)
        exit_block = w.new_block("loop.exit")
        top_tested = uniform and len(loop.exits()) == 1 and loop.exits()[0][0] is loop.header
        if top_tested:
            self.top_tests[loop.header] = (loop, exit_block)  # a while loop keeps its test on top
        w.loop_depth += 1
        self.emit_level(loop, loop.header, inner_mask)
        w.loop_depth -= 1
        latch = w.block
        back = self.incoming_arms(loop, from_inside=True)
        for phi, new in zip(loop.header.phis, phis):
            arms = back[phi]
            self.close_loop_phi(phi, new, arms, latch)
        back_masks = [self.edge(node, loop.header) for node in self.back_nodes(loop)]
        go_on = w.union(back_masks)
        if uniform:
            cont = w.any(go_on)
            w.emit(ins.Jump(header) if cont is None else ins.Branch(cont, header, exit_block))
            if top_tested:
                w.scopes.pop()  # the body's splats do not reach the exit
            w.new_blocks.append(w.new_blocks.pop(w.new_blocks.index(exit_block)))  # in emission order
            w.block = exit_block
            self.uniform_exit_masks(loop, m)
            return
        active_next = w.full(go_on)
        left_now = None
        for target, acc in exits.items():
            em = w.union([self.edge(self.child_of(loop, s), t) for s, t in loop.exits() if t is target])
            now = w.full(em)
            left_now = w.logic(Op.OR, left_now, now) if left_now is not None else now
            nxt = w.emit(ins.BinaryOp(Op.OR, acc, now))
            acc.add_incoming(nxt, latch)
            exits[target] = nxt
        for v, acc in values.items():
            nxt = acc if left_now is None else w.emit(ins.Select(left_now, w.vec(v), acc))
            acc.add_incoming(nxt, latch)
            values[v] = nxt
        for p, acc in exit_phis.items():  # each lane's value from the exit it took, when it took it
            nxt = acc
            for v, b in p.incoming:
                if b in loop.blocks:
                    nxt = w.emit(ins.Select(w.full(self.edge(self.child_of(loop, b), p.block)), w.vec(v), nxt))
            acc.add_incoming(nxt, latch)
            self.exit_values[(p, loop)] = nxt
        active.add_incoming(active_next, latch)
        w.new_blocks.append(w.new_blocks.pop(w.new_blocks.index(exit_block)))
        w.emit(ins.Branch(w.emit(ins.AnyLane(active_next)), header, exit_block))
        w.block = exit_block
        for v, final in values.items():
            w.scalar.pop(v, None)
            w.vector[v] = final
        for target, final in exits.items():
            self.edge_masks[(loop, target)] = Mask(None, final)

    def uniform_exit_masks(self, loop: Loop, m: Mask) -> None:
        """The masks of a uniform loop's exits: all its lanes (`m`) leave by the one target there is;
        with several, by the target whose edge mask held in the last iteration."""
        targets = list(dict.fromkeys(t for _, t in loop.exits()))
        for target in targets:
            self.edge_masks[(loop, target)] = m if len(targets) == 1 else self.w.union(
                [self.edge(self.child_of(loop, s), t) for s, t in loop.exits() if t is target])

    def edge(self, node, target: Block) -> Mask:
        if (node, target) not in self.edge_masks:
            raise Unsupported("an edge the linearization did not reach (a loop exit past its parent)")
        return self.edge_masks[(node, target)]

    def accumulator(self, header: Block, pre: Block, t: ty.Type) -> ins.Phi:
        phi = ins.Phi(t)
        header.insert(len(header.phis), phi)
        phi.add_incoming(zero_of(t), pre)
        return phi

    def back_nodes(self, loop: Loop) -> list:
        return list(dict.fromkeys(self.child_of(loop, tail) for tail in loop.latches))

    def incoming_arms(self, loop: Loop, from_inside: bool) -> dict:
        arms = {}
        for phi in loop.header.phis:
            arms[phi] = []
            for value, pred in phi.incoming:
                if (pred in loop.blocks) != from_inside:
                    continue
                node = self.child_of(loop, pred) if from_inside else self.node_key(pred)
                arms[phi].append((value, self.edge(node, loop.header)))
        return arms

    def loop_phi(self, phi: ins.Phi, header: Block, pre: Block):
        """Turn the entry value the widener mapped for `phi` into a header phi of the new loop."""
        w = self.w
        for table in (w.scalar, w.vector):
            if phi in table:
                new = ins.Phi(table[phi].type)
                header.insert(len(header.phis), new)
                new.add_incoming(table[phi], pre)
                table[phi] = new
                return new
        raise Unsupported("a pointer phi in a loop header")

    def close_loop_phi(self, phi: ins.Phi, new: ins.Phi, arms, latch: Block) -> None:
        w = self.w
        before = (dict(w.scalar), dict(w.vector))
        if len(arms) == 1:
            w.copy_value(phi, arms[0][0])
        else:
            w.blend(phi, arms)
        back = w.scalar.get(phi) if phi in w.scalar else w.vector.get(phi)
        if back.type is not new.type:
            raise Unsupported("a loop phi whose lanes change form")
        new.add_incoming(back, latch)
        w.scalar, w.vector = before


def _entry_of(node) -> Block:
    return node if isinstance(node, Block) else node.header


def _dominance(order: list, succs: dict):
    """Immediate dominators on the level's DAG, and post-dominance (None: the virtual exit)."""
    preds: dict[object, list] = {n: [] for n in order}
    for n in order:
        for s in succs[n]:
            if s is not None and n not in preds[s]:
                preds[s].append(n)
    dom = {order[0]: {order[0]}}
    for n in order[1:]:
        if any(p not in dom for p in preds[n]):  # a cycle at this level: an edge to an enclosing loop
            raise Unsupported("control flow that is not a loop nest at one level")
        sets = [dom[p] for p in preds[n]]
        dom[n] = set.intersection(*sets) | {n} if sets else {n}
    idom = {}
    for n in order[1:]:
        strict = dom[n] - {n}
        idom[n] = max(strict, key=lambda d: len(dom[d]))
    pdom: dict[object, set] = {}
    for n in reversed(order):
        sets = [pdom[s] if s is not None else set() for s in succs[n]]
        pdom[n] = (set.intersection(*sets) if sets else set()) | {n}
    return idom, lambda a, b: a in pdom[b]
