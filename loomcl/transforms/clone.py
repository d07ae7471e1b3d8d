"""Deep copies of functions and modules, mapping every value and block to its copy.

The pipeline runs once per (kernel, local size) and rewrites the kernel in place, so it works on a
fresh copy of the kernel's call tree each time; the frontend's module stays as lowering made it.

`clone_instruction` copies one instruction (the instruction clones itself: `Instruction.clone`)
and `remap_instruction` points its operands and blocks at copies; `clone_blocks` copies a set of
blocks into a function (this is also how inlining copies a callee and how sub-CFG formation
replicates sub-CFGs). Values not in the map (constants, arguments of an enclosing function, globals
shared on purpose) stay as they are. Forward references (a phi's value from a later block) are
resolved after every instruction is built; the others are mapped as each copy is made, so that a
copy never joins, and then leaves, the use-lists of the originals.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir.function import Block, Function, Module, WorkItemLoop
from ..ir.values import GlobalVariable, Value


def clone_instruction(inst: ins.Instruction) -> ins.Instruction:
    """A copy of `inst` with the same operands and fields, not placed in any block."""
    return inst.clone()


def remap_instruction(inst: ins.Instruction, values: dict, blocks: dict) -> None:
    """Replace operands and successor/incoming blocks found in the maps."""
    for i, operand in enumerate(inst.operands):
        if operand in values:
            inst.set_operand(i, values[operand])
    inst.remap_blocks(blocks)


def clone_blocks(blocks: list[Block], into: Function, values: dict, suffix: str = "") -> dict:
    """Copy `blocks` (in order) to the end of `into`; extends `values` with the instruction map and
    returns the block map. Operands and successors inside the copied set point to the copies."""
    block_map = {}
    for block in blocks:
        block_map[block] = into.add_block(block.name + suffix)
        block_map[block].comment = block.comment
    pending = {inst for block in blocks for inst in block.instructions}  # not copied yet
    forward = []  # (copy, operand index, original): operands copied after their user
    for block in blocks:
        target = block_map[block]
        for inst in block.instructions:
            operands, later = [], []
            for index, operand in enumerate(inst.operands):
                if operand in pending:
                    later.append((index, operand))
                    operands.append(operand)
                else:
                    operands.append(values.get(operand, operand))
            new = inst.clone(operands)
            forward += [(new, index, operand) for index, operand in later]
            new.remap_blocks(block_map)
            pending.discard(inst)
            values[inst] = new
            target.append(new)
    for new, index, original in forward:
        new.set_operand(index, values[original])
    return block_map


def clone_function(function: Function, name: str | None = None, values: dict | None = None) -> Function:
    """A deep copy of `function`; `values` (optional, filled in) maps originals to copies and may
    come pre-filled (e.g. module globals to their copies, callees in `call` via `callees`)."""
    values = {} if values is None else values
    new = Function(name or function.name, function.return_type, [p.type for p in function.params],
                   [p.name for p in function.params], function.is_kernel)
    new.attributes = function.attributes
    new.local_size = function.local_size
    new.group_tile = function.group_tile
    new.remarks = list(function.remarks)
    values.update(zip(function.params, new.params))
    for var in function.local_variables:
        copy_var = GlobalVariable(var.name, var.value_type, var.address_space, var.initializer)
        values[var] = copy_var
        new.local_variables.append(copy_var)
    block_map = clone_blocks(function.blocks, new, values)
    for loop in function.work_item_loops:
        new.work_item_loops.append(WorkItemLoop(loop.dim, block_map[loop.header], block_map[loop.latch],
                                                values[loop.counter], loop.note))
    return new


def clone_module(module: Module, roots: list[str] | None = None) -> Module:
    """A deep copy: globals, functions, and calls retargeted to the copied callees. With `roots`
    (function names), only those functions and what they call, directly or not: a kernel's call
    tree is all its work-group function needs, and a program may hold hundreds of others."""
    new = Module()
    values = clone_globals(module, new)
    functions = module.functions.values() if roots is None else call_tree(module, roots)
    for function in functions:
        new.add_function(clone_function(function, values=dict(values)))
    for function in new.functions.values():
        for inst in function.instructions():
            if isinstance(inst, ins.Call):
                inst.callee = new.functions[inst.callee.name]
    return new


def clone_globals(module: Module, into: Module) -> dict[Value, Value]:
    """Copies of `module`'s program-scope globals added to `into`: {original: copy}."""
    values: dict[Value, Value] = {}
    for var in module.globals:
        copy_var = GlobalVariable(var.name, var.value_type, var.address_space,
                                  None if var.initializer is None else list(var.initializer), var.linkage)
        values[var] = copy_var
        into.globals.append(copy_var)
    return values


def call_tree(module: Module, roots: list[str]) -> list[Function]:
    """The functions named `roots` and every function they call, transitively, in module order."""
    reached, pending = set(), [module.functions[name] for name in roots]
    while pending:
        function = pending.pop()
        if function in reached:
            continue
        reached.add(function)
        pending += [inst.callee for inst in function.instructions() if isinstance(inst, ins.Call)]
    return [f for f in module.functions.values() if f in reached]
