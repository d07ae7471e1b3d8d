"""Vectorizable erf and erfc, written in LLVM IR: double precision, and float erfc by evaluating the double
code once and rounding (branch-free; see devlib/math/libm.py for why we write our own; float erf is in
devlib/math/erf.py).

* |x| < 0.84375: erf x = x P(x^2), P of degree 12 (relative error 2^-69; for float results degree 6,
  2^-33, and degree 8 below for G); erfc x = 1 - erf x.
* erfc, |x| >= 0.84375: erfc |x| = e^(-x^2) G(1/|x|) / |x| with G(u) = erfc(1/u) e^(1/u^2) / u, which is
  smooth in u = 1/|x| (it tends to 1/sqrt(pi)), fitted on four intervals of |x| (split at 1.5, 2.5
  and 4.5) by degree-16 polynomials in u - u_centre (relative errors 2^-58 to 2^-69); the interval's
  coefficients are picked by selects. x^2 is split exactly (two_product) and e^(-x^2) comes from the
  double-double exp of devlib/math/pow_double.py, so erfc keeps its relative accuracy down to its
  underflow near 27.3. erfc of a negative x is 2 - erfc |x|.
* erf, |x| >= 0.84375: erf |x| = 1 - e^(R(a) - a^2) with a = min(|x|, 6) (from 6 on erfc is below 2^-54
  and erf rounds to 1) and R(a) = ln erfc a + a^2, one polynomial of degree 18 in a - 3.421875, fitted
  with weight erfc a / erf a: the error it makes in erf is below 0.52 ulp (the error in erfc may grow
  where erfc is tiny, erf does not see it). R - a^2 is summed as a double-double into the same exp,
  so erf needs no division and no selected coefficients (float erfc uses the pieces above; float erf
  is in devlib/math/erf.py).
Polynomials fitted for loomcl by weighted least squares at Chebyshev nodes. Special values: erf(+-0) =
+-0, erf(+-inf) = +-1, erfc(inf) = 0, erfc(-inf) = 2, NaN gives NaN. OpenCL 1.2 allows 16 ulp; measured
errors are in tests/e2e/test_math_double.py (double erf: under 1.3 ulp).
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix, llvm_type
from .pow_double import _DoublePowWriter

SUPPORTED = {M.ERF, M.ERFC}

_SMALL = 0.84375
_ERF_SMALL = (
    6.784017137150956e-11, -1.1779001762205446e-09, 1.4747719186148611e-08, -1.6361330017040034e-07,
    1.6461881563983548e-06, -1.4925642086561075e-05, 0.00012055332780111368, -0.0008548327020149355,
    0.0052239776254074345, -0.02686617064512907, 0.11283791670955119, -0.37612638903183754, 1.1283791670955126)
# per interval of |x|: where it starts, the centre of its u = 1/|x| range, G's coefficients
_ERFC_PIECES = (
    (0.84375, 0.9259259259259259, (
        -0.00048492059249217366, 0.0001222220150922388, 0.0006310047006014584, -0.0013884215276309111,
        0.0022070887125096752, -0.0029006373392731475, 0.003063053635911365, -0.0021400367190148647,
        -0.0005255885537941391, 0.005498678629657341, -0.012785141248497646, 0.02089821491047872,
        -0.025135106666699266, 0.014563739039947022, 0.03304279512501994, -0.15946863985650042,
        0.43920955608361856)),
    (1.5, 0.5333333333333333, (
        0.10171405696897826, 0.054883801897749655, -0.1569124136489471, 0.168968778951391,
        -0.1256939260232006, 0.05223655394684721, 0.024295328639997713, -0.07955741002652356,
        0.09783095472655667, -0.07508750225762974, 0.01976388432974688, 0.04841843213295487,
        -0.10111940068736479, 0.10496020075735452, -0.025445638126802495, -0.16927252751838337,
        0.505181222183757)),
    (2.5, 0.3111111111111111, (
        -9.538060016487956, -3.6227947757081878, 6.92636753786291, -4.321159269864416, 1.1196467800511714,
        0.7613103292872623, -1.1684851741917819, 0.7200871299192686, -0.10065766757868952,
        -0.27820408078434566, 0.32006202246278587, -0.13640624726304787, -0.08972853211196612,
        0.2042618420698702, -0.12871061094722033, -0.13753738412348804, 0.5401211816800828)),
    (4.5, 0.1292929292929293, (
        633.7887392211459, -353.81253624127976, -5.672486374584212, 74.69560945883559, -27.79589717386623,
        -5.284760577861958, 8.593533576287856, -2.1254200642795538, -1.5050112522732784, 1.2648980289338012,
        -0.011591459493028611, -0.48983108338498155, 0.2168732418076879, 0.1795658646687154,
        -0.24365524323549625, -0.06950044935715508, 0.5595874736056103)),
)

# erf alone, |x| >= 0.84375: ln erfc a + a^2 in a - centre (see the module's docstring)
_ERF_TAIL_END, _ERF_TAIL_CENTRE = 6.0, 3.421875
_LN_ERFC_PLUS_SQUARE = (
    1.5612197408161496e-12, 2.7222817684476342e-11, 2.126019694682372e-10, 9.857818412591035e-10,
    2.8507551284750444e-09, 5.1494454956757265e-09, 4.109084200881441e-09, -4.326138751491361e-09,
    -4.3543872638537465e-09, -1.0575595082209328e-07, 6.38001212451477e-07, -4.267894871546233e-06,
    2.662609026932238e-05, -0.00015923913027217452, 0.0009335246785801068, -0.005507914279455314,
    0.03450442030415302, -0.2713918025310867, -1.8414429237858494)

# the same for float results, of lower degree (relative errors below 2^-32)
_ERF_SMALL_FLOAT = (
    8.872427360111499e-05, -0.0008251419806348135, 0.005209821213664046, -0.026862656675785874,
    0.11283749746687693, -0.3761263701159507, 1.1283791669547685)
_ERFC_PIECES_FLOAT = (
    (0.84375, 0.9259259259259259, (
        -1.2935476836458135e-06, 0.005128317520305356, -0.01281434981761629, 0.020917675630968396,
        -0.025134474246886127, 0.014563368458592314, 0.03304279068801693, -0.15946863796795266,
        0.43920955608775797)),
    (1.5, 0.5333333333333333, (
        0.0985151489831907, -0.07820877166395786, 0.019758668154530378, 0.048459768220704295,
        -0.10111940887225822, 0.10495999733669777, -0.025445637984978117, -0.16927252724773145,
        0.5051812221836417)),
    (2.5, 0.3111111111111111, (
        -0.12269998112278707, -0.2652475563623549, 0.3202071771664672, -0.13648333035660434,
        -0.08972891616534806, 0.2042620115965039, -0.12871061060247502, -0.13753738422408512,
        0.5401211816800365)),
    (4.5, 0.1292929292929293, (
        -1.3291704435126286, 1.222440503854672, -0.01288754694879454, -0.48955374449945976,
        0.21687716026240905, 0.17956519654590333, -0.24365524737444658, -0.0695004489232079,
        0.5595874736063047)),
)


def supports(function: M, t: ty.Type) -> bool:
    return function == M.ERFC and ty.scalar_of(t) == ty.f32 or function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        lanes = t.count if isinstance(t, ty.VectorType) else None
        body = _ErfWriter(module, ty.f64 if lanes is None else ty.VectorType(ty.f64, lanes))
        outer = llvm_type(t)
        x = "%x" if ty.scalar_of(t) == ty.f64 else body.op(f"fpext {outer} %x to {body.F}")
        double = ty.scalar_of(t) == ty.f64
        if function == M.ERF:
            result = body.erf_double(x)
        else:
            result = body.erfc(x, _ERF_SMALL if double else _ERF_SMALL_FLOAT,
                               _ERFC_PIECES if double else _ERFC_PIECES_FLOAT)
        if ty.scalar_of(t) == ty.f32:
            result = body.op(f"fptrunc {body.F} {result} to {outer}")
        module.declare(name, "\n".join([f"define internal {outer} @{name}({outer} %x) #0 {{", "entry:",
                                        *body.lines, f"  ret {outer} {result}", "}", ""]))
    return f"@{name}"


class _ErfWriter(_DoublePowWriter):

    def piecewise_poly(self, ax: str, u: str, pieces) -> str:
        """G(u) on the interval of |x|: coefficients and centre chosen by selects."""
        chosen = [self.d(c) for c in (pieces[0][1], *pieces[0][2])]
        for start, centre, coefficients in pieces[1:]:
            inside = self.fcmp("oge", ax, self.d(start))
            chosen = [self.select(inside, self.d(c), old) for c, old in zip((centre, *coefficients), chosen)]
        v = self.dop("fsub", u, chosen[0])
        acc = chosen[1]
        for c in chosen[2:]:
            acc = self.fma(v, acc, c)
        return acc

    def erf_double(self, x: str) -> str:
        ax = self.call("fabs", x)
        small_erf = self.dop("fmul", x, self.horner(self.dop("fmul", x, x), _ERF_SMALL, t=self.F))
        a = self.call("minnum", ax, self.d(_ERF_TAIL_END))
        r = self.horner(self.dop("fsub", a, self.d(_ERF_TAIL_CENTRE)), _LN_ERFC_PLUS_SQUARE, t=self.F)
        square = self.dop("fmul", a, a)
        square_tail = self.call("fma", a, a, self.neg(square))
        head, tail = self.two_sum(r, self.neg(square))
        erfc = self.exp_double_double(head, self.dop("fsub", tail, square_tail))
        big = self.call("copysign", self.dop("fsub", self.d(1.0), erfc), x)
        result = self.select(self.fcmp("olt", ax, self.d(_SMALL)), small_erf, big)
        return self.select(self.fcmp("uno", x, x), x, result)

    def erfc(self, x: str, small_poly, pieces) -> str:
        ax = self.call("fabs", x)
        small_erf = self.dop("fmul", x, self.horner(self.dop("fmul", x, x), small_poly, t=self.F))
        u = self.dop("fdiv", self.d(1.0), ax)
        square = self.dop("fmul", ax, ax)
        square_tail = self.call("fma", ax, ax, self.neg(square))
        gauss = self.exp_double_double(self.neg(square), self.neg(square_tail))
        erfc_big = self.dop("fmul", self.dop("fmul", gauss, self.piecewise_poly(ax, u, pieces)), u)
        small = self.fcmp("olt", ax, self.d(_SMALL))
        big = self.select(self.fcmp("olt", x, self.d(0.0)), self.dop("fsub", self.d(2.0), erfc_big), erfc_big)
        result = self.select(small, self.dop("fsub", self.d(1.0), small_erf), big)
        return self.select(self.fcmp("uno", x, x), x, result)
