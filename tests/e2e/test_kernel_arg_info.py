"""clGetKernelArgInfo: names, type names, address, access and type qualifiers of a program built
with -cl-kernel-arg-info; without the option the query fails as on real drivers."""
import pytest

import loomcl as cl

SOURCE = """
struct pair { float x; int n; };
__kernel void k(__global const float * restrict src, __global volatile int *flags,
                __constant float4 *table, __local double *scratch, uint n, const float4 scale,
                struct pair p, __global struct pair *pairs) {}
"""
Q, A, T = cl.kernel_arg_address_qualifier, cl.kernel_arg_access_qualifier, cl.kernel_arg_type_qualifier
EXPECTED = [  # name, type name, address qualifier, type qualifier
    ("src", "float*", Q.GLOBAL, T.CONST | T.RESTRICT),
    ("flags", "int*", Q.GLOBAL, T.VOLATILE),
    ("table", "float4*", Q.CONSTANT, T.CONST),
    ("scratch", "double*", Q.LOCAL, T.NONE),
    ("n", "uint", Q.PRIVATE, T.NONE),
    ("scale", "float4", Q.PRIVATE, T.NONE),  # by value: no qualifier (clang; CTS get_kernel_arg_info)
    ("p", "struct pair", Q.PRIVATE, T.NONE),
    ("pairs", "struct pair*", Q.GLOBAL, T.NONE),
]


def test_argument_info_with_the_option(ctx):
    kernel = cl.Program(ctx, SOURCE).build(options="-cl-kernel-arg-info").k
    info = cl.kernel_arg_info
    for index, (name, type_name, address, qualifiers) in enumerate(EXPECTED):
        assert kernel.get_arg_info(index, info.NAME) == name
        assert kernel.get_arg_info(index, info.TYPE_NAME) == type_name, name
        assert kernel.get_arg_info(index, info.ADDRESS_QUALIFIER) == address, name
        assert kernel.get_arg_info(index, info.TYPE_QUALIFIER) == qualifiers, name
        assert kernel.get_arg_info(index, info.ACCESS_QUALIFIER) == A.NONE


def test_argument_info_without_the_option_is_not_available(ctx):
    kernel = cl.Program(ctx, SOURCE).build().k
    with pytest.raises(cl.RuntimeError) as error:
        kernel.get_arg_info(0, cl.kernel_arg_info.NAME)
    assert error.value.code == cl.status_code.KERNEL_ARG_INFO_NOT_AVAILABLE
    assert "-cl-kernel-arg-info" in str(error.value)


def test_bad_index_is_checked_first(ctx):
    kernel = cl.Program(ctx, SOURCE).build(options="-cl-kernel-arg-info").k
    with pytest.raises(cl.LogicError, match="INVALID_ARG_INDEX"):
        kernel.get_arg_info(9, cl.kernel_arg_info.NAME)



def test_local_mem_size_counts_local_variables_and_local_arguments(ctx):
    source = """__kernel void k(__global float *a, __local float *t) {
        __local float s[256];
        s[get_local_id(0)] = a[0]; t[0] = s[0]; a[0] = t[0];
    }"""
    kernel = cl.Program(ctx, source).build().k
    info = cl.kernel_work_group_info.LOCAL_MEM_SIZE
    assert kernel.get_work_group_info(info, ctx.devices[0]) == 1024
    kernel.set_arg(1, cl.LocalMemory(100))
    assert kernel.get_work_group_info(info, ctx.devices[0]) == 1124
