"""Front-end gaps that OpenCL software written elsewhere hit (issue 18: loopy, hashcat, clFFT,
piglit, the Khronos CTS): each test is a construct clang accepts, with the type or the exact
diagnostic clang's rules give."""
from __future__ import annotations

import pytest

from loomcl.frontend import types as T

from .util import compile_log, compile_ok


@pytest.mark.parametrize("spelling", ["restrict", "__restrict", "__restrict__"])
def test_restrict_spellings_qualify_pointers(spelling):
    unit = compile_ok(f"__kernel void k(__global float *{spelling} out, "
                      f"__global const float *{spelling} const in) {{ float *{spelling} p = 0; }}")
    out, in_ = unit.functions[0].params
    assert out.type.quals.restrict and in_.type.quals.restrict and in_.type.quals.const


@pytest.mark.parametrize("spelling, qualifier", [("__const", "const"), ("__const__", "const"),
                                                 ("__volatile", "volatile"), ("__volatile__", "volatile")])
def test_gnu_const_and_volatile_spellings(spelling, qualifier):
    unit = compile_ok(f"__kernel void k(__global {spelling} int *p) {{ }}")
    assert getattr(unit.functions[0].params[0].type.pointee.quals, qualifier)
