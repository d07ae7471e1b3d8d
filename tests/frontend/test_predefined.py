"""Predefined macros: versions as the device reports them, -cl-std, the math option's macro, and
extension macros that name exactly the device's extensions."""
import re

import pytest

from loomcl.runtime.device import EXTENSIONS, Device

from .util import compile_log, compile_ok, preprocessed


@pytest.mark.parametrize("option, c_version", [
    ("", "120"), ("-cl-std=CL1.1", "110"), ("-cl-std=CL1.2", "120"), ("-cl-std=CL2.0", "200"),
    ("-cl-std=CL3.0", "300"),
])
def test_versions(option, c_version):
    assert preprocessed("__OPENCL_VERSION__ __OPENCL_C_VERSION__", option) == f"120 {c_version}"
    assert preprocessed("CL_VERSION_1_0 CL_VERSION_1_1 CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0",
                        option) == "100 110 120 200 300"


def test_versions_match_what_the_device_reports():
    device_version = re.match(r"OpenCL (\d)\.(\d) ", Device.version).groups()
    c_version = re.match(r"OpenCL C (\d)\.(\d)$", Device.opencl_c_version).groups()
    assert preprocessed("__OPENCL_VERSION__") == "".join(device_version) + "0"
    assert preprocessed("__OPENCL_C_VERSION__") == "".join(c_version) + "0"


def test_extension_macros_are_the_devices_extensions():
    for extension in EXTENSIONS.split():
        assert preprocessed(extension) == "1", extension
    defined = set(re.findall(r"#define (cl_\w+) 1", _predefined_text()))
    assert defined == set(EXTENSIONS.split())


def _predefined_text() -> str:
    from loomcl.frontend.options import BuildOptions
    from loomcl.frontend.predefined import predefined_source

    return predefined_source(BuildOptions())


def test_other_predefined_macros():
    assert preprocessed("__ENDIAN_LITTLE__ FP_FAST_FMAF __EMBEDDED_PROFILE__") == "1 1 0"
    assert preprocessed("#ifdef __IMAGE_SUPPORT__\nyes\n#endif\nno") == "yes no"  # the device has images


def test_fast_relaxed_math_macro_only_with_its_option():
    assert preprocessed("__FAST_RELAXED_MATH__", "-cl-fast-relaxed-math") == "1"
    assert preprocessed("__FAST_RELAXED_MATH__") == "__FAST_RELAXED_MATH__"
    assert preprocessed("__FAST_RELAXED_MATH__", "-cl-mad-enable") == "__FAST_RELAXED_MATH__"


def test_opencl_c_3_feature_macros_name_the_features_loomcl_has():
    assert preprocessed("__opencl_c_fp64 __opencl_c_int64", "-cl-std=CL3.0") == "1 1"
    assert preprocessed("__opencl_c_images __opencl_c_3d_image_writes", "-cl-std=CL3.0") == "1 1"
    assert preprocessed("__opencl_c_fp64") == "__opencl_c_fp64"


def test_macros_from_options_override_and_undefine_predefined_ones():
    assert preprocessed("__OPENCL_C_VERSION__", "-U __OPENCL_C_VERSION__") == "__OPENCL_C_VERSION__"
    assert preprocessed("N", "-D N=3 -D N=4") == "4"


def test_explicit_cl12_is_strict_about_private_pointees_and_the_default_is_not():
    source = "void f(float *p) { p[0] = 1; }\nkernel void k(global float *g) { f(g); }"
    compile_ok(source)  # loomcl's default mode accepts OpenCL C 2.0's generic pointees
    assert "incompatible type '__private float *'" in compile_log(source, "-cl-std=CL1.2")
    compile_ok(source, "-cl-std=CL2.0")
