"""Images and samplers on the host: formats, creation of every image type, info, memory sharing,
image_from_array, samplers, and the errors of bad formats, sizes and pitches."""
import ctypes

import numpy as np
import pytest

import loomcl as cl
from loomcl.abi import image as image_abi

mf = cl.mem_flags
mot = cl.mem_object_type
co, ct = cl.channel_order, cl.channel_type
RGBA8 = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
RF = cl.ImageFormat(co.R, ct.FLOAT)


def test_image_format_properties():
    f = cl.ImageFormat(co.RGBA, ct.FLOAT)
    assert (f.channel_order, f.channel_data_type) == (co.RGBA, ct.FLOAT)
    assert (f.channel_count, f.dtype_size, f.itemsize) == (4, 4, 16)
    assert repr(f) == "ImageFormat(RGBA, FLOAT)"
    assert f == cl.ImageFormat(co.RGBA, ct.FLOAT) and f != cl.ImageFormat(co.RGBA, ct.HALF_FLOAT)
    assert hash(f) == hash(cl.ImageFormat(co.RGBA, ct.FLOAT))
    assert not hasattr(f, "__dict__")
    packed = cl.ImageFormat(co.RGB, ct.UNORM_SHORT_565)
    assert (packed.channel_count, packed.dtype_size, packed.itemsize) == (3, 2, 2)
    assert cl.ImageFormat(co.RGBx, ct.UNORM_INT_101010).itemsize == 4
    assert cl.ImageFormat(co.Rx, ct.HALF_FLOAT).itemsize == 2
    assert repr(cl.ImageFormat(co.RGx, ct.SNORM_INT16)) == "ImageFormat(RGx, SNORM_INT16)"
    assert repr(cl.ImageFormat(0x1234, ct.FLOAT)) == "ImageFormat(<unknown channel order 0x1234>, FLOAT)"
    with pytest.raises(cl.LogicError, match="unrecognized channel order"):
        cl.ImageFormat(0x1234, ct.FLOAT).channel_count


def test_supported_formats(ctx):
    formats = cl.get_supported_image_formats(ctx, mf.READ_ONLY, mot.IMAGE2D)
    assert formats == cl.get_supported_image_formats(ctx, mf.WRITE_ONLY, mot.IMAGE1D_BUFFER)
    assert len(set(formats)) == len(formats)
    twelve_types = [ct.SNORM_INT8, ct.SNORM_INT16, ct.UNORM_INT8, ct.UNORM_INT16, ct.SIGNED_INT8, ct.SIGNED_INT16,
                    ct.SIGNED_INT32, ct.UNSIGNED_INT8, ct.UNSIGNED_INT16, ct.UNSIGNED_INT32, ct.HALF_FLOAT, ct.FLOAT]
    expected = {(o, t) for o in (co.R, co.A, co.RG, co.RA, co.RGBA, co.Rx, co.RGx) for t in twelve_types}
    expected |= {(o, t) for o in (co.BGRA, co.ARGB)
                 for t in (ct.UNORM_INT8, ct.SNORM_INT8, ct.SIGNED_INT8, ct.UNSIGNED_INT8)}
    expected |= {(o, t) for o in (co.INTENSITY, co.LUMINANCE)
                 for t in (ct.UNORM_INT8, ct.UNORM_INT16, ct.SNORM_INT8, ct.SNORM_INT16, ct.HALF_FLOAT, ct.FLOAT)}
    expected |= {(o, t) for o in (co.RGB, co.RGBx)
                 for t in (ct.UNORM_SHORT_565, ct.UNORM_SHORT_555, ct.UNORM_INT_101010)}
    assert {(f.channel_order, f.channel_data_type) for f in formats} == expected
    for f in formats:  # every listed format makes an image
        assert cl.Image(ctx, mf.READ_WRITE, f, shape=(3, 2)).element_size == f.itemsize
    assert formats == cl.get_supported_image_formats(ctx, mf.READ_ONLY | mf.USE_HOST_PTR, mot.IMAGE3D)
    with pytest.raises(cl.LogicError, match="image_type must be"):
        cl.get_supported_image_formats(ctx, mf.READ_ONLY, mot.BUFFER)
    with pytest.raises(cl.LogicError, match="at most one of READ_WRITE, WRITE_ONLY, READ_ONLY"):
        cl.get_supported_image_formats(ctx, mf.READ_ONLY | mf.WRITE_ONLY, mot.IMAGE2D)


