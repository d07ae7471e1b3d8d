"""The compile-time section: the generated large programs compute what their Python model says on
loomcl (so the bench builds correct code, not just code), and `loomcl bench --compile --quick`
reports a cold build and first launch with loomcl's time per stage."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

import loomcl as cl
from loomcl.bench.compile_time import section, synthetic


def test_generated_program_computes_its_model_on_every_kernel():
    program = synthetic.generate(synthetic.Shape(levels=3, width=3, statements=8, kernels=2), seed=7)
    context = cl.create_some_context()
    queue = cl.CommandQueue(context)
    built = cl.Program(context, program.source).build()
    inputs = np.random.default_rng(3).integers(0, 1 << 32, 128, dtype=np.uint32)
    in_buf = cl.Buffer(context, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=inputs)
    out_buf = cl.Buffer(context, cl.mem_flags.WRITE_ONLY, inputs.nbytes)
    for kernel in program.kernels:  # k0 straight, k1 through local memory and a barrier
        getattr(built, kernel)(queue, inputs.shape, (64,), in_buf, out_buf)
        out = np.empty_like(inputs)
        cl.enqueue_copy(queue, out, out_buf)
        queue.finish()
        np.testing.assert_array_equal(out, np.array(program.expected(kernel, inputs), np.uint32), err_msg=kernel)


def test_generated_programs_have_the_asked_shape_and_are_deterministic():
    shape = synthetic.Shape(levels=2, width=3, statements=4, kernels=3)
    program = synthetic.generate(shape, seed=5)
    assert program.source == synthetic.generate(shape, seed=5).source
    assert program.source != synthetic.generate(shape, seed=6).source
    assert program.source.count("uint f") == shape.functions and program.kernels == ["k0", "k1", "k2"]
    assert program.source.count("barrier(") == 1


def test_summary_ratio_and_geometric_mean():
    fast = section.CompileRow("a", {"loomcl": {"status": "ok", "build_s": 1.0, "launch_s": 1.0,
                                               "stages": {"frontend": 0.5, "llvm": 0.25}},
                                    "pocl": {"status": "ok", "build_s": 7.0, "launch_s": 1.0}})
    slow = section.CompileRow("b", {"loomcl": {"status": "ok", "build_s": 4.0, "launch_s": 0.0, "stages": {}},
                                    "pocl": {"status": "ok", "build_s": 1.0, "launch_s": 0.0}})
    failed = section.CompileRow("c", {"loomcl": {"status": "error", "reason": "build: boom"},
                                      "pocl": {"status": "ok", "build_s": 1.0, "launch_s": 0.0}})
    assert fast.ratio == 4.0 and slow.ratio == 0.25 and failed.ratio is None
    text = section.summary([fast, slow, failed])
    assert "geometric mean of PoCL / loomcl (build + first launch): 1.00x over 2" in text
    assert "c on loomcl: error: build: boom" in text
    assert section.exit_status([fast, slow]) == 0 and section.exit_status([failed]) == 1


def test_quick_compile_section_runs(tmp_path):
    out = tmp_path / "compile.json"
    done = subprocess.run([sys.executable, "-m", "loomcl", "bench", "--compile", "--quick", "--json", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Compile time: cold build + first launch" in done.stdout
    rows = json.loads(out.read_text())["compile"]["rows"]
    assert [row["program"] for row in rows] == ["generated-small"]
    loomcl = rows[0]["results"]["loomcl"]
    assert loomcl["status"] == "ok" and loomcl["build_s"] > 0 and loomcl["launch_s"] > 0
    assert {"frontend", "lowering", "transforms", "llvm-ir", "llvm"} <= set(loomcl["stages"])
    pocl = rows[0]["results"]["pocl"]
    assert pocl["status"] == "ok" or "PoCL not available" in pocl["reason"]
