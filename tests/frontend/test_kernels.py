"""Realistic kernels parse and type-check, and their typed ASTs expose what the lowering needs."""
import pytest

from loomcl.frontend import ast as A
from loomcl.frontend import types as T
from loomcl.frontend.builtins import Builtin
from loomcl.frontend.printer import format_tree

from .util import compile_ok

VECTOR_ADD = """
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c, const unsigned int n) {
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}"""

SAXPY = """
kernel void saxpy(const float alpha, global const float *x, global float *y) {
    size_t i = get_global_id(0);
    y[i] = mad(alpha, x[i], y[i]);
}"""

MATMUL = """
kernel void matmul(const int N, global const float *A, global const float *B, global float *C) {
    int row = get_global_id(1);
    int col = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < N; k++)
        acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
}"""

TILED_MATMUL = """
#define TS 16
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void tiled_matmul(const int M, const int N, const int K,
                  const __global float *A, const __global float *B, __global float *C) {
    const int row = get_local_id(0);
    const int col = get_local_id(1);
    const int globalRow = TS * get_group_id(0) + row;
    const int globalCol = TS * get_group_id(1) + col;
    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];
    float acc = 0.0f;
    const int numTiles = K / TS;
    for (int t = 0; t < numTiles; t++) {
        const int tiledRow = TS * t + row;
        const int tiledCol = TS * t + col;
        Asub[col][row] = A[tiledCol * M + globalRow];
        Bsub[col][row] = B[globalCol * K + tiledRow];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++) {
            acc += Asub[k][row] * Bsub[col][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[globalCol * M + globalRow] = acc;
}"""

REDUCTION = """
kernel void reduce(global const float *in, global float *out, local float *tmp) {
    size_t lid = get_local_id(0);
    size_t s;
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (s = get_local_size(0)/2; s > 0; s >>= 1) {
        if (lid < s) tmp[lid] += tmp[lid+s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = tmp[0];
}"""

BLELLOCH_SCAN = """
__kernel void scan(__global const int *in, __global int *out, __local int *temp, int n) {
    int thid = get_local_id(0);
    int offset = 1;
    temp[2 * thid] = in[2 * thid];
    temp[2 * thid + 1] = in[2 * thid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) { temp[n - 1] = 0; }
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[2 * thid] = temp[2 * thid];
    out[2 * thid + 1] = temp[2 * thid + 1];
}"""

HISTOGRAM = """
#define BINS 256
__kernel void histogram(__global const uchar *data, const uint n, __global uint *hist) {
    __local uint local_hist[BINS];
    uint lid = get_local_id(0);
    for (uint b = lid; b < BINS; b += get_local_size(0))
        local_hist[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_hist[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < BINS; b += get_local_size(0))
        atomic_add(&hist[b], local_hist[b]);
}"""

TRANSPOSE = """
#define TILE_DIM 16
#define BLOCK_ROWS 4
kernel void transpose(global float *odata, global const float *idata, int width, int height) {
    local float tile[TILE_DIM][TILE_DIM + 1];
    int x = get_group_id(0) * TILE_DIM + get_local_id(0);
    int y = get_group_id(1) * TILE_DIM + get_local_id(1);
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[get_local_id(1) + j][get_local_id(0)] = idata[(y + j) * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TILE_DIM + get_local_id(0);
    y = get_group_id(0) * TILE_DIM + get_local_id(1);
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * height + x] = tile[get_local_id(0)][get_local_id(1) + j];
}"""

CONSTANT_TABLES = """
__constant float gauss[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__constant int offsets[] = {-2, -1, 0, 1, 2};
__constant float coeffs[2][3] = {{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}};
static inline float weight(int i) { return gauss[i]; }
kernel void blur(global const float *in, global float *out, const int n) {
    int i = get_global_id(0);
    float sum = 0.0f;
    for (int k = 0; k < 5; k++) {
        int j = clamp(i + offsets[k], 0, n - 1);
        sum += weight(k) * in[j];
    }
    out[i] = sum * coeffs[0][0] + fabs(sqrt(sum)) - floor(native_exp(0.0f));
}"""

