"""The work-group function is the same in every process: its text keys the kernel cache, and a pass that
walks a set of blocks or instructions walks it in an order that changes from run to run (Python's
string hashes are salted per process, which moves where objects land and how sets order them).

Regression: structurize-uniform-barriers demoted the varying phis of its chosen blocks in the order of
a set of blocks, so nbody's four accumulators got their context arrays in either order."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NBODY = ROOT / "loomcl" / "bench" / "kernels" / "nbody.cl"
PRINT_WG = ("import sys; from loomcl.driver.compiler import build; from loomcl.ir import print_function; "
            "p = build(open(sys.argv[1]).read()); "
            "print(print_function(p.work_group_ir('nbody_step', (64, 1, 1), ids_fit_int=True)))")


def _work_group_text(hash_seed: int, tmp_path) -> str:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), LOOMCL_CACHE_DIR=str(tmp_path / f"cache{hash_seed}"))
    done = subprocess.run([sys.executable, "-c", PRINT_WG, str(NBODY)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


def test_nbody_work_group_function_does_not_depend_on_the_hash_seed(tmp_path):
    texts = {seed: _work_group_text(seed, tmp_path) for seed in (1, 3)}  # 1 and 3 differed before
    assert "acc.0.context" in texts[1]
    assert texts[1] == texts[3]
