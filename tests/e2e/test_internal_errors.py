"""Internal errors of the compiler seen through the runtime: an optional pass that fails is left out at
the kernel's first launch (results right, a warning in the build log naming the pass); a pass of the
contract that fails makes the launch raise BUILD_PROGRAM_FAILURE with an internal-compiler-error log,
never a raw Python exception. The passes are broken on purpose (monkeypatch); strict mode, which the
test suite runs in, is turned off where the fallback itself is under test."""
import numpy as np
import pytest

import loomcl as cl
from loomcl.runtime.program import CompilerWarning
from loomcl.transforms import subcfg_formation, vectorize_work_items

SOURCE = r"""
__kernel void loops(__global int *out, __global const int *in) {
  int g = get_global_id(0), acc = 0;
  for (int k = 0; k < g % 7; k++) acc += in[(g + k) % 64];
  out[g] = acc;
}"""
OPTIONS = "-loomcl-no-microprofile"  # no variants compiled in the background


def _broken(function, analyses):
    raise AttributeError("'Widened' object has no attribute 'tracks_users'")


def _expected(data):
    g = np.arange(64)
    return np.array([sum(data[(i + k) % 64] for k in range(i % 7)) for i in g], np.int32)


def _launch(ctx, queue, program, data):
    out = np.zeros(64, np.int32)
    mf = cl.mem_flags
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    in_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    program.loops(queue, (64,), (16,), out_buf, in_buf)
    cl.enqueue_copy(queue, out, out_buf)
    queue.finish()
    return out


def test_a_failing_optional_pass_is_left_out_and_the_build_log_says_so(ctx, queue, monkeypatch):
    monkeypatch.setenv("LOOMCL_STRICT", "0")
    monkeypatch.setattr(vectorize_work_items, "run", _broken)
    data = np.arange(64, dtype=np.int32) * 3 - 50
    program = cl.Program(ctx, SOURCE).build(options=OPTIONS)
    with pytest.warns(CompilerWarning, match="optional pass vectorize-work-items failed on kernel 'loops'"):
        out = _launch(ctx, queue, program, data)
    np.testing.assert_array_equal(out, _expected(data))
    log = program.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert log.startswith("warning: loomcl's optional pass vectorize-work-items failed on kernel 'loops' "
                          "(local size (16, 1, 1)) and was left out")
    assert "please report it" in log and "AttributeError: 'Widened' object has no attribute" in log


def test_a_failing_pass_of_the_contract_fails_the_launch_as_a_build_failure(ctx, queue, monkeypatch):
    def broken(function, analyses):
        raise KeyError("a block")

    monkeypatch.setattr(subcfg_formation, "run", broken)
    program = cl.Program(ctx, SOURCE).build(options=OPTIONS)
    with pytest.raises(cl.RuntimeError, match="BUILD_PROGRAM_FAILURE") as error:
        _launch(ctx, queue, program, np.zeros(64, np.int32))
    assert ("internal compiler error compiling kernel 'loops' for local size (16, 1, 1) (in pass "
            "subcfg-formation on @loops): KeyError: 'a block'") in str(error.value)
    assert "please report it" in program.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
