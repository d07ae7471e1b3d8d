"""The launch engine: runs a kernel's native work-group functions over an NDRange on every core.

ndrange.py splits an NDRange into regions of uniform local size; launch_plan.py prepares a shape's
native requests once; launch.py runs an enqueued launch (argument image, printf output, checked-mode
report); pool.py and native_pool.py are the worker pool (threads parked in JIT-ed code), guard.py its
fault and Ctrl-C guard; microprofile.py (with variants.py, choices.py, shape_class.py,
group_slices.py) chooses among compiled variants by timing them; streaming.py decides streaming stores.

The runtime reaches this package only through runtime/engine_api.py. Importing it loads no LLVM: the
pool's native code is JIT-ed (through loomcl.jit) at the first launch.

May import: abi, jit (the pool's native code, the cache's folder), host, options, errors, printf;
ir and frontend only to word a checked-mode violation (check_report.py, lazily).
"""
