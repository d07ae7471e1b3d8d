"""OpenCL C 2.0's work-item functions that a 3.0 device offers (6.13.1): get_global_linear_id,
get_local_linear_id and get_enqueued_local_size, against numpy's layout of the same range, with a
global offset and a ragged last work-group."""
from __future__ import annotations

import numpy as np
import pytest

LINEAR = """
__kernel void linear(__global long *global_linear, __global long *local_linear, __global long *enqueued) {
    size_t i = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)
             + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
             + (get_global_id(0) - get_global_offset(0));
    global_linear[i] = get_global_linear_id();
    local_linear[i] = get_local_linear_id();
    enqueued[i] = get_enqueued_local_size(0) * 100 + get_local_size(0);
}
"""


@pytest.mark.parametrize("global_size, local_size, offset", [
    ((12,), (4,), (3,)),
    ((10, 6), (4, 3), (1, 2)),          # ragged in x: the last group is 2 wide
    ((4, 3, 5), (2, 3, 2), (0, 1, 7)),  # ragged in z
])
def test_linear_ids_and_enqueued_local_size(run_kernel, global_size, local_size, offset):
    n = int(np.prod(global_size))
    global_linear, local_linear, enqueued = run_kernel(
        LINEAR, "linear", global_size, local_size, np.full(n, -1, np.int64), np.full(n, -1, np.int64),
        np.full(n, -1, np.int64), global_offset=offset)
    shape = global_size[::-1]  # numpy: z, y, x
    np.testing.assert_array_equal(global_linear, np.arange(n))
    ids = np.indices(shape)[::-1]  # x, y, z ids of each item, in linear order
    local_ids = [ids[d] % local_size[d] for d in range(len(global_size))]
    sizes = [np.where(ids[d] // local_size[d] == (global_size[d] - 1) // local_size[d],
                      global_size[d] - (global_size[d] - 1) // local_size[d] * local_size[d], local_size[d])
             for d in range(len(global_size))]
    expected_local = np.zeros(shape, np.int64)
    for d in reversed(range(len(global_size))):
        expected_local = expected_local * sizes[d] + local_ids[d]
    np.testing.assert_array_equal(local_linear, expected_local.ravel())
    np.testing.assert_array_equal(enqueued, (local_size[0] * 100 + sizes[0]).ravel())
