import pytest

from loomcl.frontend.preprocessor import preprocess
from loomcl.frontend.diagnostics import Diagnostics
from loomcl.frontend.options import parse_options
from loomcl.frontend.source import SourceFile

from .util import compile_log, preprocessed


def pp_errors(source: str, options: str = "") -> list[str]:
    diags = Diagnostics()
    preprocess(SourceFile("t.cl", source), parse_options(options), diags)
    return [d.message for d in diags.messages]


def test_object_like_macro():
    assert preprocessed("#define N 16\nint a[N];") == "int a [ 16 ] ;"


def test_macro_rescanning_and_hide_sets():
    # Prosser: A expands to B's body, which mentions A again; that A must stay unexpanded.
    assert preprocessed("#define A 1+B\n#define B A*2\nA") == "1 + A * 2"
    assert preprocessed("#define f(x) x+f(x)\nf(f(1))") == "1 + f ( 1 ) + f ( 1 + f ( 1 ) )"


def test_function_like_macro_arguments():
    src = "#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(x, (y, z))"
    assert preprocessed(src) == "( ( x ) > ( ( y , z ) ) ? ( x ) : ( ( y , z ) ) )"


def test_function_like_macro_name_without_parens_is_not_expanded():
    assert preprocessed("#define f(x) x\nint f;") == "int f ;"


def test_arguments_are_expanded_before_substitution():
    assert preprocessed("#define N 4\n#define SQ(x) x*x\nSQ(N)") == "4 * 4"


def test_stringize():
    src = '#define S(x) #x\n#define XS(x) S(x)\n#define N 4\nS(N) XS(N) S( a  "b\\n" c)'
    assert preprocessed(src) == '"N" "4" "a \\"b\\\\n\\" c"'


def test_token_paste():
    src = "#define CAT(a, b) a##b\n#define AB x ## y\nCAT(get_, global_id) CAT(1, 2) CAT(, z) AB"
    assert preprocessed(src) == "get_global_id 12 z xy"


def test_invalid_paste_is_an_error():
    assert "pasting formed '+-', an invalid preprocessing token" in \
        pp_errors("#define P(a, b) a ## b\nP(+, -)")


def test_variadic_macros():
    src = ("#define CALL(f, ...) f(__VA_ARGS__)\n#define G(fmt, ...) g(fmt, ## __VA_ARGS__)\n"
           "CALL(h, 1, 2) CALL(h) G(1) G(1, 2)")
    assert preprocessed(src) == "h ( 1 , 2 ) h ( ) g ( 1 ) g ( 1 , 2 )"


def test_wrong_macro_argument_count():
    errors = pp_errors("#define F(a, b) a\nF(1) F(1, 2, 3)")
    assert any("too few arguments" in e for e in errors)
    assert any("too many arguments" in e for e in errors)


@pytest.mark.parametrize("options, expected", [
    ("-D X=3", "big"), ("-DX=1", "small"), ("", "none"), ("-D X -U X", "none"),
])
def test_conditionals_with_defined(options, expected):
    src = "#if defined(X) && X > 2\nbig\n#elif defined X\nsmall\n#else\nnone\n#endif"
    assert preprocessed(src, options) == expected


def test_ifdef_ifndef_nesting_in_skipped_groups():
    src = ("#ifdef NOPE\n#if 1\nno\n#else\nno\n#endif\n#else\nyes\n#endif\n"
           "#ifndef NOPE\nyes2\n#endif")
    assert preprocessed(src) == "yes yes2"


@pytest.mark.parametrize("expr", [
    "1 + 2 * 3 == 7", "-1 < 0", "-1u > 0", "(7 / 2) == 3", "(-7 / 2) == -3", "(-7 % 2) == -1",
    "(1 << 4) == 16", "~0 == -1", "!0 && !!5", "(0 ? 1 : 2) == 2", "'a' == 97", "UNDEFINED == 0",
    "0x10 == 16 && 010 == 8", "__OPENCL_VERSION__ == CL_VERSION_3_0", "INT_MAX == 2147483647",
])
def test_if_expressions_true(expr):
    assert preprocessed(f"#if {expr}\nyes\n#else\nno\n#endif") == "yes"


def test_if_expression_errors():
    assert "expected value in expression" in pp_errors("#if 1 +\n#endif")
    assert "division by zero in preprocessor expression" in pp_errors("#if 1/0\n#endif")


def test_unterminated_conditional_and_stray_endif():
    assert "unterminated conditional directive" in pp_errors("#if 1\nx")
    assert "#endif without #if" in pp_errors("#endif")
    assert "#else after #else" in pp_errors("#if 0\n#else\n#else\n#endif")


def test_error_directive():
    assert "#error tile too big" in pp_errors("#error tile too big")


def test_pragma_and_unknown_directive():
    assert preprocessed("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma unroll\nx") == "x"
    assert "invalid preprocessing directive '#bogus'" in pp_errors("#bogus")


def test_undef():
    assert preprocessed("#define A 1\n#undef A\nA") == "A"


def test_line_and_file():
    assert preprocessed("\n\n__LINE__ __FILE__", filename="k.cl") == '3 "k.cl"'


def test_predefined_macros():
    src = ("__OPENCL_VERSION__ __OPENCL_C_VERSION__ CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE "
           "__ENDIAN_LITTLE__ FP_FAST_FMAF")
    assert preprocessed(src) == "300 120 1 2 1 1"
    assert preprocessed("__OPENCL_C_VERSION__", "-cl-std=CL1.2") == "120"
    assert preprocessed("__IMAGE_SUPPORT__") == "1"
    assert preprocessed("FLT_MAX M_PI_F UINT_MAX") == "0x1.fffffep127f 3.14159274101257f 0xffffffffU"


