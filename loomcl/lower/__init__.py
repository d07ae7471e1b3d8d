"""lower/: the typed AST to kernel IR in work-item form (DESIGN.md, stage 2).

    module = lower_program(frontend.parse_program(source))

The result is what transforms/ takes: one `ir.Function` per function definition (kernels with
`is_kernel` and `attributes.reqd_work_group_size`), describing a *single* work-item:

* every parameter and private variable in an entry-block `Alloca`, read and written with loads and
  stores (mem2reg in transforms/ builds SSA); bool is i1 as a value and i8 in memory (types.py);
* kernel `__local` variables in `function.local_variables`, `__constant` data in `module.globals`
  with flat initializers;
* work-item functions as `WorkItemQuery` (get_global_id expanded), `barrier` as `Barrier`, math as
  `MathCall`, atomics as `AtomicRMW`/`AtomicCmpXchg`, user calls as `Call` (inlined later), printf
  as `Printf` with its format numbered in `module.printf_formats`;
* structured control flow as canonical blocks (statements.py), `&&`/`||`/`?:` with phis;
* source locations on instructions.

Modules: types (type mapping), casts, expressions, builtins, statements, initializers, function
(one body), program (the entry point), errors.
"""
from .errors import LoweringError
from .program import lower_program

__all__ = ["lower_program", "LoweringError"]
