"""`__attribute__((aligned(N)))` on structs and unions (pyopencl's complex types use it): the record's
alignment and size grow as in GCC and clang, layouts match numpy dtypes with the same itemsize,
and __constant tables of such records keep their tail padding."""
from __future__ import annotations

import numpy as np
import pytest

from loomcl.driver import compiler
from loomcl.frontend import CompileError

COMPLEX = """
typedef union {
    struct { float x, y; } __attribute__ ((aligned (8)));
    struct { float real, imag; } __attribute__ ((aligned (8)));
} cfloat_t;
typedef struct __attribute__((aligned(16))) { float a; char c; } padded;
__constant padded table[2] = {{1.5f, 2}, {2.5f, 3}};

kernel void records(global const cfloat_t *z, global float *out, global padded *ps, global int *sizes) {
    int i = get_global_id(0);
    cfloat_t v = z[i];
    padded p = {v.x * v.real, (char)i};
    out[i] = v.real * v.x - v.imag * v.y + table[i % 2].a + table[1].c;
    ps[i] = p;
    if (i == 0) { sizes[0] = sizeof(cfloat_t); sizes[1] = sizeof(padded); sizes[2] = sizeof(table); }
}
"""

PADDED = np.dtype({"names": ["a", "c"], "formats": [np.float32, np.int8], "offsets": [0, 4],
                   "itemsize": 16})


def test_aligned_records_match_numpy_layouts(run_kernel):
    n = 16
    z = (np.arange(n) + 0.5j * np.arange(n)).astype(np.complex64)
    _, out, ps, sizes = run_kernel(COMPLEX, "records", (n,), (4,), z, np.zeros(n, np.float32),
                                   np.zeros(n, PADDED), np.zeros(3, np.int32))
    assert list(sizes) == [8, 16, 32]
    table_a = np.where(np.arange(n) % 2, 2.5, 1.5)
    np.testing.assert_allclose(out, z.real ** 2 - z.imag ** 2 + table_a + 3, rtol=1e-6)
    np.testing.assert_array_equal(ps["a"], z.real ** 2)
    np.testing.assert_array_equal(ps["c"], np.arange(n))


@pytest.mark.parametrize("source, message", [
    ("struct __attribute__((aligned(3))) S { int x; };",
     "1:23: error: 'aligned' attribute requires a power of two constant no larger than 128"),
    ("struct S { int x __attribute__((aligned(8))); };",
     "1:33: error: the 'aligned' attribute on struct members is not supported yet"),
    ("struct __attribute__((aligned(8))) S; ",
     "1:23: error: the 'aligned' attribute must be on the definition"),
    ("typedef struct __attribute__((aligned(16))) { float a; } P;\n"
     "struct outer { char c; P p; };\nkernel void k(global struct outer *o) { o->c = 1; }",
     "2:8: error: the layout of 'struct outer' is not supported yet"),
])
def test_aligned_attribute_misuse(source, message):
    with pytest.raises(CompileError) as info:
        compiler.build(source + "\nkernel void unused() { }", filename="t.cl")
    assert message in info.value.log
