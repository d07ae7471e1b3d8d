"""Sampled image reads and bounded writes as LLVM helpers (OpenCL 1.2, 8.2: addressing and filtering).

A read helper is specialized for one image type, channel kind, coordinate kind (int or float) and
sampler (its bits, abi/image.py); a sampler that is not a constant goes through a dispatcher that
switches on its bits and calls the specialized helpers (inlined), so a constant sampler costs no
test at all. Per spatial coordinate s of an image dimension of size W:

* nearest: u = s * W if normalized, else s; i = floor(u). CLAMP_TO_EDGE (and NONE, whose
  out-of-range results OpenCL leaves undefined) clamp i to [0, W-1]; CLAMP gives the border color
  when any i is outside. With normalized coordinates REPEAT takes u = (s - floor(s)) * W and wraps
  i > W-1 to i - W; MIRRORED_REPEAT takes s' = |s - 2 rint(s / 2)|, u = s' * W, i = min(floor(u), W-1).
* linear (read_imagef only): i0 = floor(u - 0.5), i1 = i0 + 1, a = frac(u - 0.5), the addressing
  mode applied to i0 and i1 as the spec writes it, and the result the weighted sum of the 2, 4 or
  8 neighbours, (1-a)(1-b) T00 + a(1-b) T10 + (1-a) b T01 + a b T11 in 2D, in single precision.
* integer coordinates (which OpenCL allows only unnormalized with nearest filtering and
  CLAMP_TO_EDGE, CLAMP or NONE): i is the coordinate, clamped or bordered as above.

A layer coordinate is clamp(rint(s), 0, array_size - 1), never normalized or filtered. Float indices
are clamped before they become integers, so infinities and NaNs index inside the image: whatever a
kernel passes, no access leaves the image. REPEAT and MIRRORED_REPEAT with unnormalized coordinates
(undefined in OpenCL) act as CLAMP_TO_EDGE. A write outside the image stores nothing.
"""
from __future__ import annotations

from ...abi.image import (
    ADDRESS_CLAMP, ADDRESS_CLAMP_TO_EDGE, ADDRESS_MASK, ADDRESS_MIRRORED_REPEAT, ADDRESS_REPEAT, ADDRESS_SHIFT,
    FILTER_LINEAR, FILTER_SHIFT, NORMALIZED_COORDS,
)
from ...ir import types as ty
from ...ir.ops.images import ImageChannels, ImageGeometry
from ...llvmtext.module import ModuleText
from ...llvmtext.types import format_float
from .function_text import F4, I4, FunctionText
from .store import write_texel_function
from .texel import border_color_function, format_suffix, read_texels_function, texels_type

_SIZES = ("width", "height", "depth")


def _f(value: float) -> str:
    return format_float(ty.f32, value)


def coordinate_type(geometry: ImageGeometry, is_float: bool) -> str:
    scalar = "float" if is_float else "i32"
    lanes = geometry.coordinate_lanes
    return scalar if lanes == 1 else f"<{lanes} x {scalar}>"


def color_type(channels: ImageChannels) -> str:
    return F4 if channels is ImageChannels.FLOAT else I4


def canonical_bits(bits: int, channels: ImageChannels, is_float: bool) -> int:
    """The sampler bits that change the result: integer coordinates are unnormalized and nearest,
    linear filtering applies to float reads only, and only CLAMP differs for integer coordinates."""
    addressing = (bits & ADDRESS_MASK) >> ADDRESS_SHIFT
    normalized = bits & NORMALIZED_COORDS
    linear = (bits >> FILTER_SHIFT) & 3 == FILTER_LINEAR
    if not is_float:
        return ADDRESS_CLAMP << ADDRESS_SHIFT if addressing == ADDRESS_CLAMP else 0
    wraps = addressing in (ADDRESS_REPEAT, ADDRESS_MIRRORED_REPEAT) and normalized
    if addressing != ADDRESS_CLAMP and not wraps:
        # NONE (undefined outside the image), unknown modes, and wrapping unnormalized coordinates
        # (undefined in OpenCL) read as CLAMP_TO_EDGE
        addressing = ADDRESS_CLAMP_TO_EDGE
    linear = linear and channels is ImageChannels.FLOAT
    return normalized | addressing << ADDRESS_SHIFT | (FILTER_LINEAR << FILTER_SHIFT if linear else 0)