ALL = {"vector_add": VECTOR_ADD, "saxpy": SAXPY, "matmul": MATMUL, "tiled_matmul": TILED_MATMUL,
       "reduce": REDUCTION, "scan": BLELLOCH_SCAN, "histogram": HISTOGRAM,
       "transpose": TRANSPOSE, "blur": CONSTANT_TABLES}


def walk(node):
    """Every AST node reachable from node (through dataclass fields and lists)."""
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen or not hasattr(n, "__dataclass_fields__") or isinstance(n, T.Type):
            continue
        seen.add(id(n))
        yield n
        for name in n.__dataclass_fields__:
            if name in ("target", "definition", "decl", "function", "builtin", "overload"):
                continue
            value = getattr(n, name)
            stack.extend(value if isinstance(value, list) else [value])


@pytest.mark.parametrize("name", ALL)
def test_kernel_compiles_and_is_fully_typed(name):
    tu = compile_ok(ALL[name])
    kernel = tu.kernel(name)
    assert kernel.is_kernel and kernel.body is not None
    for node in walk(tu):
        if isinstance(node, A.Expr):
            assert node.type is not None and not node.type.is_error, node
            if isinstance(node, A.Cast):
                assert node.kind is not None
        if isinstance(node, A.VarRef):
            assert node.decl is not None
    assert format_tree(tu)


def test_vector_add_parameters():
    k = compile_ok(VECTOR_ADD).kernel("vector_add")
    assert [p.name for p in k.params] == ["a", "b", "c", "n"]
    assert [p.type.pointee.address_space for p in k.params[:3]] == [T.AddressSpace.GLOBAL] * 3
    assert k.params[3].type.unqualified() == T.UINT


def test_tiled_matmul_locals_barriers_and_work_group_size():
    k = compile_ok(TILED_MATMUL).kernel("tiled_matmul")
    assert k.reqd_work_group_size == (16, 16, 1)
    locals_ = [n for n in walk(k.body) if isinstance(n, A.VarDecl)
               and n.address_space is T.AddressSpace.LOCAL]
    assert [d.name for d in locals_] == ["Asub", "Bsub"] or \
        sorted(d.name for d in locals_) == ["Asub", "Bsub"]
    assert all(d.type.size == 16 * 16 * 4 for d in locals_)
    barriers = [n for n in walk(k.body) if isinstance(n, A.BuiltinCall)
                and n.builtin is Builtin.BARRIER]
    assert len(barriers) == 2


def test_reduction_loop_types():
    k = compile_ok(REDUCTION).kernel("reduce")
    loop = k.body.items[4]
    assert isinstance(loop, A.ForStmt)
    assert loop.init.expr.type == T.ULONG
    assert isinstance(loop.step, A.CompoundAssign) and loop.step.op is A.BinaryOp.SHR
    cond = loop.cond  # s > 0 converted to bool for the branch
    assert cond.type == T.BOOL and cond.operand.op is A.BinaryOp.GT


def test_histogram_uses_local_atomics():
    k = compile_ok(HISTOGRAM).kernel("histogram")
    atomics = [n for n in walk(k.body) if isinstance(n, A.BuiltinCall) and n.builtin.is_atomic]
    spaces = sorted(a.overload.params[0].pointee.address_space.value for a in atomics)
    assert spaces == ["__global", "__local"]


def test_constant_tables_are_program_scope_literals():
    tu = compile_ok(CONSTANT_TABLES)
    gauss, offsets, coeffs = tu.globals
    assert all(g.address_space is T.AddressSpace.CONSTANT for g in tu.globals)
    assert offsets.type.length == 5 and [i.value for i in offsets.init.items] == [-2, -1, 0, 1, 2]
    assert coeffs.init.items[1].items[2].value == 6.0
    assert [f.name for f in tu.functions] == ["weight", "blur"]


def test_options_reach_the_source():
    src = "kernel void k(global float *o) { o[0] = SCALE * TILE; }"
    tu = compile_ok(src, "-D SCALE=2.0f -DTILE=4")
    assert tu.kernels[0].body.items[0].expr.value.type == T.FLOAT
