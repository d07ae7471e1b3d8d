"""The on-disk object cache: a second process compiles the same kernel without running the optimizer."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from loomcl import jit
from loomcl.driver import backend
from loomcl.jit import cache
from loomcl.options import CompilerOptions
from loomcl.options import DEFAULT_OPTIONS

HERE = Path(__file__).parent
ROOT = HERE.parents[1]

_CHILD = """
import json, sys, time
import numpy as np
sys.path.insert(0, {here!r})
from test_basic_kernels import build_vector_add
from codegen_helpers import launch
from loomcl.driver import backend
from loomcl import jit
from loomcl.options import DEFAULT_OPTIONS
from loomcl.jit import compile_client
start = time.perf_counter()
compiled = backend.compile_work_group(build_vector_add())
elapsed = time.perf_counter() - start
a = np.arange(1024, dtype=np.float32)
c = np.zeros_like(a)
launch(compiled, [a, a, c], (1024,))
print(json.dumps({{"optimizer_runs": jit.stats.optimizer_runs, "hits": jit.stats.disk_cache_hits,
                  "ok": bool((c == 2 * a).all()), "ms": elapsed * 1e3,
                  "servers": compile_client.POOL.started}}))
"""


def _compile_in_child(cache_dir: Path) -> dict:
    env = dict(os.environ, LOOMCL_CACHE_DIR=str(cache_dir), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", _CHILD.format(here=str(HERE))], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_second_process_hits_the_cache(tmp_path):
    first = _compile_in_child(tmp_path)
    second = _compile_in_child(tmp_path)
    assert first == {**first, "optimizer_runs": 1, "hits": 0, "ok": True, "servers": 1}
    assert second == {**second, "optimizer_runs": 0, "hits": 1, "ok": True, "servers": 0}  # no process
    assert len(list(tmp_path.glob("*" + cache.SUFFIX))) == 1
    assert not list(tmp_path.glob("*.tmp"))


def test_key_depends_on_options_and_text():
    text = "define void @f() { ret void }"
    base = cache.cache_key(text, DEFAULT_OPTIONS)
    assert base == cache.cache_key(text, DEFAULT_OPTIONS)
    assert base != cache.cache_key(text, CompilerOptions(vectorize=False))
    assert base != cache.cache_key(text + " ", DEFAULT_OPTIONS)
    assert base == cache.cache_key(text, CompilerOptions(use_cache=False))


def test_unwritable_cache_directory_is_only_a_miss(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("LOOMCL_CACHE_DIR", str(blocker / "cache"))
    with pytest.warns(RuntimeWarning, match="cannot write its kernel cache"):
        cache.store("0" * 64, b"object")
    assert cache.load("0" * 64) is None
