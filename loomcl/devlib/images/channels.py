"""Image channel orders and data types (OpenCL 1.2, 5.3.1.1 and 6.12.14.4) as the texel code needs them.

Codes are the C API's CL_* values (the descriptor's `channel_order` / `channel_data_type`, and what
get_image_channel_order / _data_type return, spelled CLK_* in kernel code).

`ORDER_TO_RGBA[order]` says where each of R, G, B, A of a read comes from: an index of the stored
components, or MISSING_ZERO / MISSING_ONE, the values the spec gives missing channels
(0, 0, 0, 1). `RGBA_TO_ORDER[order]` is the inverse a write needs: which color lane each stored
component takes. The packed formats (565, 555, 101010) hold R, G, B in one 16- or 32-bit word and
ignore the order (RGB or RGBx).
"""
from __future__ import annotations

R, A, RG, RA, RGB, RGBA, BGRA, ARGB, INTENSITY, LUMINANCE, RX, RGX, RGBX = (
    0x10B0, 0x10B1, 0x10B2, 0x10B3, 0x10B4, 0x10B5, 0x10B6, 0x10B7, 0x10B8, 0x10B9, 0x10BA, 0x10BB, 0x10BC)
CHANNEL_ORDERS = {"R": R, "A": A, "RG": RG, "RA": RA, "RGB": RGB, "RGBA": RGBA, "BGRA": BGRA,
                  "ARGB": ARGB, "INTENSITY": INTENSITY, "LUMINANCE": LUMINANCE, "Rx": RX, "RGx": RGX,
                  "RGBx": RGBX}

(SNORM_INT8, SNORM_INT16, UNORM_INT8, UNORM_INT16, UNORM_SHORT_565, UNORM_SHORT_555, UNORM_INT_101010,
 SIGNED_INT8, SIGNED_INT16, SIGNED_INT32, UNSIGNED_INT8, UNSIGNED_INT16, UNSIGNED_INT32, HALF_FLOAT,
 FLOAT) = range(0x10D0, 0x10DF)
CHANNEL_TYPES = {"SNORM_INT8": SNORM_INT8, "SNORM_INT16": SNORM_INT16, "UNORM_INT8": UNORM_INT8,
                 "UNORM_INT16": UNORM_INT16, "UNORM_SHORT_565": UNORM_SHORT_565,
                 "UNORM_SHORT_555": UNORM_SHORT_555, "UNORM_INT_101010": UNORM_INT_101010,
                 "SIGNED_INT8": SIGNED_INT8, "SIGNED_INT16": SIGNED_INT16, "SIGNED_INT32": SIGNED_INT32,
                 "UNSIGNED_INT8": UNSIGNED_INT8, "UNSIGNED_INT16": UNSIGNED_INT16,
                 "UNSIGNED_INT32": UNSIGNED_INT32, "HALF_FLOAT": HALF_FLOAT, "FLOAT": FLOAT}

PACKED = (UNORM_SHORT_565, UNORM_SHORT_555, UNORM_INT_101010)
# bytes of one stored component (packed: of the whole word)
COMPONENT_BYTES = {SNORM_INT8: 1, SNORM_INT16: 2, UNORM_INT8: 1, UNORM_INT16: 2, UNORM_SHORT_565: 2,
                   UNORM_SHORT_555: 2, UNORM_INT_101010: 4, SIGNED_INT8: 1, SIGNED_INT16: 2,
                   SIGNED_INT32: 4, UNSIGNED_INT8: 1, UNSIGNED_INT16: 2, UNSIGNED_INT32: 4, HALF_FLOAT: 2,
                   FLOAT: 4}
# (shift, bits) of R, G, B in a packed word
PACKED_FIELDS = {UNORM_SHORT_565: ((11, 5), (5, 6), (0, 5)), UNORM_SHORT_555: ((10, 5), (5, 5), (0, 5)),
                 UNORM_INT_101010: ((20, 10), (10, 10), (0, 10))}
# the largest magnitude of a normalized type: x / NORMALIZED[t] reads, x * NORMALIZED[t] writes
NORMALIZED = {UNORM_INT8: 255.0, UNORM_INT16: 65535.0, SNORM_INT8: 127.0, SNORM_INT16: 32767.0}
SIGNED_NORMALIZED = (SNORM_INT8, SNORM_INT16)
SIGNED_INTEGER = {SIGNED_INT8: 8, SIGNED_INT16: 16, SIGNED_INT32: 32}
UNSIGNED_INTEGER = {UNSIGNED_INT8: 8, UNSIGNED_INT16: 16, UNSIGNED_INT32: 32}

MISSING_ZERO, MISSING_ONE = -1, -2
_Z, _O = MISSING_ZERO, MISSING_ONE
ORDER_TO_RGBA = {
    R: (0, _Z, _Z, _O), RX: (0, _Z, _Z, _O), A: (_Z, _Z, _Z, 0), INTENSITY: (0, 0, 0, 0),
    LUMINANCE: (0, 0, 0, _O), RG: (0, 1, _Z, _O), RGX: (0, 1, _Z, _O), RA: (0, _Z, _Z, 1),
    RGB: (0, 1, 2, _O), RGBX: (0, 1, 2, _O), RGBA: (0, 1, 2, 3), BGRA: (2, 1, 0, 3), ARGB: (1, 2, 3, 0),
}
RGBA_TO_ORDER = {
    R: (0,), RX: (0,), A: (3,), INTENSITY: (0,), LUMINANCE: (0,), RG: (0, 1), RGX: (0, 1), RA: (0, 3),
    RGB: (0, 1, 2), RGBX: (0, 1, 2), RGBA: (0, 1, 2, 3), BGRA: (2, 1, 0, 3), ARGB: (3, 0, 1, 2),
}
# OpenCL 1.2 8.3 (CLK_ADDRESS_CLAMP): the border color is (0, 0, 0, 1) for these orders, else all 0
OPAQUE_BORDER = (R, RG, RGB, LUMINANCE)
