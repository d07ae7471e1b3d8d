"""loomcl: OpenCL kernels on CPUs, from Python; a drop-in for the common part of pyopencl."""
from loomcl.errors import (BarrierDivergenceError, Error, KernelCheckError, KernelFaultError, KernelInterruptedError,
                           LogicError, MemoryError, NullBufferError, OutOfBoundsError, RuntimeError, status_code)
from loomcl.runtime import *  # noqa: F401,F403 - pyopencl's classes, functions and enums (runtime.__all__)
from loomcl.runtime import __all__ as _runtime_names
from loomcl.version import __version__
from loomcl import cltypes  # noqa: E402 - pyopencl's cl.cltypes
from loomcl import pyfront as _pyfront  # Python kernels: cl.kernel, cl.func, cl.global_id, ...
from loomcl.pyfront.lang import *  # noqa: E402,F401,F403 - the device language of Python kernels

__all__ = ["Error", "KernelFaultError", "KernelInterruptedError", "LogicError", "MemoryError", "RuntimeError",
           "KernelCheckError", "OutOfBoundsError", "NullBufferError", "BarrierDivergenceError", "status_code",
           *_runtime_names, *_pyfront.__all__]


def __getattr__(name: str):
    """cl.kernel, cl.func, cl.global_ptr, ...: loaded with the compiler's front half on first use."""
    if name in _pyfront.LAZY:
        return getattr(_pyfront, name)
    raise AttributeError(f"module 'loomcl' has no attribute {name!r}")
