"""Hand-built work-group-form kernels compiled to native code and checked against numpy."""
import numpy as np
import pytest

from loomcl import ir
from loomcl.driver import backend
from loomcl.ir import types as ty
from loomcl.options import CompilerOptions

from codegen_helpers import GLOBAL, global_id, kernel, launch, work_item_loop

L = 64


def build_vector_add(local=L):
    f, b = kernel("vector_add", [GLOBAL, GLOBAL, GLOBAL], ["a", "b", "c"], (local, 1, 1))
    a, bb, c = f.params

    def body(b, lid):
        gid = global_id(b, lid, local)
        x = b.load(ty.f32, b.element_ptr(ty.f32, a, gid, "pa"), "x")
        y = b.load(ty.f32, b.element_ptr(ty.f32, bb, gid, "pb"), "y")
        b.store(b.binary(ir.BinaryOpcode.FADD, x, y, "sum"), b.element_ptr(ty.f32, c, gid, "pc"))

    work_item_loop(b, local, body)
    b.ret()
    ir.verify_function(f)
    return f


def build_saxpy(local=L):
    """y[i] = a * x[i] + y[i] with an int index (sign-extended) and a float scalar argument."""
    f, b = kernel("saxpy", [ty.f32, GLOBAL, GLOBAL], ["alpha", "x", "y"], (local, 1, 1))
    alpha, x, y = f.params

    def body(b, lid):
        gid = b.cast(ir.CastOpcode.TRUNC, global_id(b, lid, local), ty.i32, "gid32")
        px, py = b.element_ptr(ty.f32, x, gid, "px"), b.element_ptr(ty.f32, y, gid, "py")
        ax = b.binary(ir.BinaryOpcode.FMUL, alpha, b.load(ty.f32, px, "xv"), "ax")
        b.store(b.binary(ir.BinaryOpcode.FADD, ax, b.load(ty.f32, py, "yv"), "r"), py)

    work_item_loop(b, local, body)
    b.ret()
    return f


def test_vector_add():
    n = 16 * L
    a, bb = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
    c = np.zeros(n, np.float32)
    compiled = backend.compile_work_group(build_vector_add())
    assert compiled.local_size == (L, 1, 1) and compiled.static_local_bytes == 0
    launch(compiled, [a, bb, c], (n,))
    np.testing.assert_array_equal(c, a + bb)


def test_group_range_runs_only_its_groups():
    n = 8 * L
    a, bb = np.ones(n, np.float32), np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    launch(backend.compile_work_group(build_vector_add()), [a, bb, c], (n,), begin=3, end=5)
    expected = np.zeros(n, np.float32)
    expected[3 * L:5 * L] = 2
    np.testing.assert_array_equal(c, expected)


def test_saxpy():
    n = 4 * L
    x, y = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
    expected = np.float32(2.5) * x + y
    launch(backend.compile_work_group(build_saxpy()), [np.float32(2.5), x, y], (n,))
    np.testing.assert_allclose(y, expected, rtol=1e-6)


def test_vector_add_work_item_loop_is_vectorized():
    text = backend.llvm_ir(build_vector_add(256))
    assert "x float>" in text
    assert "llvm.loop.parallel_accesses" in backend.llvm_ir(build_vector_add(256), optimized=False)


@pytest.mark.parametrize("parallel_metadata", [True, False])
def test_options_switch_metadata_off(parallel_metadata):
    options = CompilerOptions(parallel_metadata=parallel_metadata)
    text = backend.llvm_ir(build_vector_add(), options=options, optimized=False)
    assert ("llvm.access.group" in text) == parallel_metadata


def test_assembly_is_emitted():
    assert "loomcl_wg_vector_add" in backend.assembly(build_vector_add())
