"""Streaming stores in the generated code: the post-O3 marking (codegen/streaming_stores.py) on
LLVM IR text, and the host assembly of a kernel specialized for them."""
import platform

import pytest

from loomcl.driver import backend
from loomcl.driver import compiler
from loomcl.jit.nontemporal import mark_nontemporal

OPTIMIZED = """define void @k(ptr %args) {
entry:
  %param0 = inttoptr i64 1 to ptr
  %param1 = inttoptr i64 2 to ptr
  %a = getelementptr inbounds float, ptr %param1, i64 %i
  %b = getelementptr inbounds nuw i8, ptr %a, i64 64
  %c = getelementptr inbounds float, ptr %param0, i64 %i
  br label %loop
loop:
  %p = phi ptr [ %a, %entry ], [ %q, %loop ]
  %q = getelementptr inbounds i8, ptr %p, i64 128
  %u = phi ptr [ %elsewhere, %entry ], [ %u.next, %loop ]
  %u.next = getelementptr inbounds i8, ptr %u, i64 64
  store <16 x float> %v, ptr %u, align 64
  store <16 x float> %v, ptr %a, align 64, !noalias !1
  store <16 x float> %v, ptr %b, align 4
  store <16 x float> %v, ptr %c, align 64
  store <4 x float> %w, ptr %a, align 64
  store <16 x float> %v, ptr %p, align 64
  store float %s, ptr %a, align 64
  store <32 x float> %x, ptr %a, align 64
  store <32 x float> %x, ptr %b, align 32
  store <24 x float> %y, ptr %a, align 64
  br label %loop
}"""


def marked_lines(text):
    return [line.strip() for line in text.splitlines() if "!nontemporal" in line]


def test_only_aligned_wide_vector_stores_through_the_parameter_are_marked():
    assert marked_lines(mark_nontemporal(OPTIMIZED, [1])) == [
        "store <16 x float> %v, ptr %a, align 64, !noalias !1, !nontemporal !{i32 1}",
        "store <16 x float> %v, ptr %p, align 64, !nontemporal !{i32 1}",     # a loop's pointer phi
        "store <32 x float> %x, ptr %a, align 64, !nontemporal !{i32 1}",     # two aligned registers
    ]


def test_nothing_is_marked_without_streaming_parameters():
    assert mark_nontemporal(OPTIMIZED, []) == OPTIMIZED
    assert marked_lines(mark_nontemporal(OPTIMIZED, [0])) == ["store <16 x float> %v, ptr %c, align 64, !nontemporal !{i32 1}"]


COPY = "kernel void copy(global const float *in, global float *out) { int i = get_global_id(0); out[i] = in[i]; }"


def copy_assembly(streaming):
    program = compiler.build(COPY, "", "copy.cl")
    function = program.work_group_ir("copy", (256, 1, 1), ids_fit_int=True)
    return backend.assembly(function, program.kernels["copy"], program.options.replace(streaming=streaming))


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 streaming stores")
def test_a_streaming_copy_uses_movnt_and_fences():
    streamed, plain = copy_assembly((1,)), copy_assembly(())
    assert "vmovntps" in streamed and "sfence" in streamed
    assert "movnt" not in plain and "sfence" not in plain


COPY4 = "kernel void copy(global const float4 *in, global float4 *out) { int i = get_global_id(0); out[i] = in[i]; }"


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 streaming stores")
def test_a_float4_copy_streams_its_interleaved_stores():
    """The loop vectorizer stores 16 work-items' float4s as one <64 x float> (or a few <32 x float>)
    aligned to 64 bytes, not to its size: it still streams, one aligned register at a time."""
    program = compiler.build(COPY4, "", "copy4.cl")
    function = program.work_group_ir("copy", (64, 1, 1), ids_fit_int=True)
    streamed = backend.assembly(function, program.kernels["copy"], program.options.replace(streaming=(1,)))
    assert "vmovntps" in streamed and "sfence" in streamed
