import pytest

from loomcl.frontend import BuildOptions, MacroOption, OptionError, parse_options


def test_empty_options_are_defaults():
    assert parse_options(None) == BuildOptions()
    assert parse_options("") == BuildOptions()


@pytest.mark.parametrize("text, macros", [
    ("-D N", (MacroOption("N", "1"),)),
    ("-DN=4", (MacroOption("N", "4"),)),
    ("-D N=4", (MacroOption("N", "4"),)),
    ("-D TILE=16 -U TILE", (MacroOption("TILE", "16"), MacroOption("TILE", None))),
    ("-DX=a=b", (MacroOption("X", "a=b"),)),
    ("-D 'S=1 + 2'", (MacroOption("S", "1 + 2"),)),
    ("-DXM2S(x)=#x -D M2S(x)=XM2S(x)", (MacroOption("XM2S(x)", "#x"), MacroOption("M2S(x)", "XM2S(x)"))),
    ("-D 'F( a, b )=a+b'", (MacroOption("F( a, b )", "a+b"),)),
    ("-D 'V(...)=__VA_ARGS__'", (MacroOption("V(...)", "__VA_ARGS__"),)),
    ("-DSTR=\\\"abc\\\"", (MacroOption("STR", '"abc"'),)),
    ("-D INCLUDE_PATH=\"/a dir/x\"", (MacroOption("INCLUDE_PATH", "/a dir/x"),)),
    ("-UNAME", (MacroOption("NAME", None),)),
])
def test_macro_options(text, macros):
    assert parse_options(text).macros == macros


def test_include_dirs_both_spellings():
    assert parse_options("-I inc -Iother").include_dirs == ("inc", "other")


def test_list_of_strings_as_pyopencl_passes():
    opts = parse_options(["-D A=1", "-cl-mad-enable", "-I", "dir"])
    assert opts.macros == (MacroOption("A", "1"),)
    assert opts.mad_enable and opts.include_dirs == ("dir",)


def test_standard_flags():
    opts = parse_options("-cl-fast-relaxed-math -cl-mad-enable -cl-no-signed-zeros "
                         "-cl-unsafe-math-optimizations -cl-finite-math-only "
                         "-cl-denorms-are-zero -w -Werror -cl-opt-disable -cl-kernel-arg-info -g "
                         "-cl-std=CL1.2")
    assert opts.fast_relaxed_math and opts.mad_enable and opts.no_signed_zeros
    assert opts.unsafe_math_optimizations and opts.finite_math_only and opts.denorms_are_zero
    assert opts.suppress_warnings and opts.warnings_as_errors and opts.opt_disable
    assert opts.kernel_arg_info and opts.debug_info and opts.cl_std == "CL1.2"


@pytest.mark.parametrize("std", ["CL1.0", "CL1.1", "CL1.2", "CL3.0"])
def test_cl_std(std):
    assert parse_options(f"-cl-std={std}").cl_std == std


@pytest.mark.parametrize("bad", ["-cl-fast-relaxed-maths", "-O3", "--foo", "fast", "-cl-std=CL9.9"])
def test_unknown_option_raises_naming_it(bad):
    with pytest.raises(OptionError) as info:
        parse_options(f"-D A {bad}")
    assert bad in str(info.value)
    assert info.value.option == bad


def test_missing_argument():
    with pytest.raises(OptionError, match="missing argument"):
        parse_options("-D")


@pytest.mark.parametrize("bad", ["-D 3X=1", "-DF(x=1", "-D F(x)y=1", "-U X=1", "-U F(x)"])
def test_invalid_macro_name(bad):
    with pytest.raises(OptionError, match="invalid macro name"):
        parse_options(bad)


def test_unbalanced_quote_is_an_option_error():
    with pytest.raises(OptionError, match="cannot split build options"):
        parse_options("-D X='a")


@pytest.mark.parametrize("switch", ["-Wall", "-Wno-unused-variable", "-Wconversion", "-Werror=format"])
def test_clangs_warning_switches_are_accepted(switch):
    parse_options(switch)


def test_options_are_frozen():
    with pytest.raises(Exception):
        parse_options("").mad_enable = True
