"""Checked mode in LLVM IR: the run-time checks of ir/ops/checks.py and the report they make.

A check is a compare and a branch (weighted as never taken) to a cold block that calls
`@loomcl.check.fail` and returns from the work-group body: the rest of the group is abandoned, and
the entry wrapper stops taking groups once the launch's error record is set (entry.py). The report
function claims the record with a compare-and-swap, so the first violation of a launch is the one
reported, whichever worker finds it (abi.CheckRecord).

The continuation after a check is a new LLVM block, so an IR block with checks ends in a block of
another name; `exit_label` gives it, and the phis of its successors name that one. The names use
`-`, which the emitter's namer never produces, so they cannot collide with the IR's names.

In checked mode, element addresses are computed without `inbounds` (llvm_emitter.element_ptr): an
out-of-bounds address must stay an address for the check to see it, not become poison.
"""
from __future__ import annotations

from ..abi.kernel import CHECK_RECORD_FIELDS
from ..ir import instructions as ins
from ..llvmtext.errors import CodegenError

FAIL_SYMBOL = "loomcl.check.fail"
_NEVER = "!{!\"branch_weights\", i32 1048575, i32 1}"


def fail_function() -> str:
    """`void fail(ptr record, i64 site, i64 a, i64 b, i64 group[3], i64 local[3])`: the first
    caller of a launch fills the record (status 1 marks it taken)."""
    fields = CHECK_RECORD_FIELDS[1:]
    params = ", ".join(f"i64 %{name}" for name in fields)
    lines = [f"define internal void @{FAIL_SYMBOL}(ptr %record, {params}) cold noinline nounwind {{",
             "entry:",
             "  %pair = cmpxchg ptr %record, i64 0, i64 1 seq_cst seq_cst, align 8",
             "  %won = extractvalue { i64, i1 } %pair, 1",
             "  br i1 %won, label %fill, label %done",
             "fill:"]
    for index, name in enumerate(fields, start=1):
        lines.append(f"  %{name}.addr = getelementptr inbounds i64, ptr %record, i64 {index}")
        lines.append(f"  store i64 %{name}, ptr %{name}.addr, align 8")
    lines += ["  br label %done", "done:", "  ret void", "}", ""]
    return "\n".join(lines)


class CheckEmitter:
    """The checks of one work-group body; `emitter` is its llvm_emitter.FunctionEmitter."""

    def __init__(self, emitter, proven: set) -> None:
        self.e = emitter
        self.proven = proven  # checks a group test has proven (check_ranges.py): emitted as nothing
        self.count: dict = {}  # IR block -> checks emitted in it so far
        self.totals = {b: n for b in emitter.function.blocks
                       if (n := sum(isinstance(i, (ins.CheckAccess, ins.CheckBarrier)) and i not in proven
                                    for i in b.instructions))}
        self.params = len(emitter.function.params)
        self.never = emitter.module.add_metadata(_NEVER)
        if emitter.env is None or emitter.env.args is None:
            raise CodegenError(f"checked-mode code in @{emitter.function.name} outside a checked work-group body")

    def exit_label(self, block) -> str:
        """Known before the block is emitted: a phi may name a predecessor that comes later."""
        n = self.totals.get(block, 0)
        return self.e.label(block) + (f"-ck{n}" if n else "")

    def _next_label(self, block) -> str:
        self.count[block] = self.count.get(block, 0) + 1
        return self.e.label(block) + f"-ck{self.count[block]}"

    def argument_extent(self, inst: ins.ArgumentExtent) -> None:
        e, slot = self.e, self.params + inst.param
        address = e.temp("extent.addr")
        e.emit_line(f"{address} = getelementptr inbounds i64, ptr {e.env.args}, i64 {slot}")
        e.emit_line(f"{e.ref(inst)} = load i64, ptr {address}, align 8, !invariant.load !{{}}")

    def access(self, inst: ins.CheckAccess) -> None:
        """ok = (pointer - base) <=u extent - size, with extent >=u size."""
        if inst in self.proven:
            return
        e = self.e
        p, b, offset = e.temp("ck.p"), e.temp("ck.b"), e.temp("ck.offset")
        e.emit_line(f"{p} = ptrtoint ptr {e.ref(inst.pointer)} to i64")
        e.emit_line(f"{b} = ptrtoint ptr {e.ref(inst.base)} to i64")
        e.emit_line(f"{offset} = sub i64 {p}, {b}")
        limit, fits, within, ok = e.temp("ck.limit"), e.temp("ck.fits"), e.temp("ck.within"), e.temp("ck.ok")
        e.emit_line(f"{limit} = sub i64 {e.ref(inst.extent)}, {inst.size}")
        e.emit_line(f"{fits} = icmp uge i64 {e.ref(inst.extent)}, {inst.size}")
        e.emit_line(f"{within} = icmp ule i64 {offset}, {limit}")
        e.emit_line(f"{ok} = and i1 {fits}, {within}")
        self._branch_to_fail(inst, ok, inst.site, offset, e.ref(inst.extent))

    def barrier(self, inst: ins.CheckBarrier) -> None:
        """The first work-item stores its target; any other compares with it."""
        e, first, next = self.e, self.e.ref(inst.first), self.e.ref(inst.next)
        seen, unset = e.temp("ck.first"), e.temp("ck.unset")
        base = self.e.label(inst.block) + f"-ck{self.count.get(inst.block, 0) + 1}"
        e.emit_line(f"{seen} = load volatile i32, ptr {first}, align 4")
        e.emit_line(f"{unset} = icmp eq i32 {seen}, -2")
        e.emit_line(f"br i1 {unset}, label %{base}.set, label %{base}.compare")
        e.lines.append(f"{base}.set:")
        e.emit_line(f"store volatile i32 {next}, ptr {first}, align 4")
        e.emit_line(f"br label %{base}")
        e.lines.append(f"{base}.compare:")
        same, mine, theirs = e.temp("ck.same"), e.temp("ck.mine"), e.temp("ck.theirs")
        e.emit_line(f"{same} = icmp eq i32 {seen}, {next}")
        e.emit_line(f"{mine} = sext i32 {next} to i64")
        e.emit_line(f"{theirs} = sext i32 {seen} to i64")
        self._branch_to_fail(inst, same, inst.site, mine, theirs)

    def _branch_to_fail(self, inst, ok: str, site: int, a: str, b: str) -> None:
        e = self.e
        cont = self._next_label(inst.block)
        fail = cont + ".fail"
        e.emit_line(f"br i1 {ok}, label %{cont}, label %{fail}, !prof {self.never}")
        e.lines.append(f"{fail}:")
        address, record = e.temp("ck.record.addr"), e.temp("ck.record")
        e.emit_line(f"{address} = getelementptr inbounds i64, ptr {e.env.args}, i64 {2 * self.params}")
        e.emit_line(f"{record} = load ptr, ptr {address}, align 8")
        ids = [e.env.group_ids[d] for d in range(3)] + [e.ref(v) for v in inst.local_ids]
        args = ", ".join(f"i64 {x}" for x in [str(site), a, b, *ids])
        e.module.declare(FAIL_SYMBOL, fail_function())
        e.emit_line(f"call void @{FAIL_SYMBOL}(ptr {record}, {args})")
        e.emit_line("ret void")
        e.lines.append(f"{cont}:")
