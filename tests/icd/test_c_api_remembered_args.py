"""What the native library (native/loomcl_icd.c) answers without Python: clSetKernelArg with the
bytes already set, and clGetMemObjectInfo's answers that never change. These tests pin that the answers and the launches stay
those of the C API: a value changed and changed back is the last one set, a handle released (or its
block reused by another object) is judged again, a failed call is never remembered, and a kernel
released, or another kernel in its handle's block, starts with nothing remembered."""
import textwrap

from c_api_runner import run

SOURCE = """
kernel void scale(global float *out, global const float *in, float a, local float *scratch) {
    size_t i = get_global_id(0);
    scratch[get_local_id(0)] = in[i];
    out[i] = a * scratch[get_local_id(0)];
}
"""

PRELUDE = f'''
context = new_context()
queue = new_queue(context)
program = new_program(context, {SOURCE!r})
n = 8
source = new_buffer(context, 4 * n, 1 | 32, (ctypes.c_float * n)(*range(n)))
target = new_buffer(context, 4 * n)
kernel, _ = make(cl.clCreateKernel, program, b"scale")
sizes = (c_size_t * 1)(n)

def set_scale(value, size=4):
    a = ctypes.c_float(value)
    return cl.clSetKernelArg(kernel, 2, size, byref(a))

def launch(kernel=kernel):
    code = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, sizes, sizes, 0, None, None)
    return code, read_floats(queue, target, n) if code == 0 else None

def set_all(kernel=kernel):
    return [set_mem_arg(kernel, 0, target), set_mem_arg(kernel, 1, source), set_scale(2.0),
            cl.clSetKernelArg(kernel, 3, 4 * n, None)]
'''


def run_with_kernel(snippet: str) -> dict:
    return run(PRELUDE + textwrap.dedent(snippet))


def test_a_value_set_again_changed_and_changed_back_is_the_last_one():
    out = run_with_kernel('''
    out["first"] = set_all() + set_all()  # the second time from memory
    out["twice"] = launch()
    out["changed"] = [set_scale(3.0), set_mem_arg(kernel, 0, target)]
    out["thrice"] = launch()
    out["back"] = set_all()
    out["back_launch"] = launch()
    ''')
    expected = [float(i) for i in range(8)]
    assert out["first"] == [0] * 8
    assert out["twice"] == [0, [2 * x for x in expected]]
    assert out["changed"] == [0, 0] and out["thrice"] == [0, [3 * x for x in expected]]
    assert out["back"] == [0] * 4 and out["back_launch"] == [0, [2 * x for x in expected]]


def test_failed_calls_are_answered_every_time_and_leave_the_value_set():
    out = run_with_kernel('''
    set_all()
    out["index"] = [cl.clSetKernelArg(kernel, 4, 4, byref(ctypes.c_float(1))) for _ in range(2)]
    out["size"] = [set_scale(2.0, size=8) for _ in range(2)]
    out["null_value"] = [cl.clSetKernelArg(kernel, 2, 4, None) for _ in range(2)]
    out["local_value"] = [cl.clSetKernelArg(kernel, 3, 4 * n, byref(ctypes.c_float(1))) for _ in range(2)]
    out["local_zero"] = [cl.clSetKernelArg(kernel, 3, 0, None) for _ in range(2)]
    out["mem_size"] = [cl.clSetKernelArg(kernel, 0, 4, byref(c_void_p(target))) for _ in range(2)]
    out["again"] = set_all()
    out["launch"] = launch()
    ''')
    assert out["index"] == [-49, -49]  # INVALID_ARG_INDEX
    assert out["size"] == [-51, -51] and out["mem_size"] == [-51, -51]  # INVALID_ARG_SIZE
    assert out["null_value"] == [-50, -50] and out["local_value"] == [-50, -50]  # INVALID_ARG_VALUE
    assert out["local_zero"] == [-51, -51]
    assert out["again"] == [0] * 4
    assert out["launch"] == [0, [2.0 * i for i in range(8)]]


def test_a_released_buffer_or_kernel_is_judged_again():
    out = run_with_kernel('''
    spare = new_buffer(context, 4 * n)
    set_all()
    out["spare"] = [set_mem_arg(kernel, 0, spare), set_mem_arg(kernel, 0, spare)]
    out["release_buffer"] = cl.clReleaseMemObject(spare)
    out["dead_buffer"] = [set_mem_arg(kernel, 0, spare) for _ in range(2)]
    out["live_again"] = set_mem_arg(kernel, 0, target)
    out["launch"] = launch()
    out["release_kernel"] = cl.clReleaseKernel(kernel)
    out["dead_kernel"] = [set_scale(2.0), set_mem_arg(kernel, 1, source)]
    ''')
    assert out["spare"] == [0, 0] and out["release_buffer"] == 0
    assert out["dead_buffer"] == [-38, -38]  # INVALID_MEM_OBJECT
    assert out["live_again"] == 0 and out["launch"] == [0, [2.0 * i for i in range(8)]]
    assert out["release_kernel"] == 0
    assert out["dead_kernel"] == [-48, -48]  # INVALID_KERNEL