def test_device_reports_image_support(ctx):
    device = ctx.devices[0]
    assert device.image_support == 1 and type(device.image_support) is int  # a cl_bool, as pyopencl gives it
    assert device.get_info(cl.device_info.IMAGE2D_MAX_WIDTH) == 16384
    assert device.get_info(cl.device_info.IMAGE3D_MAX_DEPTH) == 2048
    assert device.get_info(cl.device_info.IMAGE_MAX_ARRAY_SIZE) == 2048
    assert device.get_info(cl.device_info.MAX_SAMPLERS) == 16
    assert (device.max_read_image_args, device.max_write_image_args) == (128, 64)


# (constructor arguments, type, shape, (width, height, depth, array_size) info, row pitch, slice pitch)
KINDS = [
    (dict(shape=(7,)), mot.IMAGE1D, (7,), (7, 0, 0, 0), 28, 0),
    (dict(shape=(7, 3), is_array=True), mot.IMAGE1D_ARRAY, (7, 3), (7, 0, 0, 3), 28, 28),
    (dict(shape=(7, 3)), mot.IMAGE2D, (7, 3), (7, 3, 0, 0), 28, 0),
    (dict(shape=(7, 3, 2), is_array=True), mot.IMAGE2D_ARRAY, (7, 3, 2), (7, 3, 0, 2), 28, 84),
    (dict(shape=(7, 3, 2)), mot.IMAGE3D, (7, 3, 2), (7, 3, 2, 0), 28, 84),
]


@pytest.mark.parametrize(("kwargs", "kind", "shape", "extents", "row_pitch", "slice_pitch"), KINDS)
def test_image_types_and_info(ctx, kwargs, kind, shape, extents, row_pitch, slice_pitch):
    img = cl.Image(ctx, mf.READ_WRITE, RF, **kwargs)
    assert img.type == kind and img.get_info(cl.mem_info.TYPE) == kind
    assert img.shape == shape
    info = cl.image_info
    assert tuple(img.get_image_info(i) for i in (info.WIDTH, info.HEIGHT, info.DEPTH, info.ARRAY_SIZE)) == extents
    assert (img.width, img.height, img.depth, img.array_size) == extents
    assert (img.row_pitch, img.slice_pitch) == (row_pitch, slice_pitch)
    assert img.get_image_info(info.FORMAT) == RF and img.format == RF
    assert img.get_image_info(info.ELEMENT_SIZE) == img.element_size == 4
    assert img.get_image_info(info.BUFFER) is None
    assert img.get_image_info(info.NUM_MIP_LEVELS) == img.get_image_info(info.NUM_SAMPLES) == 0
    assert img.size == img.get_info(cl.mem_info.SIZE) == 4 * int(np.prod(shape))
    assert img.get_info(cl.mem_info.CONTEXT) is ctx and img.context is ctx
    assert img.flags == mf.READ_WRITE and img.get_info(cl.mem_info.HOST_PTR) == 0
    assert img.image.depth == extents[2]  # pyopencl's spelling
    assert img.int_ptr == img.int_ptr and img == img and img != cl.Image(ctx, mf.READ_WRITE, RF, **kwargs)


@pytest.mark.parametrize(("kwargs", "kind", "shape", "extents", "row_pitch", "slice_pitch"), KINDS)
def test_descriptor_is_the_kernel_abi(ctx, kwargs, kind, shape, extents, row_pitch, slice_pitch):
    img = cl.Image(ctx, mf.READ_WRITE, cl.ImageFormat(co.RG, ct.SIGNED_INT16), **kwargs)
    d = img.descriptor
    assert isinstance(d, image_abi.ImageDescriptor)
    assert img.address == ctypes.addressof(d)
    padded = shape + (1,) * (3 - len(shape))
    width, height = padded[0], padded[1] if kind in (mot.IMAGE2D, mot.IMAGE2D_ARRAY, mot.IMAGE3D) else 1
    layers = shape[-1] if kind in (mot.IMAGE1D_ARRAY, mot.IMAGE2D_ARRAY) else 1
    assert (d.width, d.height, d.depth, d.array_size) == (width, height, extents[2] or 1, layers)
    assert d.row_pitch == (img.slice_pitch if kind == mot.IMAGE1D_ARRAY else img.row_pitch)
    assert d.channel_order == co.RG and d.channel_data_type == ct.SIGNED_INT16
    assert (d.element_size, d.num_channels, d.image_type) == (4, 2, kind)
    # the descriptor's data is the image's memory: a write through the API lands there
    data = np.arange(img.size, dtype=np.uint8) % 251
    cl.enqueue_copy(cl.CommandQueue(ctx), img, data, origin=(0, 0, 0), region=shape)
    assert ctypes.string_at(d.data, img.size) == data.tobytes()


