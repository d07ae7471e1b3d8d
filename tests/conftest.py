"""Fixtures every test folder may use: one context and one queue for the session (the runtime's own
tests replace them with fresh ones per test). The whole suite runs in strict mode (LOOMCL_STRICT=1,
set before loomcl is imported, and inherited by the processes tests start): an internal error in an
optional pass fails its test instead of falling back quietly."""
from __future__ import annotations

import os

os.environ["LOOMCL_STRICT"] = "1"

import pytest  # noqa: E402 - after the environment is set

import loomcl as cl


@pytest.fixture(scope="session")
def ctx():
    return cl.create_some_context(interactive=False)


@pytest.fixture(scope="session")
def queue(ctx):
    return cl.CommandQueue(ctx)