# -- reads ------------------------------------------------------------------------------------------------


def read_function(module: ModuleText, geometry: ImageGeometry, channels: ImageChannels, is_float: bool,
                  sampler_bits: int | None, inline: bool = True, image_format: tuple[int, int] | None = None) -> str:
    """`@name(ptr %desc, [i32 %sampler,] coordinates)`: with `sampler_bits` None, the dispatcher
    that takes the sampler as its second argument. The dispatcher's linear-filtering targets are not
    inlined: one copy of each serves every read, so a kernel with a sampler argument compiles in
    seconds (a 3D one took 28 s with every mode inlined); its nearest ones, one texel each, are.
    `image_format` (channel order, data type), when the launch's image is known, specializes the
    texel code for it."""
    kind = f"{geometry.value}.{channels.value}.{'f' if is_float else 'i'}{format_suffix(image_format)}"
    if sampler_bits is None:
        symbol = f"loomcl.image.read.{kind}.dynamic"
        return module.define_once(symbol, lambda: _dispatch(module, geometry, channels, is_float, symbol,
                                                            image_format))
    bits = canonical_bits(sampler_bits, channels, is_float)
    symbol = f"loomcl.image.read.{kind}.s{bits}" + ("" if inline else ".outlined")
    read = _SampledRead(module, geometry, channels, is_float, bits, image_format)
    return module.define_once(symbol, lambda: read.text(symbol, inline))


def _dispatch(module: ModuleText, geometry: ImageGeometry, channels: ImageChannels, is_float: bool,
              symbol: str, image_format: tuple[int, int] | None) -> str:
    w = FunctionText(module)
    coords, color = coordinate_type(geometry, is_float), color_type(channels)
    every = sorted({canonical_bits(bits, channels, is_float) for bits in range(64)})
    targets = {bits: read_function(module, geometry, channels, is_float, bits, not _is_linear(bits), image_format)
               for bits in every}
    canonical = {bits: canonical_bits(bits, channels, is_float) for bits in range(64)}
    w.emit(f"switch i32 %sampler, label %b{canonical[0]} [" + " ".join(
        f"i32 {bits}, label %b{canonical[bits]}" for bits in range(1, 64)) + "]")
    for bits in every:
        w.block(f"b{bits}")
        result = w.op(f"call {color} {targets[bits]}(ptr %desc, {coords} %coord)")
        w.emit(f"ret {color} {result}")
    return w.definition(symbol, color, f"ptr %desc, i32 %sampler, {coords} %coord")


def _is_linear(bits: int) -> bool:
    return (bits >> FILTER_SHIFT) & 3 == FILTER_LINEAR


