"""The Python-kernel rendering of OpenCL C programs keeps C's meaning where Python's differs:
truncating division, narrow compound assignments, `continue` in `for` and `do`, switch
fallthrough, vector `?:`, saturating conversions. The C kernel below and its Python twin must
both give the values C's rules give (written out by hand)."""
import numpy as np
import pytest

from . import check, python_check
from .python_rendering import NotRendered, render

SOURCE = r"""
__kernel void k(__global int* out, __global const int* in, __local int* sh, int n)
{
    int a = in[0], b = in[1];
    out[0] = a / b;
    out[1] = a % b;
    out[2] = (int)((uint)a / (uint)b % 1000u);
    uchar c = 250; c += 10;
    out[3] = c;
    short s = -3; s >>= 1;
    out[4] = s;
    int sum = 0;
    for (int i = 0; i < 6; i++) { if (i % 2) continue; sum += i; }
    out[5] = sum;
    int j = 0, d = 0;
    do { j++; if (j == 2) continue; d += j; } while (j < 4);
    out[6] = d;
    int f = 0;
    switch (n) { case 1: f += 1; case 2: f += 10; break; case 3: f += 100; default: f += 1000; }
    out[7] = f;
    uint4 v = (uint4)(1u, 5u, 9u, 3u), w = (uint4)(4u);
    uint4 m = v < w ? v : w;
    out[8] = (int)(m.x + 10u * m.y + 100u * m.z + 1000u * m.w);
    int4 big = (int4)(-5, 300, 70000, 7);
    uchar4 sat = convert_uchar4_sat(big);
    out[9] = sat.s0 + (sat.s1 << 8) + (sat.s2 << 16) + (sat.s3 << 24);
    out[10] = as_int4(v < w).x;
    out[11] = abs(a);
    float x = -2.5f;
    out[12] = (int)x;
    out[13] = (a < b) + (-7 >> 1);
}
"""
EXPECTED = [-3, -1, 644, 4, -2, 6, 8, 11, 3441, 0 + (255 << 8) + (255 << 16) + (7 << 24), -1,
            7, -2, 1 - 4]


@pytest.fixture(scope="module")
def native():
    return check.Native()


def _case():
    return check.Case(0, "k", (1,), (1,), [np.zeros(16, np.int32), np.array([-7, 2], np.int32),
                                          np.zeros(1, np.int32), np.int32(1)], 0, {2: 4})


def test_c_means_what_the_expectations_say(native):
    got = native.launch(native.build(SOURCE, ""), _case())
    assert list(got[:len(EXPECTED)]) == EXPECTED


def test_the_python_twin_computes_what_c_computes(native):
    kernel = python_check.load_kernel(render(SOURCE), "k", "rendering_semantics")
    from types import SimpleNamespace

    got = native.launch(SimpleNamespace(k=kernel), _case())
    assert list(got[:len(EXPECTED)]) == EXPECTED


def test_the_rendering_reads_as_python_kernels():
    text = render(SOURCE)
    assert "out[np.int64(0)] = _c_div(a, b)" in text
    assert "cl.select(w, v, (v < w))" in text
    assert "cl.clamp(" in text and "np.uint8(" in text


def test_a_construct_python_kernels_lack_is_reported_not_rendered():
    source = "__kernel void k(__global int* out) { int a = 1; a = (a++, a + 1); out[0] = a; }"
    with pytest.raises(NotRendered, match="assignment|Comma|IncDec"):
        render(source)
