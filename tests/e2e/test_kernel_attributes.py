"""CL_KERNEL_ATTRIBUTES: the kernel attributes of the source as written (CTS test_api
kernel_attributes looks for each one, spaces aside); a kernel without any answers ""."""
import loomcl as cl

SOURCE = """
__kernel __attribute__((vec_type_hint(uint2))) __attribute__((work_group_size_hint(1, 1, 1)))
__attribute__((reqd_work_group_size(2, 3, 1))) void all_three(__global int *a) {}
__kernel __attribute__((vec_type_hint(float16))) void hinted(__global int *a) {}
__kernel void plain(__global int *a) {}
"""


def test_kernel_attributes_are_reported_as_written(ctx):
    program = cl.Program(ctx, SOURCE).build()
    assert program.all_three.get_info(cl.kernel_info.ATTRIBUTES) == (
        "vec_type_hint(uint2) work_group_size_hint(1,1,1) reqd_work_group_size(2,3,1)")
    assert program.hinted.get_info(cl.kernel_info.ATTRIBUTES) == "vec_type_hint(float16)"
    assert program.plain.get_info(cl.kernel_info.ATTRIBUTES) == ""