class _SampledRead:
    """The body of one specialized read helper."""

    def __init__(self, module: ModuleText, geometry: ImageGeometry, channels: ImageChannels, is_float: bool,
                 bits: int, image_format: tuple[int, int] | None = None) -> None:
        self.w = FunctionText(module)
        self.image_format = image_format
        self.module, self.geometry, self.channels, self.is_float = module, geometry, channels, is_float
        self.normalized = bool(bits & NORMALIZED_COORDS)
        self.addressing = (bits & ADDRESS_MASK) >> ADDRESS_SHIFT
        self.linear = _is_linear(bits)
        self.color = color_type(channels)
        self.inline = True  # whether the helpers it calls are inlined (text() sets it)

    def text(self, symbol: str, inline: bool = True) -> str:
        w = self.w
        self.inline = inline
        lanes = [self.lane(k) for k in range(self.geometry.coordinate_lanes)]
        axes = [self.axis(lanes[d], w.field("%desc", _SIZES[d])) for d in range(self.geometry.dims)]
        layer = self.layer(lanes[self.geometry.dims]) if self.geometry.is_array else None
        w.emit(f"ret {self.color} {self.combine(axes, layer)}")
        params = f"ptr %desc, {coordinate_type(self.geometry, self.is_float)} %coord"
        return w.definition(symbol, self.color, params, inline)

    def lane(self, k: int) -> str:
        if self.geometry.coordinate_lanes == 1:
            return "%coord"
        t = coordinate_type(self.geometry, self.is_float)
        return self.w.op(f"extractelement {t} %coord, i32 {k}")

    # -- one axis: [(index, outside flag or None, weight or None)] for each neighbour -----------------

    def axis(self, s: str, size: str) -> list[tuple[str, str | None, str | None]]:
        w = self.w
        if not self.is_float:
            i = w.op(f"sext i32 {s} to i64")
            outside = self.outside_int(i, size) if self.addressing == ADDRESS_CLAMP else None
            return [(w.clamp("i64", i, "0", w.op(f"sub i64 {size}, 1")), outside, None)]
        width = w.op(f"sitofp i64 {size} to float")
        last = w.op(f"fsub float {width}, 1.0")
        u = self.unnormalized(s, width)
        if not self.linear:
            return [self.nearest(w.intrinsic("floor", "float", u), width, last)]
        t = w.op(f"fsub float {u}, 0.5")
        i0 = w.intrinsic("floor", "float", t)
        a = w.op(f"fsub float {t}, {i0}")
        i1 = w.op(f"fadd float {i0}, 1.0")
        one_minus_a = w.op(f"fsub float 1.0, {a}")
        if self.addressing == ADDRESS_REPEAT and self.normalized:
            i0 = w.select(w.op(f"fcmp olt float {i0}, 0.0"), "float", w.op(f"fadd float {i0}, {width}"), i0)
            i1 = w.select(w.op(f"fcmp ogt float {i1}, {last}"), "float", w.op(f"fsub float {i1}, {width}"), i1)
        clamp = self.addressing == ADDRESS_CLAMP
        return [(self.index(i0, last), self.outside_float(i0, width) if clamp else None, one_minus_a),
                (self.index(i1, last), self.outside_float(i1, width) if clamp else None, a)]

    def unnormalized(self, s: str, width: str) -> str:
        w = self.w
        if not self.normalized:
            return s
        if self.addressing == ADDRESS_REPEAT:
            s = w.op(f"fsub float {s}, {w.intrinsic('floor', 'float', s)}")
        elif self.addressing == ADDRESS_MIRRORED_REPEAT:
            even = w.op(f"fmul float 2.0, {w.intrinsic('rint', 'float', w.op(f'fmul float 0.5, {s}'))}")
            s = w.intrinsic("fabs", "float", w.op(f"fsub float {s}, {even}"))
        return w.op(f"fmul float {s}, {width}")

    def nearest(self, i: str, width: str, last: str) -> tuple[str, str | None, None]:
        w = self.w
        if self.addressing == ADDRESS_REPEAT and self.normalized:
            i = w.select(w.op(f"fcmp ogt float {i}, {last}"), "float", w.op(f"fsub float {i}, {width}"), i)
        outside = self.outside_float(i, width) if self.addressing == ADDRESS_CLAMP else None
        return self.index(i, last), outside, None

    def index(self, i: str, last: str) -> str:
        """A float index clamped into [0, W-1] (a NaN to 0) as an i64."""
        return self.w.op(f"fptosi float {self.w.fclamp('float', i, '0.0', last)} to i64")

    def outside_float(self, i: str, width: str) -> str:
        w = self.w
        inside = w.op(f"and i1 {w.op(f'fcmp oge float {i}, 0.0')}, {w.op(f'fcmp olt float {i}, {width}')}")
        return w.op(f"xor i1 {inside}, true")

    def outside_int(self, i: str, size: str) -> str:
        w = self.w
        return w.op(f"or i1 {w.op(f'icmp slt i64 {i}, 0')}, {w.op(f'icmp sge i64 {i}, {size}')}")

    def layer(self, s: str) -> str:
        w = self.w
        count = w.field("%desc", "array_size")
        if not self.is_float:
            return w.clamp("i64", w.op(f"sext i32 {s} to i64"), "0", w.op(f"sub i64 {count}, 1"))
        last = w.op(f"sitofp i64 {w.op(f'sub i64 {count}, 1')} to float")
        return self.index(w.intrinsic("rint", "float", s), last)

    # -- texels and their weighted sum ----------------------------------------------------------------

    def texel_coordinates(self, indices: list[str], layer: str | None) -> str:
        x, y, z = (indices + ["0", "0"])[:3]
        if self.geometry.is_array:
            y, z = (layer, "0") if self.geometry.dims == 1 else (y, layer)
        return f"i64 {x}, i64 {y}, i64 {z}"

    def fetch(self, corners: list[list[str]], layer: str | None) -> list[str]:
        """The texels at each corner's indices, through one call (one dispatch on the format)."""
        w, n = self.w, len(corners)
        fetch = read_texels_function(self.module, self.channels, n, self.inline, self.image_format)
        args = ", ".join(self.texel_coordinates(c, layer) for c in corners)
        result = w.op(f"call {texels_type(self.channels, n)} {fetch}(ptr %desc, {args})")
        return [w.op(f"extractvalue {texels_type(self.channels, n)} {result}, {k}") for k in range(n)]

    def combine(self, axes: list[list[tuple]], layer: str | None) -> str:
        w = self.w
        corners = [[axes[d][k] for d, k in enumerate(corner)] for corner in _corners([len(a) for a in axes])]
        texels = self.fetch([[p[0] for p in picks] for picks in corners], layer)
        total = border = None
        for picks, texel in zip(corners, texels):
            outside = [p[1] for p in picks if p[1] is not None]
            if outside:
                border_color = border_color_function(self.module, self.channels, self.image_format)
                border = border or w.op(f"call {self.color} {border_color}(ptr %desc)")
                any_outside = outside[0]
                for flag in outside[1:]:
                    any_outside = w.op(f"or i1 {any_outside}, {flag}")
                texel = w.select(any_outside, self.color, border, texel)
            weights = [p[2] for p in picks if p[2] is not None]
            if not weights:
                return texel
            weight = weights[0]
            for other in weights[1:]:
                weight = w.op(f"fmul float {weight}, {other}")
            term = w.op(f"fmul {F4} {texel}, {self.splat(weight)}")
            total = term if total is None else w.op(f"fadd {F4} {total}, {term}")
        return total

    def splat(self, value: str) -> str:
        one = self.w.op(f"insertelement {F4} poison, float {value}, i32 0")
        return self.w.op(f"shufflevector {F4} {one}, {F4} poison, <4 x i32> zeroinitializer")


