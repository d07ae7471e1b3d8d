"""inline: replace every call by a copy of the callee's body, then drop the non-kernel functions.

Work-group formation must see every barrier and every work-item query of a kernel in one CFG
(Karrenberg & Hack 2.3 and hipSYCL 3.2.1 inline everything on the path to a barrier; we inline
everything, as pocl does, because the benefit of whole-kernel analysis outweighs code size for
kernels).

Algorithm, per call: split the calling block after the call (the tail goes to a continuation
block), copy the callee's blocks in after the caller block with parameters mapped to the
arguments, turn each `ret` into a jump to the continuation (a phi there collects the return
values), and hoist the callee's allocas into the caller's entry block, so private storage is still
allocated once per work-item and mem2reg sees it. Calls inside the copied body are found by the
same worklist. The frontend rejects recursion; a depth limit guards against a cycle anyway.

Expects: a kernel of a module in work-item form. Guarantees: no `Call` left in the kernel; the
module holds only the kernel (its callees are gone). `inline_kernels(module)` does the same for
every kernel of a module.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir.function import Block, Function, Module
from .clone import clone_blocks, clone_function, clone_globals
from .passes import PassContext

NAME = "inline"
MAX_INLINE_DEPTH = 64


def split_block_after(inst: ins.Instruction, name: str = "") -> Block:
    """Move everything after `inst` to a new block right after its block; successors' phis
    follow the terminator. The old block is left without a terminator."""
    block = inst.block
    function = block.function
    tail = function.add_block(name or block.name + ".cont", after=block)
    index = block.instructions.index(inst) + 1
    moving = block.instructions[index:]
    del block.instructions[index:]
    for moved in moving:
        moved.block = None
        tail.append(moved)
    for succ in tail.successors:
        for phi in succ.phis:
            phi.replace_incoming_block(block, tail)
    return tail


def inline_call(call: ins.Call, shared: dict | None = None) -> list[ins.Call]:
    """Inline one call; returns the calls found in the inlined body. `shared`: values the callee's
    copy takes in place of those it names (another module's globals: inlined_kernel)."""
    block, caller, callee = call.block, call.block.function, call.callee
    continuation = split_block_after(call, block.name + ".after." + callee.name)
    values = dict(shared or {})
    values.update(zip(callee.params, call.args))
    block_map = clone_blocks(callee.blocks, caller, values, suffix="." + callee.name)
    copies = [block_map[b] for b in callee.blocks]
    # Place the body between the caller block and its continuation (clone_blocks appended it).
    assert caller.blocks[len(caller.blocks) - len(copies):] == copies
    del caller.blocks[len(caller.blocks) - len(copies):]
    at = caller.blocks.index(continuation)
    caller.blocks[at:at] = copies
    _hoist_allocas(copies, caller.entry)
    results = _returns_to_jumps(copies, continuation)
    if call.users:
        call.replace_all_uses_with(_join_results(results, continuation, call))
    call.detach()
    call.drop_operands()
    block.append(ins.Jump(copies[0]))
    return [i for b in copies for i in b.instructions if isinstance(i, ins.Call)]


def _hoist_allocas(blocks: list[Block], entry: Block) -> None:
    for block in blocks:
        for inst in [i for i in block.instructions if isinstance(i, ins.Alloca)]:
            inst.detach()
            entry.insert(entry.first_non_phi_index, inst)


def _returns_to_jumps(blocks: list[Block], continuation: Block) -> list[tuple]:
    results = []
    for block in blocks:
        term = block.terminator
        if isinstance(term, ins.Return):
            if term.value is not None:
                results.append((term.value, block))
            term.detach()
            term.drop_operands()
            block.append(ins.Jump(continuation))
    return results


def _join_results(results: list[tuple], continuation: Block, call: ins.Call):
    if len(results) == 1:
        return results[0][0]
    phi = ins.Phi(call.type, call.name or "ret")
    for value, block in results:
        phi.add_incoming(value, block)
    continuation.insert(0, phi)
    return phi


def run_function(function: Function, shared: dict | None = None) -> bool:
    """Inline every call in `function`, transitively; whether there was any."""
    worklist = [(i, 0) for i in function.instructions() if isinstance(i, ins.Call)]
    changed = bool(worklist)
    while worklist:
        call, depth = worklist.pop()
        if depth > MAX_INLINE_DEPTH:
            raise RecursionError(f"inlining @{call.callee.name} into @{function.name}: calls nest "
                                 f"deeper than {MAX_INLINE_DEPTH} (recursion?)")
        worklist += [(c, depth + 1) for c in inline_call(call, shared)]
    return changed


def inlined_kernel(module: Module, kernel_name: str) -> Module:
    """A new module holding the kernel with every call inlined, and copies of the globals; `module`
    is not changed. The callees' bodies are copied straight from `module` (cloning the call tree
    first, as the pipeline does, would copy every body twice)."""
    new = Module()
    globals_map = clone_globals(module, new)
    kernel = new.add_function(clone_function(module.functions[kernel_name], values=dict(globals_map)))
    run_function(kernel, globals_map)
    return new


def inline_kernels(module: Module, kernel_names: list[str] | None = None) -> None:
    """Inline all calls in the named kernels (all kernels by default) and delete every function
    that is not one of them."""
    keep = [f for f in module.kernels if kernel_names is None or f.name in kernel_names]
    for function in keep:
        run_function(function)
    module.functions = {f.name: f for f in keep}


def run(function: Function, analyses: PassContext) -> bool:
    """Inline every call in the kernel; the module (`analyses.module`, when given) keeps only it."""
    changed = run_function(function)
    if analyses.module is not None:
        analyses.module.functions = {function.name: function}
    return changed
