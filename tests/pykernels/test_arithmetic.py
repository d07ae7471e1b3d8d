"""Python's arithmetic in kernels: floor division and modulo of negatives, true division, powers,
comparisons across signedness, fixed widths (docs/python-kernels.md), each against numpy/Python."""
import math

import numpy as np
import pytest

import loomcl as cl

i32, i64, u32, f32 = np.int32, np.int64, np.uint32, np.float32


@cl.kernel
def floor_ops(out, a, b):
    i = cl.global_id(0)
    out[4 * i] = a[i] // b[i]
    out[4 * i + 1] = a[i] % b[i]
    out[4 * i + 2] = a[i] // 4
    out[4 * i + 3] = a[i] % 8


def _pairs(dtype):
    values = np.array([-9, -8, -7, -1, 0, 1, 7, 8, 9, 100, -100], dtype)
    a, b = np.meshgrid(values, np.array([-9, -4, -3, -1, 1, 2, 3, 4, 7], dtype))
    return a.ravel().copy(), b.ravel().copy()


@pytest.mark.parametrize("dtype", [i32, i64])
def test_floor_division_and_modulo_follow_python_for_negatives(queue, dtype):
    a, b = _pairs(dtype)
    out = np.zeros(4 * a.size, dtype)
    floor_ops(queue, (a.size,), None, out, a, b)
    assert out[0::4].tolist() == [x // y for x, y in zip(a.tolist(), b.tolist())]
    assert out[1::4].tolist() == [x % y for x, y in zip(a.tolist(), b.tolist())]
    assert out[2::4].tolist() == [x // 4 for x in a.tolist()]
    assert out[3::4].tolist() == [x % 8 for x in a.tolist()]


def test_unsigned_floor_division_is_c_division(queue):
    a = np.array([0, 1, 7, 4000000000, 13], u32)
    b = np.array([3, 3, 2, 7, 5], u32)
    out = np.zeros(4 * a.size, u32)
    floor_ops(queue, (a.size,), None, out, a, b)
    assert out[0::4].tolist() == (a // b).tolist()
    assert out[1::4].tolist() == (a % b).tolist()


@cl.kernel
def float_floor_ops(out, a, b):
    i = cl.global_id(0)
    out[2 * i] = a[i] // b[i]
    out[2 * i + 1] = a[i] % b[i]


def test_float_floor_division_and_modulo_follow_python(queue):
    a = np.array([7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 6.0, -6.0], f32)
    b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, -3.0, 3.0], f32)
    out = np.zeros(2 * a.size, f32)
    float_floor_ops(queue, (a.size,), None, out, a, b)
    assert out[0::2].tolist() == [x // y for x, y in zip(a.tolist(), b.tolist())]
    expected = [x % y for x, y in zip(a.tolist(), b.tolist())]
    assert out[1::2].tolist() == expected
    assert [math.copysign(1, v) for v in out[1::2]] == [math.copysign(1, v) for v in expected]


@cl.kernel
def divisions(out: cl.global_ptr(f32), a: cl.global_ptr(i32), b: cl.global_ptr(i32)):
    i = cl.global_id(0)
    out[3 * i] = a[i] / b[i]
    out[3 * i + 1] = int(a[i] / b[i])
    out[3 * i + 2] = 7 / 2


def test_true_division_of_integers_gives_float32(queue):
    a = np.array([7, -7, 1, 10], i32)
    b = np.array([2, 2, 3, -4], i32)
    out = np.zeros(3 * a.size, f32)
    divisions(queue, (a.size,), None, out, a, b)
    assert np.array_equal(out[0::3], (a.astype(f32) / b.astype(f32)))
    assert out[1::3].tolist() == [int(x / y) for x, y in zip(a.tolist(), b.tolist())]  # truncates, as int()
    assert out[2::3].tolist() == [3.5] * a.size


@cl.kernel
def powers(out: cl.global_ptr(f32), x: cl.global_ptr(f32), k: cl.global_ptr(i32)):
    i = cl.global_id(0)
    out[4 * i] = x[i] ** 2
    out[4 * i + 1] = x[i] ** 0.5
    out[4 * i + 2] = k[i] ** 3
    out[4 * i + 3] = x[i] ** k[i]


def test_powers(queue):
    x = np.array([1.5, 2.0, 3.0, 0.25], f32)
    k = np.array([2, -1, 3, 0], i32)
    out = np.zeros(4 * x.size, f32)
    powers(queue, (x.size,), None, out, x, k)
    assert np.allclose(out[0::4], x * x)
    assert np.allclose(out[1::4], np.sqrt(x))
    assert out[2::4].tolist() == (k ** 3).astype(f32).tolist()
    assert np.allclose(out[3::4], x ** k.astype(f32))


@cl.kernel
def comparisons(out: cl.global_ptr(i32), s: cl.global_ptr(i32), u: cl.global_ptr(u32)):
    i = cl.global_id(0)
    out[3 * i] = s[i] < u[i]
    out[3 * i + 1] = 0 <= s[i] < 10
    out[3 * i + 2] = (s[i] > 0) and not (u[i] > 5) or s[i] == -3


def test_comparisons_compare_values_across_signedness_and_chain(queue):
    s = np.array([-1, 3, 12, -3, 5], i32)
    u = np.array([1, 2, 0, 9, 4], u32)
    out = np.zeros(3 * s.size, i32)
    comparisons(queue, (s.size,), None, out, s, u)
    sl, ul = s.tolist(), u.tolist()
    assert out[0::3].tolist() == [int(a < b) for a, b in zip(sl, ul)]  # -1 < 1: C would say no
    assert out[1::3].tolist() == [int(0 <= a < 10) for a in sl]
    assert out[2::3].tolist() == [int((a > 0) and not (b > 5) or a == -3) for a, b in zip(sl, ul)]


@cl.kernel
def widths(out: cl.global_ptr(i64), a: cl.global_ptr(i32)):
    i = cl.global_id(0)
    big = 3000000000            # beyond int32: an int64 constant
    out[2 * i] = a[i] + big
    wrapped = a[i] * 65536      # int32 arithmetic stays int32
    out[2 * i + 1] = wrapped


def test_fixed_widths(queue):
    a = np.array([1, 2, -5], i32)
    out = np.zeros(2 * a.size, i64)
    widths(queue, (a.size,), None, out, a)
    assert out[0::2].tolist() == [x + 3000000000 for x in a.tolist()]
    assert out[1::2].tolist() == (a * np.int32(65536)).astype(i64).tolist()


@cl.kernel
def conversions(out: cl.global_ptr(i32), x: cl.global_ptr(f32)):
    i = cl.global_id(0)
    out[4 * i] = int(x[i])
    out[4 * i + 1] = round(x[i])
    out[4 * i + 2] = math.floor(x[i])
    out[4 * i + 3] = abs(int(x[i]))


def test_int_round_and_floor_as_in_python(queue):
    x = np.array([2.5, -2.5, 3.5, -0.7, 7.9], f32)
    out = np.zeros(4 * x.size, i32)
    conversions(queue, (x.size,), None, out, x)
    xs = x.tolist()
    assert out[0::4].tolist() == [int(v) for v in xs]
    assert out[1::4].tolist() == [round(v) for v in xs]    # half to even
    assert out[2::4].tolist() == [math.floor(v) for v in xs]
    assert out[3::4].tolist() == [abs(int(v)) for v in xs]


@cl.kernel
def bits(out: cl.global_ptr(u32), a: cl.global_ptr(u32)):
    i = cl.global_id(0)
    out[3 * i] = (a[i] << 3) ^ (a[i] >> 2)
    out[3 * i + 1] = ~a[i] & 0xFF
    out[3 * i + 2] = a[i] | 1


def test_bit_operations_are_c_s(queue):
    a = np.array([1, 0x80000001, 12345], u32)
    out = np.zeros(3 * a.size, u32)
    bits(queue, (a.size,), None, out, a)
    assert out[0::3].tolist() == ((a << 3) ^ (a >> 2)).tolist()
    assert out[1::3].tolist() == (~a & 0xFF).tolist()
    assert out[2::3].tolist() == (a | 1).tolist()
