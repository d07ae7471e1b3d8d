"""Each instruction family and each source of values, compiled and run against numpy."""
import numpy as np
import pytest

from loomcl import ir
from loomcl.codegen import CodegenError
from loomcl.driver import backend
from loomcl.ir import types as ty

from codegen_helpers import CONSTANT, GLOBAL, LOCAL, global_id, kernel, launch, work_item_loop

C = ir.Constant


def test_group_ids_and_launch_fields_in_three_dimensions():
    """out[group linear] = group ids and launch fields, one work-item per group writing them."""
    f, b = kernel("ids", [GLOBAL], ["out"], (1, 1, 1))
    queries = [(ir.Query.GROUP_ID, d) for d in range(3)] + [
        (ir.Query.NUM_GROUPS, 1), (ir.Query.GLOBAL_SIZE, 2), (ir.Query.GLOBAL_OFFSET, 0),
        (ir.Query.ENQUEUED_LOCAL_SIZE, 0), (ir.Query.WORK_DIM, 0)]
    gx, gy, gz = (b.query(ir.Query.GROUP_ID, d) for d in range(3))
    linear = b.add(b.mul(b.add(b.mul(gz, C(ty.i64, 3)), gy), C(ty.i64, 4)), gx)
    row = b.mul(linear, C(ty.i64, len(queries)))
    for k, (query, dim) in enumerate(queries):
        b.store(b.query(query, dim), b.element_ptr(ty.i64, f.params[0], b.add(row, C(ty.i64, k))))
    b.ret()
    out = np.zeros((2, 3, 4, len(queries)), np.int64)
    launch(backend.compile_work_group(f), [out], (4, 3, 2), global_offset=(7, 0, 0))
    z, y, x = np.meshgrid(range(2), range(3), range(4), indexing="ij")
    np.testing.assert_array_equal(out[..., 0], x)
    np.testing.assert_array_equal(out[..., 1], y)
    np.testing.assert_array_equal(out[..., 2], z)
    assert (out[..., 3] == 3).all() and (out[..., 4] == 2).all() and (out[..., 5] == 7).all()
    assert (out[..., 6] == 1).all() and (out[..., 7] == 3).all()


def test_local_variable_reverses_within_group():
    """tile[lid] = in[gid]; then out[gid] = tile[L-1-lid] (two work-item loops, as after a barrier)."""
    n, local = 256, 64
    f, b = kernel("reverse", [GLOBAL, GLOBAL], ["inp", "out"], (local, 1, 1))
    tile = ir.GlobalVariable("tile", ty.ArrayType(ty.f32, local), ty.AddressSpace.LOCAL)
    f.local_variables.append(tile)

    def fill(b, lid):
        value = b.load(ty.f32, b.element_ptr(ty.f32, f.params[0], global_id(b, lid, local)))
        b.store(value, b.element_ptr(ty.f32, tile, lid))

    def drain(b, lid):
        mirrored = b.sub(C(ty.i64, local - 1), lid)
        value = b.load(ty.f32, b.element_ptr(ty.f32, tile, mirrored))
        b.store(value, b.element_ptr(ty.f32, f.params[1], global_id(b, lid, local)))

    work_item_loop(b, local, fill, "a")
    work_item_loop(b, local, drain, "b")
    b.ret()
    compiled = backend.compile_work_group(f)
    assert compiled.static_local_bytes >= local * 4
    inp, out = np.arange(n, dtype=np.float32), np.zeros(n, np.float32)
    launch(compiled, [inp, out], (n,))
    np.testing.assert_array_equal(out, inp.reshape(-1, local)[:, ::-1].ravel())


def test_local_pointer_argument_at_its_arena_offset():
    f, b = kernel("local_arg", [LOCAL, GLOBAL], ["scratch", "out"], (8, 1, 1))

    def body(b, lid):
        p = b.element_ptr(ty.i32, f.params[0], lid)
        b.store(b.cast(ir.CastOpcode.TRUNC, b.mul(lid, lid), ty.i32), p)
        b.store(b.load(ty.i32, p), b.element_ptr(ty.i32, f.params[1], global_id(b, lid, 8)))

    work_item_loop(b, 8, body)
    b.ret()
    out = np.zeros(16, np.int32)
    launch(backend.compile_work_group(f), [128, out], (16,), arena_bytes=256)
    np.testing.assert_array_equal(out, np.tile(np.arange(8) ** 2, 2))


def test_constant_table_lookup():
    table = [1.5, -2.0, 3.25, 0.1]
    f, b = kernel("lookup", [GLOBAL, GLOBAL], ["index", "out"], (16, 1, 1))
    gv = ir.GlobalVariable("table", ty.ArrayType(ty.f32, 4), ty.AddressSpace.CONSTANT, table)

    def body(b, lid):
        gid = global_id(b, lid, 16)
        i = b.load(ty.i32, b.element_ptr(ty.i32, f.params[0], gid))
        b.store(b.load(ty.f32, b.element_ptr(ty.f32, gv, i)), b.element_ptr(ty.f32, f.params[1], gid))

    work_item_loop(b, 16, body)
    b.ret()
    index = np.random.randint(0, 4, 32).astype(np.int32)
    out = np.zeros(32, np.float32)
    launch(backend.compile_work_group(f), [index, out], (32,))
    np.testing.assert_array_equal(out, np.array(table, np.float32)[index])


