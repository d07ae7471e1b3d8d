"""OpenCL C features loomcl does not implement yet, named so that a program using one is told so.

Without these tables a kernel that uses pipes would fail with "type specifier missing" or "use of
undeclared function", which reads like a typo in the user's program. Instead, every type, builtin
function and predefined constant of an unimplemented feature gives, at its source location,

    kernel.cl:1:29: error: 'image2d_depth_t': depth and multisample images are not supported by loomcl yet

The parser takes the type names as types (of the error type, so nothing else is reported about the
declarations that use them); sema looks functions and constants up here only when they are not
builtins or user declarations, so a feature that gets implemented simply shadows its entry.
"""
from __future__ import annotations

IMAGES = "depth and multisample images are"
READ_WRITE_IMAGES = "read_write images (OpenCL C 2.0) are"
HALF_IMAGES = "half-precision image functions (cl_khr_fp16) are"
IMAGE_LEVELS = "multisample and mipmapped image queries are"
PIPES = "pipes are"
ENQUEUE = "device-side enqueue is"
GENERIC_CASTS = "casts out of the generic address space are"
ATOMICS_2 = "OpenCL C 2.0 atomics are"
COLLECTIVES = "work-group collective functions are"
SUB_GROUPS = "sub-groups are"
BLOCKS = "blocks (device-side enqueue) are"


def _names(feature: str, text: str) -> dict[str, str]:
    return {name: feature for name in text.split()}


_SUFFIXED = "{0} {0}_explicit"
_ATOMIC_FUNCTIONS = " ".join(_SUFFIXED.format(f"atomic_{op}") for op in (
    "store", "load", "exchange", "compare_exchange_strong", "compare_exchange_weak", "fetch_add",
    "fetch_sub", "fetch_or", "fetch_xor", "fetch_and", "fetch_min", "fetch_max", "flag_test_and_set",
    "flag_clear"))
_COLLECTIVE_OPS = " ".join(f"work_group_{kind}_{op}" for kind in ("reduce", "scan_inclusive", "scan_exclusive")
                           for op in ("add", "min", "max"))

TYPES = {
    **_names(IMAGES, "image2d_depth_t image2d_array_depth_t image2d_msaa_t image2d_array_msaa_t "
                     "image2d_msaa_depth_t image2d_array_msaa_depth_t"),
    **_names(PIPES, "reserve_id_t"),
    **_names(ENQUEUE, "queue_t ndrange_t clk_event_t kernel_enqueue_flags_t clk_profiling_info"),
    **_names(ATOMICS_2, "atomic_int atomic_uint atomic_long atomic_ulong atomic_float atomic_double "
                        "atomic_half atomic_intptr_t atomic_uintptr_t atomic_size_t atomic_ptrdiff_t "
                        "atomic_flag memory_order memory_scope"),
}
PIPE_KEYWORD = "pipe"  # a type only before another type (`pipe int p`): OpenCL C 1.2 may name things so

FUNCTIONS = {
    **_names(HALF_IMAGES, "read_imageh write_imageh"),
    **_names(IMAGE_LEVELS, "get_image_num_samples get_image_num_mip_levels"),
    **_names(PIPES, "read_pipe write_pipe reserve_read_pipe reserve_write_pipe commit_read_pipe "
                    "commit_write_pipe is_valid_reserve_id get_pipe_num_packets get_pipe_max_packets "
                    "work_group_reserve_read_pipe work_group_reserve_write_pipe "
                    "work_group_commit_read_pipe work_group_commit_write_pipe"),
    **_names(ENQUEUE, "enqueue_kernel enqueue_marker get_default_queue ndrange_1D ndrange_2D ndrange_3D "
                      "retain_event release_event create_user_event is_valid_event set_user_event_status "
                      "capture_event_profiling_info get_kernel_work_group_size "
                      "get_kernel_preferred_work_group_size_multiple get_kernel_max_sub_group_size_for_ndrange "
                      "get_kernel_sub_group_count_for_ndrange"),
    **_names(GENERIC_CASTS, "to_global to_local to_private get_fence"),
    **_names(ATOMICS_2, "atomic_init atomic_work_item_fence ATOMIC_VAR_INIT " + _ATOMIC_FUNCTIONS),
    **_names(COLLECTIVES, "work_group_all work_group_any work_group_broadcast " + _COLLECTIVE_OPS),
    **_names(SUB_GROUPS, "get_sub_group_size get_max_sub_group_size get_num_sub_groups "
                         "get_enqueued_num_sub_groups get_sub_group_id get_sub_group_local_id"),
}
_PREFIXES = {"sub_group_": SUB_GROUPS, "intel_sub_group_": SUB_GROUPS}

CONSTANTS = {
    **_names(IMAGES, "CLK_DEPTH CLK_sRGB CLK_sRGBx CLK_sRGBA CLK_sBGRA CLK_ABGR"),
    **_names(PIPES, "CLK_NULL_RESERVE_ID"),
    **_names(ENQUEUE, "CLK_ENQUEUE_FLAGS_NO_WAIT CLK_ENQUEUE_FLAGS_WAIT_KERNEL "
                      "CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP CLK_NULL_EVENT CLK_NULL_QUEUE CLK_SUCCESS "
                      "CLK_ENQUEUE_FAILURE CLK_INVALID_QUEUE CLK_INVALID_NDRANGE "
                      "CLK_INVALID_EVENT_WAIT_LIST CLK_DEVICE_QUEUE_FULL CLK_INVALID_ARG_SIZE "
                      "CLK_EVENT_ALLOCATION_FAILURE CLK_OUT_OF_RESOURCES CLK_COMPLETE CLK_RUNNING "
                      "CLK_PROFILING_COMMAND_EXEC_TIME"),
    **_names(ATOMICS_2, "memory_order_relaxed memory_order_acquire memory_order_release "
                        "memory_order_acq_rel memory_order_seq_cst memory_scope_work_item "
                        "memory_scope_sub_group memory_scope_work_group memory_scope_device "
                        "memory_scope_all_svm_devices memory_scope_all_devices ATOMIC_FLAG_INIT"),
}


def message(name: str, feature: str) -> str:
    return f"'{name}': {feature} not supported by loomcl yet"


def function_feature(name: str) -> str | None:
    """The unimplemented feature a function name belongs to, or None."""
    if name in FUNCTIONS:
        return FUNCTIONS[name]
    return next((feature for prefix, feature in _PREFIXES.items() if name.startswith(prefix)), None)
