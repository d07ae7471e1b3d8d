"""`convert_float[N][_sat]_<rounding>` and `convert_double[N][_sat]_<rounding>` (OpenCL C 6.2.3.2) from
every integer type, from float and from double, scalar and 2, 3, 4, 8, 16 lanes, bit for bit against an exact
reference (integers and fractions.Fraction: the two representable neighbours of the exact value,
chosen by the mode), on the hard inputs: exact values, ties, one above and below them, the types'
limits, 2^24 ± k, 2^53 ± k, 2^63, values whose double is a float tie (double rounding), doubles near
FLT_MAX and 2^128, float subnormal results, signed zeros, infinities and NaN. The same kernels run in
the work-item interpreter (tests/transforms/interp.py), which must agree.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from loomcl.driver import compiler
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from transforms import interp  # tests/ is on sys.path under pytest

MODES = ("rtz", "rtp", "rtn", "rte", None)  # None: no suffix, which rounds to nearest even
SPELLINGS = ((1, False), (2, False), (3, False), (4, False), (8, False), (16, False), (1, True), (4, True))
LENGTH = 96  # a multiple of every lane count and of 3
_FORMATS = {  # precision, least normal exponent, largest exponent, dtype, bits dtype
    "float": (24, -126, 127, np.float32, np.uint32),
    "double": (53, -1022, 1023, np.float64, np.uint64),
}
_INTEGERS = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32,
             "uint": np.uint32, "long": np.int64, "ulong": np.uint64}
# float to float or double and double to double are exact: the modes must change nothing there
PAIRS = [(s, t) for t in ("float", "double") for s in (*_INTEGERS, "float", "double")]


# -- the reference ---------------------------------------------------------------------------------

def _floor_log2(a: Fraction) -> int:
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def reference(value, target: str, mode: str | None) -> float:
    """`value` (an int, or a float standing for its exact value) rounded to `target` in `mode`."""
    p, emin, emax, dtype, _ = _FORMATS[target]
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)) or value == 0:
        return float(value)
    exact = Fraction(value)
    negative, a = exact < 0, abs(exact)
    top = Fraction(2) ** (emax + 1)
    ulp = Fraction(2) ** (max(_floor_log2(a), emin) - p + 1)
    down = min((a // ulp) * ulp, top - Fraction(2) ** (emax - p + 1))  # largest finite at most a
    up = down if down == a else down + ulp if a < top else top          # top stands for infinity
    if mode in ("rte", None):
        below, above = a - down, up - a
        chosen = down if below < above or (below == above and (down / ulp) % 2 == 0) else up
    else:
        chosen = {"rtz": down, "rtp": down if negative else up, "rtn": up if negative else down}[mode]
    magnitude = math.inf if chosen == top else float(chosen)
    if up != down and up != top:  # the two candidates are neighbours, as numpy counts them
        assert dtype(float(up)) == np.nextafter(dtype(float(down)), dtype(np.inf))
    return -magnitude if negative else magnitude


# -- the inputs ------------------------------------------------------------------------------------

def integer_inputs(name: str, rng) -> np.ndarray:
    info = np.iinfo(_INTEGERS[name])
    chosen = {0, 1, -1, info.min, info.max, info.min + 1, info.max - 1, 2 ** 63, 2 ** 64 - 2 ** 40 + 2 ** 39,
              2 ** 64 - 2 ** 39 - 1, 2 ** 64 - 2 ** 10, 2 ** 64 - 2 ** 11 + 2 ** 10 - 1}
    for k in (7, 15, 24, 25, 31, 32, 53, 54, 62, 63):
        for d in (-3, -2, -1, 1, 2, 3):
            chosen |= {2 ** k + d, -(2 ** k + d)}
    for tie in (2 ** 60 + 2 ** 36, 2 ** 55 + 2 ** 1 + 1, 2 ** 40 + 2 ** 16):  # a float tie in double
        chosen |= {tie - 1, tie, tie + 1, -tie - 1, -tie, -tie + 1}
    values = sorted(v for v in chosen if info.min <= v <= info.max)
    while len(values) % LENGTH:
        bits = int(rng.integers(1, info.bits + 1))
        values.append(int(rng.integers(info.min, info.max, endpoint=True, dtype=_INTEGERS[name])) >> (info.bits - bits))
    return np.array(values, dtype=_INTEGERS[name])


def double_inputs(rng) -> np.ndarray:
    flt_max, flt_ulp_top = float(np.finfo(np.float32).max), 2.0 ** 104
    values = [0.0, -0.0, math.inf, -math.inf, math.nan, flt_max, flt_max + flt_ulp_top / 2,
              np.nextafter(flt_max + flt_ulp_top / 2, 0), np.nextafter(flt_max + flt_ulp_top / 2, math.inf),
              np.nextafter(flt_max, math.inf), 2.0 ** 128, np.finfo(np.float64).max, 2.0 ** -126, 2.0 ** -149,
              2.0 ** -150, 1.5 * 2.0 ** -150, 2.0 ** -151, 1.5 * 2.0 ** -149, 2.5 * 2.0 ** -149, 1e-40, 1e-310,
              np.nextafter(2.0 ** -150, 0), np.nextafter(2.0 ** -126, 0), 1.0 + 2.0 ** -24,
              1.0 + 2.0 ** -24 + 2.0 ** -52, 1.0 + 3 * 2.0 ** -24, 1.0 / 3, 0.1, math.pi, 16777217.0]
    values += [-v for v in values]
    floats = rng.standard_normal(40).astype(np.float32).astype(np.float64) * 2.0 ** rng.integers(-140, 120, 40)
    values += [float(v) for v in floats] + [float(np.nextafter(v, math.inf)) for v in floats[:20]] \
        + [float(np.nextafter(v, -math.inf)) for v in floats[20:]]
    while len(values) % LENGTH:
        values.append(float(rng.standard_normal() * 2.0 ** int(rng.integers(-160, 130))))
    return np.array(values, dtype=np.float64)


def inputs(source: str, rng) -> np.ndarray:
    if source == "float":
        with np.errstate(over="ignore"):
            return double_inputs(rng).astype(np.float32)
    return double_inputs(rng) if source == "double" else integer_inputs(source, rng)


# -- the kernels -----------------------------------------------------------------------------------

def kernel_source(source: str, target: str, spellings=SPELLINGS) -> str:
    """Kernel `k(in, out, n)`: each spelling × mode writes its block of n results into out."""
    lines = []
    for block, ((lanes, saturate), mode) in enumerate((s, m) for s in spellings for m in MODES):
        suffix = ("_sat" if saturate else "") + (f"_{mode}" if mode else "")
        if lanes == 1:
            lines.append(f"  out[{block} * n + i] = convert_{target}{suffix}(in[i]);")
        else:
            lines.append(f"  if (i < n / {lanes}) vstore{lanes}(convert_{target}{lanes}{suffix}"
                         f"(vload{lanes}(i, in)), i, out + {block} * n);")
    body = "\n".join(lines)
    return (f"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            f"__kernel void k(__global const {source} *in, __global {target} *out, int n) {{\n"
            f"  int i = get_global_id(0);\n{body}\n}}\n")


def expected_blocks(x: np.ndarray, target: str, spellings=SPELLINGS) -> np.ndarray:
    by_mode = [[reference(v.item(), target, mode) for v in x] for mode in MODES]
    return np.array([by_mode[m] for _ in spellings for m in range(len(MODES))],
                    dtype=_FORMATS[target][3]).reshape(-1)


def assert_bitwise(got: np.ndarray, expected: np.ndarray, x: np.ndarray, spellings=SPELLINGS) -> None:
    bits = _FORMATS["float" if got.dtype == np.float32 else "double"][4]
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(got), nan)
    wrong = np.flatnonzero((got.view(bits) != expected.view(bits)) & ~nan)
    if wrong.size:
        blocks = [(s, m) for s in spellings for m in MODES]
        i = wrong[0]
        spelling, mode = blocks[i // len(x)]
        raise AssertionError(f"{wrong.size} wrong; first: {spelling} {mode} of {x[i % len(x)]!r}: "
                             f"{got[i]!r}, expected {expected[i]!r}")


# -- the tests -------------------------------------------------------------------------------------

@pytest.mark.parametrize("source, target", PAIRS)
def test_directed_conversion(run_kernel, source, target):
    x = inputs(source, np.random.default_rng([ord(c) for c in source + target]))
    out = np.zeros(len(x) * len(SPELLINGS) * len(MODES), _FORMATS[target][3])
    (got,) = run_kernel(kernel_source(source, target), "k", (len(x),), None, x, out, np.int32(len(x)))[1:]
    assert_bitwise(got, expected_blocks(x, target), x)


@pytest.mark.parametrize("options", ["-loomcl-no-wfv", "-loomcl-no-vectorize", "-loomcl-no-scalarize", "-cl-opt-disable"])
@pytest.mark.parametrize("source, target", [("ulong", "float"), ("long", "double"), ("double", "float")])
def test_directed_conversion_in_other_configurations(run_kernel, source, target, options):
    """Without the work-item vectorizer, LLVM's loop vectorizer, the scalarizer or optimization."""
    x = inputs(source, np.random.default_rng(11))
    out = np.zeros(len(x) * len(SPELLINGS) * len(MODES), _FORMATS[target][3])
    (got,) = run_kernel(kernel_source(source, target), "k", (len(x),), (16,), x, out, np.int32(len(x)),
                        options=options)[1:]
    assert_bitwise(got, expected_blocks(x, target), x)


