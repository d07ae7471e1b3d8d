"""Image and sampler entry points: creation (from cl_image_format and cl_image_desc), info, and the
enqueued image transfers, fills and maps."""
from __future__ import annotations

import ctypes

from loomcl.errors import LogicError, status_code
from loomcl.runtime.buffer import Buffer, check_host_access
from loomcl.runtime.image import Image
from loomcl.runtime.image_constants import image_info, sampler_info
from loomcl.runtime.image_desc import ImageDescriptor, layout
from loomcl.runtime.image_fill import enqueue_fill_image
from loomcl.runtime.image_format import ImageFormat, get_supported_image_formats
from loomcl.runtime.image_map import enqueue_map_image
from loomcl.runtime.constants import mem_flags, mem_object_type
from loomcl.runtime.sampler import Sampler
from loomcl.runtime.transfer import enqueue_copy

from .answer import answer, answer_query
from .api_event import hand_out, queue_of, wait_list
from .api_transfer import remember_mapping
from .handles import registry
from .host_memory import host_array, size_triple
from .info import properties, property_words, write_scalar


class _ImageFormat(ctypes.Structure):
    _fields_ = [("image_channel_order", ctypes.c_uint32), ("image_channel_data_type", ctypes.c_uint32)]


class _ImageDesc(ctypes.Structure):
    _fields_ = [("image_type", ctypes.c_uint32), ("image_width", ctypes.c_size_t),
                ("image_height", ctypes.c_size_t), ("image_depth", ctypes.c_size_t),
                ("image_array_size", ctypes.c_size_t), ("image_row_pitch", ctypes.c_size_t),
                ("image_slice_pitch", ctypes.c_size_t), ("num_mip_levels", ctypes.c_uint32),
                ("num_samples", ctypes.c_uint32), ("mem_object", ctypes.c_void_p)]


