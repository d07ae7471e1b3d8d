"""The build log through the pyopencl-style API: warnings of a successful build are in
`get_build_info(LOG)` and reported as a CompilerWarning (as pyopencl does); -Werror fails the build."""
import warnings

import numpy as np
import pytest

import loomcl as cl

SOURCE = """__kernel void k(__global int *a) {
    a[0] + 1;
    a[get_global_id(0)] = 7;
}"""
WARNING = ("<kernel>:2:10: warning: expression result unused [-Wunused-value]\n"
           "    a[0] + 1;\n"
           "         ^")


def test_warnings_are_in_the_build_log_and_the_kernel_still_runs(ctx, queue):
    with pytest.warns(cl.CompilerWarning, match="PYOPENCL_COMPILER_OUTPUT=1"):
        prg = cl.Program(ctx, SOURCE).build()
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG) == WARNING
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.SUCCESS
    out = np.zeros(4, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, out.nbytes)
    prg.k(queue, (4,), None, buf)
    cl.enqueue_copy(queue, out, buf)
    assert (out == 7).all()


def test_compiler_output_shows_the_log_when_asked(ctx, monkeypatch):
    monkeypatch.setenv("PYOPENCL_COMPILER_OUTPUT", "1")
    with pytest.warns(cl.CompilerWarning) as caught:
        cl.Program(ctx, SOURCE).build()
    text = str(caught[0].message)
    assert text.startswith("From-source build succeeded, but resulted in non-empty logs:\nBuild on ")
    assert text.endswith("succeeded, but said:\n\n" + WARNING)


def test_a_clean_build_warns_nothing(ctx):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prg = cl.Program(ctx, SOURCE.replace("    a[0] + 1;\n", "")).build()
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG) == ""


def test_minus_w_leaves_the_log_empty(ctx):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prg = cl.Program(ctx, SOURCE).build(options="-w")
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG) == ""


def test_werror_fails_the_build_with_the_log(ctx):
    prg = cl.Program(ctx, SOURCE)
    with pytest.raises(cl.RuntimeError, match="BUILD_PROGRAM_FAILURE") as error:
        prg.build(options="-Werror")
    log = prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert log == WARNING.replace("warning: expression result unused [-Wunused-value]",
                                  "error: expression result unused [-Werror,-Wunused-value]")
    assert log in str(error.value)
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.ERROR


def test_an_unsupported_feature_fails_the_build_with_its_name(ctx):
    source = "__kernel void k(__read_write image2d_t img, __global float4 *out) { out[0] = 0; }"
    with pytest.raises(cl.RuntimeError, match="BUILD_PROGRAM_FAILURE") as error:
        cl.Program(ctx, source).build()
    assert ("<kernel>:1:17: error: '__read_write': read_write images (OpenCL C 2.0) are not supported by "
            "loomcl yet") in str(error.value)