def _corners(counts: list[int]) -> list[tuple[int, ...]]:
    """Every choice of one neighbour per axis, the first axis fastest (T00, T10, T01, T11)."""
    corners = [()]
    for n in counts:
        corners = [c + (k,) for k in range(n) for c in corners]
    return corners


# -- writes -----------------------------------------------------------------------------------------------


def write_function(module: ModuleText, geometry: ImageGeometry, channels: ImageChannels,
                   image_format: tuple[int, int] | None = None) -> str:
    """`@name(ptr %desc, coordinates, color)`: the texel written if the coordinates are inside."""
    symbol = f"loomcl.image.write.{geometry.value}.{channels.value}{format_suffix(image_format)}"
    return module.define_once(symbol, lambda: _write(module, geometry, channels, symbol, image_format))


def _write(module: ModuleText, geometry: ImageGeometry, channels: ImageChannels, symbol: str,
           image_format: tuple[int, int] | None) -> str:
    w = FunctionText(module)
    coords, color = coordinate_type(geometry, False), color_type(channels)
    lanes = ["%coord"] if geometry.coordinate_lanes == 1 else \
        [w.op(f"extractelement {coords} %coord, i32 {k}") for k in range(geometry.coordinate_lanes)]
    limits = list(_SIZES[:geometry.dims]) + (["array_size"] if geometry.is_array else [])
    inside, indices = "true", []
    for lane, limit in zip(lanes, limits):
        i = w.op(f"sext i32 {lane} to i64")
        below = w.op(f"icmp ult i64 {i}, {w.field('%desc', limit)}")
        inside = w.op(f"and i1 {inside}, {below}")
        indices.append(i)
    x, y, z = (indices + ["0", "0"])[:3]
    w.emit(f"br i1 {inside}, label %store, label %done")
    w.block("store")
    store = write_texel_function(module, channels, image_format)
    w.emit(f"call void {store}(ptr %desc, i64 {x}, i64 {y}, i64 {z}, {color} %color)")
    w.emit("br label %done")
    w.block("done")
    w.emit("ret void")
    return w.definition(symbol, "void", f"ptr %desc, {coords} %coord, {color} %color")
