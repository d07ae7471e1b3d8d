"""OpenCL's scalar and vector types as numpy dtypes, under pyopencl's names (`cl.cltypes.float4`,
`cl.cltypes.make_float4(1, 2, 3, 4)`), for buffers of vectors and vector kernel arguments.

A vector dtype is a structured dtype with fields s0, s1, ... (titled x, y, z, w up to 4 lanes); a
3-lane vector has a fourth padding field, since OpenCL sizes and aligns it like 4 lanes.
"""
from __future__ import annotations

import numpy as np

_SCALARS = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32,
    "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "half": np.float16, "float": np.float32,
    "double": np.float64,
}
_COUNTS = (2, 3, 4, 8, 16)
_TITLES = ("x", "y", "z", "w")


def _vector_dtype(element, count: int) -> np.dtype:
    stored = 4 if count == 3 else count
    names = [f"s{i}" for i in range(count)] + ["padding"] * (stored - count)
    titles = [_TITLES[i] if count <= 4 and i < count else None for i in range(stored)]
    return np.dtype({"names": names, "formats": [element] * stored, "titles": titles},
                    align=True)


def _maker(name: str, dtype: np.dtype, count: int):
    def make(*lanes):
        if len(lanes) != count:
            raise TypeError(f"make_{name}() takes {count} values, got {len(lanes)}")
        value = np.zeros((), dtype)
        for i, lane in enumerate(lanes):
            value[f"s{i}"] = lane
        return value
    return make


for _name, _element in _SCALARS.items():
    globals()[_name] = np.dtype(_element)
    for _count in _COUNTS:
        _dtype = _vector_dtype(_element, _count)
        globals()[f"{_name}{_count}"] = _dtype
        globals()[f"make_{_name}{_count}"] = _maker(f"{_name}{_count}", _dtype, _count)
        globals()[f"zeros_{_name}{_count}"] = (lambda d: lambda: np.zeros((), d))(_dtype)

vec_types = {(np.dtype(e), n): globals()[f"{name}{n}"] for name, e in _SCALARS.items() for n in _COUNTS}