def test_use_host_ptr_shares_memory_with_pitches(ctx, queue):
    host = np.zeros((3, 40), np.uint8)  # 3 rows of 7 RGBA8 pixels, pitch 40 bytes
    img = cl.Image(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, RGBA8, shape=(7, 3), pitches=(40,), hostbuf=host)
    assert (img.row_pitch, img.size, img.hostbuf is host) == (40, 120, True)
    assert img.get_info(cl.mem_info.HOST_PTR) == host.ctypes.data == img.descriptor.data
    cl.enqueue_fill_image(queue, img, np.array([1, 2, 3, 4], np.uint32), (1, 2), (2, 1)).wait()
    assert host[2, 4:12].tolist() == [1, 2, 3, 4] * 2 and host.sum() == 20
    host[0, :4] = [9, 8, 7, 6]
    out = np.zeros(4, np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(1, 1))
    assert out.tolist() == [9, 8, 7, 6]


def test_copy_host_ptr_copies_with_pitches(ctx, queue):
    host = np.arange(2 * 3 * 24, dtype=np.uint8).reshape(2, 3, 24)  # 3D: 5 RGBA8 pixels in rows of 24 bytes
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, RGBA8, shape=(5, 3, 2), pitches=(24, 72), hostbuf=host)
    host[...] = 0
    assert (img.row_pitch, img.slice_pitch, img.hostbuf) == (20, 60, None)
    out = np.zeros((2, 3, 20), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0, 0), region=(5, 3, 2))
    np.testing.assert_array_equal(out, np.arange(2 * 3 * 24, dtype=np.uint8).reshape(2, 3, 24)[:, :, :20])
    alloc = cl.Image(ctx, mf.READ_WRITE | mf.ALLOC_HOST_PTR, RGBA8, shape=(5, 3))
    cl.enqueue_copy(queue, out[0], alloc, origin=(0, 0), region=(5, 3))
    assert not out[0].any()


def test_buffer_image_shares_the_buffer(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    img = cl.Image(ctx, 0, RF, shape=(12,), buffer=buf)
    assert img.type == mot.IMAGE1D_BUFFER and img.shape == (12,) and img.size == 48
    assert img.buffer is buf and img.get_image_info(cl.image_info.BUFFER) is buf
    assert img.get_info(cl.mem_info.ASSOCIATED_MEMOBJECT) is buf and img.flags == mf.READ_WRITE
    values = np.linspace(0, 1, 16, dtype=np.float32)
    cl.enqueue_copy(queue, buf, values)
    out = np.zeros(5, np.float32)
    cl.enqueue_copy(queue, out, img, origin=(3,), region=(5,))
    np.testing.assert_array_equal(out, values[3:8])
    assert img.descriptor.data == buf.address
    with pytest.raises(cl.LogicError, match="needs 80 bytes; the buffer has 64"):
        cl.Image(ctx, 0, RF, shape=(20,), buffer=buf)
    with pytest.raises(cl.LogicError, match="USE_HOST_PTR, COPY_HOST_PTR or ALLOC_HOST_PTR"):
        cl.Image(ctx, mf.ALLOC_HOST_PTR, RF, shape=(4,), buffer=buf)
    readonly = cl.Buffer(ctx, mf.READ_ONLY, 64)
    with pytest.raises(cl.LogicError, match="access flags ask for more"):
        cl.Image(ctx, mf.READ_WRITE, RF, shape=(4,), buffer=readonly)
    with pytest.raises(TypeError, match="not supported for 2D"):
        cl.Image(ctx, 0, RF, shape=(4, 4), buffer=buf)


def test_descriptor_constructor(ctx, queue):
    desc = cl.ImageDescriptor()
    desc.image_type = mot.IMAGE1D_ARRAY
    desc.shape = (6, 1, 1)
    desc.array_size = 4
    host = np.arange(4 * 48, dtype=np.uint8) % 251
    desc.pitches = (24, 48)
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, RGBA8, hostbuf=host, desc=desc)
    assert (img.type, img.shape, img.array_size, img.slice_pitch) == (mot.IMAGE1D_ARRAY, (6, 4), 4, 24)
    out = np.zeros((4, 24), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(6, 4))
    np.testing.assert_array_equal(out, host.reshape(4, 48)[:, :24])
    with pytest.raises(TypeError, match="may not be passed with desc"):
        cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(4,), desc=desc)


