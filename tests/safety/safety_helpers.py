"""Helpers of the checked-mode tests, imported by conftest.py and the test modules."""
from __future__ import annotations

import numpy as np

import loomcl as cl

WORK_ITEM = "work-item: global id ({}), local id ({}), group id ({})"


def buffer(ctx, array: np.ndarray):
    """A READ_WRITE buffer holding a copy of `array`."""
    return cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=array)


def lines(error: Exception) -> list[str]:
    """The message as lines, without its last: the status, "(clEnqueueNDRangeKernel: OUT_OF_RESOURCES)"."""
    *message, status = str(error).split("\n")
    assert status == "(clEnqueueNDRangeKernel: OUT_OF_RESOURCES)"
    return message
