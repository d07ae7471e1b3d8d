"""Sub-buffers (clCreateSubBuffer): a window of a buffer's bytes, shared with it."""
import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags


def test_a_sub_buffer_shares_the_parents_memory(ctx, queue):
    parent = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.arange(32, dtype=np.int32))
    sub = parent.get_sub_region(8 * 4, 4 * 4)
    assert (sub.size, sub.offset, sub.associated_memobject) == (16, 32, parent)
    assert sub.int_ptr == parent.int_ptr + 32
    window = np.empty(4, np.int32)
    cl.enqueue_copy(queue, window, sub)
    assert window.tolist() == [8, 9, 10, 11]
    cl.enqueue_copy(queue, sub, np.full(4, -1, np.int32))
    whole = np.empty(32, np.int32)
    cl.enqueue_copy(queue, whole, parent)
    assert whole[6:14].tolist() == [6, 7, -1, -1, -1, -1, 12, 13]


@pytest.mark.parametrize("origin, size", [(0, 0), (60, 8), (-4, 4)])
def test_a_region_outside_the_buffer_is_rejected(ctx, origin, size):
    parent = cl.Buffer(ctx, mf.READ_WRITE, 64)
    with pytest.raises(cl.LogicError, match="INVALID_VALUE"):
        parent.get_sub_region(origin, size)


def test_only_unit_step_slices(ctx):
    parent = cl.Buffer(ctx, mf.READ_WRITE, 64)
    with pytest.raises(ValueError, match="step 1"):
        parent[0:64:2]
