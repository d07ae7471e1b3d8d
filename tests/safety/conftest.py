"""Fixtures of the checked-mode tests: `checked_error`, which launches a
kernel built with `-loomcl-check` and returns the exception the launch raised (at queue.finish())."""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import loomcl as cl  # noqa: E402

from safety_helpers import buffer  # noqa: E402


@pytest.fixture
def checked_error(ctx, queue):
    """checked_error(src, name, global_size, local_size, *args, error=cl.KernelCheckError) -> the
    exception; numpy arrays among the args become buffers holding a copy."""

    def run(src, name, global_size, local_size, *args, error=cl.KernelCheckError):
        kernel = getattr(cl.Program(ctx, src).build(options="-loomcl-check"), name)
        args = [buffer(ctx, a) if isinstance(a, np.ndarray) else a for a in args]
        kernel(queue, global_size, local_size, *args)  # enqueued: a violation fails the launch's event
        with pytest.raises(error) as info:
            queue.finish()
        return info.value

    return run
