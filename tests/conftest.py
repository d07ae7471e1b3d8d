"""Fixtures every test folder may use: one context and one queue for the session (the runtime's own
tests replace them with fresh ones per test)."""
from __future__ import annotations

import pytest

import loomcl as cl


@pytest.fixture(scope="session")
def ctx():
    return cl.create_some_context(interactive=False)


@pytest.fixture(scope="session")
def queue(ctx):
    return cl.CommandQueue(ctx)
