"""Vectorizable erf and erfc, written in LLVM IR: double precision, and float by evaluating the double
code once and rounding (branch-free; see llvm_libm.py for why we write our own).

* |x| < 0.84375: erf x = x P(x^2), P of degree 12 (relative error 2^-69); erfc x = 1 - erf x.
* |x| >= 0.84375: erfc |x| = e^(-x^2) G(1/|x|) / |x| with G(u) = erfc(1/u) e^(1/u^2) / u, which is
  smooth in u = 1/|x| (it tends to 1/sqrt(pi)), fitted on four intervals of |x| (split at 1.5, 2.5
  and 4.5) by degree-16 polynomials in u - u_centre (relative errors 2^-58 to 2^-69); the interval's
  coefficients are picked by selects. x^2 is split exactly (two_product) and e^(-x^2) comes from the
  double-double exp of llvm_libm_pow_double.py, so erfc keeps its relative accuracy down to its
  underflow near 27.3. erf |x| = 1 - erfc |x|; erfc of a negative x is 2 - erfc |x|.
Polynomials fitted for loomcl by weighted least squares at Chebyshev nodes. Special values: erf(+-0) =
+-0, erf(+-inf) = +-1, erfc(inf) = 0, erfc(-inf) = 2, NaN gives NaN. OpenCL 1.2 allows 16 ulp; measured
errors are in tests/e2e/test_math_double.py.
"""
from __future__ import annotations

from ..ir import types as ty
from ..ir.instructions import MathFunction as M
from .llvm_libm_pow_double import _DoublePowWriter
from .llvm_module import ModuleText
from .llvm_types import intrinsic_suffix, llvm_type

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


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) in (ty.f32, ty.f64)


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        lanes = t.count if isinstance(t, ty.VectorType) else None
        body = _ErfWriter(module, ty.f64 if lanes is None else ty.VectorType(ty.f64, lanes))
        outer = llvm_type(t)
        x = "%x" if ty.scalar_of(t) == ty.f64 else body.op(f"fpext {outer} %x to {body.F}")
        result = body.erf(x, complement=function == M.ERFC)
        if ty.scalar_of(t) == ty.f32:
            result = body.op(f"fptrunc {body.F} {result} to {outer}")
        module.declare(name, "\n".join([f"define internal {outer} @{name}({outer} %x) #0 {{", "entry:",
                                        *body.lines, f"  ret {outer} {result}", "}", ""]))
    return f"@{name}"


class _ErfWriter(_DoublePowWriter):

    def piecewise_poly(self, ax: str, u: str) -> str:
        """G(u) on the interval of |x|: coefficients and centre chosen by selects."""
        chosen = [self.d(c) for c in (_ERFC_PIECES[0][1], *_ERFC_PIECES[0][2])]
        for start, centre, coefficients in _ERFC_PIECES[1:]:
            inside = self.fcmp("oge", ax, self.d(start))
            chosen = [self.select(inside, self.d(c), old) for c, old in zip((centre, *coefficients), chosen)]
        v = self.dop("fsub", u, chosen[0])
        acc = chosen[1]
        for c in chosen[2:]:
            acc = self.fma(v, acc, c)
        return acc

    def erf(self, x: str, complement: bool) -> str:
        ax = self.call("fabs", x)
        small_erf = self.dop("fmul", x, self.horner(self.dop("fmul", x, x), _ERF_SMALL, t=self.F))
        u = self.dop("fdiv", self.d(1.0), ax)
        square = self.dop("fmul", ax, ax)
        square_tail = self.call("fma", ax, ax, self.neg(square))
        gauss = self.exp_double_double(self.neg(square), self.neg(square_tail))
        erfc_big = self.dop("fmul", self.dop("fmul", gauss, self.piecewise_poly(ax, u)), u)
        small = self.fcmp("olt", ax, self.d(_SMALL))
        if complement:
            big = self.select(self.fcmp("olt", x, self.d(0.0)), self.dop("fsub", self.d(2.0), erfc_big), erfc_big)
            result = self.select(small, self.dop("fsub", self.d(1.0), small_erf), big)
        else:
            big = self.call("copysign", self.dop("fsub", self.d(1.0), erfc_big), x)
            result = self.select(small, small_erf, big)
        return self.select(self.fcmp("uno", x, x), x, result)
