"""A plain pyopencl program (nothing here names loomcl): run it on loomcl through the ICD loader with
OCL_ICD_VENDORS set as the README says, and PYOPENCL_CTX=loomcl to choose the platform."""
import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clmath
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel

ctx = cl.create_some_context()
queue = cl.CommandQueue(ctx)
print(f"platform: {ctx.devices[0].platform.name}, device: {ctx.devices[0].name}")

a = np.random.default_rng(0).random(100_000, dtype=np.float32)
x = cla.to_device(queue, a)

affine = ElementwiseKernel(ctx, "float *out, const float *x", "out[i] = 2*x[i] + 1", "affine")
y = cla.empty_like(x)
affine(y, x)
norm = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*x[i]",
                       arguments="const float *x")

checks = {
    "2*x + 1": np.allclose(y.get(), 2 * a + 1),
    "sin(x) + x": np.allclose((clmath.sin(x) + x).get(), np.sin(a) + a, rtol=1e-6),
    "sum(x)": np.isclose(cla.sum(x).get(), a.sum(dtype=np.float64), rtol=1e-5),
    "x . x": np.isclose(norm(x).get(), a.astype(np.float64) @ a, rtol=1e-5),
}
for name, ok in checks.items():
    print(f"{name:12} {'matches numpy' if ok else 'DIFFERS from numpy'}")
raise SystemExit(0 if all(checks.values()) else 1)