def test_constant_struct_with_padding():
    """struct { char c; double d; short s; } kept byte-exact, read through field pointers."""
    st = ty.StructType("pad", (ty.i8, ty.f64, ty.i16))
    gv = ir.GlobalVariable("s", ty.ArrayType(st, 2), ty.AddressSpace.CONSTANT, [7, 2.5, -3, 9, -1.25, 11])
    f, b = kernel("fields", [GLOBAL], ["out"], (1, 1, 1))
    for k in range(2):
        elem = b.element_ptr(st, gv, C(ty.i32, k))
        d = b.load(ty.f64, b.field_ptr(st, elem, 1))
        c = b.cast(ir.CastOpcode.SITOFP, b.load(ty.i8, b.field_ptr(st, elem, 0)), ty.f64)
        s = b.cast(ir.CastOpcode.SITOFP, b.load(ty.i16, b.field_ptr(st, elem, 2)), ty.f64)
        for j, v in enumerate((c, d, s)):
            b.store(v, b.element_ptr(ty.f64, f.params[0], C(ty.i64, 3 * k + j)))
    b.ret()
    out = np.zeros(6, np.float64)
    launch(backend.compile_work_group(f), [out], (1,))
    np.testing.assert_array_equal(out, [7, 2.5, -3, 9, -1.25, 11])


@pytest.mark.parametrize("opcode, reduce", [
    (ir.AtomicOpcode.ADD, lambda v: v.sum()), (ir.AtomicOpcode.SMIN, lambda v: v.min()),
    (ir.AtomicOpcode.UMAX, lambda v: v.view(np.uint32).max().view(np.int32)),
    (ir.AtomicOpcode.XOR, lambda v: np.bitwise_xor.reduce(v))])
def test_atomic_rmw(opcode, reduce):
    f, b = kernel("atomics", [GLOBAL, GLOBAL, GLOBAL], ["values", "acc", "old"], (32, 1, 1))

    def body(b, lid):
        gid = global_id(b, lid, 32)
        v = b.load(ty.i32, b.element_ptr(ty.i32, f.params[0], gid))
        b.store(b.atomic_rmw(opcode, f.params[1], v), b.element_ptr(ty.i32, f.params[2], gid))

    work_item_loop(b, 32, body)
    b.ret()
    values = np.random.randint(-1000, 1000, 128).astype(np.int32)
    start = {ir.AtomicOpcode.SMIN: 2**31 - 1, ir.AtomicOpcode.UMAX: 0}.get(opcode, 0)
    acc, old = np.array([start], np.int32), np.zeros(128, np.int32)
    launch(backend.compile_work_group(f), [values, acc, old], (128,))
    assert acc[0] == reduce(values)


def test_atomic_cmpxchg_float_returns_old_value():
    f, b = kernel("cas", [GLOBAL, GLOBAL], ["cell", "old"], (1, 1, 1))
    first = b.atomic_cmpxchg(f.params[0], C(ty.f32, 1.5), C(ty.f32, 4.0))
    second = b.atomic_cmpxchg(f.params[0], C(ty.f32, 1.5), C(ty.f32, 8.0))
    b.store(first, f.params[1])
    b.store(second, b.element_ptr(ty.f32, f.params[1], C(ty.i64, 1)))
    b.ret()
    cell, old = np.array([1.5], np.float32), np.zeros(2, np.float32)
    launch(backend.compile_work_group(f), [cell, old], (1,))
    assert cell[0] == 4.0 and list(old) == [1.5, 4.0]


def test_switch_and_phi():
    """out[i] = {0: 10, 1: 20, 5: 50}.get(in[i] , -1) via a switch joining in a phi."""
    f, b = kernel("sw", [GLOBAL, GLOBAL], ["inp", "out"], (1, 1, 1))
    gid = b.query(ir.Query.GROUP_ID, 0)
    v = b.load(ty.i32, b.element_ptr(ty.i32, f.params[0], gid))
    join = f.add_block("join")
    cases = {0: 10, 1: 20, 5: 50, -3: 7}
    blocks = {k: f.add_block(f"case{k}") for k in cases}
    default = f.add_block("default")
    b.switch(v, default, [(k, blk) for k, blk in blocks.items()])
    for blk in [*blocks.values(), default]:
        with b.at_end(blk):
            b.jump(join)
    b.position_at_end(join)
    phi = b.phi(ty.i32)
    for k, blk in blocks.items():
        phi.add_incoming(C(ty.i32, cases[k]), blk)
    phi.add_incoming(C(ty.i32, -1), default)
    b.store(phi, b.element_ptr(ty.i32, f.params[1], gid))
    b.ret()
    ir.verify_function(f)
    inp = np.array([0, 1, 2, 5, -3, 9], np.int32)
    out = np.zeros(6, np.int32)
    launch(backend.compile_work_group(f), [inp, out], (6,))
    np.testing.assert_array_equal(out, [10, 20, -1, 50, 7, -1])


