"""Fixtures: a context and queues, and programs built by the fake compiler (kernels.py)."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import loomcl as cl  # noqa: E402
from loomcl.runtime import program as program_module  # noqa: E402

from kernels import fake_build  # noqa: E402


@pytest.fixture(autouse=True)
def fake_compiler(monkeypatch):
    monkeypatch.setattr(program_module, "compile_source", fake_build)


@pytest.fixture
def ctx():
    return cl.create_some_context(interactive=False)


@pytest.fixture
def queue(ctx):
    return cl.CommandQueue(ctx)


@pytest.fixture
def profiling_queue(ctx):
    return cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)


@pytest.fixture
def prg(ctx):
    return cl.Program(ctx, "/* fake source */").build()
