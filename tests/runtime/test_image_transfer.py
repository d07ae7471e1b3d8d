"""Image transfers through enqueue_copy (Read/Write/CopyImage, CopyImageToBuffer, CopyBufferToImage)
for every image type, with origins, regions and pitches, against a pixel-loop reference of the spec's
addressing: pixel (x, y, z) of an image lies at x * element_size + y * row_pitch + z * slice_pitch,
except in a 1D image array, whose layer y steps by the slice pitch."""
import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags
mot = cl.mem_object_type
co, ct = cl.channel_order, cl.channel_type
RGBA8 = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
RG16 = cl.ImageFormat(co.RG, ct.SIGNED_INT16)
RGBA32F = cl.ImageFormat(co.RGBA, ct.FLOAT)
RH = cl.ImageFormat(co.R, ct.HALF_FLOAT)


def offset(kind, x, y, z, element, row_pitch, slice_pitch):
    if kind == mot.IMAGE1D_ARRAY:
        return x * element + y * slice_pitch
    return x * element + y * row_pitch + z * slice_pitch


def host_pitches(kind, region, element, pitches):
    """The host side's (row, slice) pitches, zeros replaced by the spec's defaults."""
    row, slice_ = (tuple(pitches or ()) + (0, 0))[:2]
    row = row or region[0] * element
    slice_ = slice_ or (row if kind == mot.IMAGE1D_ARRAY else row * region[1])
    return row, slice_


def host_size(host_at, region, element):
    """Bytes from the box's first pixel to the end of its last."""
    last = [n - 1 for n in pad(region, 1)]
    return host_at(*last) + element


def reference_copy(dst, dst_at, src, src_at, region, element):
    for z in range(region[2]):
        for y in range(region[1]):
            for x in range(region[0]):
                d, s = dst_at(x, y, z), src_at(x, y, z)
                dst[d:d + element] = src[s:s + element]


def pad(values, fill):
    return tuple(values) + (fill,) * (3 - len(values))


class Case:
    """An image of `kind` over `backing` bytes laid out with `pitches` (USE_HOST_PTR), or a packed
    copy of them (COPY_HOST_PTR), or a buffer's bytes (IMAGE1D_BUFFER)."""

    def __init__(self, ctx, kind, shape, fmt, pitches, storage, seed):
        self.kind, self.shape, self.element = kind, shape, fmt.itemsize
        width = shape[0]
        self.row = pitches[0] if pitches else width * self.element
        rows = shape[1] if kind in (mot.IMAGE2D, mot.IMAGE2D_ARRAY, mot.IMAGE3D) else 1
        self.slice = pitches[1] if pitches and len(pitches) > 1 else self.row * rows
        planes = shape[-1] if kind in (mot.IMAGE1D_ARRAY, mot.IMAGE2D_ARRAY, mot.IMAGE3D) else 1
        self.backing = np.random.default_rng(seed).integers(0, 256, self.slice * planes + 7, dtype=np.uint8)
        is_array = kind in (mot.IMAGE1D_ARRAY, mot.IMAGE2D_ARRAY)
        if kind == mot.IMAGE1D_BUFFER:
            self.buffer = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=self.backing)
            self.image = cl.Image(ctx, 0, fmt, shape=shape, buffer=self.buffer)
        else:
            flags = mf.READ_WRITE | (mf.USE_HOST_PTR if storage == "use" else mf.COPY_HOST_PTR)
            self.image = cl.Image(ctx, flags, fmt, shape=shape, pitches=pitches, is_array=is_array,
                                  hostbuf=self.backing)
        assert self.image.type == kind

    def at(self, origin):
        ox, oy, oz = pad(origin, 0)
        return lambda x, y, z: offset(self.kind, ox + x, oy + y, oz + z, self.element, self.row, self.slice)

    def logical(self, backing):
        """(z, y, x, element bytes) of every pixel, read from `backing` by the reference addressing."""
        extent = pad(self.shape, 1)
        out = np.zeros((extent[2], extent[1], extent[0] * self.element), np.uint8)
        flat = out.reshape(-1)
        packed = lambda x, y, z: ((z * extent[1] + y) * extent[0] + x) * self.element  # noqa: E731
        reference_copy(flat, packed, backing, self.at((0, 0, 0)), extent, self.element)
        return out

    def contents(self, queue):
        """The whole image, read back packed."""
        extent = pad(self.shape, 1)
        out = np.zeros((extent[2], extent[1], extent[0] * self.element), np.uint8)
        cl.enqueue_copy(queue, out, self.image, origin=(0, 0, 0), region=self.shape)
        return out


