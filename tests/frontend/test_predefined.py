"""Predefined macros: versions as the device reports them, -cl-std, the math option's macro, and
extension macros that name exactly the device's extensions."""
import re

import pytest

from loomcl.runtime.device import EXTENSIONS, Device

from .util import compile_log, compile_ok, preprocessed


@pytest.mark.parametrize("option, c_version", [
    ("", "120"), ("-cl-std=CL1.0", "100"), ("-cl-std=CL1.1", "110"), ("-cl-std=CL1.2", "120"),
    ("-cl-std=CL3.0", "300"),
])
def test_versions(option, c_version):
    assert preprocessed("__OPENCL_VERSION__ __OPENCL_C_VERSION__", option) == f"300 {c_version}"
    assert preprocessed("CL_VERSION_1_0 CL_VERSION_1_1 CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0",
                        option) == "100 110 120 200 300"


def test_versions_match_what_the_device_reports():
    device_version = re.match(r"OpenCL (\d)\.(\d) ", Device.version).groups()
    c_version = re.match(r"OpenCL C (\d)\.(\d) ", Device.opencl_c_version).groups()
    assert preprocessed("__OPENCL_VERSION__") == "".join(device_version) + "0"
    assert preprocessed("__OPENCL_C_VERSION__") == "".join(c_version) + "0"


def test_extension_macros_are_the_devices_extensions():
    for extension in EXTENSIONS.split():
        assert preprocessed(extension) == "1", extension
    defined = set(re.findall(r"#define (cl_\w+) 1", _predefined_text()))
    assert defined == set(EXTENSIONS.split())


def _predefined_text(options: str = "") -> str:
    from loomcl.frontend.options import parse_options
    from loomcl.frontend.predefined import predefined_source

    return predefined_source(parse_options(options))


def test_other_predefined_macros():
    assert preprocessed("__ENDIAN_LITTLE__ FP_FAST_FMAF __EMBEDDED_PROFILE__") == "1 1 0"
    assert preprocessed("__IMAGE_SUPPORT__") == str(Device.image_support)


def test_fast_relaxed_math_macro_only_with_its_option():
    assert preprocessed("__FAST_RELAXED_MATH__", "-cl-fast-relaxed-math") == "1"
    assert preprocessed("__FAST_RELAXED_MATH__") == "__FAST_RELAXED_MATH__"
    assert preprocessed("__FAST_RELAXED_MATH__", "-cl-mad-enable") == "__FAST_RELAXED_MATH__"


def test_opencl_c_3_feature_macros_name_the_devices_features():
    features = [feature.name for feature in Device.opencl_c_features]
    assert preprocessed(" ".join(features), "-cl-std=CL3.0") == " ".join("1" * len(features))
    assert set(features) == {"__opencl_c_images", "__opencl_c_3d_image_writes", "__opencl_c_fp64",
                             "__opencl_c_int64"}
    defined = set(re.findall(r"#define (__opencl_c_\w+) 1", _predefined_text("-cl-std=CL3.0")))
    assert defined == set(features)
    assert preprocessed("__opencl_c_fp64") == "__opencl_c_fp64"  # OpenCL C 1.2 has no feature macros


@pytest.mark.parametrize("feature", [
    "__opencl_c_generic_address_space", "__opencl_c_pipes", "__opencl_c_device_enqueue",
    "__opencl_c_subgroups", "__opencl_c_program_scope_global_variables",
    "__opencl_c_work_group_collective_functions", "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_read_write_images",
])
def test_opencl_c_3_features_loomcl_lacks_are_undefined(feature):
    assert preprocessed(f"#ifdef {feature}\nyes\n#endif\nno", "-cl-std=CL3.0") == "no"


def test_cl_std_2_fails_the_build_naming_the_versions_the_device_has():
    """A valid -cl-std the device lacks "will fail to compile the program" (API spec 5.8.6.5):
    a build error with its log, where an unknown version is an invalid option."""
    from loomcl.frontend import CompileError, OptionError, parse_options

    with pytest.raises(CompileError) as failed:
        parse_options("-cl-std=CL2.0")
    assert failed.value.log == ("error: the device does not support OpenCL C 2.0 ('-cl-std=CL2.0'; it "
                                "compiles OpenCL C 1.0, 1.1, 1.2 and 3.0)")
    with pytest.raises(OptionError, match="unknown OpenCL C version"):
        parse_options("-cl-std=CL4.0")


def test_macros_from_options_override_and_undefine_predefined_ones():
    assert preprocessed("__OPENCL_C_VERSION__", "-U __OPENCL_C_VERSION__") == "__OPENCL_C_VERSION__"
    assert preprocessed("N", "-D N=3 -D N=4") == "4"


@pytest.mark.parametrize("std", ["CL1.2", "CL3.0"])
def test_explicit_cl_std_is_strict_about_private_pointees_and_the_default_is_not(std):
    source = "void f(float *p) { p[0] = 1; }\nkernel void k(global float *g) { f(g); }"
    compile_ok(source)  # loomcl's default mode accepts OpenCL C 2.0's generic pointees
    # OpenCL C 3.0 without __opencl_c_generic_address_space: unqualified pointees are private
    assert "incompatible type '__private float *'" in compile_log(source, f"-cl-std={std}")
