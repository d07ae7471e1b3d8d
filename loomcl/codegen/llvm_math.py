"""Math builtins (`MathCall`) as LLVM intrinsics.

Every function maps to the LLVM intrinsic of the same meaning, so LLVM can fold, inline and vectorize
it (fmin/fmax are `minnum`/`maxnum`: OpenCL returns the other operand when one is NaN, as they do).
Integer `abs` passes `false` for "poison on INT_MIN", since OpenCL defines abs(INT_MIN); `clz`
and `ctz` pass `false` for "poison on zero", since OpenCL defines them (the width). `rotate(x, n)`
is the funnel shift `fshl(x, x, n)`, which takes n modulo the width as OpenCL's rotate does.

Transcendental functions have no x86 instruction: LLVM's vectorizer widens the intrinsic and the backend
then splits it into one scalar libm call per lane (no vector math library is reachable through llvmlite:
`-vector-library` is not registered). So we write our own branch-free implementations, which inline and
vectorize. Float: exp, exp2, log, log2, log10 (devlib/math/libm.py), sin, cos, tan (devlib/math/trig.py,
full-range Payne-Hanek reduction in integer arithmetic), pow (devlib/math/pow.py, log2 in double inside),
erf (devlib/math/erf.py), atan2 (devlib/math/atan2.py), exp10, expm1, log1p, cbrt, hypot and the
hyperbolic functions (devlib/math/wide.py), atan, asin, acos (devlib/math/inverse_trig.py), erfc
(devlib/math/erf_double.py), tgamma and lgamma (devlib/math/gamma.py): the last four in double
inside. Double: sin, cos, tan (devlib/math/trig_double.py), exp, exp2, exp10, log, log2, log10
(devlib/math/exp_log_double.py), pow (devlib/math/pow_double.py), atan, atan2, asin, acos
(devlib/math/atan_double.py), erf, erfc, expm1, log1p, the hyperbolic functions and their inverses
(devlib/math/hyperbolic_double.py), cbrt and hypot (devlib/math/root_double.py), tgamma and lgamma
(devlib/math/gamma_double.py).
Float and double fmod (`frem`) are open-coded too (devlib/math/fmod.py, devlib/math/fmod_double.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..devlib.math import (atan2, atan_double, erf, erf_double, exp_log_double, gamma, gamma_double,
                           hyperbolic_double, inverse_trig, libm, pow, pow_double, root_double, trig, trig_double,
                           wide)
from ..ir import instructions as ins
from ..ir import types as ty
from ..llvmtext.errors import CodegenError
from ..llvmtext.types import intrinsic_suffix, llvm_type

if TYPE_CHECKING:
    from .llvm_emitter import FunctionEmitter

_INTRINSICS = {
    ins.MathFunction.SQRT: "sqrt", ins.MathFunction.FABS: "fabs", ins.MathFunction.FMIN: "minnum",
    ins.MathFunction.FMAX: "maxnum", ins.MathFunction.FLOOR: "floor", ins.MathFunction.CEIL: "ceil",
    ins.MathFunction.TRUNC: "trunc", ins.MathFunction.ROUND: "round", ins.MathFunction.RINT: "rint",
    ins.MathFunction.EXP: "exp", ins.MathFunction.EXP2: "exp2", ins.MathFunction.LOG: "log",
    ins.MathFunction.LOG2: "log2", ins.MathFunction.LOG10: "log10", ins.MathFunction.POW: "pow",
    ins.MathFunction.SIN: "sin", ins.MathFunction.COS: "cos", ins.MathFunction.TAN: "tan",
    ins.MathFunction.FMA: "fma", ins.MathFunction.COPYSIGN: "copysign", ins.MathFunction.SMIN: "smin",
    ins.MathFunction.SMAX: "smax", ins.MathFunction.UMIN: "umin", ins.MathFunction.UMAX: "umax",
    ins.MathFunction.ABS: "abs",
    ins.MathFunction.CLZ: "ctlz", ins.MathFunction.CTZ: "cttz", ins.MathFunction.POPCOUNT: "ctpop",
    ins.MathFunction.ROTATE: "fshl", ins.MathFunction.SADD_SAT: "sadd.sat",
    ins.MathFunction.UADD_SAT: "uadd.sat", ins.MathFunction.SSUB_SAT: "ssub.sat",
    ins.MathFunction.USUB_SAT: "usub.sat",
}
# intrinsics whose last operand is an i1 "result is poison" flag, passed as false
_DEFINED_EVERYWHERE = {ins.MathFunction.ABS, ins.MathFunction.CLZ, ins.MathFunction.CTZ}

# first match wins; what none of them has is an LLVM intrinsic (no libm call ever: none vectorizes)
_OWN_LIBRARIES = (libm, trig, pow, wide, inverse_trig, atan2, erf,
                  trig_double, exp_log_double, pow_double, atan_double,
                  erf_double, hyperbolic_double, root_double, gamma,
                  gamma_double)


def math_function(inst: ins.MathCall) -> ins.MathFunction:
    return inst.math_function


def emit_math(emitter: FunctionEmitter, inst: ins.MathCall) -> None:
    function = math_function(inst)
    t = llvm_type(inst.type)
    for library in _OWN_LIBRARIES:
        if library.supports(function, inst.type):
            callee = library.libm_function(emitter.module, function, inst.type)
            args = ", ".join(emitter.typed(a) for a in inst.args)
            # The call carries the work-item loop's access group, which inlining hands on to the
            # table loads inside (sin/cos/tan): without it the loop no longer counts as parallel.
            emitter.emit_line(f"{emitter.ref(inst)} = call {t} {callee}({args}){emitter.access_group(inst)}")
            return
    if function not in _INTRINSICS:
        raise CodegenError(f"no code for {function.value} on {inst.type}")
    name = f"llvm.{_INTRINSICS[function]}.{intrinsic_suffix(inst.type)}"
    operands = list(inst.args)
    if function == ins.MathFunction.ROTATE:
        operands.insert(0, inst.args[0])
    params = [llvm_type(a.type) for a in operands]
    args = [emitter.typed(a) for a in operands]
    if function in _DEFINED_EVERYWHERE:
        params.append("i1")
        args.append("i1 false")
    emitter.module.declare(name, f"declare {t} @{name}({', '.join(params)})")
    flags = emitter.float_flags() if ty.is_float(inst.type) else ""
    if function == ins.MathFunction.SQRT:
        # no `afn` on sqrt (nor on a division by it, llvm_emitter): with it LLVM turns rsqrt's
        # 1/sqrt(x) into the hardware estimate plus one Newton step, 2.56 ulp on AVX-512 (vrsqrt14)
        # where the spec allows 2 even under fast math
        flags = flags.replace(" afn", "")
    emitter.emit_line(f"{emitter.ref(inst)} = call{flags} {t} @{name}({', '.join(args)})")
