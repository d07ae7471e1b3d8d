"""`@cl.kernel` and `@cl.func`: Python functions as OpenCL kernels and their helpers.

    @cl.kernel
    def saxpy(y: cl.global_ptr(np.float32), x: cl.global_ptr(np.float32, const=True), a: np.float32):
        i = cl.global_id(0)
        y[i] += a * x[i]

    saxpy(queue, (n,), (64,), y_buf, x_buf, np.float32(2))   # an Event, as a loomcl Kernel's call
    saxpy(queue, (n,), (64,), y, x, 2.0)                      # numpy arrays: used in place, waited for

A parameter's type comes from its annotation (types.py) or, where there is none, from the first
launch's argument (a numpy array: a __global pointer to its dtype; a number: types.value_type);
each list of parameter types is a specialization, compiled once (the native code is also cached on
disk by the back end, keyed by the code, which holds the function's source and the constants it
read) and kept for later launches. A Buffer or LocalMemory argument has no element type: its
parameter needs an annotation.

Globals and closure values are read when a specialization is compiled (numba's rule): change one
afterwards and the kernel keeps the old value; make a new kernel with `cl.kernel(function)` to
read it again.
"""
from __future__ import annotations

import inspect
import threading

import numpy as np

from ..errors import LogicError, status_code
from ..frontend.diagnostics import CompileError  # noqa: F401 - cl.CompileError: a kernel's source has errors
from ..frontend import types as T
from .helpers import PythonFunction, func  # noqa: F401 - cl.func is exported from here too
from .types import element_type, value_type

_ROUTINE = "clEnqueueNDRangeKernel"


class PythonKernel(PythonFunction):
    """A @cl.kernel: launched like a loomcl Kernel; compiled once per list of parameter types."""

    is_kernel = True

    def __init__(self, function, options: str = "", reqd_work_group_size=None) -> None:
        super().__init__(function)
        self.options = options
        self.reqd_work_group_size = tuple(reqd_work_group_size) if reqd_work_group_size else None
        self.parameter_names = list(inspect.signature(function).parameters)
        self._compiled: dict[tuple, object] = {}     # parameter types -> CompiledProgram
        self._kernels: dict[tuple, object] = {}      # (context, parameter types) -> loomcl Kernel
        self._lock = threading.Lock()

    # -- compiling -------------------------------------------------------------------------------

    @property
    def annotated(self) -> bool:
        """Every parameter has an annotation: the kernel compiles without a launch."""
        return all(t is not None for t in self._annotations) and len(self._annotations) == len(self.parameter_names)

    def compiled_program(self, types: tuple | None = None):
        """The CompiledProgram for these parameter types (the annotations' if None); raises
        frontend.CompileError with the build log when the source has errors."""
        types = tuple(self._annotations) if types is None else tuple(types)
        if any(t is None for t in types):
            missing = [n for n, t in zip(self.parameter_names, types) if t is None]
            raise TypeError(f"kernel {self.name}: parameter{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(missing)} need{'s' if len(missing) == 1 else ''} an annotation "
                            f"(or launch it, to take the types from the arguments)")
        with self._lock:
            found = self._compiled.get(types)
            if found is None:
                from .program import build_program

                found = self._compiled[types] = build_program([(self, types)], self.options)
        return found

    def kernel_for(self, context, types: tuple):
        """The loomcl Kernel of one specialization in one context."""
        key = (context, types)
        found = self._kernels.get(key)
        if found is None:
            program = executable_program(context, self.compiled_program(types), self.name, self.options)
            found = self._kernels[key] = getattr(program, self.name)
        return found

    # -- launching -------------------------------------------------------------------------------

    def __call__(self, queue, global_size, local_size, *args, global_offset=None, wait_for=None):
        """Launch over an NDRange: an Event. With numpy arrays among the arguments the call
        returns when the kernel has finished, the arrays holding the results."""
        if len(args) != len(self.parameter_names):
            raise LogicError(_ROUTINE, status_code.INVALID_KERNEL_ARGS,
                             f"kernel {self.name} takes {len(self.parameter_names)} arguments "
                             f"({', '.join(self.parameter_names)}), got {len(args)}")
        if queue is None:
            queue = default_queue()
        types = self.argument_types(args)
        _check_ids_fit(global_size, global_offset)
        kernel = self.kernel_for(queue.context, types)
        arrays = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]
        if arrays:
            args = list(args)
            for i in arrays:
                args[i] = _host_buffer(queue.context, args[i], self.parameter_names[i])
        event = kernel(queue, global_size, local_size, *args, global_offset=global_offset, wait_for=wait_for)
        if arrays:
            event.wait()
        return event

    def argument_types(self, args) -> tuple:
        return tuple(t if t is not None else self.argument_type(i, a)
                     for i, (t, a) in enumerate(zip(self._annotations, args)))

    def argument_type(self, index: int, value) -> T.Type:
        """The parameter type an unannotated parameter takes from a launch argument."""
        name = self.parameter_names[index]
        if isinstance(value, np.ndarray):
            return T.pointer_to(T.qualified(element_type(value.dtype), T.Qualifiers(address_space=T.AddressSpace.GLOBAL)))
        found = value_type(value)
        if found is None:
            raise LogicError(_ROUTINE, status_code.INVALID_ARG_VALUE,
                             f"kernel {self.name}, argument {index} ({name}): a {type(value).__name__} has no "
                             f"element type to specialize on; annotate the parameter, e.g. "
                             f"{name}: cl.global_ptr(np.float32)")
        return found

    def __repr__(self) -> str:
        return f"<loomcl Python kernel {self.name}>"


