"""The enumerations of images and samplers, with pyopencl's names and the C API's values (cl.h).

channel_order keeps OpenCL's mixed-case names (`Rx`, `RGBx`, `sRGBA`), as pyopencl does. Orders and
types that loomcl does not support (sRGB*, ABGR, DEPTH, UNORM_INT_101010_2) are named anyway so that
an error can say which format was refused.
"""
from __future__ import annotations

from loomcl.errors import IntConstants


class channel_order(IntConstants):  # noqa: N801
    R = 0x10B0
    A = 0x10B1
    RG = 0x10B2
    RA = 0x10B3
    RGB = 0x10B4
    RGBA = 0x10B5
    BGRA = 0x10B6
    ARGB = 0x10B7
    INTENSITY = 0x10B8
    LUMINANCE = 0x10B9
    Rx = 0x10BA
    RGx = 0x10BB
    RGBx = 0x10BC
    DEPTH = 0x10BD
    sRGB = 0x10BF
    sRGBx = 0x10C0
    sRGBA = 0x10C1
    sBGRA = 0x10C2
    ABGR = 0x10C3


class channel_type(IntConstants):  # noqa: N801
    SNORM_INT8 = 0x10D0
    SNORM_INT16 = 0x10D1
    UNORM_INT8 = 0x10D2
    UNORM_INT16 = 0x10D3
    UNORM_SHORT_565 = 0x10D4
    UNORM_SHORT_555 = 0x10D5
    UNORM_INT_101010 = 0x10D6
    SIGNED_INT8 = 0x10D7
    SIGNED_INT16 = 0x10D8
    SIGNED_INT32 = 0x10D9
    UNSIGNED_INT8 = 0x10DA
    UNSIGNED_INT16 = 0x10DB
    UNSIGNED_INT32 = 0x10DC
    HALF_FLOAT = 0x10DD
    FLOAT = 0x10DE
    UNORM_INT_101010_2 = 0x10E0


class image_info(IntConstants):  # noqa: N801
    FORMAT = 0x1110
    ELEMENT_SIZE = 0x1111
    ROW_PITCH = 0x1112
    SLICE_PITCH = 0x1113
    WIDTH = 0x1114
    HEIGHT = 0x1115
    DEPTH = 0x1116
    ARRAY_SIZE = 0x1117
    BUFFER = 0x1118
    NUM_MIP_LEVELS = 0x1119
    NUM_SAMPLES = 0x111A


class addressing_mode(IntConstants):  # noqa: N801
    NONE = 0x1130
    CLAMP_TO_EDGE = 0x1131
    CLAMP = 0x1132
    REPEAT = 0x1133
    MIRRORED_REPEAT = 0x1134


class filter_mode(IntConstants):  # noqa: N801
    NEAREST = 0x1140
    LINEAR = 0x1141


class sampler_info(IntConstants):  # noqa: N801
    REFERENCE_COUNT = 0x1150
    CONTEXT = 0x1151
    NORMALIZED_COORDS = 0x1152
    ADDRESSING_MODE = 0x1153
    FILTER_MODE = 0x1154
    PROPERTIES = 0x1158


class sampler_properties(IntConstants):  # noqa: N801
    NORMALIZED_COORDS = 0x1152
    ADDRESSING_MODE = 0x1153
    FILTER_MODE = 0x1154
