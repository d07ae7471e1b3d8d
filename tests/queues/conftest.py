"""Fixtures of the asynchronous-queue tests: fresh queues per test (in order, out of order,
profiled) and one program of small kernels (queue_helpers.SOURCE) built with loomcl's compiler."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import loomcl as cl  # noqa: E402

from queue_helpers import SOURCE  # noqa: E402


@pytest.fixture
def queue(ctx):
    return cl.CommandQueue(ctx)


@pytest.fixture
def ooo_queue(ctx):
    return cl.CommandQueue(ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)


@pytest.fixture
def profiling_queue(ctx):
    return cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)


@pytest.fixture(scope="module")
def prg(ctx):
    return cl.Program(ctx, SOURCE).build()