def test_reference_on_known_answers():
    """The reference itself, on answers worked out by hand."""
    assert reference(2 ** 24 + 1, "float", "rtz") == 2 ** 24
    assert reference(2 ** 24 + 1, "float", "rtp") == 2 ** 24 + 2
    assert reference(2 ** 24 + 1, "float", "rte") == 2 ** 24
    assert reference(2 ** 24 + 3, "float", "rte") == 2 ** 24 + 4
    assert reference(-(2 ** 24 + 1), "float", "rtn") == -(2 ** 24 + 2)
    assert reference(2 ** 64 - 1, "float", "rtz") == 2 ** 64 - 2 ** 40
    assert reference(2 ** 64 - 1, "float", "rtp") == 2 ** 64
    assert reference(2 ** 60 + 2 ** 36 + 1, "float", "rte") == 2 ** 60 + 2 ** 37
    assert reference(2.0 ** 128, "float", "rtz") == float(np.finfo(np.float32).max)
    assert reference(2.0 ** 128, "float", "rte") == math.inf
    assert reference(-2.0 ** 128, "float", "rtp") == -float(np.finfo(np.float32).max)
    assert reference(2.0 ** -151, "float", "rtp") == 2.0 ** -149
    assert math.copysign(1, reference(-2.0 ** -151, "float", "rtp")) == -1  # -0.0
    assert reference(-2.0 ** -151, "float", "rtn") == -2.0 ** -149
    assert reference(2 ** 53 + 1, "double", "rtp") == 2 ** 53 + 2


@pytest.mark.parametrize("source, target", [("long", "float"), ("ulong", "float"), ("int", "float"),
                                            ("ulong", "double"), ("double", "float")])
def test_directed_conversion_in_the_interpreter(source, target):
    """The interpreter on the same lowering, in work-item form and in the work-group form of the
    pipeline, agrees with the reference (and so with native code)."""
    spellings = ((1, False), (3, False), (4, True))
    x = inputs(source, np.random.default_rng(7))[:LENGTH]
    expected = expected_blocks(x, target, spellings)
    module = compiler.build(kernel_source(source, target, spellings)).module
    items = np.zeros(len(x) * len(spellings) * len(MODES), _FORMATS[target][3])
    interp.run_work_items(module.functions["k"], [x, items, len(x)], (len(x) // 16,), (16,))
    assert_bitwise(items, expected, x, spellings)
    groups = np.zeros_like(items)
    function = work_group_function(module, "k", (16, 1, 1), CompilerOptions(verify_each=True))
    interp.run_work_groups(function, [x, groups, len(x)], (len(x) // 16,))
    assert_bitwise(groups, expected, x, spellings)
