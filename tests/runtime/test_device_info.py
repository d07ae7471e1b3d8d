"""Platform and device queries (and those of contexts and programs): every param answers with a
value of its info_types.py C type, the values agree with each other, and the versions read as the
spec's formats say."""
import re

import pytest

import loomcl as cl
from loomcl.runtime.info_types import INFO_TYPES, CType, info_type
from loomcl.runtime.versions import NameVersion, make_version, version_parts

_BITS = {CType.UINT: 32, CType.INT: 32, CType.BOOL: 32, CType.VERSION: 32, CType.ULONG: 64,
         CType.SIZE: 64, CType.BITFIELD: 64}


def conforms(ctype: CType, value) -> bool:
    """Whether `value` is a Python value that `ctype` encodes (as pyopencl would return it)."""
    if ctype is CType.BOOL:
        return type(value) is int and value in (0, 1)
    if ctype is CType.INT:
        return type(value) is int and -(1 << 31) <= value < (1 << 31)
    if ctype.is_scalar:
        return type(value) is int and 0 <= value < (1 << _BITS[ctype])
    if ctype is CType.STRING:
        return isinstance(value, str) and value.isascii() and "\0" not in value
    if ctype in (CType.SIZE_ARRAY, CType.PROPERTIES, CType.PARTITION_PROPERTIES):
        return isinstance(value, list) and all(type(v) is int and v >= 0 for v in value)
    if ctype is CType.NAME_VERSIONS:
        return isinstance(value, list) and all(
            isinstance(v, NameVersion) and len(v.name.encode()) < 64 and conforms(CType.VERSION, v.version)
            for v in value)
    if ctype is CType.HANDLE:
        return value is None or hasattr(value, "int_ptr")
    if ctype is CType.HANDLES:
        return isinstance(value, list) and all(hasattr(v, "int_ptr") for v in value)
    if ctype is CType.BYTES:
        return isinstance(value, bytes)
    if ctype is CType.POINTER:
        return type(value) is int and value >= 0
    if ctype is CType.BINARIES:
        return isinstance(value, list) and all(isinstance(v, bytes) for v in value)
    raise AssertionError(f"no check for {ctype}")


@pytest.fixture(scope="module")
def platform():
    return cl.get_platforms()[0]


@pytest.fixture(scope="module")
def device(platform):
    return platform.get_devices()[0]


def _members(info_class) -> list[str]:
    return [name for name in vars(info_class) if name.isupper()]


@pytest.mark.parametrize("name", _members(cl.device_info))
def test_every_device_query_answers_with_its_table_type(device, name):
    param = getattr(cl.device_info, name)
    value = device.get_info(param)
    assert conforms(info_type(cl.device_info, param), value), (name, value)
    assert value == getattr(device, name.lower())  # pyopencl's property of the same name


@pytest.mark.parametrize("name", _members(cl.platform_info))
def test_every_platform_query_answers_with_its_table_type(platform, name):
    param = getattr(cl.platform_info, name)
    value = platform.get_info(param)
    assert conforms(info_type(cl.platform_info, param), value), (name, value)


def test_the_table_covers_every_member_of_every_info_enumeration():
    for class_name in INFO_TYPES:
        info_class = getattr(cl, class_name, None)
        if info_class is None:
            continue  # the enumeration of a feature loomcl lacks (pipes) or another module adds
        missing = [name for name in _members(info_class) if name not in INFO_TYPES[class_name]]
        assert not missing, (class_name, missing)
    infos = [name for name in dir(cl) if name.endswith("_info")]
    assert set(infos) <= set(INFO_TYPES)


def test_an_unknown_param_is_invalid_value(device, platform):
    with pytest.raises(cl.LogicError, match="INVALID_VALUE"):
        device.get_info(0x40E0)  # CL_DEVICE_SPIR_VERSIONS: cl_khr_spir, an extension loomcl lacks
    with pytest.raises(cl.LogicError, match="INVALID_VALUE"):
        platform.get_info(0x1000)


VERSION_FORMAT = re.compile(r"OpenCL (\d+)\.(\d+) (.+)$")  # OpenCL 3.0 API spec 4.1, 4.2