# (kind, shape, format, image pitches, [(origin, region, host pitches), ...])
KINDS = [
    (mot.IMAGE1D, (37,), RGBA8, None, [((0,), (37,), None), ((5,), (20,), (0,))]),
    (mot.IMAGE1D_BUFFER, (23,), RG16, None, [((3,), (9,), None), ((0, 0, 0), (23, 1, 1), None)]),
    (mot.IMAGE1D_ARRAY, (13, 5), RGBA8, (64, 128),
     [((0, 0), (13, 5), None), ((2, 1), (7, 3), (40, 48)), ((4, 4), (9, 1), (0, 44))]),
    (mot.IMAGE2D, (11, 7), RGBA32F, (192,),
     [((0, 0), (11, 7), None), ((3, 2), (5, 4), (96,)), ((10, 6), (1, 1), None)]),
    (mot.IMAGE2D_ARRAY, (9, 5, 4), RH, (24, 144),
     [((0, 0, 0), (9, 5, 4), None), ((1, 2, 1), (6, 3, 2), (16, 64)), ((8, 0, 3), (1, 5, 1), (2, 0))]),
    (mot.IMAGE3D, (6, 5, 4), RG16, (32, 192),
     [((0, 0, 0), (6, 5, 4), None), ((2, 1, 1), (3, 3, 3), (20, 80)), ((1, 0, 2), (5, 5, 2), (0, 120))]),
]
CASES = [(kind, shape, fmt, pitches, storage, box) for kind, shape, fmt, pitches, boxes in KINDS
         for storage in (("use",) if kind == mot.IMAGE1D_BUFFER else ("use", "copy")) for box in boxes]


def case_id(case):
    kind, shape, _, _, storage, (origin, region, hp) = case
    return f"{mot.to_string(kind)}-{storage}-{origin}-{region}-{hp}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_read_image(ctx, queue, case):
    kind, shape, fmt, pitches, storage, (origin, region, hp) = case
    image = Case(ctx, kind, shape, fmt, pitches, storage, seed=1)
    row, slice_ = host_pitches(kind, pad(region, 1), image.element, hp)
    host_at = lambda x, y, z: offset(kind, x, y, z, image.element, row, slice_)  # noqa: E731
    host = np.random.default_rng(2).integers(0, 256, host_size(host_at, region, image.element) + 5, dtype=np.uint8)
    expected = host.copy()
    reference_copy(expected, host_at, image.backing, image.at(origin), pad(region, 1), image.element)
    event = cl.enqueue_copy(queue, host, image.image, origin=origin, region=region, pitches=hp)
    assert event.command_type == cl.command_type.READ_IMAGE
    np.testing.assert_array_equal(host, expected)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_write_image(ctx, queue, case):
    kind, shape, fmt, pitches, storage, (origin, region, hp) = case
    image = Case(ctx, kind, shape, fmt, pitches, storage, seed=3)
    row, slice_ = host_pitches(kind, pad(region, 1), image.element, hp)
    host_at = lambda x, y, z: offset(kind, x, y, z, image.element, row, slice_)  # noqa: E731
    host = np.random.default_rng(4).integers(0, 256, host_size(host_at, region, image.element), dtype=np.uint8)
    expected = image.backing.copy()
    reference_copy(expected, image.at(origin), host, host_at, pad(region, 1), image.element)
    kwargs = dict(pitches=hp) if hp is None else dict(row_pitch=hp[0], slice_pitch=hp[1] if len(hp) > 1 else 0)
    event = cl.enqueue_copy(queue, image.image, host, origin=origin, region=region, **kwargs)
    assert event.command_type == cl.command_type.WRITE_IMAGE
    np.testing.assert_array_equal(image.contents(queue), image.logical(expected))
    if storage == "use" and kind != mot.IMAGE1D_BUFFER:  # the caller's memory is the image: padding untouched
        np.testing.assert_array_equal(image.backing, expected)
    if kind == mot.IMAGE1D_BUFFER:
        in_buffer = np.zeros_like(expected)
        cl.enqueue_copy(queue, in_buffer, image.buffer)
        np.testing.assert_array_equal(in_buffer, expected)