def _format(address, routine: str) -> ImageFormat:
    if not address:
        raise LogicError(routine, status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL")
    given = _ImageFormat.from_address(address)
    return ImageFormat(given.image_channel_order, given.image_channel_data_type)


def _descriptor(address, routine: str) -> ImageDescriptor:
    if not address:
        raise LogicError(routine, status_code.INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL")
    given = _ImageDesc.from_address(address)
    if given.num_mip_levels or given.num_samples:
        raise LogicError(routine, status_code.INVALID_IMAGE_DESCRIPTOR, "num_mip_levels and num_samples must be 0")
    desc = ImageDescriptor()
    desc.image_type = given.image_type
    desc.width, desc.height, desc.depth = given.image_width, given.image_height, given.image_depth
    desc.array_size = given.image_array_size
    desc.row_pitch, desc.slice_pitch = given.image_row_pitch, given.image_slice_pitch
    desc.buffer = registry.get(given.mem_object, "mem", routine) if given.mem_object else None
    return desc


def new_image(context, flags, format_address, desc_address, host_ptr, routine: str, words=()) -> int:
    found = registry.get(context, "context", routine)
    image_format = _format(format_address, routine)
    desc = _descriptor(desc_address, routine)
    wants_host = flags & (mem_flags.USE_HOST_PTR | mem_flags.COPY_HOST_PTR)
    if bool(host_ptr) != bool(wants_host):
        raise LogicError(routine, status_code.INVALID_HOST_PTR,
                         "host_ptr must be given exactly when USE_HOST_PTR or COPY_HOST_PTR is")
    span = layout(desc, image_format.itemsize, found.devices[0], True).nbytes if host_ptr else 0
    hostbuf = host_array(host_ptr, span, routine, "host_ptr") if host_ptr else None
    image = Image(found, flags, image_format, hostbuf=hostbuf, desc=desc)
    image.icd_properties, image.icd_destructors = list(words), []
    return registry.new(image, "mem")


def clCreateImage(context, flags, image_format, desc, host_ptr):
    return new_image(context, flags, image_format, desc, host_ptr, "clCreateImage")


def clCreateImageWithProperties(context, props, flags, image_format, desc, host_ptr):
    routine = "clCreateImageWithProperties"
    if properties(props, ctypes.c_uint64):
        raise LogicError(routine, status_code.INVALID_PROPERTY, "no image properties are supported")
    return new_image(context, flags, image_format, desc, host_ptr, routine, property_words(props, ctypes.c_uint64))


def _legacy_desc(kind, width, height, depth, row_pitch, slice_pitch) -> int:
    desc = _ImageDesc(kind, width, height, depth, 0, row_pitch, slice_pitch, 0, 0, None)
    _legacy_desc.keep = desc  # lives until the next call: new_image reads it at once
    return ctypes.addressof(desc)


def clCreateImage2D(context, flags, image_format, width, height, row_pitch, host_ptr):
    return new_image(context, flags, image_format, _legacy_desc(mem_object_type.IMAGE2D, width, height, 0, row_pitch, 0),
                     host_ptr, "clCreateImage2D")


def clCreateImage3D(context, flags, image_format, width, height, depth, row_pitch, slice_pitch, host_ptr):
    return new_image(context, flags, image_format,
                     _legacy_desc(mem_object_type.IMAGE3D, width, height, depth, row_pitch, slice_pitch),
                     host_ptr, "clCreateImage3D")


def clGetSupportedImageFormats(context, flags, image_type, num_entries, formats, num_formats):
    routine = "clGetSupportedImageFormats"
    found = registry.get(context, "context", routine)
    if num_entries == 0 and formats:
        raise LogicError(routine, status_code.INVALID_VALUE, "num_entries is 0 but image_formats is given")
    listed = get_supported_image_formats(found, flags, image_type)
    if formats:
        out = (_ImageFormat * min(num_entries, len(listed))).from_address(formats)
        for slot, item in zip(out, listed):
            slot.image_channel_order, slot.image_channel_data_type = item.channel_order, item.channel_data_type
    write_scalar(ctypes.c_uint32, num_formats, len(listed))


def clGetImageInfo(handle, param, size, out, size_ret):
    routine = "clGetImageInfo"
    image = registry.get(handle, "mem", routine)
    if not isinstance(image, Image):
        raise LogicError(routine, status_code.INVALID_MEM_OBJECT, "not an image")
    return answer(image.get_image_info(param), image_info, param, size, out, size_ret, routine)


def _image(handle, routine: str) -> Image:
    image = registry.get(handle, "mem", routine)
    if not isinstance(image, Image):
        raise LogicError(routine, status_code.INVALID_MEM_OBJECT, f"{image!r} is not an image")
    return image


def _host_box(image: Image, ptr, region, row_pitch, slice_pitch, routine: str):
    """The caller's memory of a host box: a 1D image array's layers (region[1]) step by the slice
    pitch, which defaults to the row pitch (API spec 5.3.3); other images' rows by the row pitch.
    The runtime checks the pitches against the region."""
    element = image.element_size
    row_pitch = row_pitch or region[0] * element
    if image.type == mem_object_type.IMAGE1D_ARRAY:
        slice_pitch = slice_pitch or row_pitch
        span = (region[1] - 1) * slice_pitch + region[0] * element
    else:
        slice_pitch = slice_pitch or row_pitch * region[1]
        span = (region[2] - 1) * slice_pitch + (region[1] - 1) * row_pitch + region[0] * element
    return host_array(ptr, span, routine), row_pitch, slice_pitch


def _read_write(routine, queue, handle, blocking, origin, region, row_pitch, slice_pitch, ptr, num_events, events,
                out, reading):
    q, image = queue_of(queue, routine), _image(handle, routine)
    check_host_access(image, reading, routine)
    origin, region = size_triple(origin, routine, "origin"), size_triple(region, routine, "region")
    host, row_pitch, slice_pitch = _host_box(image, ptr, region, row_pitch, slice_pitch, routine)
    dest, src = (host, image) if reading else (image, host)
    hand_out(enqueue_copy(q, dest, src, origin=origin, region=region, row_pitch=row_pitch, slice_pitch=slice_pitch,
                          is_blocking=bool(blocking), wait_for=wait_list(num_events, events, routine, q)), out)


def clEnqueueReadImage(queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr, num_events, events, out):
    _read_write("clEnqueueReadImage", queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr,
                num_events, events, out, reading=True)


def clEnqueueWriteImage(queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr, num_events, events, out):
    _read_write("clEnqueueWriteImage", queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr,
                num_events, events, out, reading=False)


def clEnqueueCopyImage(queue, src, dst, src_origin, dst_origin, region, num_events, events, out):
    routine = "clEnqueueCopyImage"
    q = queue_of(queue, routine)
    hand_out(enqueue_copy(q, _image(dst, routine), _image(src, routine),
                          src_origin=size_triple(src_origin, routine, "src_origin"),
                          dest_origin=size_triple(dst_origin, routine, "dst_origin"),
                          region=size_triple(region, routine, "region"),
                          wait_for=wait_list(num_events, events, routine, q)), out)


def _plain_buffer(handle, routine: str, what: str) -> Buffer:
    buffer = registry.get(handle, "mem", routine)
    if not isinstance(buffer, Buffer):
        raise LogicError(routine, status_code.INVALID_MEM_OBJECT, f"{what} is not a buffer")
    return buffer


def clEnqueueCopyImageToBuffer(queue, src, dst, src_origin, region, dst_offset, num_events, events, out):
    routine = "clEnqueueCopyImageToBuffer"
    q = queue_of(queue, routine)
    buffer = _plain_buffer(dst, routine, "dst_buffer")
    hand_out(enqueue_copy(q, buffer, _image(src, routine),
                          origin=size_triple(src_origin, routine, "src_origin"),
                          region=size_triple(region, routine, "region"), offset=dst_offset,
                          wait_for=wait_list(num_events, events, routine, q)), out)


def clEnqueueCopyBufferToImage(queue, src, dst, src_offset, dst_origin, region, num_events, events, out):
    routine = "clEnqueueCopyBufferToImage"
    q = queue_of(queue, routine)
    buffer = _plain_buffer(src, routine, "src_buffer")
    hand_out(enqueue_copy(q, _image(dst, routine), buffer,
                          origin=size_triple(dst_origin, routine, "dst_origin"),
                          region=size_triple(region, routine, "region"), offset=src_offset,
                          wait_for=wait_list(num_events, events, routine, q)), out)


def clEnqueueFillImage(queue, image, color, origin, region, num_events, events, out):
    routine = "clEnqueueFillImage"
    q = queue_of(queue, routine)
    found = _image(image, routine)
    if not color:
        raise LogicError(routine, status_code.INVALID_VALUE, "fill_color is NULL")
    raw = ctypes.string_at(color, 16)  # a float4, int4 or uint4, as the format takes
    hand_out(enqueue_fill_image(q, found, raw, size_triple(origin, routine, "origin"),
                                size_triple(region, routine, "region"),
                                wait_for=wait_list(num_events, events, routine, q)), out)


def clEnqueueMapImage(queue, image, blocking, flags, origin, region, row_pitch, slice_pitch, num_events, events, out):
    routine = "clEnqueueMapImage"
    q, found = queue_of(queue, routine), _image(image, routine)
    if not row_pitch:
        raise LogicError(routine, status_code.INVALID_VALUE, "image_row_pitch is NULL")
    origin, region = size_triple(origin, routine, "origin"), size_triple(region, routine, "region")
    first_row = (region[0] * found.element_size,)  # the C caller steps through the rest by the pitches
    array, event, rows, slices = enqueue_map_image(q, found, flags, origin, region, first_row, "uint8",
                                                   is_blocking=bool(blocking),
                                                   wait_for=wait_list(num_events, events, routine, q))
    write_scalar(ctypes.c_size_t, row_pitch, rows)
    write_scalar(ctypes.c_size_t, slice_pitch, slices)
    hand_out(event, out)
    return remember_mapping(array)


def clCreateSampler(context, normalized, addressing, filtering):
    found = registry.get(context, "context", "clCreateSampler")
    sampler = Sampler(found, bool(normalized), addressing, filtering)
    return registry.new(sampler, "sampler")


def clCreateSamplerWithProperties(context, props):
    found = registry.get(context, "context", "clCreateSamplerWithProperties")
    return registry.new(Sampler(found, property_words(props, ctypes.c_uint64)[:-1]), "sampler")


def clRetainSampler(handle):
    registry.retain(handle, "sampler", "clRetainSampler")


def clReleaseSampler(handle):
    registry.release(handle, "sampler", "clReleaseSampler")


def clGetSamplerInfo(handle, param, size, out, size_ret):
    routine = "clGetSamplerInfo"
    sampler = registry.get(handle, "sampler", routine)
    return answer_query(handle, sampler, sampler_info, param, size, out, size_ret, routine)