def executable_program(context, compiled, name: str, options: str = ""):
    """A loomcl Program holding a CompiledProgram of Python kernels (its kernels are launched as any
    Program's). Its binary names the kernels but holds no OpenCL C: it cannot be rebuilt from it."""
    from ..runtime.constants import program_binary_type
    from ..runtime.program import Program
    from ..runtime.program_binary import ProgramBinary, UnitSource

    program = Program(context, f"// Python kernels: {name}")
    unit = UnitSource(f"// Python kernels: {name} (compiled from Python; no OpenCL C source)", options)
    program.set_executable(compiled, ProgramBinary(program_binary_type.EXECUTABLE, (unit,)))
    return program


def _host_buffer(context, array: np.ndarray, name: str):
    """A buffer over the array's own memory (USE_HOST_PTR: no copy)."""
    from ..runtime.buffer import Buffer
    from ..runtime.constants import mem_flags

    if not array.flags.c_contiguous or not array.flags.writeable:
        raise LogicError(_ROUTINE, status_code.INVALID_ARG_VALUE,
                         f"argument {name}: a kernel uses a numpy array in place, so it must be C-contiguous "
                         f"and writeable (pass np.ascontiguousarray(...) or a copy)")
    return Buffer(context, mem_flags.READ_WRITE | mem_flags.USE_HOST_PTR, hostbuf=array)


_INT_MAX = (1 << 31) - 1


def _check_ids_fit(global_size, global_offset) -> None:
    """The work-item functions of Python kernels give int32s: every global id must fit in one."""
    sizes = (global_size,) if isinstance(global_size, int) else tuple(global_size)
    offsets = tuple(global_offset or (0,) * len(sizes))
    if any(int(s) + int(o) - 1 > _INT_MAX for s, o in zip(sizes, offsets)):
        raise LogicError(_ROUTINE, status_code.INVALID_GLOBAL_WORK_SIZE,
                         f"a Python kernel's global ids are int32: global size {sizes} with offset {offsets} "
                         f"goes past {_INT_MAX}")


_DEFAULT = {}


def default_queue():
    """A queue on loomcl's device, made once, for launches given `queue=None`."""
    if "queue" not in _DEFAULT:
        from ..runtime import CommandQueue, create_some_context

        _DEFAULT["queue"] = CommandQueue(create_some_context())
    return _DEFAULT["queue"]


def kernel(function=None, *, options: str = "", reqd_work_group_size=None):
    """Decorator: a Python function as an OpenCL kernel (`@cl.kernel` or `@cl.kernel(options=...)`).
    `options`: build options (`-loomcl-check` for checked mode, `-cl-fast-relaxed-math`, ...)."""
    if function is None:
        return lambda f: PythonKernel(f, options, reqd_work_group_size)
    return PythonKernel(function, options, reqd_work_group_size)
