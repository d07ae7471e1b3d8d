"""Images and samplers in the frontend: what is accepted (OpenCL C 1.2 6.1.3, 6.9, 6.12.14) and the
clang-style diagnostics, with their caret, for what is not."""
import pytest

from loomcl.frontend import types as T

from .util import compile_log, compile_ok


def errors(source: str) -> list[str]:
    return [line.split(": error: ", 1)[1] for line in compile_log(source).splitlines() if ": error: " in line]


def test_images_and_samplers_in_every_legal_place():
    compile_ok("""
        __constant sampler_t s0 = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
        const sampler_t s1 = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
        float4 helper(read_only image2d_t im, sampler_t s, float2 c) { return read_imagef(im, s, c); }
        void store(__write_only image3d_t out, int4 p, uint4 v) { write_imageui(out, p, v); }
        kernel void k(image1d_t a, image1d_array_t b, image1d_buffer_t c, __read_only image2d_t d,
                      read_only image2d_array_t e, image3d_t f, write_only image3d_t g, sampler_t smp,
                      global float4 *o) {
            const sampler_t local_sampler = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
            __constant sampler_t constant_sampler = CLK_FILTER_LINEAR;
            o[0] = read_imagef(a, s0, 1.5f) + read_imagef(b, smp, (int2)(1, 0)) + read_imagef(c, 3)
                 + helper(d, s1, (float2)(0.5f)) + read_imagef(e, local_sampler, (float4)(0))
                 + read_imagef(e, constant_sampler, (float4)(1))
                 + convert_float4(read_imagei(f, 0x12, (int4)(0))) + read_imagef(d, (int2)(0));
            store(g, (int4)(0), (uint4)(1));
            o[1] = (float4)(get_image_width(a), get_image_array_size(b), get_image_dim(d).y,
                            get_image_dim(f).z + get_image_channel_order(c) + get_image_channel_data_type(g));
        }""")


def test_types_carry_the_access_qualifier():
    assert str(T.image_type("image2d_t", "write_only")) == "__write_only image2d_t"
    assert T.image_type("image2d_t") == T.BUILTIN_TYPE_NAMES["image2d_t"]