def packed_image(ctx, shape, fmt, seed, is_array=False):
    extent = pad(shape, 1)
    pixels = np.random.default_rng(seed).integers(0, 256, (extent[2], extent[1], extent[0] * fmt.itemsize),
                                                  dtype=np.uint8)
    image = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, shape=shape, hostbuf=pixels, is_array=is_array)
    return image, pixels


def read_all(queue, image, shape, fmt):
    extent = pad(shape, 1)
    out = np.zeros((extent[2], extent[1], extent[0] * fmt.itemsize), np.uint8)
    cl.enqueue_copy(queue, out, image, origin=(0, 0, 0), region=shape)
    return out


def box(pixels, origin, region, element):
    (x, y, z), (w, h, d) = pad(origin, 0), pad(region, 1)
    return pixels[z:z + d, y:y + h, x * element:(x + w) * element]


@pytest.mark.parametrize(("src_shape", "src_array", "dst_shape", "dst_array", "src_origin", "dst_origin", "region"), [
    ((8, 6), False, (5, 4, 3), False, (2, 1), (1, 0, 2), (3, 4, 1)),  # 2D -> 3D
    ((5, 4, 3), False, (7, 6, 2), True, (0, 1, 1), (3, 2, 0), (4, 3, 2)),  # 3D -> 2D array
    ((6, 4), True, (5, 5), False, (1, 0), (0, 2), (4, 3)),  # 1D array layers -> 2D rows
    ((9,), False, (4, 3), True, (2,), (0, 2), (4, 1)),  # 1D -> a layer of a 1D array
])
def test_copy_image_to_image(ctx, queue, src_shape, src_array, dst_shape, dst_array, src_origin, dst_origin,
                             region):
    src, src_pixels = packed_image(ctx, src_shape, RGBA8, 5, src_array)
    dst, dst_pixels = packed_image(ctx, dst_shape, RGBA8, 6, dst_array)
    event = cl.enqueue_copy(queue, dst, src, src_origin=src_origin, dest_origin=dst_origin, region=region)
    assert event.command_type == cl.command_type.COPY_IMAGE
    box(dst_pixels, dst_origin, region, 4)[...] = box(src_pixels, src_origin, region, 4)
    np.testing.assert_array_equal(read_all(queue, dst, dst_shape, RGBA8), dst_pixels)


def test_copy_within_one_image(ctx, queue):
    img, pixels = packed_image(ctx, (8, 8), RG16, 7)
    cl.enqueue_copy(queue, img, img, src_origin=(0, 0), dst_origin=(4, 4), region=(4, 4))
    box(pixels, (4, 4), (4, 4), 4)[...] = box(pixels, (0, 0), (4, 4), 4).copy()
    np.testing.assert_array_equal(read_all(queue, img, (8, 8), RG16), pixels)
    with pytest.raises(cl.LogicError, match="MEM_COPY_OVERLAP - the source and destination regions overlap"):
        cl.enqueue_copy(queue, img, img, src_origin=(0, 0), dest_origin=(3, 3), region=(4, 4))
    other = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(8, 8))
    with pytest.raises(cl.RuntimeError, match="IMAGE_FORMAT_MISMATCH - the source's format ImageFormat"):
        cl.enqueue_copy(queue, other, img, src_origin=(0, 0), dest_origin=(0, 0), region=(1, 1))


