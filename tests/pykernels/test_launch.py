"""Launching Python kernels: Buffers, LocalMemory and scalars as for any loomcl kernel, numpy arrays
in place, specializations from the first call's types, and the errors of a bad launch."""
import numpy as np
import pytest

import loomcl as cl

f32, i32 = np.float32, np.int32


@cl.kernel
def scaled_sums(out: cl.global_ptr(f32), data: cl.global_ptr(f32, const=True), scratch: cl.local_ptr(f32),
                scale: f32):
    lid = cl.local_id(0)
    scratch[lid] = data[cl.global_id(0)] * scale
    cl.barrier(cl.LOCAL_MEM_FENCE)
    if lid == 0:
        total = 0.0
        for k in range(cl.local_size(0)):
            total += scratch[k]
        out[cl.group_id(0)] = total


def test_buffers_local_memory_and_numpy_scalars_return_an_event(ctx, queue):
    data = np.arange(128, dtype=f32)
    mf = cl.mem_flags
    data_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * 4)
    event = scaled_sums(queue, (128,), (32,), out_buf, data_buf, cl.LocalMemory(32 * 4), f32(0.5))
    assert isinstance(event, cl.Event)
    out = np.empty(4, f32)
    cl.enqueue_copy(queue, out, out_buf)
    queue.finish()
    assert out.tolist() == (data.reshape(4, 32).sum(1) * 0.5).tolist()


@cl.kernel
def add_one(a):
    a[cl.global_id(0)] += 1


def test_numpy_arrays_are_used_in_place_and_types_specialize(queue):
    ints = np.arange(8, dtype=i32)
    floats = np.linspace(0, 1, 8).astype(np.float64)
    add_one(queue, (8,), None, ints)
    add_one(queue, (8,), None, floats)
    assert ints.tolist() == list(range(1, 9))
    assert np.allclose(floats, np.linspace(0, 1, 8) + 1)
    assert len(add_one._compiled) == 2            # one specialization per element type
    add_one(queue, (8,), None, np.zeros(8, i32))
    assert len(add_one._compiled) == 2            # reused


def test_default_queue(queue):
    a = np.zeros(4, i32)
    add_one(None, (4,), None, a)
    assert a.tolist() == [1] * 4


def test_a_buffer_needs_an_annotation(ctx, queue):
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 32)
    with pytest.raises(cl.LogicError, match=r"argument 0 \(a\): a Buffer has no element type to specialize on; "
                                            r"annotate the parameter, e.g. a: cl.global_ptr\(np.float32\)"):
        add_one(queue, (8,), None, buf)


def test_wrong_argument_count(queue):
    with pytest.raises(cl.LogicError, match=r"kernel add_one takes 1 arguments \(a\), got 2"):
        add_one(queue, (8,), None, np.zeros(8, i32), 3)


def test_a_non_contiguous_array_is_refused(queue):
    with pytest.raises(cl.LogicError, match="must be C-contiguous"):
        add_one(queue, (4,), None, np.zeros(8, i32)[::2])


def test_global_ids_must_fit_int32(queue):
    with pytest.raises(cl.LogicError, match="global ids are int32"):
        add_one(queue, (1 << 31,), None, np.zeros(1, i32), global_offset=(1,))   # the last id: 2**31


def test_device_functions_do_not_run_on_the_host():
    with pytest.raises(TypeError, match=r"cl.global_id runs only inside a @cl.kernel"):
        cl.global_id(0)
    with pytest.raises(TypeError, match="twice is a @cl.func helper: it runs only inside kernels"):
        twice(2)


@cl.func
def twice(x):
    return 2 * x


def make_scaler(factor):
    @cl.kernel
    def scale(a: cl.global_ptr(f32)):
        a[cl.global_id(0)] *= factor
    return scale


def test_closure_constants_are_part_of_the_kernel(queue):
    a = np.ones(4, f32)
    make_scaler(3.0)(queue, (4,), None, a)
    make_scaler(5)(queue, (4,), None, a)
    assert a.tolist() == [15.0] * 4


def test_unannotated_parameters_need_a_launch_to_compile():
    with pytest.raises(TypeError, match="parameter a needs an annotation"):
        add_one.compiled_program()


def test_a_bad_annotation_is_reported_at_decoration():
    with pytest.raises(TypeError, match=r"the annotation of parameter 'a' \('no_such_type'\) is not a kernel type"):
        @cl.kernel
        def bad(a: "no_such_type"):
            pass
    with pytest.raises(TypeError, match=r"the annotation of parameter 'b' \(<class 'list'>\) is not a kernel type"):
        @cl.kernel
        def also_bad(a: f32, b: list):
            pass


def test_string_annotations_are_evaluated(queue):
    scale = 3

    def kernel(a: "cl.global_ptr(np.float32)", factor: "np.float32"):
        a[cl.global_id(0)] *= factor * scale

    a = np.ones(4, f32)
    cl.kernel(kernel)(queue, (4,), None, a, 2.0)
    assert a.tolist() == [6.0] * 4
