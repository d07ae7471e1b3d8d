"""Code generation of the IR's image operations (ir/ops/images.py): each becomes a call of a helper
that devlib/images/read.py defines once per module (helpers are `alwaysinline`). A read whose sampler
is a constant calls the helper specialized for its bits; any other sampler goes through the
dispatcher that switches on the bits. In a work-group body whose launch told the image arguments'
formats (`CompilerOptions.image_formats`, set by the runtime per launch), an access to such an
argument uses helpers specialized for its format, with no dispatch on the format per texel. A query
loads the descriptor field (abi/image.py)."""
from __future__ import annotations

from ..devlib.images.function_text import field_offset
from ..devlib.images.read import color_type, read_function, write_function
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Argument, Constant
from ..llvmtext.types import llvm_type


def image_format(emitter, image) -> tuple[int, int] | None:
    """(channel order, data type) of an image argument of the work-group body, if the launch told it."""
    if emitter.env is None or not isinstance(image, Argument):
        return None
    return next(((order, data_type) for index, order, data_type in emitter.options.image_formats
                 if index == image.index), None)


def image_read(emitter, inst: ins.ImageRead) -> None:
    sampler = inst.sampler
    is_float = ty.scalar_of(inst.coordinates.type) is ty.f32
    args = [emitter.typed(inst.image)]
    known = image_format(emitter, inst.image)
    if sampler is None or isinstance(sampler, Constant):
        bits = 0 if sampler is None else sampler.value
        helper = read_function(emitter.module, inst.geometry, inst.channels, is_float, bits, image_format=known)
    else:
        helper = read_function(emitter.module, inst.geometry, inst.channels, is_float, None, image_format=known)
        args.append(emitter.typed(sampler))
    args.append(emitter.typed(inst.coordinates))
    emitter.emit_line(f"{emitter.ref(inst)} = call {color_type(inst.channels)} {helper}({', '.join(args)})")


def image_write(emitter, inst: ins.ImageWrite) -> None:
    helper = write_function(emitter.module, inst.geometry, inst.channels, image_format(emitter, inst.image))
    args = ", ".join(emitter.typed(v) for v in (inst.image, inst.coordinates, inst.color))
    emitter.emit_line(f"call void {helper}({args})")


def image_query(emitter, inst: ins.ImageQuery) -> None:
    address = emitter.temp("image.field")
    offset = field_offset(inst.field.value)
    emitter.emit_line(f"{address} = getelementptr inbounds i8, {emitter.typed(inst.image)}, i64 {offset}")
    wide = inst.field in (ins.ImageProperty.WIDTH, ins.ImageProperty.HEIGHT, ins.ImageProperty.DEPTH,
                          ins.ImageProperty.ARRAY_SIZE)
    if not wide:
        emitter.emit_line(f"{emitter.ref(inst)} = load i32, ptr {address}, align 4, !invariant.load !{{}}")
        return
    value = emitter.temp("image.size")
    emitter.emit_line(f"{value} = load i64, ptr {address}, align 8, !invariant.load !{{}}")
    emitter.emit_line(f"{emitter.ref(inst)} = trunc i64 {value} to {llvm_type(inst.type)}")


HANDLERS = {ins.ImageRead: image_read, ins.ImageWrite: image_write, ins.ImageQuery: image_query}