@pytest.mark.parametrize(("shape", "is_array", "origin", "region", "offset"), [
    ((7, 5, 3), True, (1, 2, 1), (4, 3, 2), 12),
    ((6, 5, 4), False, (0, 0, 0), (6, 5, 4), 0),
    ((9, 3), True, (3, 1), (5, 2), 4),
    ((10,), False, (2,), (7,), 8),
])
def test_image_to_buffer_and_back(ctx, queue, shape, is_array, origin, region, offset):
    img, pixels = packed_image(ctx, shape, RG16, 8, is_array)
    nbytes = 4 * int(np.prod(region))
    initial = np.random.default_rng(9).integers(0, 256, offset + nbytes + 16, dtype=np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=initial)
    event = cl.enqueue_copy(queue, buf, img, origin=origin, region=region, offset=offset)
    assert event.command_type == cl.command_type.COPY_IMAGE_TO_BUFFER
    expected = initial.copy()
    expected[offset:offset + nbytes] = box(pixels, origin, region, 4).reshape(-1)
    out = np.zeros_like(expected)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, expected)

    incoming = np.random.default_rng(10).integers(0, 256, offset + nbytes, dtype=np.uint8)
    cl.enqueue_copy(queue, buf, incoming)
    event = cl.enqueue_copy(queue, img, buf, offset=offset, origin=origin, region=region)
    assert event.command_type == cl.command_type.COPY_BUFFER_TO_IMAGE
    box(pixels, origin, region, 4)[...] = incoming[offset:].reshape(box(pixels, origin, region, 4).shape)
    np.testing.assert_array_equal(read_all(queue, img, shape, RG16), pixels)


def test_buffer_image_and_its_buffer(ctx, queue):
    data = np.arange(64, dtype=np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=data)
    img = cl.Image(ctx, 0, RGBA8, shape=(8,), buffer=buf)  # bytes 0..31 of buf
    cl.enqueue_copy(queue, buf, img, origin=(0,), region=(4,), offset=40)
    out = np.zeros(64, np.uint8)
    cl.enqueue_copy(queue, out, buf)
    assert out[40:56].tolist() == list(range(16))
    with pytest.raises(cl.LogicError, match="MEM_COPY_OVERLAP - the image is made of the buffer"):
        cl.enqueue_copy(queue, img, buf, offset=8, origin=(4,), region=(4,))


def test_pyopencl_array_image_read(ctx, queue):
    """pyopencl's test_enqueue_copy_array: a one-layer 2D image array read whole."""
    image = np.ascontiguousarray(np.full((128, 128, 4), 7, np.float32))
    image_cl = cl.Image(ctx, mf.READ_ONLY, RGBA32F, shape=(128, 128, 1), is_array=True)
    cl.enqueue_copy(queue, dest=image, src=image_cl, origin=(0, 0, 0), region=(128, 128, 1))
    assert not image.any()


