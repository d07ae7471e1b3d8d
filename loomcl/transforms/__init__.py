"""Transformations of the kernel IR: from one work-item to one work-group.

The pipeline (`pipeline.py`) takes a module in *work-item form* (what `lower/` produces: every
function, calls, allocas for private variables, `barrier` and `local_id` instructions) and, for one
kernel and one local size, produces a function in *work-group form*, the contract with `codegen/`:

* It is the kernel function with `function.local_size` set; executing it once runs one whole
  work-group (all its work-items), for the group whose ids the code generator supplies.
* No `Call` remains (all inlined), no `Barrier` remains, no `LOCAL_ID` query remains (replaced by
  work-item loop induction variables) and no `LOCAL_SIZE` query remains (a constant of the
  specialization: the local size of this region; OpenCL 2.0 remainder groups get their own
  specialization).
* Remaining queries (`GROUP_ID`, `ENQUEUED_LOCAL_SIZE`, `NUM_GROUPS`, `GLOBAL_SIZE`,
  `GLOBAL_OFFSET`, `WORK_DIM`) are uniform over the group; codegen reads them from the launch.
* In checked mode (`checked`), `check_access` precedes every access, `check_barrier` ends every
  region exit of a nest with several successors, and `argument_extent` sits in the prologue
  (ir/ops/checks.py); `function.check_sites` holds what their reports need.
* Kernel-scope `__local` variables are `function.local_variables`; codegen places them in the
  work-group's local arena. Context arrays for values that live across barriers are private
  `Alloca`s of `ArrayType(T, work-group size)` indexed by the linear local id.
* Work-item loops are structure: `function.work_item_loops` holds a `WorkItemLoop` (dimension,
  header, latch, counter; bounds and blocks read from the CFG) for every loop of every nest, and
  the verifier checks the form (`ir/work_group_verifier.py`); codegen marks their accesses to
  global, constant and local memory and their latches as parallel (pocl 4.2).

What `pipeline.work_group_function` produces in detail (refines the points above):

* The entry block (the *prologue*) holds the allocas (context arrays and uniform slots) and the
  uniform queries, and jumps on. Everything else is either *group-level* code, which runs once
  per group (uniform loop headers and latches of barrier loops in the structured form, dispatch
  switches), or inside a *work-item loop nest*.
* A nest loops over z, y, x (x innermost) with i64 counters `phi i64 [0, ...], [id + 1, latch]`
  that replace `local_id(d)`; the latch holds only `id + 1 <ult upper` (after fold-local-id-guards
  the bounds may be a range [lo, hi) computed before the loop, which is skipped when empty), so a
  path to the latch skips exactly the rest of one work-item's region. A dimension of size 1 has no
  loop (its id is `i64 0`); a group of one work-item has no loop at all.
* A value defined in a work-item loop is used only inside it; per-work-item values reach other
  regions through context arrays or uniform slots. Work-item-invariant pure code is hoisted out of
  the loops (hoist-invariants).
* Context arrays are `alloca [N x T]`, N = the product of the local size, named `*.context`,
  accessed as `elementptr T, %ctx, %linear` with `%linear = (z * Ly + y) * Lx + x` (i64).
  Private arrays and structs of the kernel become such arrays too (T is then the array or struct
  type), so no private storage is shared between the iterations of a parallel loop; a private
  array of scalars `T p[K]` may instead be transposed to `[K x [N x T]]`, element j of work-item i
  at `[j][i]` (transpose-private-arrays).
* Uniform slots are scalar `alloca T`: inside a work-item loop every work-item stores the same
  value to them, and they are read outside work-item loops (or before the loop nest).
* After a nest with several possible successors, `switch %next` picks one; `%next` is an i32 phi
  in the innermost latch (the barrier id of the target: all work-items agree, OpenCL's rule).
  There is no central while-switch dispatcher: each nest jumps to its successors directly.
"""
