"""The integer, common and relational builtin handlers (lower/builtins_integer.py,
builtins_common.py, builtins_relational.py) on vector IR types, and the work-item loops around
them vectorized.

The handlers are written for scalars and vectors alike, so that a vector overload is only a new row
of the builtin table. Here each handler builds a kernel once over `<4 x T>` values (with the
overload a vector row would give) and once over scalars, and the lanes must agree: bit for bit,
except that a relational vector lane is -1 where the scalar form gives 1.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from loomcl.driver import backend
from loomcl.frontend import types as T
from loomcl.frontend.builtins import ROWS, Builtin, Overload, overloads
from loomcl.ir import types as ty
from loomcl.lower.builtins_common import COMMON_FUNCTIONS
from loomcl.lower.builtins_integer import INTEGER_FUNCTIONS
from loomcl.lower.builtins_relational import RELATIONAL_FUNCTIONS
from loomcl.lower.types import value_type

from codegen_helpers import GLOBAL, global_id, kernel, launch, work_item_loop

LOCAL, LANES, N = 64, 4, 1024
RNG = np.random.default_rng(11)
NUMPY = {T.INT: np.int32, T.UINT: np.uint32, T.LONG: np.int64, T.ULONG: np.uint64, T.FLOAT: np.float32,
         T.SHORT: np.int16, T.USHORT: np.uint16}


def scalar_overload(builtin, t: T.Type) -> Overload:
    name = next(row.names.split()[0] for row in ROWS if row.builtin is builtin)
    return next(o for o in overloads(name) if o.params[0] == t)


def vector_overload(o: Overload) -> Overload:
    """The overload a 4-lane row would give (the scalar forms' int result becomes int4)."""
    return Overload(o.name, o.builtin, T.vector_of(o.result, LANES),
                    tuple(T.vector_of(p, LANES) for p in o.params))


def build(handler, call: Overload):
    arity = len(call.params)
    f, b = kernel("library", [GLOBAL] * (arity + 1), [f"in{k}" for k in range(arity)] + ["out"],
                  (LOCAL, 1, 1))

    def body(b, lid):
        gid = global_id(b, lid, LOCAL)
        args = [b.load(value_type(p), b.element_ptr(value_type(p), f.params[k], gid))
                for k, p in enumerate(call.params)]
        result = value_type(call.result)
        b.store(handler(b, args, call), b.element_ptr(result, f.params[arity], gid))

    work_item_loop(b, LOCAL, body)
    b.ret()
    return f


def aligned(values: np.ndarray) -> np.ndarray:
    """A copy at a 64-byte boundary, as the runtime's buffers are: vector loads and stores of
    `<4 x i64>` assume their natural 32-byte alignment."""
    raw = np.zeros(values.nbytes + 64, np.uint8)
    start = -raw.ctypes.data % 64
    copy = raw[start:start + values.nbytes].view(values.dtype)
    copy[:] = values
    return copy


def run(handler, call: Overload, inputs, lanes: int = 1):
    out = aligned(np.zeros(N * LANES, NUMPY[call.result.element if call.result.is_vector else call.result]))
    launch(backend.compile_work_group(build(handler, call)), [*map(aligned, inputs), out],
           (N * LANES // lanes,))
    return out


def random_values(t: T.Type):
    dtype = NUMPY[t]
    if t == T.FLOAT:
        special = np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-40, 1.2e-38, 3e38])
        values = (RNG.standard_normal(N * LANES) * 100).astype(np.float32)
        values[:special.size * 8] = np.tile(special, 8)
        return RNG.permutation(values)
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, N * LANES, dtype=dtype, endpoint=True)


CASES = ([(b, h, t) for b, h in INTEGER_FUNCTIONS.items() for t in (T.INT, T.UINT)]
         + [(b, h, T.FLOAT) for b, h in {**COMMON_FUNCTIONS, **RELATIONAL_FUNCTIONS}.items()
            if b not in (Builtin.ANY, Builtin.ALL)])  # reductions over lanes, tested in e2e/test_vectors.py


@pytest.mark.parametrize("builtin, handler, t", CASES,
                         ids=[f"{b.name.lower()}-{t}" for b, _, t in CASES])
def test_vector_lanes_agree_with_scalars(builtin, handler, t):
    scalar = scalar_overload(builtin, t)
    inputs = [random_values(p) for p in scalar.params]
    if builtin is Builtin.SELECT:  # a vector lane picks by the sign bit, a scalar by nonzero
        inputs[2] = RNG.choice(np.int32([0, -1]), N * LANES)
    expected = run(handler, scalar, inputs)
    got = run(handler, vector_overload(scalar), inputs, LANES)
    if builtin in RELATIONAL_FUNCTIONS and scalar.result == T.INT:
        expected = -expected
    np.testing.assert_array_equal(got.view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize("builtin, vector_intrinsic", [
    (Builtin.POPCOUNT, "llvm.ctpop.v"), (Builtin.CLZ, "llvm.ctlz.v"), (Builtin.ROTATE, "llvm.fshl.v"),
    (Builtin.ADD_SAT, "llvm.sadd.sat.v"), (Builtin.MUL_HI, "mul nsw <")])
def test_work_item_loops_around_integer_functions_vectorize(builtin, vector_intrinsic):
    text = backend.llvm_ir(build(INTEGER_FUNCTIONS[builtin], scalar_overload(builtin, T.INT)))
    assert vector_intrinsic in text and "x i32>" in text
    assert not re.search(r"call [^@]*@(?!llvm\.)", text), "a call that is not an intrinsic"


def test_vector_select_picks_by_the_sign_bit():
    call = vector_overload(scalar_overload(Builtin.SELECT, T.INT))
    select = RELATIONAL_FUNCTIONS[Builtin.SELECT]
    a, b = random_values(T.INT), random_values(T.INT)
    c = RNG.choice(np.int32([0, 1, -1, -2**31, 2**30, 2**31 - 1]), N * LANES)
    got = run(select, call, [a, b, c], LANES)
    np.testing.assert_array_equal(got, np.where(c < 0, b, a))
