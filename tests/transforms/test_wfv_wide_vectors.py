"""Wide OpenCL vectors (float8, float16, double8) in kernel loops run across work-items as float4 does.

clpeak's compute chains (per work-item, a short loop of multiply-adds on vector values) left the
float8 ones 5x slower per lane than float4: the loop, 16 trips, was too big for LLVM's full unroll, so
it stayed inside the x work-item loop, which LLVM then never vectorizes; and whole-function
vectorization had left it to LLVM, thinking it unrolled. Both now ask one question
(analysis/trip_count.py's `unrolled_loops`). A float16 chain keeps more vectors live than AVX-512 has
registers and stays with LLVM (wfv_shapes.py's `vector_state`).

clpeak's float16 kernel carries x and y, each computed from the other: kept as two <16 x float> values
the loop was one chain of dependent operations per work-item (a quarter of float8's rate); now its 32
lanes are scalarized and run 16 work-items a vector (scalarize_vectors.py's `keeps_vectors`), on
AVX-512; with AVX2's 16 registers they stay whole."""
import re

import numpy as np
import pytest

import loomcl as cl
from loomcl.driver import backend
from loomcl.driver.compiler import build
from loomcl.ir.printer import print_function
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function


def _chain(t: str, width: int, trips: int) -> str:
    """z += x*y + y, x*y + x, eight times a trip, on `t`<width> values; one sum per work-item."""
    v = f"{t}{width}"
    step = "z += x * y + y; z += y * x + x; " * 8
    lanes = " + ".join(f"z.s{i:x}" for i in range(width))
    return f"""
__kernel void chain(__global {t} *out, {t} a) {{
    {v} x = ({v})(a) / ({v})({", ".join(str(i + 1) for i in range(width))});
    {v} y = ({v})(({t})get_local_id(0) * ({t})0.001);
    {v} z = ({v})(0);
    for (int i = 0; i < {trips}; i++) {{ {step} }}
    out[get_global_id(0)] = {lanes};
}}"""


def _reference(t, width, trips, a, n, local):
    dt = np.float32 if t == "float" else np.float64
    x = (dt(a) / np.arange(1, width + 1, dtype=dt))[None, :]
    y = (np.arange(n) % local).astype(dt)[:, None] * dt(0.001)
    step = x * y + y + y * x + x
    return (step * dt(8 * trips)).sum(axis=1)


def _form(src):
    return work_group_function(build(src).module, "chain", (64, 1, 1))


@pytest.mark.parametrize("t, width, trips", [("float", 8, 16), ("double", 8, 16), ("float", 4, 32)])
def test_short_loops_too_big_to_unroll_are_vectorized_across_work_items(t, width, trips):
    f = _form(_chain(t, width, trips))
    text = print_function(f)
    assert "wfv: work-item loop x" in text, text[:400]
    lanes = 16 if t == "float" else 8
    elem = "f32" if t == "float" else "f64"
    assert f"phi <{lanes} x {elem}>" in text  # the accumulators: one vector of work-items per component
    llvm = backend.llvm_ir(f, options=CompilerOptions())  # optimized: what LLVM made of it
    adds = re.findall(r"= fadd (?:[a-z]+ )*(<\d+ x [a-z]+>|float|double) ", llvm)
    assert len(adds) >= 16 * width and set(adds) == {f"<{lanes} x {t}>"}, set(adds)  # no scalar or per-work-item chain


def test_a_loop_keeping_more_vectors_than_registers_is_left_to_llvm():
    f = _form(_chain("float", 16, 8))  # 16 accumulators + 32 hoisted products
    notes = [loop.note for loop in f.work_item_loops]
    assert any("vectors live, more than the 32 registers" in n for n in notes), notes


@pytest.mark.parametrize("t, width, trips", [("float", 8, 16), ("double", 8, 16), ("float", 16, 8)])
def test_wide_chains_compute_what_numpy_does(t, width, trips):
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    n, local, a = 256, 64, 0.75
    dt = np.float32 if t == "float" else np.float64
    out = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, n * dt().itemsize)
    prg = cl.Program(ctx, _chain(t, width, trips)).build()
    prg.chain(q, (n,), (local,), out, dt(a))
    got = np.empty(n, dt)
    cl.enqueue_copy(q, got, out)
    np.testing.assert_allclose(got, _reference(t, width, trips, a, n, local), rtol=1e-4 if t == "float" else 1e-12)


def _pair_chain(trips: int = 8) -> str:
    """clpeak's compute_sp_v16 shape (x and y of 16 lanes, each computed from the other), kept bounded."""
    lanes = ", ".join(f"{i}.0f" for i in range(16))
    step = "x = mad(y, x, 0.25f); y = mad(x, 0.5f, y * 0.125f); " * 16  # too long to unroll 8 times
    total = " + ".join(f"y.s{i:x}" for i in range(16))
    return f"""
__kernel void chain(__global float *out, float a) {{
    float16 x = (float16)({lanes}) * a;
    float16 y = (float16)((float)get_local_id(0) * 0.01f);
    for (int i = 0; i < {trips}; i++) {{ {step} }}
    out[get_global_id(0)] = {total};
}}"""


def _pair_reference(trips, a, n, local):
    x = np.tile(np.arange(16, dtype=np.float32) * np.float32(a), (n, 1))
    y = np.repeat(((np.arange(n) % local).astype(np.float32) * np.float32(0.01))[:, None], 16, axis=1)
    for _ in range(trips * 16):
        x = y * x + np.float32(0.25)
        y = x * np.float32(0.5) + y * np.float32(0.125)
    return y.sum(axis=1, dtype=np.float32)


def test_two_dependent_float16_chains_are_scalarized_and_vectorized_across_work_items():
    f = _form(_pair_chain())
    text = print_function(f)
    assert "wfv: work-item loop x" in text, text[:400]
    assert len(re.findall(r"phi <16 x f32>", text)) >= 32  # one vector of 16 work-items per lane of x and y


def test_with_avx2_registers_the_float16_chains_stay_vectors():
    f = work_group_function(build(_pair_chain()).module, "chain", (64, 1, 1), vector_registers=16)
    text = print_function(f)
    assert "%y = phi <16 x f32>" in text and "wfv: work-item loop x" not in text  # one work-item at a time
    assert any("vector values" in loop.note for loop in f.work_item_loops)  # kept: WFV widens scalars only


def test_the_float16_chains_compute_what_numpy_does():
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    n, local, a = 200, 40, 0.03  # two full vectors of 16 and 8 work-items left in each group
    out = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, n * 4)
    prg = cl.Program(ctx, _pair_chain()).build()
    prg.chain(q, (n,), (local,), out, np.float32(a))
    got = np.empty(n, np.float32)
    cl.enqueue_copy(q, got, out)
    np.testing.assert_allclose(got, _pair_reference(8, a, n, local), rtol=1e-5)