def test_image_from_array(ctx, queue):
    a = np.arange(5 * 3, dtype=np.float32).reshape(5, 3)
    img = cl.image_from_array(ctx, a)
    assert (img.shape, img.format, img.flags) == ((3, 5), RF, mf.READ_ONLY | mf.COPY_HOST_PTR)
    out = np.zeros_like(a)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(3, 5))
    np.testing.assert_array_equal(out, a)

    rgba = np.arange(2 * 3 * 4 * 4, dtype=np.uint16).reshape(2, 3, 4, 4)
    img = cl.image_from_array(ctx, rgba, num_channels=4, mode="w", norm_int=True)
    assert (img.type, img.shape, img.flags) == (mot.IMAGE3D, (4, 3, 2), mf.WRITE_ONLY | mf.COPY_HOST_PTR)
    assert img.format == cl.ImageFormat(co.RGBA, ct.UNORM_INT16)
    out = np.zeros_like(rgba)
    cl.enqueue_copy(queue, out, img, origin=(0, 0, 0), region=(4, 3, 2))
    np.testing.assert_array_equal(out, rgba)

    vectors = np.zeros((2, 3), cl.cltypes.float2)
    assert cl.image_from_array(ctx, vectors).format == cl.ImageFormat(co.RG, ct.FLOAT)
    with pytest.raises(RuntimeError, match="last dimension must be equal to number of channels"):
        cl.image_from_array(ctx, rgba, num_channels=2)
    with pytest.raises(ValueError, match="C-contiguous"):
        cl.image_from_array(ctx, a.T)
    with pytest.raises(cl.LogicError, match="no image format holds 1 channel"):
        cl.image_from_array(ctx, np.zeros(4, np.float64))


def test_sampler(ctx):
    am, fm = cl.addressing_mode, cl.filter_mode
    s = cl.Sampler(ctx, True, am.MIRRORED_REPEAT, fm.LINEAR)
    info = cl.sampler_info
    assert s.get_info(info.CONTEXT) is ctx and s.get_info(info.REFERENCE_COUNT) == 1
    assert s.get_info(info.NORMALIZED_COORDS) is True
    assert s.get_info(info.ADDRESSING_MODE) == am.MIRRORED_REPEAT and s.get_info(info.FILTER_MODE) == fm.LINEAR
    assert s.get_info(info.PROPERTIES) == []
    assert s.bits == 1 | image_abi.ADDRESS_MIRRORED_REPEAT << 1 | image_abi.FILTER_LINEAR << 4
    codes = {am.NONE: 0, am.CLAMP_TO_EDGE: 1, am.CLAMP: 2}
    for mode, abi in codes.items():
        s = cl.Sampler(ctx, False, mode, fm.NEAREST)
        assert s.bits == abi << 1 | 1 << 4 and s.normalized_coords is False
    props = [cl.sampler_properties.FILTER_MODE, fm.LINEAR, 0]
    s = cl.Sampler(ctx, props)
    assert (s.normalized_coords, s.addressing_mode, s.filter_mode) == (True, am.CLAMP, fm.LINEAR)
    assert s.properties == [int(v) for v in props]
    with pytest.raises(cl.LogicError, match="REPEAT needs normalized_coords=True"):
        cl.Sampler(ctx, False, am.REPEAT, fm.NEAREST)
    with pytest.raises(cl.LogicError, match="addressing_mode must be"):
        cl.Sampler(ctx, True, fm.LINEAR, fm.NEAREST)
    with pytest.raises(cl.LogicError, match="filter_mode must be"):
        cl.Sampler(ctx, True, am.CLAMP, 7)


