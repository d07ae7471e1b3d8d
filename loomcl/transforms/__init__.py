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
* Kernel-scope `__local` variables are `function.local_variables`; codegen places them in the
  work-group's local arena. Context arrays for values that live across barriers are private
  `Alloca`s of `ArrayType(T, work-group size)` indexed by the linear local id.
* Work-item loops are listed in `function.parallel_loops` (header, latch, blocks); codegen marks
  their memory accesses and latch as parallel (pocl 4.2).
"""
