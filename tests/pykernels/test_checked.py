"""Checked mode (-loomcl-check) on Python kernels: out-of-bounds accesses and divergent barriers are
reported at the Python source line."""
import numpy as np
import pytest

import loomcl as cl

SOURCE = open(__file__).read().split("\n")


def line_of(fragment: str) -> int:
    return next(n + 1 for n, line in enumerate(SOURCE) if fragment in line and "line_of" not in line)


@cl.kernel(options="-loomcl-check")
def past_the_end(a: cl.global_ptr(np.float32)):
    i = cl.global_id(0)
    a[i + 1] = 1.0


@cl.kernel(options="-loomcl-check")
def divergent(a: cl.global_ptr(np.float32)):
    if cl.local_id(0) < 3:
        cl.barrier()
    a[cl.global_id(0)] = 2.0


@pytest.fixture
def buffer(ctx):
    return cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64 * 4)


def test_out_of_bounds_write_names_the_python_line(queue, buffer):
    with pytest.raises(cl.OutOfBoundsError) as caught:
        past_the_end(queue, (64,), (16,), buffer).wait()
    line = line_of("a[i + 1] = 1.0")
    assert (f"{__file__}:{line}:5: error: out-of-bounds write in kernel 'past_the_end': index 64 (byte offset "
            f"256) of argument 'a', which holds 64 elements of 4 bytes (256 bytes)\n    a[i + 1] = 1.0\n    ^"
            ) in str(caught.value)


def test_divergent_barrier_names_the_python_line(queue, buffer):
    with pytest.raises(cl.BarrierDivergenceError) as caught:
        divergent(queue, (64,), (16,), buffer).wait()
    line = line_of("        cl.barrier()")
    assert f"{__file__}:{line}:9: error: barrier divergence in kernel 'divergent'" in str(caught.value)
    assert f"another work-item of its group went on to the barrier at {__file__}:{line}:9" in str(caught.value)
