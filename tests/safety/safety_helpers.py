"""Helpers of the checked-mode tests, imported by conftest.py and the test modules."""
from __future__ import annotations

import numpy as np

import loomcl as cl

WORK_ITEM = "work-item: global id ({}), local id ({}), group id ({})"


def buffer(ctx, array: np.ndarray):
    """A READ_WRITE buffer holding a copy of `array`."""
    return cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=array)


def lines(error: Exception) -> list[str]:
    """The message after pyopencl's "routine failed: STATUS - " prefix, as lines."""
    text = str(error)
    assert text.startswith("clEnqueueNDRangeKernel failed: OUT_OF_RESOURCES - ")
    return text.split(" - ", 1)[1].split("\n")
