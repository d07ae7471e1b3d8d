"""An independent numpy model of OpenCL 1.2 image reads and writes (8.2 addressing and filtering, 8.3
conversions), written from the specification for the image tests: the kernels' results must agree
with it. Coordinates are processed in float32 as the spec's formulas are written; a linear filter's
weighted sum is taken in float64 (OpenCL leaves its precision to the implementation).
"""
from __future__ import annotations

import numpy as np

from loomcl.abi.image import ADDRESS_CLAMP, ADDRESS_MIRRORED_REPEAT, ADDRESS_REPEAT, FILTER_LINEAR
from loomcl.devlib.images import channels as C

from image_fixtures import StandInImage

F = np.float32
_PACKED = {C.UNORM_SHORT_565: (11, 5, 5, 6, 0, 5), C.UNORM_SHORT_555: (10, 5, 5, 5, 0, 5),
           C.UNORM_INT_101010: (20, 10, 10, 10, 0, 10)}


def stored_values(image: StandInImage, kind: str) -> np.ndarray:
    """(slices, rows, width, k) of the stored components converted as a `kind` read converts them
    (float32 for 'f', int64 for 'i' and 'ui'), before the channel order places them."""
    c, t = image.components, image.data_type
    if t in _PACKED:
        r, rb, g, gb, b, bb = _PACKED[t]
        word = c[..., 0].astype(np.int64)
        fields = [(word >> s) & ((1 << n) - 1) for s, n in ((r, rb), (g, gb), (b, bb))]
        return np.stack([f.astype(F) / F((1 << n) - 1) for f, n in zip(fields, (rb, gb, bb))], -1)
    if kind != "f":
        return c.astype(np.int64)
    if t in C.NORMALIZED:
        values = c.astype(F) / F(C.NORMALIZED[t])
        return np.maximum(values, F(-1)) if t in C.SIGNED_NORMALIZED else values
    return c.astype(F)


def texels(image: StandInImage, kind: str) -> np.ndarray:
    """(slices, rows, width, 4): each texel's (R, G, B, A) as a read gives it (spec 8.3's table)."""
    stored = stored_values(image, kind)
    dtype = F if kind == "f" else np.int64
    out = np.zeros(stored.shape[:3] + (4,), dtype)
    for lane, source in enumerate(C.ORDER_TO_RGBA[image.order]):
        out[..., lane] = 1 if source == C.MISSING_ONE else 0 if source == C.MISSING_ZERO else stored[..., source]
    if kind == "ui":
        out &= 0xFFFFFFFF
    return out


def border(image: StandInImage, kind: str) -> np.ndarray:
    alpha = 1 if image.order in C.OPAQUE_BORDER else 0
    return np.array([0, 0, 0, alpha], F if kind == "f" else np.int64)


def fetch(image: StandInImage, kind: str, x, y, z) -> np.ndarray:
    """Texels at integer (x, y, z) arrays: x within a row, y the row (a 1D array's layer), z the slice."""
    return texels(image, kind)[z, y, x]


def _sizes(image: StandInImage) -> list[int]:
    d = image.descriptor
    return [d.width, d.height, d.depth][:{"image1d_t": 1, "image1d_buffer_t": 1, "image1d_array_t": 1,
                                           "image2d_t": 2, "image2d_array_t": 2, "image3d_t": 3}[image.image_type]]


def _axis_nearest(s, size, normalized, addressing):
    """(index, outside) arrays for one coordinate axis (float32 arithmetic)."""
    W = F(size)
    if normalized and addressing == ADDRESS_REPEAT:
        i = np.floor((s - np.floor(s)) * W)
        i = np.where(i > W - 1, i - W, i)
    elif normalized and addressing == ADDRESS_MIRRORED_REPEAT:
        sp = np.abs(s - F(2) * np.rint(F(0.5) * s))
        i = np.minimum(np.floor(sp * W), W - 1)
    else:
        i = np.floor(s * W if normalized else s)
    outside = ~((i >= 0) & (i < W)) if addressing == ADDRESS_CLAMP else np.zeros(s.shape, bool)
    return np.clip(np.nan_to_num(i), 0, size - 1).astype(np.int64), outside


def _axis_linear(s, size, normalized, addressing):
    """[(index, outside, weight)] of the two neighbours along one axis."""
    W = F(size)
    if normalized and addressing == ADDRESS_REPEAT:
        u = (s - np.floor(s)) * W
    elif normalized and addressing == ADDRESS_MIRRORED_REPEAT:
        u = np.abs(s - F(2) * np.rint(F(0.5) * s)) * W
    else:
        u = s * W if normalized else s
    t = u - F(0.5)
    i0 = np.floor(t)
    a = t - i0
    i1 = i0 + F(1)
    if normalized and addressing == ADDRESS_REPEAT:
        i0 = np.where(i0 < 0, i0 + W, i0)
        i1 = np.where(i1 > W - 1, i1 - W, i1)
    result = []
    for i, weight in ((i0, F(1) - a), (i1, a)):
        outside = ~((i >= 0) & (i < W)) if addressing == ADDRESS_CLAMP else np.zeros(s.shape, bool)
        result.append((np.clip(np.nan_to_num(i), 0, size - 1).astype(np.int64), outside, weight.astype(np.float64)))
    return result


