"""The hand-written test kernels and `fake_build`, the stand-in for loomcl.driver.compiler.build.

`fake_build` compiles every kernel below whatever the source says, except for two trigger strings
that exercise the error paths: source containing "#error" raises CompileError, options containing
"-bogus" raise OptionError.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir

from fake_compiler import (
    F32,
    I32,
    I64,
    FakeCompiledProgram,
    FakeKernel,
    by_value,
    const,
    global_ptr,
    local_ptr,
    scalar,
)
from loomcl.frontend import CompileError, OptionError

F64 = ir.DoubleType()
FLOAT4 = np.dtype((np.float32, 4))


def _vadd(w):
    b = w.b
    i = w.global_id[0]
    n = b.zext(b.trunc(w.slot(3), I32), I64)
    with b.if_then(b.icmp_signed("<", i, n)):
        x = b.load(w.element(w.global_ptr(0), i, F32), typ=F32)
        y = b.load(w.element(w.global_ptr(1), i, F32), typ=F32)
        b.store(b.fadd(x, y), w.element(w.global_ptr(2), i, F32))


def _record(w):
    b = w.b
    linear = w.linear_global()
    b.atomic_rmw("add", w.element(w.global_ptr(0), linear, I32), const(1, I32), "monotonic")
    for d in range(3):
        at = b.add(b.mul(linear, const(3)), const(d))
        b.store(b.trunc(w.group_id[d], I32), w.element(w.global_ptr(1), at, I32))
        b.store(const(w.local_size[d], I32), w.element(w.global_ptr(2), at, I32))
        b.store(b.trunc(w.local_id[d], I32), w.element(w.global_ptr(3), at, I32))


def _scale(w):
    b = w.b
    i = w.global_id[0]
    factor = b.bitcast(b.trunc(w.slot(1), I32), F32)
    k = b.sitofp(b.trunc(w.slot(2), I32), F32)
    pointer = w.element(w.global_ptr(0), i, F32)
    b.store(b.fadd(b.fmul(b.load(pointer, typ=F32), factor), k), pointer)


def _slots(count):
    def body(w):
        b = w.b
        with b.if_then(b.icmp_signed("==", w.linear_global(), const(0))):
            for index in range(1, count):
                b.store(w.slot(index), w.element(w.global_ptr(0), const(index - 1), I64))
    return body


def _local_fill(w):
    b = w.b
    lid = w.linear_local()
    value = b.load(w.element(w.global_ptr(0), w.global_id[0], F32), typ=F32)
    b.store(value, w.element(w.local_ptr(2), lid, F32))
    static = b.gep(w.arena, [b.mul(b.srem(lid, const(64)), const(4))], source_etype=ir.IntType(8))
    b.store(ir.Constant(F32, -1.0), static)


def _local_reverse(w):
    b = w.b
    lid = w.linear_local()
    mirrored = b.sub(const(w.local_size[0] - 1), lid)
    value = b.load(w.element(w.local_ptr(2), mirrored, F32), typ=F32)
    b.store(value, w.element(w.global_ptr(1), w.global_id[0], F32))


def _store_gid(w):
    b = w.b
    b.store(b.trunc(w.global_id[0], I32), w.element(w.global_ptr(0), w.global_id[0], I32))


def _by_value(w):
    b = w.b
    vector = b.inttoptr(w.slot(1), ir.PointerType())
    first = b.load(vector, typ=F32)
    last = b.load(b.gep(vector, [const(3)], source_etype=F32), typ=F32)
    b.store(b.fadd(first, last), w.element(w.global_ptr(0), w.global_id[0], F32))


SLOT_PARAMS = (
    global_ptr("out", np.uint64),
    scalar("c", np.int8, "char"),
    scalar("us", np.uint16, "ushort"),
    scalar("i", np.int32, "int"),
    scalar("l", np.int64, "long"),
    scalar("ul", np.uint64, "ulong"),
    scalar("f", np.float32, "float"),
    scalar("d", np.float64, "double"),
    scalar("h", np.float16, "half"),
    scalar("flag", np.bool_, "bool"),
)

KERNELS = [
    FakeKernel("vadd", (global_ptr("a"), global_ptr("b"), global_ptr("c"), scalar("n", np.uint32, "uint")), [_vadd]),
    FakeKernel(
        "record",
        tuple(global_ptr(n, np.int32) for n in ("count", "groups", "sizes", "lids")),
        [_record],
    ),
    FakeKernel("scale", (global_ptr("x"), scalar("factor", np.float32, "float"), scalar("k", np.int32, "int")), [_scale]),
    FakeKernel("slots", SLOT_PARAMS, [_slots(len(SLOT_PARAMS))]),
    FakeKernel(
        "local_reverse",
        (global_ptr("src"), global_ptr("dst"), local_ptr("scratch")),
        [_local_fill, _local_reverse],
        static_local_bytes=256,
    ),
    FakeKernel("empty", (), []),
    FakeKernel("store_gid", (global_ptr("out", np.int32),), [_store_gid]),
    FakeKernel("fixed", (global_ptr("out", np.int32),), [_store_gid], reqd_work_group_size=(8, 1, 1)),
    FakeKernel("by_value", (global_ptr("out"), by_value("v", FLOAT4, "float4")), [_by_value]),
    FakeKernel(
        "by_value3",
        (global_ptr("out"), by_value("v", np.dtype((np.float32, 3)), "float3", size=16)),
        [_by_value],
    ),
]


def fake_build(source: str, options: str) -> FakeCompiledProgram:
    if "-bogus" in options:
        raise OptionError("-bogus")
    if "#error" in source:
        error = CompileError([])
        error.log = "input.cl:1:2: error: #error stop here"
        raise error
    return FakeCompiledProgram(KERNELS)  # a clean build: an empty log, no CompilerWarning
