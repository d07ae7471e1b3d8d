"""The limit macros of OpenCL C 6.12.2-6.12.3 (clang's opencl-c-base.h defines the same set), each
checked against numpy's description of the same type, in a kernel and in #if."""
from __future__ import annotations

import math

import numpy as np

INTEGER_MACROS = {
    "CHAR_BIT": 8, "CHAR_MAX": 127, "CHAR_MIN": -128, "SCHAR_MAX": 127, "SCHAR_MIN": -128,
    "UCHAR_MAX": 255, "SHRT_MAX": 32767, "SHRT_MIN": -32768, "USHRT_MAX": 65535,
    "INT_MAX": np.iinfo(np.int32).max, "INT_MIN": np.iinfo(np.int32).min, "UINT_MAX": np.iinfo(np.uint32).max,
    "LONG_MAX": np.iinfo(np.int64).max, "LONG_MIN": np.iinfo(np.int64).min,
    "ULONG_MAX": np.iinfo(np.uint64).max,
    "FLT_DIG": np.finfo(np.float32).precision, "FLT_MANT_DIG": np.finfo(np.float32).nmant + 1,
    "FLT_MAX_10_EXP": math.floor(math.log10(np.finfo(np.float32).max)), "FLT_MAX_EXP": np.finfo(np.float32).maxexp,
    "FLT_MIN_10_EXP": math.ceil(math.log10(np.finfo(np.float32).tiny)), "FLT_MIN_EXP": np.finfo(np.float32).minexp + 1, "FLT_RADIX": 2,
    "DBL_DIG": np.finfo(np.float64).precision, "DBL_MANT_DIG": np.finfo(np.float64).nmant + 1,
    "DBL_MAX_10_EXP": math.floor(math.log10(np.finfo(np.float64).max)), "DBL_MAX_EXP": np.finfo(np.float64).maxexp,
    "DBL_MIN_10_EXP": math.ceil(math.log10(np.finfo(np.float64).tiny)),
    "DBL_MIN_EXP": np.finfo(np.float64).minexp + 1, "DBL_RADIX": 2,
    "FP_ILOGB0": np.iinfo(np.int32).min, "FP_ILOGBNAN": np.iinfo(np.int32).max,
    "CL_VERSION_1_0": 100, "CL_VERSION_1_1": 110, "CL_VERSION_1_2": 120, "CL_VERSION_2_0": 200,
    "CL_VERSION_3_0": 300, "__ENDIAN_LITTLE__": 1, "__IMAGE_SUPPORT__": 1,
}
SIGNED = [name for name in INTEGER_MACROS if name != "ULONG_MAX"]  # those a long holds
F32 = np.finfo(np.float32)
F64 = np.finfo(np.float64)
FLOAT_MACROS = {"FLT_MAX": F32.max, "FLT_MIN": F32.tiny, "FLT_EPSILON": F32.eps, "MAXFLOAT": F32.max,
                "HUGE_VALF": np.inf, "INFINITY": np.inf, "M_PI_F": np.float32(np.pi), "M_E_F": np.float32(np.e),
                "M_SQRT2_F": np.float32(np.sqrt(2))}
DOUBLE_MACROS = {"DBL_MAX": F64.max, "DBL_MIN": F64.tiny, "DBL_EPSILON": F64.eps, "HUGE_VAL": np.inf,
                 "M_PI": np.pi, "M_E": np.e, "M_LN2": np.log(2), "M_SQRT1_2": np.sqrt(0.5)}


def _kernel() -> str:
    lines = ["__kernel void limits(__global long *ints, __global ulong *ulong_max, __global float *floats,",
             "                     __global double *doubles, __global int *in_if, __global int *nan) {"]
    lines += [f"    ints[{i}] = {name};" for i, name in enumerate(SIGNED)]
    lines += ["    ulong_max[0] = ULONG_MAX;", "    nan[0] = isnan(NAN);"]
    lines += [f"    floats[{i}] = {name};" for i, name in enumerate(FLOAT_MACROS)]
    lines += [f"    doubles[{i}] = {name};" for i, name in enumerate(DOUBLE_MACROS)]
    lines += [f"#if {name} == {value}\n    in_if[{i}] = 1;\n#endif"
              for i, (name, value) in enumerate(INTEGER_MACROS.items()) if not name.startswith("FP_")]
    return "\n".join(lines + ["}"])


def test_limit_macros_have_the_specs_values(run_kernel):
    ints, ulong_max, floats, doubles, in_if, nan = run_kernel(
        _kernel(), "limits", (1,), (1,), np.zeros(len(INTEGER_MACROS), np.int64), np.zeros(1, np.uint64),
        np.zeros(len(FLOAT_MACROS), np.float32), np.zeros(len(DOUBLE_MACROS), np.float64),
        np.zeros(len(INTEGER_MACROS), np.int32), np.zeros(1, np.int32))
    assert dict(zip(SIGNED, ints.tolist())) == {n: int(INTEGER_MACROS[n]) for n in SIGNED}
    assert ulong_max[0] == INTEGER_MACROS["ULONG_MAX"] and nan[0] == 1
    np.testing.assert_array_equal(floats, np.array(list(FLOAT_MACROS.values()), np.float32))
    np.testing.assert_array_equal(doubles, np.array(list(DOUBLE_MACROS.values()), np.float64))
    checked = [i for i, n in enumerate(INTEGER_MACROS) if not n.startswith("FP_")]
    assert in_if[checked].all(), [n for i, n in enumerate(INTEGER_MACROS) if i in checked and not in_if[i]]


def test_kernel_exec_macros_of_opencl_c_1x(run_kernel):
    src = """kernel_exec(64, float4) void a(__global int *o) { o[0] = 1; }
             __kernel_exec(32, int) void b(__global int *o) { o[1] = 2; }"""
    (out,) = run_kernel(src, "a", (1,), (1,), np.zeros(2, np.int32))
    (out2,) = run_kernel(src, "b", (1,), (1,), out)
    np.testing.assert_array_equal(out2, [1, 2])