def test_command_line_defines_override_and_undefine():
    assert preprocessed("N M", "-D N=8 -DM") == "8 1"
    assert preprocessed("CLK_LOCAL_MEM_FENCE", "-U CLK_LOCAL_MEM_FENCE") == "CLK_LOCAL_MEM_FENCE"


def test_include_relative_to_including_file_then_I(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "src" / "local.h").write_text('#include "common.h"\n#define LOCAL 1\n')
    (tmp_path / "inc" / "common.h").write_text("#ifndef COMMON\n#define COMMON 2\n#endif\n")
    main = tmp_path / "src" / "main.cl"
    out = preprocessed('#include "local.h"\n#include "common.h"\nLOCAL COMMON',
                       f"-I {tmp_path / 'inc'}", filename=str(main))
    assert out == "1 2"


def test_include_angle_brackets_search_I_dirs(tmp_path):
    (tmp_path / "defs.h").write_text("#define TILE 32\n")
    assert preprocessed("#include <defs.h>\nTILE", f"-I{tmp_path}") == "32"


def test_include_via_macro(tmp_path):
    (tmp_path / "x.h").write_text("int x;\n")
    assert preprocessed('#define HDR "x.h"\n#include HDR', f"-I{tmp_path}") == "int x ;"


def test_pragma_once_includes_a_file_once(tmp_path):
    (tmp_path / "poly.h").write_text("#pragma once\nint poly(int x) { return x * x; }\n")
    (tmp_path / "both.h").write_text('#pragma once\n#include "poly.h"\nint both;\n')
    src = '#include <poly.h>\n#include <both.h>\n#include "both.h"\n#include <./poly.h>\nend'
    assert preprocessed(src, f"-I{tmp_path}") == "int poly ( int x ) { return x * x ; } int both ; end"


def test_pragma_once_in_a_skipped_group_does_nothing(tmp_path):
    (tmp_path / "twice.h").write_text("#if 0\n#pragma once\n#endif\nx\n")
    assert preprocessed("#include <twice.h>\n#include <twice.h>", f"-I{tmp_path}") == "x x"


def test_missing_include_is_reported_at_the_name():
    log = compile_log('#include "nothere.h"\n')
    assert log == ("t.cl:1:10: error: 'nothere.h' file not found\n"
                   '#include "nothere.h"\n'
                   "         ^~~~~~~~~~~")


def test_include_reports_locations_in_the_included_file(tmp_path):
    (tmp_path / "bad.h").write_text("int f() { return y; }\n")
    log = compile_log('#include "bad.h"\n', f"-I{tmp_path}")
    assert log.startswith(f"{tmp_path / 'bad.h'}:1:18: error: use of undeclared identifier 'y'")


def test_macro_expansion_tokens_point_at_use_site():
    log = compile_log("#define BAD undefined_thing\nvoid f() {\n  int x = BAD;\n}")
    assert log.splitlines()[0] == "t.cl:3:11: error: use of undeclared identifier 'undefined_thing'"


# ---- property test: #if arithmetic agrees with C semantics on random expressions ----------------
from hypothesis import given, strategies as st  # noqa: E402

_leaf = st.integers(min_value=0, max_value=1000).map(lambda v: (str(v), v))


def _combine(children):
    def build(pair_and_op):
        (a_text, a), op, (b_text, b) = pair_and_op
        value = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b,
                 "<": int(a < b), "==": int(a == b)}[op]
        return f"({a_text} {op} {b_text})", value
    return st.tuples(children, st.sampled_from(["+", "-", "*", "&", "|", "^", "<", "=="]),
                     children).map(build)


@given(st.recursive(_leaf, _combine, max_leaves=8))
def test_if_arithmetic_matches_python(case):
    text, value = case
    if not -2**63 <= value < 2**63:
        return
    out = preprocessed(f"#if {text} == {value if value >= 0 else f'(0 - {-value})'}\nyes\n#endif")
    assert out == "yes"


# ---- skipped groups are jumped over as text, never tokenized (lexer.skip_group) -----------------

def test_skipped_group_text_is_not_tokenized():
    """What would be a lexical error in code is no error in a skipped group (as in clang)."""
    source = "#if 0\n@ don't `stop\n#else\nint a;\n#endif\nint b;"
    assert preprocessed(source) == "int a ; int b ;"


def test_directives_hidden_in_comments_and_continuations_do_not_end_a_skipped_group():
    source = ("#ifdef NOPE\n/* a comment\n#endif\n */ // #else\nx \\\n#endif\n\"#endif\"\n"
              "#else\nint kept;\n#endif\n")
    assert preprocessed(source) == "int kept ;"


def test_directive_after_a_comment_at_a_line_start_ends_a_skipped_group():
    assert preprocessed("#if 0\nint no;\n/* c */ # /* d */ else\nint yes;\n#endif") == "int yes ;"


def test_nested_groups_in_a_skipped_group_and_lines_after_it():
    source = "#if 0\n#if 1\n#else\n#endif\n#elif 1\nint line = __LINE__;\n#endif"
    assert preprocessed(source) == "int line = 6 ;"


def test_unterminated_comment_in_a_skipped_group_is_reported():
    log = compile_log("#if 0\nint a; /* open\n#endif\n")
    assert "t.cl:2:8: error: unterminated /* comment" in log


def test_trailing_blanks_at_the_end_of_a_file():
    assert preprocessed("int a;   \t") == "int a ;"


def test_skipped_group_in_an_included_file_goes_on_in_its_includer(tmp_path):
    (tmp_path / "open.h").write_text("#if 0\nint hidden;\n")
    source = '#include "open.h"\nint also_hidden;\n#endif\nint seen;\n'
    assert preprocessed(source, f"-I{tmp_path}") == "int seen ;"