@pytest.mark.parametrize(("kwargs", "code", "message"), [
    (dict(origin=(3, 0), region=(5, 3)), "INVALID_VALUE",
     r"origin \(3, 0, 0\) \+ region \(5, 3, 1\) leaves the image along x: 3 \+ 5 > 5 "
     r"\(the image's shape is \(5, 3\)\)"),
    (dict(origin=(0, 0), region=(2, 2, 2)), "INVALID_VALUE", "leaves the image along z: 0 \\+ 2 > 1"),
    (dict(origin=(0, 0), region=(5, 0)), "INVALID_VALUE", r"region \(5, 0, 1\) has an empty dimension"),
    (dict(origin=(0, -1), region=(5, 3)), "INVALID_VALUE", "origin must be 1 to 3 non-negative ints"),
    (dict(origin=(0, 0), region=(3, 3), pitches=(8,)), "INVALID_VALUE",
     "row_pitch 8 is less than the region's 12 bytes per row"),
    (dict(origin=(0, 0), region=(3, 3), pitches=(12, 30)), "INVALID_VALUE",
     "slice_pitch must be 0 for a IMAGE2D image, got 30"),
    (dict(origin=(0, 0), region=(5, 3), pitches=(24,)), "INVALID_VALUE",
     r"the host array \(pitches 24, 72\) has 60 bytes; region \(5, 3, 1\) needs 68"),
    (dict(origin=(0, 0), region=(5, 3), buffer_origin=(0, 0)), "INVALID_VALUE",
     r"unexpected keyword arguments \['buffer_origin'\]"),
    (dict(origin=(0, 0)), "INVALID_VALUE", r"this copy needs \['region'\]"),
    (dict(origin=(0, 0), region=(5, 3), pitches=(20,), row_pitch=20), "INVALID_VALUE",
     "give pitches or row_pitch/slice_pitch, not both"),
])
def test_host_transfer_errors(ctx, queue, kwargs, code, message):
    img = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(5, 3))
    host = np.zeros(60, np.uint8)
    for dest, src, routine in ((host, img, "clEnqueueReadImage"), (img, host, "clEnqueueWriteImage")):
        with pytest.raises(cl.LogicError, match=message) as info:
            cl.enqueue_copy(queue, dest, src, **dict(kwargs))
        assert info.value.routine == routine and info.value.code == getattr(cl.status_code, code)


def test_buffer_transfer_errors(ctx, queue):
    img = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(5, 3))
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    with pytest.raises(cl.LogicError, match=r"the buffer from offset 8 has 64 bytes; region \(5, 3, 1\) needs 68"):
        cl.enqueue_copy(queue, buf, img, origin=(0, 0), region=(5, 3), offset=8)
    with pytest.raises(cl.LogicError, match="offset must be a non-negative int"):
        cl.enqueue_copy(queue, img, buf, origin=(0, 0), region=(1, 1), offset=-4)
    with pytest.raises(cl.LogicError, match="INVALID_HOST_PTR - the host array is read-only"):
        readonly = np.zeros(60, np.uint8)
        readonly.flags.writeable = False
        cl.enqueue_copy(queue, readonly, img, origin=(0, 0), region=(5, 3))
    other_ctx = cl.Context()
    with pytest.raises(cl.LogicError, match="INVALID_CONTEXT"):
        cl.enqueue_copy(cl.CommandQueue(other_ctx), np.zeros(60, np.uint8), img, origin=(0, 0), region=(5, 3))


def test_host_access_flags(ctx, queue):
    host = np.zeros(16, np.uint8)
    for flags, refused in ((mf.HOST_NO_ACCESS, ("Read", "Write")), (mf.HOST_READ_ONLY, ("Write",)),
                           (mf.HOST_WRITE_ONLY, ("Read",))):
        img = cl.Image(ctx, mf.READ_WRITE | flags, RGBA8, shape=(2, 2))
        for direction, dest, src in (("Read", host, img), ("Write", img, host)):
            if direction in refused:
                with pytest.raises(cl.LogicError, match=f"clEnqueue{direction}Image failed: INVALID_OPERATION - "
                                                        f"the image was created with {mf.to_string(flags)}"):
                    cl.enqueue_copy(queue, dest, src, origin=(0, 0), region=(2, 2))
            else:
                cl.enqueue_copy(queue, dest, src, origin=(0, 0), region=(2, 2))


def test_a_2d_read_accepts_the_plane_size_as_slice_pitch_as_pyopencl_passes_it(ctx, queue):
    fmt = cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT)
    pixels = np.arange(12, dtype=np.float32).reshape(3, 4)
    image = cl.Image(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, fmt, shape=(4, 3), hostbuf=pixels)
    out = np.zeros_like(pixels)
    cl.enqueue_copy(queue, out, image, origin=(0, 0), region=(4, 3), pitches=(16, 48))
    assert (out == pixels).all()
