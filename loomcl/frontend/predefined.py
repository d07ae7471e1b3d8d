"""Macros every OpenCL C program sees before its first line (OpenCL C 2.0 spec 6.10, 6.13.2-6.13.3).

They are ordinary `#define` text preprocessed ahead of the program, so they behave exactly like user
macros (a program may #undef them). The versions are the device's (runtime/versions.py): OpenCL 3.0,
so `__OPENCL_VERSION__` is 300, and `__OPENCL_C_VERSION__` is -cl-std's version or, without it, 120
(the spec's rule: the highest OpenCL C 1.x the device supports). The extension macros name exactly
the device's CL_DEVICE_EXTENSIONS, and under -cl-std=CL3.0 the feature macros name exactly its
CL_DEVICE_OPENCL_C_FEATURES (tests hold the lists together); the 3.0 features loomcl lacks
(generic address space, pipes, subgroups, ...) stay undefined. Float limits are written as hex-float literals, which are exact.
`INFINITY`/`NAN` are constant expressions that sema folds (IEEE division by zero). `true` and
`false` are the integer constants 1 and 0 (spec 6.1.1), as C99's stdbool.h defines them.
"""
from __future__ import annotations

from .options import BuildOptions

_VERSIONS = {"CL1.0": 100, "CL1.1": 110, "CL1.2": 120, "CL3.0": 300}

_COMMON = """
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define CL_VERSION_2_0 200
#define CL_VERSION_3_0 300
#define __OPENCL_VERSION__ 300
#define __ENDIAN_LITTLE__ 1
#define true 1
#define false 0
#define __bool_true_false_are_defined 1
#define __EMBEDDED_PROFILE__ 0
#define FP_FAST_FMA 1
#define FP_FAST_FMAF 1
#define cl_khr_fp64 1
#define cl_khr_global_int32_base_atomics 1
#define cl_khr_global_int32_extended_atomics 1
#define cl_khr_local_int32_base_atomics 1
#define cl_khr_local_int32_extended_atomics 1
#define cl_khr_byte_addressable_store 1
#define cl_khr_int64_base_atomics 1
#define cl_khr_int64_extended_atomics 1
#define cl_khr_3d_image_writes 1
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define CLK_IMAGE_MEM_FENCE 4
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-127-1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767-1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647-1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL-1)
#define ULONG_MAX 0xffffffffffffffffUL
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP 38
#define FLT_MAX_EXP 128
#define FLT_MIN_10_EXP (-37)
#define FLT_MIN_EXP (-125)
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
#define MAXFLOAT FLT_MAX
#define HUGE_VALF (1.0f/0.0f)
#define HUGE_VAL (1.0/0.0)
#define INFINITY (1.0f/0.0f)
#define NAN (0.0f/0.0f)
#define M_E_F 2.71828174591064f
#define M_LOG2E_F 1.44269502162933f
#define M_LOG10E_F 0.43429449200630f
#define M_LN2_F 0.69314718246460f
#define M_LN10_F 2.30258512496948f
#define M_PI_F 3.14159274101257f
#define M_PI_2_F 1.57079637050629f
#define M_PI_4_F 0.78539818525314f
#define M_1_PI_F 0.31830987334251f
#define M_2_PI_F 0.63661974668503f
#define M_2_SQRTPI_F 1.12837922573090f
#define M_SQRT2_F 1.41421353816986f
#define M_SQRT1_2_F 0.70710676908493f
#define M_E 2.718281828459045
#define M_LOG2E 1.4426950408889634
#define M_LOG10E 0.4342944819032518
#define M_LN2 0.6931471805599453
#define M_LN10 2.302585092994046
#define M_PI 3.141592653589793
#define M_PI_2 1.5707963267948966
#define M_PI_4 0.7853981633974483
#define M_1_PI 0.3183098861837907
#define M_2_PI 0.6366197723675814
#define M_2_SQRTPI 1.1283791670955126
#define M_SQRT2 1.4142135623730951
#define M_SQRT1_2 0.7071067811865476
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN 2147483647
#define __IMAGE_SUPPORT__ 1
"""

# Image and sampler constants (spec 6.12.14): sampler bits as abi/image.py defines them (clang's
# values), channel orders and data types as the C API's CL_* codes, which get_image_channel_order and
# get_image_channel_data_type return (tests/frontend/test_images.py holds them together).
_IMAGES = """
#define CLK_NORMALIZED_COORDS_FALSE 0
#define CLK_NORMALIZED_COORDS_TRUE 1
#define CLK_ADDRESS_NONE 0
#define CLK_ADDRESS_CLAMP_TO_EDGE 2
#define CLK_ADDRESS_CLAMP 4
#define CLK_ADDRESS_REPEAT 6
#define CLK_ADDRESS_MIRRORED_REPEAT 8
#define CLK_FILTER_NEAREST 0x10
#define CLK_FILTER_LINEAR 0x20
#define CLK_R 0x10B0
#define CLK_A 0x10B1
#define CLK_RG 0x10B2
#define CLK_RA 0x10B3
#define CLK_RGB 0x10B4
#define CLK_RGBA 0x10B5
#define CLK_BGRA 0x10B6
#define CLK_ARGB 0x10B7
#define CLK_INTENSITY 0x10B8
#define CLK_LUMINANCE 0x10B9
#define CLK_Rx 0x10BA
#define CLK_RGx 0x10BB
#define CLK_RGBx 0x10BC
#define CLK_SNORM_INT8 0x10D0
#define CLK_SNORM_INT16 0x10D1
#define CLK_UNORM_INT8 0x10D2
#define CLK_UNORM_INT16 0x10D3
#define CLK_UNORM_SHORT_565 0x10D4
#define CLK_UNORM_SHORT_555 0x10D5
#define CLK_UNORM_INT_101010 0x10D6
#define CLK_SIGNED_INT8 0x10D7
#define CLK_SIGNED_INT16 0x10D8
#define CLK_SIGNED_INT32 0x10D9
#define CLK_UNSIGNED_INT8 0x10DA
#define CLK_UNSIGNED_INT16 0x10DB
#define CLK_UNSIGNED_INT32 0x10DC
#define CLK_HALF_FLOAT 0x10DD
#define CLK_FLOAT 0x10DE
"""


DEFAULT_C_VERSION = 120
_OPENCL_C_3_FEATURES = ("__opencl_c_fp64", "__opencl_c_int64", "__opencl_c_images",
                        "__opencl_c_3d_image_writes")


def predefined_source(options: BuildOptions) -> str:
    """The #define lines for `options` (the OpenCL C version depends on -cl-std)."""
    version = _VERSIONS.get(options.cl_std, DEFAULT_C_VERSION)
    lines = [_COMMON, _IMAGES, f"#define __OPENCL_C_VERSION__ {version}"]
    if version >= 300:
        lines += [f"#define {feature} 1" for feature in _OPENCL_C_3_FEATURES]
    if options.fast_relaxed_math:
        lines.append("#define __FAST_RELAXED_MATH__ 1")
    return "\n".join(lines) + "\n"
