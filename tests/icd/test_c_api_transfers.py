"""Transfers through the ICD loader: read/write bounds, rectangular copies (host and device sides),
fills, map/unmap, and wait-list arguments; every result checked against the expected bytes."""
from c_api_runner import run


def test_read_write_copy_and_their_errors():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    data = (ctypes.c_uint8 * 64)(*range(64))
    a, b = new_buffer(context, 64, 1 | 32, data), new_buffer(context, 64)
    out["copy"] = cl.clEnqueueCopyBuffer(queue, a, b, 8, 16, 32, 0, None, None)
    host = (ctypes.c_uint8 * 64)()
    out["read"] = cl.clEnqueueReadBuffer(queue, b, 1, 16, 32, host, 0, None, None)
    out["copied"] = list(host[:32])
    out["read_past_end"] = cl.clEnqueueReadBuffer(queue, a, 1, 40, 32, host, 0, None, None)
    out["write_null_ptr"] = cl.clEnqueueWriteBuffer(queue, a, 1, 0, 4, None, 0, None, None)
    out["copy_past_end"] = cl.clEnqueueCopyBuffer(queue, a, b, 0, 48, 32, 0, None, None)
    out["copy_overlap"] = cl.clEnqueueCopyBuffer(queue, a, a, 0, 8, 16, 0, None, None)
    out["wait_list_mismatch"] = [cl.clEnqueueReadBuffer(queue, a, 1, 0, 4, host, 1, None, None),
                                 cl.clEnqueueReadBuffer(queue, a, 1, 0, 4, host, 0, ptrs(FORGED), None)]
    other = new_buffer(new_context(), 64)
    out["other_context"] = cl.clEnqueueCopyBuffer(queue, a, other, 0, 0, 16, 0, None, None)
    ''')
    assert out["copy"] == 0 and out["read"] == 0
    assert out["copied"] == list(range(8, 40))
    assert out["read_past_end"] == -30 and out["write_null_ptr"] == -30 and out["copy_past_end"] == -30
    assert out["copy_overlap"] == -8  # MEM_COPY_OVERLAP
    assert out["wait_list_mismatch"] == [-57, -57]
    assert out["other_context"] == -34


def test_rect_transfers():
    out = run('''
    import numpy as np
    context = new_context()
    queue = new_queue(context)
    # a 6x5x2 device box of bytes (rows of 8, slices of 48), a 4x3x2 region at (1, 1, 0)
    device = np.arange(2 * 48, dtype=np.uint8)
    buffer = new_buffer(context, device.nbytes, 1 | 32, device.ctypes.data)
    host = np.zeros((2, 4, 6), dtype=np.uint8)  # host pitches 6 and 24; region placed at (2, 1, 0)
    origin, host_origin, region = (c_size_t * 3)(1, 1, 0), (c_size_t * 3)(2, 1, 0), (c_size_t * 3)(3, 2, 2)
    out["read"] = cl.clEnqueueReadBufferRect(queue, buffer, 1, origin, host_origin, region, 8, 48, 6, 24,
                                             host.ctypes.data, 0, None, None)
    expected = np.zeros_like(host)
    expected[:, 1:3, 2:5] = device.reshape(2, 6, 8)[:, 1:3, 1:4]
    out["read_ok"] = bool((host == expected).all())
    # write it back shifted, with the pitches defaulted (0: tightly packed host rows)
    packed = np.arange(6, dtype=np.uint8) + 200
    out["write"] = cl.clEnqueueWriteBufferRect(queue, buffer, 1, (c_size_t * 3)(0, 0, 1), (c_size_t * 3)(0, 0, 0),
                                               (c_size_t * 3)(3, 2, 1), 8, 48, 0, 0, packed.ctypes.data, 0, None, None)
    after = np.zeros_like(device)
    cl.clEnqueueReadBuffer(queue, buffer, 1, 0, after.nbytes, after.ctypes.data, 0, None, None)
    want = device.copy().reshape(2, 6, 8)
    want[1, 0:2, 0:3] = packed.reshape(2, 3)
    out["write_ok"] = bool((after.reshape(2, 6, 8)[1] == want[1]).all()) and bool((after[:48] == device[:48]).all())
    second = new_buffer(context, 96)
    out["copy"] = cl.clEnqueueCopyBufferRect(queue, buffer, second, (c_size_t * 3)(1, 1, 0), (c_size_t * 3)(0, 0, 0),
                                             (c_size_t * 3)(2, 2, 1), 8, 48, 2, 4, 0, None, None)
    got = (ctypes.c_uint8 * 4)()
    cl.clEnqueueReadBuffer(queue, second, 1, 0, 4, got, 0, None, None)
    out["copied"] = list(got)
    out["copied_expected"] = [int(v) for v in after.reshape(2, 6, 8)[0, 1:3, 1:3].ravel()]
    out["bad_pitch"] = cl.clEnqueueReadBufferRect(queue, buffer, 1, origin, host_origin, region, 2, 48, 6, 24,
                                                  host.ctypes.data, 0, None, None)
    out["outside"] = cl.clEnqueueReadBufferRect(queue, buffer, 1, (c_size_t * 3)(0, 0, 2), host_origin, region,
                                                8, 48, 6, 24, host.ctypes.data, 0, None, None)
    out["zero_region"] = cl.clEnqueueReadBufferRect(queue, buffer, 1, origin, host_origin, (c_size_t * 3)(0, 1, 1),
                                                    8, 48, 6, 24, host.ctypes.data, 0, None, None)
    ''')
    assert out["read"] == 0 and out["read_ok"]
    assert out["write"] == 0 and out["write_ok"]
    assert out["copy"] == 0 and out["copied"] == out["copied_expected"]
    assert out["bad_pitch"] == -30 and out["outside"] == -30 and out["zero_region"] == -30


def test_fill():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    buffer = new_buffer(context, 64, 1 | 32, (ctypes.c_uint8 * 64)(*[0xEE] * 64))
    pattern = (ctypes.c_uint16 * 2)(0x1234, 0xABCD)
    event = c_void_p()
    out["fill"] = cl.clEnqueueFillBuffer(queue, buffer, pattern, 4, 8, 16, 0, None, byref(event))
    out["command_type"] = uint_info(cl.clGetEventInfo, event.value, 0x11D1)
    host = (ctypes.c_uint16 * 32)()
    cl.clEnqueueReadBuffer(queue, buffer, 1, 0, 64, host, 0, None, None)
    out["values"] = list(host[:16])
    out["pattern_size_3"] = cl.clEnqueueFillBuffer(queue, buffer, pattern, 3, 0, 12, 0, None, None)
    out["unaligned_offset"] = cl.clEnqueueFillBuffer(queue, buffer, pattern, 4, 2, 16, 0, None, None)
    out["size_not_multiple"] = cl.clEnqueueFillBuffer(queue, buffer, pattern, 4, 0, 6, 0, None, None)
    out["past_end"] = cl.clEnqueueFillBuffer(queue, buffer, pattern, 4, 56, 16, 0, None, None)
    out["null_pattern"] = cl.clEnqueueFillBuffer(queue, buffer, None, 4, 0, 16, 0, None, None)
    ''')
    assert out["fill"] == 0 and out["command_type"] == 0x1207  # COMMAND_FILL_BUFFER
    assert out["values"] == [0xEEEE] * 4 + [0x1234, 0xABCD] * 4 + [0xEEEE] * 4
    for key in ("pattern_size_3", "unaligned_offset", "size_not_multiple", "past_end", "null_pattern"):
        assert out[key] == -30, key