def test_a_reused_handle_block_is_a_new_object():
    """Handle blocks are reused once thousands of others were released (handles.QUARANTINE): the
    same bytes then name another buffer, or the kernel handle another kernel with no arguments."""
    out = run_with_kernel('''
    old = new_buffer(context, 4 * n)
    set_all()
    assert set_mem_arg(kernel, 0, old) == 0
    assert cl.clReleaseMemObject(old) == 0
    for _ in range(20000):  # until the old buffer's block holds a new buffer
        fresh = new_buffer(context, 4 * n)
        if fresh == old:
            break
        assert cl.clReleaseMemObject(fresh) == 0
    out["reused_buffer"] = fresh == old
    out["set_reused"] = set_mem_arg(kernel, 0, fresh)
    out["launch_into_reused"] = launch()[0]
    out["fresh_values"] = read_floats(queue, fresh, n)
    first_kernel = kernel
    assert cl.clReleaseKernel(first_kernel) == 0
    for _ in range(20000):  # until the kernel's block holds a new kernel
        other, code = make(cl.clCreateKernel, program, b"scale")
        assert code == 0
        if other == first_kernel:
            break
        assert cl.clReleaseKernel(other) == 0
    out["reused_kernel"] = other == first_kernel
    out["unset_launch"] = launch(other)[0]
    out["set_other"] = set_all(other)
    out["other_launch"] = launch(other)
    ''')
    assert out["reused_buffer"] and out["set_reused"] == 0 and out["launch_into_reused"] == 0
    assert out["fresh_values"] == [2.0 * i for i in range(8)]
    assert out["reused_kernel"]
    assert out["unset_launch"] == -52  # INVALID_KERNEL_ARGS: the new kernel has none set
    assert out["set_other"] == [0] * 4 and out["other_launch"] == [0, [2.0 * i for i in range(8)]]


def test_memory_info_answered_again_is_the_same_and_dies_with_the_handle():
    out = run_with_kernel("""
    host = (ctypes.c_float * n)()
    pinned = new_buffer(context, 4 * n, 1 | 8, host)  # USE_HOST_PTR
    region = (c_size_t * 2)(0, 16)
    sub, code = make(cl.clCreateSubBuffer, pinned, 1, 0x1220, region)
    assert code == 0
    def ask(handle, param, size=8):
        value, needed = ctypes.create_string_buffer(size), c_size_t(0)
        code = cl.clGetMemObjectInfo(handle, param, size, value, byref(needed))
        return [code, value.raw.hex() if code == 0 else None, needed.value]
    params = {"type": 0x1100, "flags": 0x1101, "size": 0x1102, "host_ptr": 0x1103, "offset": 0x1108}
    for name, param in params.items():
        out[name] = [ask(pinned, param), ask(pinned, param), ask(sub, param), ask(sub, param)]
    out["host"] = ctypes.addressof(host)
    out["too_small"] = [ask(pinned, 0x1102, size=4) for _ in range(2)]
    needed = c_size_t(0)
    out["size_only"] = [cl.clGetMemObjectInfo(pinned, 0x1102, 0, None, byref(needed)), needed.value]
    assert cl.clReleaseMemObject(sub) == 0
    out["dead"] = [ask(sub, 0x1102) for _ in range(2)]
    """)
    def number(answer):
        return int.from_bytes(bytes.fromhex(answer[1]), "little")
    for name in ("type", "flags", "size", "host_ptr", "offset"):
        assert [answer[0] for answer in out[name]] == [0] * 4
        assert out[name][0] == out[name][1] and out[name][2] == out[name][3]
    assert number(out["type"][0]) == 0x10F0 and out["type"][0][2] == 4  # MEM_OBJECT_BUFFER, a cl_uint
    assert number(out["flags"][0]) == 1 | 8 == number(out["flags"][2])  # USE_HOST_PTR is inherited
    assert number(out["size"][0]) == 32 and number(out["size"][2]) == 16
    assert number(out["host_ptr"][0]) == out["host"] == number(out["host_ptr"][2])
    assert number(out["offset"][0]) == 0 and number(out["offset"][2]) == 0
    assert [answer[:2] for answer in out["too_small"]] == [[-30, None]] * 2  # INVALID_VALUE
    assert out["size_only"] == [0, 8]
    assert out["dead"] == [[-38, None, 0]] * 2  # INVALID_MEM_OBJECT
