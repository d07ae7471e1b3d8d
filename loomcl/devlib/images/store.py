"""Writing one texel at integer coordinates inside the image, as an LLVM helper (the inverse of
devlib/images/texel.py's reads; OpenCL 1.2, 8.3.1.2 and 8.3.2-8.3.3).

The color's lanes are converted to the stored type's bits, lane by lane: normalized types as
`convert_{u,}{char,short}_sat_rte(x * largest)` (the clamp comes first, so a NaN gives 0, then
rint, which rounds to nearest even), half by rounding to nearest even, float as it is; integer
types saturate to their range (write_imagei to signed, write_imageui to unsigned types). Then the
components take the color's lanes in the channel order's places (`image_channels.RGBA_TO_ORDER`)
and are stored from the last to the first; a component past the format's count goes to the first
component's place, which the first component's store then overwrites, so all stores stay inside
the texel and need no branch. A write whose format does not match the function (write_imagef to an
integer format, ...) is undefined in OpenCL and stores nothing.
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.ops.images import ImageChannels
from ...llvmtext.module import ModuleText
from ...llvmtext.types import format_float
from . import channels as C
from .function_text import F4, I4, FunctionText
from .texel import format_fields, format_suffix, texel_address

_STORED = {1: "i8", 2: "i16", 4: "i32"}


def write_texel_function(module: ModuleText, channels: ImageChannels,
                         image_format: tuple[int, int] | None = None) -> str:
    """`@name(ptr %desc, i64 %x, i64 %y, i64 %z, <4 x T> %color)`; with `image_format` known, its
    dispatch is on constants (folded away)."""
    symbol = f"loomcl.image.store.{channels.value}{format_suffix(image_format)}"
    return module.define_once(symbol, lambda: _write_texel(module, channels, symbol, image_format))


def _formats(channels: ImageChannels) -> list[int]:
    if channels is ImageChannels.FLOAT:
        return [*C.NORMALIZED, *C.PACKED, C.HALF_FLOAT, C.FLOAT]
    return list(C.SIGNED_INTEGER if channels is ImageChannels.INT else C.UNSIGNED_INTEGER)


def _write_texel(module: ModuleText, channels: ImageChannels, symbol: str,
                 image_format: tuple[int, int] | None) -> str:
    w = FunctionText(module)
    t = F4 if channels is ImageChannels.FLOAT else I4
    texel = texel_address(w)
    order, data_type = format_fields(w, image_format)
    cases = [(code, w.label("type")) for code in _formats(channels)]
    w.emit(f"switch i32 {data_type}, label %done [" + " ".join(f"i32 {c}, label %{b}" for c, b in cases) + "]")
    for code, block in cases:
        w.block(block)
        lanes = [w.op(f"extractelement {t} %color, i32 {k}") for k in range(4)]
        if code in C.PACKED:
            _store_packed(w, code, lanes, texel)
        else:
            bits = [_convert(w, code, lane) for lane in lanes]
            _store_components(w, code, _order_lanes(w, bits, order), texel)
        w.emit("br label %done")
    w.block("done")
    w.emit("ret void")
    return w.definition(symbol, "void", f"ptr %desc, i64 %x, i64 %y, i64 %z, {t} %color")


def _f(value: float) -> str:
    return format_float(ty.f32, value)


def _saturated_float(w: FunctionText, x: str, low: float, high: float, scale: float) -> str:
    """rint(clamp(x * scale, low, high)) as an i32: a NaN gives low's side 0 (maxnum first)."""
    scaled = w.op(f"fmul float {x}, {_f(scale)}")
    clamped = w.fclamp("float", scaled, _f(low), _f(high))
    if low < 0:  # a NaN must give 0, not the lower bound
        clamped = w.select(w.op(f"fcmp uno float {x}, 0.0"), "float", "0.0", clamped)
    return w.op(f"fptosi float {w.intrinsic('rint', 'float', clamped)} to i32")


def _convert(w: FunctionText, code: int, lane: str) -> str:
    """One lane as the stored bits, in an i32."""
    if code == C.FLOAT:
        return w.op(f"bitcast float {lane} to i32")
    if code == C.HALF_FLOAT:
        half = w.op(f"bitcast half {w.op(f'fptrunc float {lane} to half')} to i16")
        return w.op(f"zext i16 {half} to i32")
    if code in C.NORMALIZED:
        largest = C.NORMALIZED[code]
        low = -largest - 1 if code in C.SIGNED_NORMALIZED else 0.0
        return _saturated_float(w, lane, low, largest, largest)
    if code in C.SIGNED_INTEGER:
        bits = C.SIGNED_INTEGER[code]
        if bits == 32:
            return lane
        return w.clamp("i32", lane, str(-(1 << (bits - 1))), str((1 << (bits - 1)) - 1))
    bits = C.UNSIGNED_INTEGER[code]
    return lane if bits == 32 else w.intrinsic("umin", "i32", lane, str((1 << bits) - 1))


def _order_lanes(w: FunctionText, bits: list[str], order: str) -> list[str]:
    """The four stored components' values: the color lanes the order puts there (lane 0 pads), by a
    switch over the orders (the order is the same for the whole image)."""
    cases = [(code, w.label("order")) for code in C.RGBA_TO_ORDER if code != C.RGBA]
    start, done = w.label("place"), w.label("placed")
    w.emit(f"br label %{start}")
    w.block(start)
    w.emit(f"switch i32 {order}, label %{done} [" + " ".join(f"i32 {c}, label %{b}" for c, b in cases) + "]")
    incoming = [(list(bits), start)]  # RGBA, and any unknown order
    for code, block in cases:
        w.block(block)
        lanes = list(C.RGBA_TO_ORDER[code]) + [0] * (4 - len(C.RGBA_TO_ORDER[code]))
        incoming.append(([bits[lane] for lane in lanes], block))
        w.emit(f"br label %{done}")
    w.block(done)
    return [w.phi("i32", [(values[k], block) for values, block in incoming]) for k in range(4)]


def _store_components(w: FunctionText, code: int, values: list[str], texel: str) -> None:
    size = C.COMPONENT_BYTES[code]
    stored = _STORED[size]
    count = w.op(f"udiv i32 {w.field('%desc', 'element_size', 'i32')}, {size}", "n")
    for k in (3, 2, 1, 0):
        index = w.op(f"select i1 {w.op(f'icmp ult i32 {k}, {count}')}, i64 {k}, i64 0")
        address = w.op(f"getelementptr inbounds {stored}, ptr {texel}, i64 {index}")
        value = values[k] if stored == "i32" else w.op(f"trunc i32 {values[k]} to {stored}")
        w.emit(f"store {stored} {value}, ptr {address}, align 1")


def _store_packed(w: FunctionText, code: int, lanes: list[str], texel: str) -> None:
    word = "0"
    for lane, (shift, width) in zip(lanes, C.PACKED_FIELDS[code]):
        largest = float((1 << width) - 1)
        field = _saturated_float(w, lane, 0.0, largest, largest)
        word = w.op(f"or i32 {word}, {w.op(f'shl i32 {field}, {shift}')}")
    stored = _STORED[C.COMPONENT_BYTES[code]]
    value = word if stored == "i32" else w.op(f"trunc i32 {word} to {stored}")
    w.emit(f"store {stored} {value}, ptr {texel}, align 1")
