"""A Python host that calls the API from inside Python's own machinery: pyopencl's objects release
their handles from their destructors, which may run while an exception is being raised; the
exception must come out of the host's code intact (loomcl's Python runs in between)."""
import pytest
from c_api_runner import run


def test_an_exception_raised_while_handles_are_released_survives():
    pytest.importorskip("pyopencl")
    out = run('''
    import gc
    import numpy as np
    import pyopencl
    import pyopencl.array

    context = pyopencl.Context([pyopencl.get_platforms()[0].get_devices()[0]])
    queue = pyopencl.CommandQueue(context)

    class Container:  # numpy's + gives up on it and raises TypeError, dropping the device array
        def __init__(self, data):
            self.data = data

        def __eq__(self, other):
            return Container(self.data == other)

    caught = []
    for _ in range(20):
        try:
            Container(np.ones(100)) + pyopencl.array.zeros(queue, (10,), dtype=np.float64)
        except TypeError as error:
            caught.append(type(error).__name__)
        except BaseException as error:  # noqa: BLE001 - what the test looks for
            caught.append(f"{type(error).__name__}: {error}")
    gc.collect()
    out["caught"] = sorted(set(caught))
    out["count"] = len(caught)
    ''')
    assert out["caught"] == ["TypeError"] and out["count"] == 20