@pytest.mark.parametrize(("kwargs", "code", "message"), [
    (dict(format=cl.ImageFormat(co.sRGBA, ct.UNORM_INT8), shape=(4, 4)), cl.status_code.IMAGE_FORMAT_NOT_SUPPORTED,
     r"format ImageFormat\(sRGBA, UNORM_INT8\) is not supported"),
    (dict(format=cl.ImageFormat(co.RGBA, ct.UNORM_INT_101010_2), shape=(4, 4)),
     cl.status_code.IMAGE_FORMAT_NOT_SUPPORTED, "is not supported"),
    (dict(format=cl.ImageFormat(co.RGB, ct.FLOAT), shape=(4, 4)), cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
     "not an OpenCL image format; channel order RGB takes UNORM_SHORT_565, UNORM_SHORT_555, UNORM_INT_101010"),
    (dict(format=cl.ImageFormat(co.BGRA, ct.FLOAT), shape=(4, 4)), cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
     "channel order BGRA takes UNORM_INT8, SNORM_INT8, SIGNED_INT8, UNSIGNED_INT8"),
    (dict(format=cl.ImageFormat(0x1234, ct.FLOAT), shape=(4, 4)), cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
     "is not an OpenCL image format"),
    (dict(format="RGBA", shape=(4, 4)), cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR, "must be an ImageFormat"),
    (dict(shape=(16385, 4)), cl.status_code.INVALID_IMAGE_SIZE,
     r"width 16385 is outside 1..16384 \(the device's image2d_max_width\)"),
    (dict(shape=(4, 0)), cl.status_code.INVALID_IMAGE_SIZE, "height 0 is outside 1..16384"),
    (dict(shape=(8, 8, 2049)), cl.status_code.INVALID_IMAGE_SIZE, "depth 2049 is outside 1..2048"),
    (dict(shape=(8, 2049), is_array=True), cl.status_code.INVALID_IMAGE_SIZE,
     r"array size 2049 is outside 1..2048 \(the device's image_max_array_size\)"),
    (dict(shape=(4, 4), pitches=(32,)), cl.status_code.INVALID_IMAGE_DESCRIPTOR,
     "pitches may only be given with a hostbuf"),
    (dict(flags=mf.COPY_HOST_PTR, shape=(4, 4), pitches=(15,), hostbuf=np.zeros(64, np.uint8)),
     cl.status_code.INVALID_IMAGE_DESCRIPTOR, "row pitch 15 must be a multiple of the 4-byte element and at least"),
    (dict(flags=mf.COPY_HOST_PTR, shape=(4, 4, 2), pitches=(16, 40), hostbuf=np.zeros(128, np.uint8)),
     cl.status_code.INVALID_IMAGE_DESCRIPTOR, "slice pitch 40 must be a multiple of the row pitch 16 and at least 4"),
    (dict(flags=mf.COPY_HOST_PTR, shape=(4, 4), pitches=(16, 64), hostbuf=np.zeros(64, np.uint8)),
     cl.status_code.INVALID_IMAGE_DESCRIPTOR, "a slice pitch .64. needs a 3D image or an image array"),
    (dict(flags=mf.USE_HOST_PTR, shape=(4, 4), pitches=(20,), hostbuf=np.zeros(64, np.uint8)),
     cl.status_code.INVALID_HOST_PTR,
     r"hostbuf has 64 bytes; the image's shape \(4, 4\) and pitches \(20, 80\) need 80"),
    (dict(flags=mf.COPY_HOST_PTR, shape=(4, 4)), cl.status_code.INVALID_HOST_PTR, "need a hostbuf"),
])
def test_creation_errors(ctx, kwargs, code, message):
    kwargs = dict(dict(flags=mf.READ_WRITE, format=RGBA8), **kwargs)
    with pytest.raises(cl.Error, match=message) as info:
        cl.Image(ctx, kwargs.pop("flags"), kwargs.pop("format"), **kwargs)
    assert info.value.code == code and info.value.routine == "clCreateImage"
    expected_class = cl.RuntimeError if code == cl.status_code.IMAGE_FORMAT_NOT_SUPPORTED else cl.LogicError
    assert isinstance(info.value, expected_class)


def test_hostbuf_without_flags_warns(ctx):
    with pytest.warns(UserWarning, match="no memory flags to make use of it"):
        img = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(2, 2), hostbuf=np.ones(16, np.uint8))
    assert img.hostbuf is None


def test_release(ctx, queue):
    img = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(2, 2))
    img.release()
    assert img.released and not img.descriptor.data
    with pytest.raises(cl.LogicError, match="the image was released"):
        cl.enqueue_copy(queue, np.zeros(16, np.uint8), img, origin=(0, 0), region=(2, 2))


def test_pyopencl_names():
    for name in ("Image", "ImageFormat", "ImageDescriptor", "Sampler", "create_image", "image_from_array",
                 "get_supported_image_formats", "enqueue_fill_image", "enqueue_map_image", "channel_order",
                 "channel_type", "image_info", "addressing_mode", "filter_mode", "sampler_info", "sampler_properties"):
        assert name in cl.__all__, name
    assert co.to_string(co.RGBx) == "RGBx" and co.to_string(co.sRGBA) == "sRGBA"
    assert ct.to_string(0x10DE) == "FLOAT" and cl.image_info.to_string(0x1118) == "BUFFER"
    assert (mot.IMAGE2D, mot.IMAGE3D, mot.IMAGE2D_ARRAY, mot.IMAGE1D, mot.IMAGE1D_ARRAY, mot.IMAGE1D_BUFFER) == \
        tuple(range(0x10F1, 0x10F7))
    assert (cl.addressing_mode.MIRRORED_REPEAT, cl.filter_mode.LINEAR, cl.sampler_info.FILTER_MODE) == \
        (0x1134, 0x1141, 0x1154)
    assert cl.command_type.FILL_IMAGE == 0x1208 and cl.command_type.MAP_IMAGE == 0x11FC
