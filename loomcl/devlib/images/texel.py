"""One texel of an image, read or written at integer coordinates inside the image, as LLVM helpers.

The format is the descriptor's: a helper switches on the channel data type
to load and convert the stored components (OpenCL 1.2, 8.3: normalized integers divided by their
largest value, clamped to -1 for signed ones; half widened; integers extended), then on the channel
order to place them in R, G, B, A with the missing ones (0, 0, 0, 1) (`image_channels.ORDER_TO_RGBA`).
The runtime compiles a kernel for the formats of the images it is launched with (`image_format`):
then the switches are on constants and LLVM keeps only the one case.
Components past the order's count are loaded from the texel's first address, so every load stays
inside the texel, without branches. Writes convert the other way (normalized: `convert_*_sat_rte`
of x times the largest value, a NaN giving 0; integers saturated to the type; half rounded to
nearest even) and store only the order's components. A float read of an integer format, or an
integer read of a float format, is undefined in OpenCL: the helpers give the converted integers or
the raw bits' integers and never touch memory outside the texel.

Texel address: data + x * element_size + y * row_pitch + z * slice_pitch (abi/image.py; a 1D array's
layer is its y, a 2D array's its z).
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.ops.images import ImageChannels
from ...llvmtext.module import ModuleText
from ...llvmtext.types import format_float
from . import channels as C
from .function_text import F4, I4, FunctionText

_FLOAT = ImageChannels.FLOAT


def _f(value: float) -> str:
    return format_float(ty.f32, value)


def texel_address(w: FunctionText, suffix: str = "") -> str:
    """The address of the texel at the parameters %x, %y, %z (each followed by `suffix`)."""
    data = w.field("%desc", "data", "ptr")
    element = w.op(f"sext i32 {w.field('%desc', 'element_size', 'i32')} to i64")
    offset = w.op(f"mul i64 %x{suffix}, {element}")
    row = w.op(f"mul i64 %y{suffix}, {w.field('%desc', 'row_pitch')}")
    plane = w.op(f"mul i64 %z{suffix}, {w.field('%desc', 'slice_pitch')}")
    offset = w.op(f"add i64 {w.op(f'add i64 {offset}, {row}')}, {plane}")
    return w.op(f"getelementptr inbounds i8, ptr {data}, i64 {offset}", "texel")


def _component_count(w: FunctionText, size: int) -> str:
    element = w.field("%desc", "element_size", "i32")
    return w.op(f"udiv i32 {element}, {size}", "n")


# -- reads ------------------------------------------------------------------------------------------------


def read_texels_function(module: ModuleText, channels: ImageChannels, count: int, inline: bool = True,
                         image_format: tuple[int, int] | None = None) -> str:
    """`@name(ptr %desc, i64 %x0, i64 %y0, i64 %z0, ..., i64 %z<count-1>)` -> a struct of `count`
    colors (<4 x float> or <4 x i32>): a linear filter's neighbours share one dispatch on the format.
    Not `inline`: one shared copy (for the sampler dispatcher's targets). With `image_format`
    (channel order, data type) known, the dispatch is on constants, which LLVM folds away."""
    symbol = f"loomcl.image.texels{count}.{channels.value}{format_suffix(image_format)}" + \
        ("" if inline else ".outlined")
    return module.define_once(symbol, lambda: _read_texels(module, channels, count, symbol, inline, image_format))


def format_suffix(image_format: tuple[int, int] | None) -> str:
    return "" if image_format is None else f".{image_format[0]:x}.{image_format[1]:x}"


def format_fields(w: FunctionText, image_format: tuple[int, int] | None) -> tuple[str, str]:
    """(channel order, data type): the descriptor's, or the constants of a known format."""
    if image_format is not None:
        return str(image_format[0]), str(image_format[1])
    return w.field("%desc", "channel_order", "i32"), w.field("%desc", "channel_data_type", "i32")


def texels_type(channels: ImageChannels, count: int) -> str:
    t = F4 if channels is _FLOAT else I4
    return "{" + ", ".join([t] * count) + "}"


def _read_texels(module: ModuleText, channels: ImageChannels, count: int, symbol: str, inline: bool,
                 image_format: tuple[int, int] | None) -> str:
    w = FunctionText(module)
    t, scalar = (F4, "float") if channels is _FLOAT else (I4, "i32")
    texels = [texel_address(w, str(k)) for k in range(count)]
    order, data_type = format_fields(w, image_format)
    done = w.label("decoded")
    cases = [(code, w.label("type")) for code in C.COMPONENT_BYTES]
    default = w.label("other")
    w.emit(f"switch i32 {data_type}, label %{default} [" + " ".join(f"i32 {c}, label %{b}" for c, b in cases) + "]")
    incoming = []
    for code, block in cases:
        w.block(block)
        incoming.append(([_decode(w, code, channels, texel) for texel in texels], block))
        w.emit(f"br label %{done}")
    w.block(default)
    incoming.append((["zeroinitializer"] * count, default))
    w.emit(f"br label %{done}")
    w.block(done)
    stored = [w.phi(t, [(values[k], block) for values, block in incoming]) for k in range(count)]
    result = "poison"
    for k, color in enumerate(_place_channels(w, stored, order, t, scalar)):
        result = w.op(f"insertvalue {texels_type(channels, count)} {result}, {t} {color}, {k}")
    w.emit(f"ret {texels_type(channels, count)} {result}")
    params = ", ".join(f"i64 %x{k}, i64 %y{k}, i64 %z{k}" for k in range(count))
    return w.definition(symbol, texels_type(channels, count), f"ptr %desc, {params}", inline)


def _decode(w: FunctionText, code: int, channels: ImageChannels, texel: str) -> str:
    """The stored components of the texel, converted (lanes past the count are don't-cares)."""
    t, scalar = (F4, "float") if channels is _FLOAT else (I4, "i32")
    if code in C.PACKED:
        bits = "i16" if C.COMPONENT_BYTES[code] == 2 else "i32"
        word = w.op(f"load {bits}, ptr {texel}, align 1")
        if bits != "i32":
            word = w.op(f"zext {bits} {word} to i32")
        lanes = []
        for shift, width in C.PACKED_FIELDS[code]:
            lanes.append(w.op(f"and i32 {w.op(f'lshr i32 {word}, {shift}')}, {(1 << width) - 1}"))
        values = [_to_float(w, v, "uitofp", float((1 << width) - 1)) if channels is _FLOAT else v
                  for v, (_, width) in zip(lanes, C.PACKED_FIELDS[code])]
        return _vector(w, t, scalar, values + ["0.0" if scalar == "float" else "0"])
    size = C.COMPONENT_BYTES[code]
    count = _component_count(w, size)
    stored = {1: "i8", 2: "i16", 4: "i32"}[size]
    values = []
    for k in range(4):
        index = w.op(f"select i1 {w.op(f'icmp ult i32 {k}, {count}')}, i64 {k}, i64 0")
        address = w.op(f"getelementptr inbounds {_memory_type(code, stored)}, ptr {texel}, i64 {index}")
        raw = w.op(f"load {_memory_type(code, stored)}, ptr {address}, align 1")
        values.append(_convert_read(w, code, channels, raw, stored))
    return _vector(w, t, scalar, values)


def _memory_type(code: int, stored: str) -> str:
    return {C.HALF_FLOAT: "half", C.FLOAT: "float"}.get(code, stored)


def _convert_read(w: FunctionText, code: int, channels: ImageChannels, raw: str, stored: str) -> str:
    signed = code in C.SIGNED_NORMALIZED or code in C.SIGNED_INTEGER
    if channels is _FLOAT:
        if code == C.FLOAT:
            return raw
        if code == C.HALF_FLOAT:
            return w.op(f"fpext half {raw} to float")
        value = _to_float(w, raw, "sitofp" if signed else "uitofp", C.NORMALIZED.get(code), stored)
        if code in C.SIGNED_NORMALIZED:
            value = w.intrinsic("maxnum", "float", value, _f(-1.0))
        return value
    if code in (C.FLOAT, C.HALF_FLOAT):  # undefined: the raw bits
        bits = w.op(f"bitcast {_memory_type(code, stored)} {raw} to {stored}")
        return bits if stored == "i32" else w.op(f"zext {stored} {bits} to i32")
    if stored == "i32":
        return raw
    extend = "sext" if channels is ImageChannels.INT else "zext"
    return w.op(f"{extend} {stored} {raw} to i32")


def _to_float(w: FunctionText, value: str, convert: str, scale: float | None, t: str = "i32") -> str:
    """value / scale correctly rounded to float, as a double product rounded once: for every integer
    of 16 bits or fewer and these scales that is the division's result (checked exhaustively in
    tests/e2e/test_image_formats.py), and a multiplication is several times faster than fdiv."""
    if scale is None:
        return w.op(f"{convert} {t} {value} to float")
    wide = w.op(f"{convert} {t} {value} to double")
    product = w.op(f"fmul double {wide}, {format_float(ty.f64, 1.0 / scale)}")
    return w.op(f"fptrunc double {product} to float")


def _vector(w: FunctionText, t: str, scalar: str, values: list[str]) -> str:
    vector = "poison"
    for lane, value in enumerate(values):
        vector = w.op(f"insertelement {t} {vector}, {scalar} {value}, i32 {lane}")
    return vector


def _place_channels(w: FunctionText, stored: list[str], order: str, t: str, scalar: str) -> list[str]:
    """R, G, B, A of each texel from its stored components by the channel order: a switch over the
    orders (one well-predicted branch; the order is the same for the whole image)."""
    one = "1.0" if scalar == "float" else "1"
    zero = "0.0" if scalar == "float" else "0"
    missing = f"<{scalar} {zero}, {scalar} {zero}, {scalar} {zero}, {scalar} {one}>"
    cases = [(code, w.label("order")) for code in C.ORDER_TO_RGBA if code != C.RGBA]
    start, done = w.label("place"), w.label("placed")
    w.emit(f"br label %{start}")
    w.block(start)
    w.emit(f"switch i32 {order}, label %{done} [" + " ".join(f"i32 {c}, label %{b}" for c, b in cases) + "]")
    incoming = [(stored, start)]  # RGBA, and any unknown order
    for code, block in cases:
        w.block(block)
        mask = ", ".join(f"i32 {4 if x == C.MISSING_ZERO else 7 if x == C.MISSING_ONE else x}"
                         for x in C.ORDER_TO_RGBA[code])
        incoming.append(([w.op(f"shufflevector {t} {v}, {t} {missing}, <4 x i32> <{mask}>") for v in stored], block))
        w.emit(f"br label %{done}")
    w.block(done)
    return [w.phi(t, [(values[k], block) for values, block in incoming]) for k in range(len(stored))]


def border_color_function(module: ModuleText, channels: ImageChannels,
                          image_format: tuple[int, int] | None = None) -> str:
    """`@name(ptr %desc)` -> CLK_ADDRESS_CLAMP's border color: (0, 0, 0, 1) or all 0 by the order."""
    symbol = f"loomcl.image.border.{channels.value}{format_suffix(image_format)}"
    return module.define_once(symbol, lambda: _border(module, channels, symbol, image_format))


def _border(module: ModuleText, channels: ImageChannels, symbol: str, image_format: tuple[int, int] | None) -> str:
    w = FunctionText(module)
    t, scalar, one = (F4, "float", "1.0") if channels is _FLOAT else (I4, "i32", "1")
    order, _ = format_fields(w, image_format)
    opaque = "false"
    for code in C.OPAQUE_BORDER:
        opaque = w.op(f"or i1 {opaque}, {w.op(f'icmp eq i32 {order}, {code}')}")
    alpha = w.select(opaque, scalar, one, "0.0" if scalar == "float" else "0")
    w.emit(f"ret {t} {w.op(f'insertelement {t} zeroinitializer, {scalar} {alpha}, i32 3')}")
    return w.definition(symbol, t, "ptr %desc")
