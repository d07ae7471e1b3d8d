"""loomcl: OpenCL kernels on CPUs, from Python; a drop-in for the common part of pyopencl."""
from loomcl.errors import (BarrierDivergenceError, Error, KernelCheckError, KernelError, KernelFaultError,
                           KernelInterruptedError, LogicError, MemoryError, NullBufferError, OutOfBoundsError,
                           RuntimeError, status_code)
from loomcl.runtime import *  # noqa: F401,F403 - pyopencl's classes, functions and enums (runtime.__all__)
from loomcl.runtime import __all__ as _runtime_names
from loomcl.version import __version__
from loomcl import cltypes  # noqa: E402 - pyopencl's cl.cltypes

__all__ = ["Error", "KernelError", "KernelFaultError", "KernelInterruptedError", "LogicError", "MemoryError", "RuntimeError",
           "KernelCheckError", "OutOfBoundsError", "NullBufferError", "BarrierDivergenceError", "status_code",
           *_runtime_names]