def test_scalar_arguments_of_every_width():
    params = [ty.i8, ty.i16, ty.i64, ty.f64, ty.f16, GLOBAL]
    f, b = kernel("scalars", params, ["a", "b", "c", "d", "e", "out"], (1, 1, 1))
    values = [b.cast(ir.CastOpcode.SITOFP, f.params[0], ty.f64), b.cast(ir.CastOpcode.SITOFP, f.params[1], ty.f64),
              b.cast(ir.CastOpcode.SITOFP, f.params[2], ty.f64), f.params[3],
              b.cast(ir.CastOpcode.FPEXT, f.params[4], ty.f64)]
    for k, v in enumerate(values):
        b.store(v, b.element_ptr(ty.f64, f.params[5], C(ty.i32, k)))
    b.ret()
    out = np.zeros(5)
    args = [np.int8(-5), np.int16(-300), np.int64(-2**40), np.float64(0.1), np.float16(1.5), out]
    launch(backend.compile_work_group(f), args, (1,))
    np.testing.assert_array_equal(out, [-5, -300, -2**40, 0.1, 1.5])


def test_vector_values_and_by_value_argument():
    """out = shuffle(v, in) where v is a float4 passed by value, plus extract/insert element."""
    v4 = ty.VectorType(ty.f32, 4)
    f, b = kernel("vec", [v4, GLOBAL], ["v", "out"], (1, 1, 1))
    loaded = b.load(v4, f.params[1])
    swapped = b.insert(ir.ShuffleVector(f.params[0], loaded, [3, 2, 5, 4]))
    lane = b.insert(ir.ExtractElement(swapped, C(ty.i32, 0)))
    result = b.insert(ir.InsertElement(swapped, b.binary(ir.BinaryOpcode.FMUL, lane, C(ty.f32, 10.0)), C(ty.i32, 3)))
    b.store(b.binary(ir.BinaryOpcode.FADD, result, ir.VectorConstant(v4, [C(ty.f32, 0.5)] * 4)), f.params[1])
    b.ret()
    host_v = np.array([1, 2, 3, 4], np.float32)
    out = np.array([10, 20, 30, 40], np.float32)
    launch(backend.compile_work_group(f), [host_v, out], (1,))
    np.testing.assert_array_equal(out, np.array([4, 3, 20, 40], np.float32) + 0.5)


def test_private_array_and_select():
    """A private array (alloca) filled in a loop and read back; select picks the larger."""
    f, b = kernel("private", [GLOBAL], ["out"], (4, 1, 1))
    arr = b.alloca(ty.ArrayType(ty.i32, 4), "arr")

    def body(b, lid):
        lid32 = b.cast(ir.CastOpcode.TRUNC, lid, ty.i32)
        b.store(b.mul(lid32, C(ty.i32, 3)), b.element_ptr(ty.i32, arr, lid))

    def read(b, lid):
        v = b.load(ty.i32, b.element_ptr(ty.i32, arr, b.sub(C(ty.i64, 3), lid)))
        big = b.select(b.compare(ir.Predicate.SGT, v, C(ty.i32, 4)), v, C(ty.i32, 4))
        b.store(big, b.element_ptr(ty.i32, f.params[0], global_id(b, lid, 4)))

    work_item_loop(b, 4, body, "a")
    work_item_loop(b, 4, read, "b")
    b.ret()
    out = np.zeros(4, np.int32)
    launch(backend.compile_work_group(f), [out], (4,))
    np.testing.assert_array_equal(out, [9, 6, 4, 4])


@pytest.mark.parametrize("make", [
    lambda b: b.barrier(1), lambda b: b.query(ir.Query.LOCAL_ID, 0), lambda b: b.query(ir.Query.LOCAL_SIZE, 0)])
def test_work_item_constructs_are_internal_errors(make):
    f, b = kernel("bad", [], [], (4, 1, 1))
    make(b)
    b.ret()
    with pytest.raises(CodegenError, match="code generation"):
        backend.compile_work_group(f)


def test_function_without_local_size_is_rejected():
    f, b = kernel("unspecialized", [], [])
    f.local_size = None
    b.ret()
    with pytest.raises(CodegenError, match="local_size"):
        backend.compile_work_group(f)


def test_remaining_call_is_emitted_as_internal_function():
    helper = ir.Function("twice", ty.i32, [ty.i32], ["x"])
    hb = ir.Builder(helper.add_block("entry"))
    hb.ret(hb.add(helper.params[0], helper.params[0]))
    f, b = kernel("caller", [GLOBAL], ["out"], (1, 1, 1))
    b.store(b.call(helper, [C(ty.i32, 21)]), f.params[0])
    b.ret()
    out = np.zeros(1, np.int32)
    launch(backend.compile_work_group(f), [out], (1,))
    assert out[0] == 42
