"""LLVM contained: its optimizer and code generator run in compile servers, so an assertion, a crash
or an endless compile fails the build (with LLVM's message) instead of killing the user's process."""
import os
import signal

import numpy as np
import pytest

import loomcl as cl
from loomcl.codegen import llvm_emitter
from loomcl.ir import instructions as ins
from loomcl.jit import compile_client, llvm
from loomcl.jit.errors import JITError, LLVMFailure
from loomcl.options import DEFAULT_OPTIONS

# Our own reduction of the loop-vectorizer bug (test_volatile.py): a guarded volatile load in a loop
# annotated parallel. LLVM 22 with assertions aborts on it.
ASSERTING_IR = """
define void @f(ptr noalias %out, ptr noalias %in) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %odd = and i64 %i, 1
  %even = icmp eq i64 %odd, 0
  br i1 %even, label %then, label %latch
then:
  %p = getelementptr inbounds float, ptr %in, i64 %i
  %v = load volatile float, ptr %p, align 4, !llvm.access.group !0
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store float %v, ptr %q, align 4, !llvm.access.group !0
  br label %latch
latch:
  %next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %next, 128
  br i1 %more, label %loop, label %exit, !llvm.loop !1
exit:
  ret void
}
!0 = distinct !{}
!1 = distinct !{!1, !2, !3}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = !{!"llvm.loop.mustprogress"}
"""

FINE_IR = "define i32 @g(i32 %x) {\n  %y = mul i32 %x, 3\n  ret i32 %y\n}\n"

VOLATILE_KERNEL = """
kernel void k(global float *out, global volatile float *in) {
    int t = get_local_id(0);
    if ((t & 1) == 0) out[get_global_id(0)] = in[get_global_id(0)];
}
"""


def _job(emit="object"):
    return llvm.server_job(DEFAULT_OPTIONS, emit)


def test_an_llvm_assertion_is_an_error_and_the_next_compile_works():
    with pytest.raises(LLVMFailure) as failure:
        compile_client.compile_text(ASSERTING_IR, _job())
    assert "SIGABRT" in failure.value.log
    assert "underlying instruction may write to memory" in failure.value.log
    assembly = compile_client.compile_text(FINE_IR, _job("assembly")).decode()
    assert "g:" in assembly


def test_a_server_killed_while_idle_is_replaced():
    compile_client.compile_text(FINE_IR, _job())
    for server in list(compile_client.POOL._idle):
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
    assert b"g" in compile_client.compile_text(FINE_IR, _job())


def test_a_compile_past_the_timeout_is_stopped(monkeypatch):
    compile_client.POOL.shutdown()  # a fresh server cannot even start within a millisecond
    monkeypatch.setenv("LOOMCL_COMPILE_TIMEOUT", "0.001")
    with pytest.raises(LLVMFailure, match="LOOMCL_COMPILE_TIMEOUT"):
        compile_client.compile_text(FINE_IR, _job())
    monkeypatch.delenv("LOOMCL_COMPILE_TIMEOUT")
    assert "g:" in compile_client.compile_text(FINE_IR, _job("assembly")).decode()


def test_a_bad_timeout_value_warns_and_uses_the_default(monkeypatch):
    monkeypatch.setenv("LOOMCL_COMPILE_TIMEOUT", "soon")
    with pytest.warns(RuntimeWarning, match="LOOMCL_COMPILE_TIMEOUT='soon'"):
        assert compile_client.compile_timeout() == compile_client.DEFAULT_TIMEOUT_S


def test_rejected_text_is_an_internal_error_naming_the_line():
    with pytest.raises(JITError, match="expected instruction opcode"):
        compile_client.compile_text("define void @f() { bogus }", _job())


def _old_access_group(self, inst):
    """The emitter before the fix: volatile accesses in the work-item loop's access group."""
    group = self.access_groups.get(inst.block)
    if group and isinstance(inst, (ins.Load, ins.Store)):
        space = getattr(inst.pointer.type, "address_space", None)
        group = group if space in llvm_emitter._RACE_FREE_SPACES else None
    return f", !llvm.access.group {group}" if group else ""


def test_a_launch_that_crashes_llvm_is_a_build_failure_with_llvms_message(monkeypatch):
    monkeypatch.setattr(llvm_emitter.FunctionEmitter, "access_group", _old_access_group)
    ctx = cl.create_some_context()
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, VOLATILE_KERNEL).build()
    data = np.arange(256, dtype=np.float32)
    out = np.zeros_like(data)
    mf = cl.mem_flags
    in_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    out_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    with pytest.raises(cl.RuntimeError) as failure:
        prg.k(queue, (256,), (128,), out_buf, in_buf)
    assert failure.value.code == cl.status_code.BUILD_PROGRAM_FAILURE
    assert "underlying instruction may write to memory" in str(failure.value)
    log = prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert "kernel 'k' could not be compiled for local size (128, 1, 1)" in log
    assert "underlying instruction may write to memory" in log

    monkeypatch.undo()  # the fixed emitter: the same kernel now builds and runs
    prg = cl.Program(ctx, VOLATILE_KERNEL).build()
    prg.k(queue, (256,), (128,), out_buf, in_buf)
    cl.enqueue_copy(queue, out, out_buf)
    queue.finish()
    assert (out == np.where(np.arange(256) % 2 == 0, data, 0)).all()


def test_threads_compiling_at_once_get_their_own_answers():
    from concurrent.futures import ThreadPoolExecutor

    def compile_times(factor):
        text = FINE_IR.replace("@g", f"@times{factor}").replace("mul i32 %x, 3", f"add i32 %x, {factor}")
        return [compile_client.compile_text(text, _job("llvm")).decode() for _ in range(3)]

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(compile_times, range(5, 13)))
    for factor, texts in zip(range(5, 13), answers):
        assert all(f"@times{factor}" in text and f", {factor}" in text for text in texts)
    assert compile_client.POOL._count <= compile_client.POOL.limit


def test_a_forked_child_starts_servers_of_its_own(tmp_path):
    compile_client.compile_text(FINE_IR, _job())
    parent_servers = {server.process.pid for server in compile_client.POOL._idle}
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compile, report the server it used, and leave at once
        try:
            compile_client.compile_text(FINE_IR, _job())
            os.write(write, str(compile_client.POOL._idle[0].process.pid).encode())
        finally:
            os._exit(0)
    os.close(write)
    child_server = int(os.read(read, 64) or b"0")
    os.waitpid(pid, 0)
    assert child_server and child_server not in parent_servers
    assert b"g" in compile_client.compile_text(FINE_IR, _job())  # the parent's servers still answer


def test_a_server_that_cannot_start_is_a_build_failure(monkeypatch):
    compile_client.POOL.shutdown()
    monkeypatch.setattr(compile_client.sys, "executable", "/nonexistent/python")
    with pytest.raises(LLVMFailure, match="cannot start loomcl's compile server"):
        compile_client.compile_text(FINE_IR, _job())
    monkeypatch.undo()
    assert b"g" in compile_client.compile_text(FINE_IR, _job())
