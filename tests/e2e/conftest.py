"""Fixtures of the end-to-end tests: `run_kernel` (build OpenCL C with
loomcl, launch one kernel, return every array argument after it), and `variant`, which gives each
kernel three launch shapes: an explicit local size (`explicit`), `local_size=None` (`none`, the
runtime chooses), and a global size that is not a multiple of the local size (`ragged`, OpenCL 2.0
non-uniform work-groups: the remainder group runs at its actual size).
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import loomcl as cl  # noqa: E402

from e2e_helpers import VARIANTS, launch  # noqa: E402


@pytest.fixture
def run_kernel(ctx, queue):
    """run_kernel(src, name, global_size, local_size, *args, options="", global_offset=None) -> [arrays]"""

    def run(src, name, global_size, local_size, *args, options="", global_offset=None):
        return launch(ctx, queue, src, name, global_size, local_size, *args, options=options,
                      global_offset=global_offset)

    return run


@pytest.fixture(params=VARIANTS)
def variant(request):
    return request.param


@pytest.fixture
def rng():
    return np.random.default_rng(20240607)


def pytest_report_header(config):
    return f"loomcl e2e: LOOMCL_THREADS={os.environ.get('LOOMCL_THREADS', '(default)')}"