@pytest.mark.parametrize("source,expected", [
    ("struct S { image2d_t i; };\nkernel void k(global int *a) {}",
     "the '__read_only image2d_t' type cannot be used to declare a structure or union field"),
    ("struct S { sampler_t s; int x; };\nkernel void k(global int *a) {}",
     "the 'sampler_t' type cannot be used to declare a structure or union field"),
    ("kernel void k(image2d_t imgs[2], global int *a) {}",
     "pointer to type '__read_only image2d_t' is invalid in OpenCL"),
    ("kernel void k(global int *a) { sampler_t s[2]; }", "array of 'sampler_t' type is invalid in OpenCL"),
    ("kernel void k(global int *a) { image2d_t *p; }", "pointer to type '__read_only image2d_t' is invalid in OpenCL"),
    ("kernel void k(image2d_t img, global int *a) { image2d_t other = img; }",
     "type '__read_only image2d_t' can only be used as a function parameter in OpenCL"),
    ("void f(image2d_t a, image2d_t b) { a = b; }\nkernel void k(global int *x) {}",
     "cannot assign to a variable of type '__read_only image2d_t' (images and samplers are not assignable)"),
    ("void f(sampler_t a, sampler_t b) { a = b; }\nkernel void k(global int *x) {}",
     "cannot assign to a variable of type 'sampler_t' (images and samplers are not assignable)"),
    ("kernel void k(image2d_t a, image2d_t b, global int *x) { x[0] = a == b; }",
     "invalid operands to binary expression ('__read_only image2d_t' and '__read_only image2d_t')"),
    ("kernel void k(sampler_t s, global int *o) { o[0] = s + 1; }",
     "invalid operands to binary expression ('sampler_t' and 'int')"),
    ("image2d_t f(image2d_t a) { return a; }\nkernel void k(global int *x) {}",
     "declaring function return value of type '__read_only image2d_t' is not allowed"),
    ("sampler_t f(sampler_t a) { return a; }\nkernel void k(global int *x) {}",
     "declaring function return value of type 'sampler_t' is not allowed"),
    ("kernel void k(global int *x) { sampler_t s = CLK_FILTER_NEAREST; }",
     "a function scope variable of type 'sampler_t' must be declared const (with a constant initializer)"),
    ("kernel void k(global int *x) { const sampler_t s; }", "variable of type 'sampler_t' must be initialized"),
    ("kernel void k(global int *x) { const sampler_t s = x[0]; }",
     "sampler initializer is not an integer constant expression"),
    ("const sampler_t s = 0x100;\nkernel void k(global int *x) {}",
     "invalid sampler value 0x100 (combine one CLK_NORMALIZED_COORDS_*, one CLK_ADDRESS_* and one CLK_FILTER_*)"),
    ("const sampler_t s = CLK_FILTER_NEAREST | CLK_FILTER_LINEAR;\nkernel void k(global int *x) {}",
     "invalid sampler value 0x30 (combine one CLK_NORMALIZED_COORDS_*, one CLK_ADDRESS_* and one CLK_FILTER_*)"),
    ("kernel void k(write_only image2d_t img, global float4 *o) { o[0] = read_imagef(img, (int2)(0, 0)); }",
     "'read_imagef' reads an image, but '__write_only image2d_t' is write_only"),
    ("kernel void k(read_only image2d_t img) { write_imagef(img, (int2)(0, 0), (float4)(0)); }",
     "'write_imagef' writes an image, but '__read_only image2d_t' is read_only"),
    ("kernel void k(image2d_t img, global float4 *o) { o[0] = read_imagef(img, (float2)(0, 0)); }",
     "the coordinates of 'read_imagef' on an 'image2d_t' image must be 'int2' (have 'float2')"),
    ("kernel void k(image2d_t img, sampler_t s, global float4 *o) { o[0] = read_imagef(img, s, (int4)(0)); }",
     "the coordinates of 'read_imagef' on an 'image2d_t' image must be 'int2' or 'float2' (have 'int4')"),
    ("kernel void k(write_only image2d_t img) { write_imagef(img, (int2)(0), (int4)(0)); }",
     "the color written by 'write_imagef' must be 'float4' (have 'int4')"),
    ("kernel void k(image2d_t img, global int *o) { o[0] = get_image_depth(img); }",
     "'get_image_depth' does not apply to an 'image2d_t' image"),
    ("kernel void k(image2d_t img, global int *o) { o[0] = get_image_array_size(img); }",
     "'get_image_array_size' does not apply to an 'image2d_t' image"),
    ("kernel void k(global int *o) { o[0] = get_image_width(o); }",
     "the first argument of 'get_image_width' must be an image (have '__global int *')"),
    ("kernel void k(read_only int x, global int *o) {}", "access qualifier can only be used for pipe and image type"),
    ("kernel void k(image2d_t img, global float4 *o) { o[0] = read_imagef(img, 1.5f, (int2)(0)); }",
     "the sampler argument must be a 'sampler_t' (have 'float')"),
    ("kernel void k(image1d_buffer_t img, sampler_t s, global float4 *o) { o[0] = read_imagef(img, s, 0); }",
     "'read_imagef' with a sampler does not apply to an 'image1d_buffer_t' image"),
    ("float4 f(read_only image2d_t i) { return read_imagef(i, (int2)(0)); }\n"
     "kernel void k(write_only image2d_t img, global float4 *o) { o[0] = f(img); }",
     "passing '__write_only image2d_t' to parameter of incompatible type '__read_only image2d_t'"),
])
def test_misuse_is_reported(source, expected):
    assert errors(source) == [expected]


def test_diagnostic_renders_with_caret():
    assert compile_log("kernel void k(write_only image2d_t img, global float4 *o) {\n"
                       "    o[0] = read_imagef(img, (int2)(0, 0));\n}") == (
        "t.cl:2:12: error: 'read_imagef' reads an image, but '__write_only image2d_t' is write_only\n"
        "    o[0] = read_imagef(img, (int2)(0, 0));\n"
        "           ^")


def test_image_constants_are_the_abi_values():
    """CLK_* in kernel code are abi/image.py's sampler bits and devlib/images/channels.py's CL_* codes."""
    from loomcl.abi import image as abi
    from loomcl.devlib.images import channels as C
    from loomcl.frontend.options import BuildOptions
    from loomcl.frontend.predefined import predefined_source

    defined = dict(line.split()[1:3] for line in predefined_source(BuildOptions()).splitlines()
                   if line.startswith("#define CLK_"))
    assert int(defined["CLK_NORMALIZED_COORDS_TRUE"], 0) == abi.NORMALIZED_COORDS
    for name, mode in (("NONE", abi.ADDRESS_NONE), ("CLAMP_TO_EDGE", abi.ADDRESS_CLAMP_TO_EDGE),
                       ("CLAMP", abi.ADDRESS_CLAMP), ("REPEAT", abi.ADDRESS_REPEAT),
                       ("MIRRORED_REPEAT", abi.ADDRESS_MIRRORED_REPEAT)):
        assert int(defined[f"CLK_ADDRESS_{name}"], 0) == abi.sampler_bits(False, mode, 0)
    for name, mode in (("NEAREST", abi.FILTER_NEAREST), ("LINEAR", abi.FILTER_LINEAR)):
        assert int(defined[f"CLK_FILTER_{name}"], 0) == abi.sampler_bits(False, 0, mode)
    for name, code in {**C.CHANNEL_ORDERS, **C.CHANNEL_TYPES}.items():
        assert int(defined[f"CLK_{name}"], 0) == code