def test_versions_read_as_the_spec_formats_them(platform, device):
    for owner in (platform, device):
        major, minor, vendor_part = VERSION_FORMAT.match(owner.version).groups()
        assert (int(major), int(minor)) == (3, 0) and vendor_part.startswith("loomcl ")
        assert version_parts(owner.numeric_version) == (3, 0, 0)
    assert cl.get_cl_header_version() == (3, 0)
    assert re.fullmatch(r"OpenCL C 1\.2 loomcl", device.opencl_c_version)  # the space after 1.2: CTS test_api
    assert [version_parts(v.version) for v in device.opencl_c_all_versions] == [
        (1, 0, 0), (1, 1, 0), (1, 2, 0), (3, 0, 0)]
    assert {v.name for v in device.opencl_c_all_versions} == {"OpenCL C"}
    assert re.fullmatch(r"v\d{4}-\d\d-\d\d-\d\d", device.latest_conformance_version_passed)
    assert device.profile == platform.profile == "FULL_PROFILE"


def test_make_version_is_cl_make_version():
    assert make_version(3, 0) == 0xC00000 and make_version(1, 2) == 0x402000  # cl.h's values
    assert make_version(2, 1, 5) == (2 << 22) | (1 << 12) | 5
    assert version_parts(make_version(1023, 1023, 4095)) == (1023, 1023, 4095)


def test_extensions_with_version_name_the_extensions(platform, device):
    for owner in (platform, device):
        assert [nv.name for nv in owner.extensions_with_version] == owner.extensions.split()
        assert all(version_parts(nv.version) == (1, 0, 0) for nv in owner.extensions_with_version)
    extensions = device.extensions.split()
    for needed in ("cl_khr_fp64", "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
                   "cl_khr_global_int32_base_atomics", "cl_khr_byte_addressable_store"):
        assert needed in extensions
    features = {nv.name: version_parts(nv.version) for nv in device.opencl_c_features}
    assert features == {name: (3, 0, 0) for name in ("__opencl_c_images", "__opencl_c_3d_image_writes",
                                                     "__opencl_c_fp64", "__opencl_c_int64")}
    assert "cl_khr_3d_image_writes" in extensions  # the extension that goes with the feature


def test_work_sizes_are_consistent(device):
    assert len(device.max_work_item_sizes) == device.max_work_item_dimensions == 3
    assert all(1 <= size <= device.max_work_group_size for size in device.max_work_item_sizes)
    assert device.max_work_group_size % device.preferred_work_group_size_multiple == 0
    assert device.max_mem_alloc_size <= device.global_mem_size
    assert device.max_constant_buffer_size <= device.max_mem_alloc_size
    assert device.platform is cl.get_platforms()[0]


def test_optional_3_0_features_are_reported_as_loomcl_has_them(device):
    absent = ["svm_capabilities", "device_enqueue_capabilities", "queue_on_device_properties",
              "queue_on_device_preferred_size", "queue_on_device_max_size", "max_on_device_queues",
              "max_on_device_events", "pipe_support", "max_pipe_args", "generic_address_space_support",
              "max_num_sub_groups", "work_group_collective_functions_support", "max_global_variable_size",
              "global_variable_preferred_total_size", "max_read_write_image_args", "partition_max_sub_devices"]
    assert {name: getattr(device, name) for name in absent} == {name: 0 for name in absent}
    assert device.ils_with_version == device.built_in_kernels_with_version == []
    assert device.il_version == ""
    assert device.non_uniform_work_group_support == 1 and device.image_support == 1
    assert device.linker_available == 1 and device.compiler_available == 1
    atomic = cl.device_atomic_capabilities
    # the 3.0 minimum; no device scope, as no __opencl_c_atomic_scope_device (the API and the macros agree)
    assert device.atomic_memory_capabilities == atomic.ORDER_RELAXED | atomic.SCOPE_WORK_GROUP
    assert device.atomic_fence_capabilities == atomic.ORDER_RELAXED | atomic.ORDER_ACQ_REL | atomic.SCOPE_WORK_GROUP
    fp = cl.device_fp_config
    minimum_double = fp.FMA | fp.ROUND_TO_NEAREST | fp.INF_NAN | fp.DENORM  # full profile's minimum
    assert device.double_fp_config & minimum_double == minimum_double
    assert device.queue_on_host_properties == device.queue_properties


