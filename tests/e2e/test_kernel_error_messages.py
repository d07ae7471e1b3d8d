"""A failed kernel's error reads like its cause: the message starts with what happened (the kernel,
the source line and caret, the ids), the API status comes last, and the traceback of a wait ends at
the user's call, not in the launch that failed."""
from __future__ import annotations

import traceback

import numpy as np
import pytest

import loomcl as cl

SOURCE = """kernel void past(global float *a) {
    a[get_global_id(0) + 1] = 1.0f;
}"""


def test_a_checked_kernels_error_starts_with_the_source_line_and_ends_with_the_status(ctx, queue):
    program = cl.Program(ctx, SOURCE).build(options="-loomcl-check")
    program.past(queue, (4,), None, cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16))
    with pytest.raises(cl.OutOfBoundsError) as caught:
        queue.finish()
    assert str(caught.value).split("\n") == [
        "<kernel>:2:29: error: out-of-bounds write in kernel 'past': index 4 (byte offset 16) of argument 'a', "
        "which holds 4 elements of 4 bytes (16 bytes)",
        "    a[get_global_id(0) + 1] = 1.0f;",
        "                            ^",
        "work-item: global id (3, 0, 0), local id (3, 0, 0), group id (0, 0, 0)",
        "(clEnqueueNDRangeKernel: OUT_OF_RESOURCES)"]
    assert isinstance(caught.value, cl.KernelError) and caught.value.code == cl.status_code.OUT_OF_RESOURCES
    frames = traceback.extract_tb(caught.value.__traceback__)
    assert not any(frame.filename.endswith(("launch.py", "pool.py")) for frame in frames), frames


def test_other_errors_keep_pyopencls_form():
    error = cl.LogicError("clCreateBuffer", cl.status_code.INVALID_BUFFER_SIZE, "size 0")
    assert str(error) == "clCreateBuffer failed: INVALID_BUFFER_SIZE - size 0"
    fault = cl.KernelFaultError("clEnqueueNDRangeKernel", cl.status_code.OUT_OF_RESOURCES, "kernel 'k' faulted")
    assert str(fault) == "kernel 'k' faulted (clEnqueueNDRangeKernel: OUT_OF_RESOURCES)"
