"""The runtime's one door to the launch engine (loomcl/engine/): what a Kernel and a Device need to
check, plan and run NDRange launches. Nothing here loads LLVM: the worker pool's native code is
compiled at the first launch.

    check_global(global_size) / check_local(local_size, dims, device, required) / check_offset(offset, dims)
        -> a validated size tuple (LogicError with clEnqueueNDRangeKernel's status otherwise)
    choose_local_size(global_size, threads, required) -> a local size for `local_size=None`
    LaunchPlan(global, local, offset, function_for_local_size, block_address)   # one NDRange shape
    Launcher(name, args, printf_formats, local_limit)   # a kernel's launches: work_args(), run()
    attach_profiling(plan, args, signature, options, compile_variant, selections, threads)
    get_pool() -> the worker pool (thread_count, warm_up)
    streaming_candidates(compiled, name) / buffer_streams(size, address) / launch_streams(offset, local)
    PRINTF_BUFFER_BYTES, ROUTINE
"""
from __future__ import annotations

from loomcl.engine.launch import Launcher
from loomcl.engine.launch_plan import LaunchPlan
from loomcl.engine.microprofile import attach as attach_profiling
from loomcl.engine.ndrange import ROUTINE, check_global, check_local, check_offset, choose_local_size
from loomcl.engine.pool import get_pool
from loomcl.engine.printf_output import BUFFER_BYTES as PRINTF_BUFFER_BYTES
from loomcl.engine.streaming import buffer_streams, launch_streams
from loomcl.engine.streaming import candidates as streaming_candidates

__all__ = ["PRINTF_BUFFER_BYTES", "ROUTINE", "LaunchPlan", "Launcher", "attach_profiling", "buffer_streams",
           "check_global", "check_local", "check_offset", "choose_local_size", "get_pool", "launch_streams",
           "streaming_candidates"]