def sample(image: StandInImage, kind: str, bits: int, coords: np.ndarray) -> np.ndarray:
    """What `read_image{kind}(image, sampler, coords)` gives for float32 coordinates (n, lanes) or
    (n,), or for int32 ones (integer coordinates: unnormalized, nearest)."""
    coords = np.asarray(coords)
    coords = coords.reshape(len(coords), -1)
    is_float = coords.dtype.kind == "f"
    normalized = bool(bits & 1) and is_float
    addressing = (bits >> 1) & 7
    if not normalized and addressing in (ADDRESS_REPEAT, ADDRESS_MIRRORED_REPEAT):
        addressing = 1  # undefined in OpenCL; loomcl clamps to the edge
    linear = (bits >> 4) & 3 == FILTER_LINEAR and is_float and kind == "f"
    sizes = _sizes(image)
    lanes = [coords[:, k].astype(F) if is_float else coords[:, k] for k in range(coords.shape[1])]
    layer = _layer(image, lanes[len(sizes)]) if image.image_type.endswith("array_t") else None
    if is_float:
        axis = _axis_linear if linear else lambda *a: [(*_axis_nearest(*a), None)]
        axes = [axis(lanes[d], n, normalized, addressing) for d, n in enumerate(sizes)]
    else:
        axes = [[_axis_int(lanes[d], n, addressing)] for d, n in enumerate(sizes)]
    return _combine(image, kind, axes, layer)


def _axis_int(i, size, addressing):
    i = i.astype(np.int64)
    outside = ((i < 0) | (i >= size)) if addressing == ADDRESS_CLAMP else np.zeros(i.shape, bool)
    return np.clip(i, 0, size - 1), outside, None


def _layer(image, s):
    last = image.descriptor.array_size - 1
    if s.dtype.kind == "f":
        return np.clip(np.nan_to_num(np.rint(s)), 0, last).astype(np.int64)
    return np.clip(s.astype(np.int64), 0, last)


def _combine(image, kind, axes, layer):
    n = len(axes[0][0][0])
    total = None
    for corner in np.ndindex(*[len(a) for a in axes[::-1]]):
        picks = [axes[d][k] for d, k in enumerate(corner[::-1])]
        index = [p[0] for p in picks] + [np.zeros(n, np.int64)] * (3 - len(picks))
        x, y, z = index
        if layer is not None:
            y, z = (layer, z) if len(axes) == 1 else (y, layer)
        values = fetch(image, kind, x, y, z)
        outside = np.zeros(n, bool)
        for p in picks:
            outside |= p[1]
        values = np.where(outside[:, None], border(image, kind), values)
        if picks[0][2] is None:
            return values
        weight = np.prod([p[2] for p in picks], axis=0)
        term = values.astype(np.float64) * weight[:, None]
        total = term if total is None else total + term
    return total


# -- writes -----------------------------------------------------------------------------------------------


def encode(image: StandInImage, kind: str, colors: np.ndarray) -> np.ndarray:
    """The stored components (n, k) that `write_image{kind}` of colors (n, 4) leaves (spec 8.3)."""
    t = image.data_type
    if t in _PACKED:
        r, rb, g, gb, b, bb = _PACKED[t]
        word = np.zeros(len(colors), np.int64)
        for lane, (shift, width) in enumerate(((r, rb), (g, gb), (b, bb))):
            word |= _rte_sat(colors[:, lane], 0, (1 << width) - 1, (1 << width) - 1) << shift
        return word.astype(image.components.dtype)[:, None]
    places = C.RGBA_TO_ORDER[image.order]
    lanes = colors[:, list(places)]
    dtype = image.components.dtype
    if t == C.FLOAT or t == C.HALF_FLOAT:
        converted = lanes.astype(F).astype(dtype)
    elif t in C.NORMALIZED:
        largest = int(C.NORMALIZED[t])
        low = -largest - 1 if t in C.SIGNED_NORMALIZED else 0
        converted = _rte_sat(lanes, low, largest, largest).astype(dtype)
    else:
        info = np.iinfo(dtype)
        values = lanes.astype(np.int64) if kind == "i" else lanes.astype(np.int64) & 0xFFFFFFFF
        converted = np.clip(values, info.min, info.max).astype(dtype)
    out = np.zeros((len(colors), image.channels), dtype)
    out[:, :len(places)] = converted
    return out


def _rte_sat(x, low, high, scale):
    """convert_<type>_sat_rte(x * scale): round to nearest even, saturate, NaN to 0."""
    scaled = x.astype(F) * F(scale)
    clamped = np.clip(np.nan_to_num(scaled, nan=0.0), low, high)
    return np.rint(clamped).astype(np.int64)