def test_map_and_unmap():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    buffer = new_buffer(context, 64, 1 | 32, (ctypes.c_int32 * 16)(*range(16)))
    mapped, code = make(cl.clEnqueueMapBuffer, queue, buffer, 1, 1 | 2, 16, 32, 0, None, None)  # READ | WRITE
    out["map"] = code
    view = (ctypes.c_int32 * 8).from_address(mapped)
    out["mapped"] = list(view)
    view[0] = 100
    out["map_count"] = uint_info(cl.clGetMemObjectInfo, buffer, 0x1104)
    event = c_void_p()
    out["unmap"] = cl.clEnqueueUnmapMemObject(queue, buffer, mapped, 0, None, byref(event))
    out["unmap_type"] = uint_info(cl.clGetEventInfo, event.value, 0x11D1)
    out["unmap_again"] = cl.clEnqueueUnmapMemObject(queue, buffer, mapped, 0, None, None)
    host = (ctypes.c_int32 * 16)()
    cl.clEnqueueReadBuffer(queue, buffer, 1, 0, 64, host, 0, None, None)
    out["after"] = list(host)
    out["map_past_end"] = make(cl.clEnqueueMapBuffer, queue, buffer, 1, 1, 48, 32, 0, None, None)
    out["map_zero"] = make(cl.clEnqueueMapBuffer, queue, buffer, 1, 1, 0, 0, 0, None, None)
    out["map_bad_flags"] = make(cl.clEnqueueMapBuffer, queue, buffer, 1, 1 << 20, 0, 4, 0, None, None)
    other = new_buffer(context, 64)
    first, _ = make(cl.clEnqueueMapBuffer, queue, buffer, 1, 1, 0, 64, 0, None, None)
    out["unmap_wrong_buffer"] = cl.clEnqueueUnmapMemObject(queue, other, first, 0, None, None)
    out["unmap_null"] = cl.clEnqueueUnmapMemObject(queue, buffer, None, 0, None, None)
    out["unmap_right"] = cl.clEnqueueUnmapMemObject(queue, buffer, first, 0, None, None)
    ''')
    assert out["map"] == 0 and out["mapped"] == list(range(4, 12))
    assert out["map_count"] == 1
    assert out["unmap"] == 0 and out["unmap_type"] == 0x11FD  # COMMAND_UNMAP_MEM_OBJECT
    assert out["unmap_again"] == -30
    assert out["after"] == list(range(4)) + [100] + list(range(5, 16))
    assert out["map_past_end"] == [None, -30] and out["map_zero"] == [None, -30]
    assert out["map_bad_flags"] == [None, -30]
    assert out["unmap_wrong_buffer"] == -30 and out["unmap_null"] == -30 and out["unmap_right"] == 0
