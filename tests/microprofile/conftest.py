"""Fixtures of the micro-profiling tests: variants compiled before the first launch (sync mode), a
fresh cache directory per test (no choice remembered by an earlier test), no forced winner."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(autouse=True)
def profiling_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LOOMCL_MICROPROFILE", "sync")
    monkeypatch.setenv("LOOMCL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LOOMCL_MICROPROFILE_FORCE", raising=False)
    monkeypatch.delenv("LOOMCL_CACHE_SIZE", raising=False)
    monkeypatch.delenv("LOOMCL_CHECK", raising=False)
    return tmp_path / "cache"