def test_buffers_are_aligned_for_long16_as_mem_base_addr_align_says(ctx, device):
    """CTS test_basic's vector kernels load long16 from a buffer's start: the spec's minimum
    CL_DEVICE_MEM_BASE_ADDR_ALIGN is the size of long16 in bits, and every buffer honours it."""
    assert device.mem_base_addr_align >= 1024
    for size in (1, 4, 100, 4096, 12345):
        for _ in range(4):
            buffer = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size)
            assert buffer.int_ptr % (device.mem_base_addr_align // 8) == 0


def test_device_and_host_timers_share_the_profiling_clock(device):
    before = device.host_timer
    device_time, host_time = device.device_and_host_timer
    assert device_time == host_time >= before


@pytest.mark.parametrize("name", _members(cl.program_info))
def test_every_program_query_answers_with_its_table_type(prg, name):
    param = getattr(cl.program_info, name)
    assert conforms(info_type(cl.program_info, param), prg.get_info(param)), name


@pytest.mark.parametrize("name", _members(cl.program_build_info))
def test_every_program_build_query_answers_with_its_table_type(prg, ctx, name):
    param = getattr(cl.program_build_info, name)
    assert conforms(info_type(cl.program_build_info, param), prg.get_build_info(ctx.devices[0], param)), name


@pytest.mark.parametrize("name", _members(cl.context_info))
def test_every_context_query_answers_with_its_table_type(ctx, name):
    param = getattr(cl.context_info, name)
    assert conforms(info_type(cl.context_info, param), ctx.get_info(param)), name


def test_every_device_and_platform_answer_encodes_to_its_c_bytes(device, platform):
    import struct

    from loomcl.runtime.info_types import encode

    for owner, info_class in ((device, cl.device_info), (platform, cl.platform_info)):
        for name in _members(info_class):
            param = getattr(info_class, name)
            value = owner.get_info(param)
            data = encode(info_type(info_class, param), value, handle=lambda obj: 0x1000)
            ctype = info_type(info_class, param)
            if ctype.is_scalar:
                assert struct.unpack("@" + ctype.code, data)[0] == value, name
            elif ctype is CType.STRING:
                assert data == value.encode() + b"\0", name
    assert encode(CType.SIZE_ARRAY, device.max_work_item_sizes) == struct.pack("@3N", 4096, 4096, 4096)
    features = encode(CType.NAME_VERSIONS, device.opencl_c_features)
    assert len(features) == 68 * len(device.opencl_c_features)
    version, name = struct.unpack_from("@I64s", features)
    assert (version, name.rstrip(b"\0")) == (make_version(3, 0), b"__opencl_c_images")
    assert encode(CType.PARTITION_PROPERTIES, device.partition_properties) == struct.pack("@q", 0)
    assert encode(CType.PROPERTIES, []) == b""
    assert encode(CType.PROPERTIES, [(0x1084, platform)], handle=lambda obj: 7) == struct.pack("@3q", 0x1084, 7, 0)
    assert encode(CType.PROPERTIES, [0x1093, 2, 0]) == encode(CType.PROPERTIES, [0x1093, 2]) == struct.pack("@3q", 0x1093, 2, 0)
    assert encode(CType.HANDLE, device.platform, handle=lambda obj: 7) == struct.pack("@P", 7)
    assert encode(CType.HANDLE, device.parent_device) == struct.pack("@P", 0)
    with pytest.raises(TypeError, match="one per device"):
        encode(CType.BINARIES, [b"x"])


@pytest.mark.parametrize("name", _members(cl.mem_info))
def test_every_buffer_query_answers_with_its_table_type(ctx, name):
    buffer = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    param = getattr(cl.mem_info, name)
    assert conforms(info_type(cl.mem_info, param), buffer.get_info(param)), name
