"""Vectorizable single-precision exp, exp2, log, log2 and log10, written in LLVM IR.

Why: x86 has no instruction for them, llvmlite's LLVM offers no vector math library, so the intrinsic
`llvm.exp.v8f32` becomes eight scalar `expf` calls after vectorization (measured). Here each function is
an internal `alwaysinline` function of plain arithmetic, bit operations and selects (no branches), so
once inlined into a work-item loop the loop vectorizer widens it like any other code: pocl's
Vecmathlib idea (pocl sec. 5). Functions are generated per type, scalar `float` or `<N x float>`.

Algorithms (classic Cody-Waite reduction plus a minimax polynomial, coefficients from Moshier's Cephes
single-precision library):

* exp(x): n = rint(x log2 e), r = x - n ln2 (ln2 split in a 16-bit head, exact in the product, and a
  tail), e^r = 1 + r + r^2 P(r) on |r| <= ln2/2, times 2^n built from exponent bits in two halves so
  results near overflow and in the subnormal range are rounded once. exp2 reduces r = x - n exactly.
* log(x): subnormals scaled by 2^23; x = 2^e m with m in [sqrt(1/2), sqrt 2), f = m - 1,
  ln(1 + f) = f - f^2/2 + f^3 P(f), plus e ln2 (split). log2 and log10 rescale ln(1 + f) and add e
  (times log10 2, split), so exact powers of two give exact results.

Special values (NaN, +-inf, 0, negatives) follow C99 Annex F through final selects. Measured accuracy
against float64 references is in tests/codegen/test_math.py (OpenCL allows 3 ulp for these).
sin, cos and tan are in devlib/math/trig.py, pow in devlib/math/pow.py, erf in devlib/math/erf.py; they use
the writer below.
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction
from ...llvmtext.module import ModuleText
from ...llvmtext.types import format_float, intrinsic_suffix, llvm_type

SUPPORTED = {MathFunction.EXP, MathFunction.EXP2, MathFunction.LOG, MathFunction.LOG2, MathFunction.LOG10}

_EXP_POLY = (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1,
             5.0000001201e-1)
_LOG_POLY = (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
             -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)
_LN2_HI, _LN2_LO = 0.693359375, -2.12194440e-4
_LOG10_2_HI, _LOG10_2_LO = 3.00781250e-1, 2.48745663981195213739e-4
_LOG2E, _LOG10E = 1.4426950408889634, 0.4342944819032518


def supports(function: MathFunction, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: MathFunction, t: ty.Type) -> str:
    """`@name` of our implementation of `function` at type `t`, defined in `module` on first use."""
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _Writer(module, t)
        if function in (MathFunction.EXP, MathFunction.EXP2):
            body.exp(base2=function == MathFunction.EXP2)
        else:
            body.log(function)
        module.declare(name, body.text(name))
    return f"@{name}"


class _Writer:
    """Writes one function body in SSA text; `op` returns the new value's name."""

    def __init__(self, module: ModuleText, t: ty.Type) -> None:
        self.module = module
        self.F = llvm_type(t)
        self.lanes = t.count if isinstance(t, ty.VectorType) else None
        self.I = "i32" if self.lanes is None else f"<{self.lanes} x i32>"
        self.B = "i1" if self.lanes is None else f"<{self.lanes} x i1>"
        self.D, self.L = self.vec("double"), self.vec("i64")
        self.lines: list[str] = []
        self.count = 0

    def vec(self, scalar: str) -> str:
        """The type of this width with lanes of type `scalar`."""
        return scalar if self.lanes is None else f"<{self.lanes} x {scalar}>"

    def splat(self, scalar: str, text: str) -> str:
        return text if self.lanes is None else f"splat ({scalar} {text})"

    def f(self, value: float) -> str:
        return self.splat("float", format_float(ty.f32, value))

    def d(self, value: float) -> str:
        return self.splat("double", format_float(ty.f64, value))

    def i(self, value: int) -> str:
        return self.splat("i32", str(value))

    def l(self, value: int) -> str:
        return self.splat("i64", str(value))

    def op(self, text: str) -> str:
        self.count += 1
        name = f"%t{self.count}"
        self.lines.append(f"  {name} = {text}")
        return name

    def call(self, intrinsic: str, *args: str, t: str | None = None) -> str:
        """`llvm.<intrinsic>` on values of type `t` (float lanes unless told)."""
        t = t or self.F
        suffix = ("" if self.lanes is None else f"v{self.lanes}") + ("f64" if "double" in t else "f32")
        name = f"llvm.{intrinsic}.{suffix}"
        params = ", ".join([t] * len(args))
        self.module.declare(name, f"declare {t} @{name}({params})")
        return self.op(f"call {t} @{name}({', '.join(f'{t} {a}' for a in args)})")

    def fma(self, a: str, b: str, c: str, t: str | None = None) -> str:
        return self.call("fmuladd", a, b, c, t=t)

    def horner(self, x: str, coefficients, t: str | None = None) -> str:
        const = self.d if t == self.D else self.f
        acc = const(coefficients[0])
        for c in coefficients[1:]:
            acc = self.fma(x, acc, const(c), t=t)
        return acc

    def select(self, condition: str, a: str, b: str, t: str | None = None) -> str:
        return self.op(f"select {self.B} {condition}, {t or self.F} {a}, {t or self.F} {b}")

    def fcmp(self, predicate: str, a: str, b: str, t: str | None = None) -> str:
        return self.op(f"fcmp {predicate} {t or self.F} {a}, {b}")

    def either_way(self, near: str, by_near, by_far, types: tuple[str, ...]) -> tuple[str, ...]:
        """Values computed by `by_near()` when every lane of the i1 vector `near` holds, else by
        `by_far()`: one branch per vector (blocks `near`, `far`, `joined`; once per function)."""
        reduce_and = f"llvm.vector.reduce.and.v{self.lanes}i1"
        self.module.declare(reduce_and, f"declare i1 @{reduce_and}({self.B})")
        all_near = self.op(f"call i1 @{reduce_and}({self.B} {near})")
        self.lines += [f"  br i1 {all_near}, label %near, label %far", "near:"]
        near_values = by_near()
        self.lines += ["  br label %joined", "far:"]
        far_values = by_far()
        self.lines += ["  br label %joined", "joined:"]
        return tuple(self.op(f"phi {t} [ {a}, %near ], [ {b}, %far ]") for t, a, b in zip(types, near_values, far_values))

    def text(self, name: str, params: tuple[str, ...] = ("%x",)) -> str:
        signature = ", ".join(f"{self.F} {p}" for p in params)
        return "\n".join([f"define internal {self.F} @{name}({signature}) #0 {{", "entry:", *self.lines, "}", ""])

    # -- exp and exp2 ---------------------------------------------------------------------------------

    def exp(self, base2: bool) -> None:
        y = self.exp_of("%x", base2)
        self.lines.append(f"  ret {self.F} {self.select(self.fcmp('uno', '%x', '%x'), '%x', y)}")

    def exp_of(self, x: str, base2: bool = False) -> str:
        """e^x (2^x with base2) for a value x that is not NaN."""
        low, high = (-151.0, 129.0) if base2 else (-104.0, 89.0)
        x = self.call("minnum", self.call("maxnum", x, self.f(low)), self.f(high))
        if base2:
            n = self.call("rint", x)
            r = self.op(f"fmul {self.F} {self.op(f'fsub {self.F} {x}, {n}')}, {self.f(0.6931471805599453)}")
        else:
            n = self.call("rint", self.op(f"fmul {self.F} {x}, {self.f(_LOG2E)}"))
            r = self.fma(n, self.f(-_LN2_HI), x)
            r = self.fma(n, self.f(-_LN2_LO), r)
        return self.exp_reduced(r, n)

    def exp_reduced(self, r: str, n: str) -> str:
        """e^r 2^n for |r| <= ln2/2 and integral n in [-151, 129] (floats)."""
        r2 = self.op(f"fmul {self.F} {r}, {r}")
        p = self.op(f"fadd {self.F} {self.fma(r2, self.horner(r, _EXP_POLY), r)}, {self.f(1.0)}")
        return self._times_power_of_two(p, n)

    def _times_power_of_two(self, p: str, n: str) -> str:
        """p * 2^n for integral n in [-151, 129], as p * 2^(n/2) * 2^(n - n/2): each factor normal."""
        ni = self.op(f"fptosi {self.F} {n} to {self.I}")
        half = self.op(f"ashr {self.I} {ni}, {self.i(1)}")
        rest = self.op(f"sub {self.I} {ni}, {half}")
        for k in (half, rest):
            bits = self.op(f"shl {self.I} {self.op(f'add {self.I} {k}, {self.i(127)}')}, {self.i(23)}")
            p = self.op(f"fmul {self.F} {p}, {self.op(f'bitcast {self.I} {bits} to {self.F}')}")
        return p

    # -- log, log2, log10 ------------------------------------------------------------------------------

    def log(self, function: MathFunction) -> None:
        e, f, y = self._log_parts()
        ln1p = self.op(f"fadd {self.F} {f}, {y}")  # ln(1 + f)
        if function == MathFunction.LOG:
            small_parts = self.op(f"fadd {self.F} {f}, {self.fma(e, self.f(_LN2_LO), y)}")
            core = self.fma(e, self.f(_LN2_HI), small_parts)
        elif function == MathFunction.LOG2:
            core = self.fma(ln1p, self.f(_LOG2E), e)
        else:
            tail = self.fma(e, self.f(_LOG10_2_LO), self.op(f"fmul {self.F} {ln1p}, {self.f(_LOG10E)}"))
            core = self.fma(e, self.f(_LOG10_2_HI), tail)
        result = self.select(self.fcmp("oeq", "%x", self.f(0.0)), self.f(float("-inf")), core)
        result = self.select(self.fcmp("olt", "%x", self.f(0.0)), self.f(float("nan")), result)
        result = self.select(self.fcmp("oeq", "%x", self.f(float("inf"))), "%x", result)
        self.lines.append(f"  ret {self.F} {self.select(self.fcmp('uno', '%x', '%x'), '%x', result)}")

    def _log_parts(self) -> tuple[str, str, str]:
        """(e, f, y) with x = 2^e (1 + f) and ln(1 + f) ~ f + y, for positive finite x."""
        small = self.fcmp("olt", "%x", self.f(1.1754943508222875e-38))
        x = self.select(small, self.op(f"fmul {self.F} %x, {self.f(8388608.0)}"), "%x")
        bits = self.op(f"bitcast {self.F} {x} to {self.I}")
        exponent = self.op(f"sub {self.I} {self.op(f'lshr {self.I} {bits}, {self.i(23)}')}, {self.i(127)}")
        mantissa_bits = self.op(f"or {self.I} {self.op(f'and {self.I} {bits}, {self.i(0x7FFFFF)}')}, "
                                f"{self.i(0x3F800000)}")
        m = self.op(f"bitcast {self.I} {mantissa_bits} to {self.F}")
        big = self.fcmp("ogt", m, self.f(1.4142135623730951))
        m = self.select(big, self.op(f"fmul {self.F} {m}, {self.f(0.5)}"), m)
        e = self.op(f"sitofp {self.I} {exponent} to {self.F}")
        e = self.op(f"fadd {self.F} {e}, {self.select(big, self.f(1.0), self.f(0.0))}")
        e = self.op(f"fsub {self.F} {e}, {self.select(small, self.f(23.0), self.f(0.0))}")
        f = self.op(f"fsub {self.F} {m}, {self.f(1.0)}")
        z = self.op(f"fmul {self.F} {f}, {f}")
        y = self.op(f"fmul {self.F} {self.op(f'fmul {self.F} {f}, {z}')}, {self.horner(f, _LOG_POLY)}")
        return e, f, self.fma(z, self.f(-0.5), y)
