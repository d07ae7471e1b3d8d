"""write_only_params: the __global pointers a kernel only stores through (streaming-store candidates)."""
import pytest

from loomcl.analysis.write_only_params import write_only_params
from loomcl.driver import compiler


def kernel_params(body: str, params: str = "global const float *in, global float *out", helpers: str = ""):
    source = f"{helpers}\nkernel void k({params}) {{ int i = get_global_id(0); {body} }}"
    program = compiler.build(source, "", "test.cl")
    return write_only_params(program.module.functions["k"])


@pytest.mark.parametrize("body, expected", [
    ("out[i] = in[i];", (1,)),
    ("out[i] = in[i]; out[i + 1] = 2.0f;", (1,)),
    ("global float *p = out + 4; p[i] = in[i];", (1,)),              # through a private pointer
    ("vstore4((float4)(in[i]), i, out);", (1,)),                         # a builtin lowered to stores
    ("out[i] = in[i]; out[i] += 1.0f;", ()),                            # read back
    ("out[i] = out[i - 1] + in[i];", ()),
    ("out[i] = in[i] < 0.5f ? 1.0f : 0.0f;", (1,)),
    ("if (out != 0) out[i] = in[i];", ()),                               # compared: treated as escaping
])
def test_write_only(body, expected):
    assert kernel_params(body) == expected


def test_an_atomic_reads():
    assert kernel_params("atomic_add(&out[0], 1); res[i] = 1;", "global int *out, global int *res") == (1,)


def test_a_pointer_stored_into_memory_escapes():
    params = "global const float *in, global float *out, global ulong *where"
    assert kernel_params("where[i] = (ulong)out; out[i] = in[i];", params) == (2,)
    assert kernel_params("global float *slot[1]; slot[0] = out; slot[0][i] = in[i];") == ()  # not followed


def test_a_helper_function_is_read_as_may_read():
    helpers = "void put(global float *p, int i, float v) { p[i] = v; }"
    assert kernel_params("put(out, i, in[i]);", helpers=helpers) == ()


def test_local_and_constant_pointers_are_never_candidates():
    params = "local float *l, constant float *c, global float *out"
    assert kernel_params("l[i] = c[i]; out[i] = 1.0f;", params) == (2,)
