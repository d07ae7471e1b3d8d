"""Image builtins (OpenCL C 6.12.14, checked by frontend/sema_image.py) lowered to the IR's image
operations: reads and writes keep their image type and channel kind; get_image_* become descriptor
queries, widened to the builtin's result (size_t for get_image_array_size, an int2 or int4 of the
sizes for get_image_dim, whose fourth lane is 0)."""
from __future__ import annotations

from ..frontend import ast as A
from ..frontend.builtins import Builtin
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant, Value, VectorConstant

B = Builtin
_CHANNELS = {
    B.READ_IMAGEF: ins.ImageChannels.FLOAT, B.READ_IMAGEI: ins.ImageChannels.INT,
    B.READ_IMAGEUI: ins.ImageChannels.UINT, B.WRITE_IMAGEF: ins.ImageChannels.FLOAT,
    B.WRITE_IMAGEI: ins.ImageChannels.INT, B.WRITE_IMAGEUI: ins.ImageChannels.UINT,
}
_FIELDS = {
    B.IMAGE_WIDTH: ins.ImageProperty.WIDTH, B.IMAGE_HEIGHT: ins.ImageProperty.HEIGHT,
    B.IMAGE_DEPTH: ins.ImageProperty.DEPTH, B.IMAGE_ARRAY_SIZE: ins.ImageProperty.ARRAY_SIZE,
    B.IMAGE_CHANNEL_DATA_TYPE: ins.ImageProperty.CHANNEL_DATA_TYPE,
    B.IMAGE_CHANNEL_ORDER: ins.ImageProperty.CHANNEL_ORDER,
}


def geometry(e: A.BuiltinCall) -> ins.ImageGeometry:
    return ins.ImageGeometry.of_type_name(e.args[0].type.unqualified().name)


class ImageLowering:
    """Mixin of FunctionLowerer: needs `self.b` and `self.value`."""

    def _read_image(self, e: A.BuiltinCall) -> Value:
        values = [self.value(a) for a in e.args]
        sampler = values[1] if len(values) == 3 else None
        read = ins.ImageRead(geometry(e), _CHANNELS[e.builtin], values[0], sampler, values[-1])
        return self.b.insert(read)

    def _write_image(self, e: A.BuiltinCall) -> None:
        image, coordinates, color = (self.value(a) for a in e.args)
        self.b.insert(ins.ImageWrite(geometry(e), _CHANNELS[e.builtin], image, coordinates, color))
        return None

    def _image_query(self, e: A.BuiltinCall) -> Value:
        value = self.b.insert(ins.ImageQuery(_FIELDS[e.builtin], self.value(e.args[0])))
        if e.builtin is B.IMAGE_ARRAY_SIZE:
            return self.b.cast(ins.CastOpcode.ZEXT, value, ty.i64)
        return value

    def _image_dim(self, e: A.BuiltinCall) -> Value:
        image = self.value(e.args[0])
        fields = [ins.ImageProperty.WIDTH, ins.ImageProperty.HEIGHT]
        if e.type.count == 4:
            fields.append(ins.ImageProperty.DEPTH)
        t = ty.VectorType(ty.i32, e.type.count)
        result: Value = VectorConstant(t, [Constant(ty.i32, 0)] * t.count)
        for lane, field in enumerate(fields):
            size = self.b.insert(ins.ImageQuery(field, image))
            result = self.b.insert(ins.InsertElement(result, size, Constant(ty.i32, lane)))
        return result


IMAGE_HANDLERS = {
    **{b: ImageLowering._read_image for b in (B.READ_IMAGEF, B.READ_IMAGEI, B.READ_IMAGEUI)},
    **{b: ImageLowering._write_image for b in (B.WRITE_IMAGEF, B.WRITE_IMAGEI, B.WRITE_IMAGEUI)},
    **{b: ImageLowering._image_query for b in _FIELDS},
    B.IMAGE_DIM: ImageLowering._image_dim,
}
