"""Exceptions of the OpenCL API, shaped like pyopencl's so that users' `except` clauses carry over.

Every error carries an OpenCL status (`.code`, an int such as -54), the API routine that failed
(`.routine`, e.g. "clEnqueueNDRangeKernel") and a message naming the offending argument or size.
`str(err)` reads like pyopencl's: "clEnqueueNDRangeKernel failed: INVALID_WORK_GROUP_SIZE - local size
(512,) exceeds ...", except a failed kernel's (KernelError), which starts with what the kernel did.

The class follows pyopencl's rule: allocation failures are `MemoryError`, invalid-argument statuses
(INVALID_*, at or below INVALID_VALUE) are `LogicError`, everything else is `RuntimeError`.
`error_for` applies the rule, so call sites name only the status.
"""
from __future__ import annotations


class IntConstants:
    """Base of the enum-like classes: members are plain ints (as in pyopencl), plus `to_string`."""

    @classmethod
    def to_string(cls, value: int, default_format: str | None = None) -> str:
        names = cls.__dict__.get("_names_by_value")  # (every info query asks: a table, not a scan)
        if names is None:
            names = {}
            for name, member in vars(cls).items():  # members may be mixed case (channel_order.RGBx)
                if not name.startswith("_") and type(member) is int:
                    names.setdefault(member, name)  # the first name of a value, as the scan found
            cls._names_by_value = names
        try:
            name = names.get(value)
        except TypeError:  # unhashable: no member's value
            name = None
        if name is not None:
            return name
        if default_format is not None:
            return default_format % value
        raise ValueError(f"a name for value {value} was not found in {cls.__name__}")


class status_code(IntConstants):  # noqa: N801 - pyopencl's spelling
    """OpenCL status codes (cl.h values)."""

    SUCCESS = 0
    DEVICE_NOT_FOUND = -1
    DEVICE_NOT_AVAILABLE = -2
    COMPILER_NOT_AVAILABLE = -3
    MEM_OBJECT_ALLOCATION_FAILURE = -4
    OUT_OF_RESOURCES = -5
    OUT_OF_HOST_MEMORY = -6
    PROFILING_INFO_NOT_AVAILABLE = -7
    MEM_COPY_OVERLAP = -8
    IMAGE_FORMAT_MISMATCH = -9
    IMAGE_FORMAT_NOT_SUPPORTED = -10
    BUILD_PROGRAM_FAILURE = -11
    MAP_FAILURE = -12
    MISALIGNED_SUB_BUFFER_OFFSET = -13
    EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST = -14
    COMPILE_PROGRAM_FAILURE = -15
    LINKER_NOT_AVAILABLE = -16
    LINK_PROGRAM_FAILURE = -17
    DEVICE_PARTITION_FAILED = -18
    KERNEL_ARG_INFO_NOT_AVAILABLE = -19
    INVALID_VALUE = -30
    INVALID_DEVICE_TYPE = -31
    INVALID_PLATFORM = -32
    INVALID_DEVICE = -33
    INVALID_CONTEXT = -34
    INVALID_QUEUE_PROPERTIES = -35
    INVALID_COMMAND_QUEUE = -36
    INVALID_HOST_PTR = -37
    INVALID_MEM_OBJECT = -38
    INVALID_IMAGE_FORMAT_DESCRIPTOR = -39
    INVALID_IMAGE_SIZE = -40
    INVALID_SAMPLER = -41
    INVALID_BINARY = -42
    INVALID_BUILD_OPTIONS = -43
    INVALID_PROGRAM = -44
    INVALID_PROGRAM_EXECUTABLE = -45
    INVALID_KERNEL_NAME = -46
    INVALID_KERNEL_DEFINITION = -47
    INVALID_KERNEL = -48
    INVALID_ARG_INDEX = -49
    INVALID_ARG_VALUE = -50
    INVALID_ARG_SIZE = -51
    INVALID_KERNEL_ARGS = -52
    INVALID_WORK_DIMENSION = -53
    INVALID_WORK_GROUP_SIZE = -54
    INVALID_WORK_ITEM_SIZE = -55
    INVALID_GLOBAL_OFFSET = -56
    INVALID_EVENT_WAIT_LIST = -57
    INVALID_EVENT = -58
    INVALID_OPERATION = -59
    INVALID_GL_OBJECT = -60
    INVALID_BUFFER_SIZE = -61
    INVALID_MIP_LEVEL = -62
    INVALID_GLOBAL_WORK_SIZE = -63
    INVALID_PROPERTY = -64
    INVALID_IMAGE_DESCRIPTOR = -65
    INVALID_COMPILER_OPTIONS = -66
    INVALID_LINKER_OPTIONS = -67
    INVALID_DEVICE_PARTITION_COUNT = -68
    INVALID_PIPE_SIZE = -69
    INVALID_DEVICE_QUEUE = -70
    INVALID_SPEC_ID = -71
    MAX_SIZE_RESTRICTION_EXCEEDED = -72
    PLATFORM_NOT_FOUND_KHR = -1001


class ErrorRecord:
    """What pyopencl keeps in `Error.what`: routine, status and message, read through methods."""

    __slots__ = ("_message", "_code", "_routine")

    def __init__(self, msg: str, code: int, routine: str) -> None:
        self._message, self._code, self._routine = msg, code, routine

    def routine(self) -> str:
        return self._routine

    def code(self) -> int:
        return self._code

    def what(self) -> str:
        return self._message

    def is_out_of_memory(self) -> bool:
        return self._code in _OUT_OF_MEMORY

    def __str__(self) -> str:
        return self._message


class Error(Exception):
    """Base of all loomcl API errors."""

    def __init__(self, routine: str, code: int, message: str = "") -> None:
        self.what = ErrorRecord(message, code, routine)
        super().__init__(self._format())

    @property
    def code(self) -> int:
        return self.what.code()

    @property
    def routine(self) -> str:
        return self.what.routine()

    def _format(self) -> str:
        name = status_code.to_string(self.code, "<unknown error %d>")
        text = f"{self.routine} failed: {name}" if self.routine else name
        message = self.what.what()
        return f"{text} - {message}" if message else text

    def __reduce__(self):
        return (type(self), (self.routine, self.code, self.what.what()))


class MemoryError(Error):  # noqa: A001 - pyopencl's name
    pass


class LogicError(Error):
    pass


class RuntimeError(Error):  # noqa: A001 - pyopencl's name
    pass


class KernelError(RuntimeError):
    """A kernel failed while it ran (a check, a fault, Ctrl-C). The message starts with what happened
    (the kernel, the source line and caret, the ids); the API status comes last, in parentheses,
    since it says only that some kernel failed. A wait re-raises it without the runtime's frames
    (`trimmed`), so that a traceback ends at the user's call."""

    def _format(self) -> str:
        name = status_code.to_string(self.code, "<unknown error %d>")
        status = f"({self.routine}: {name})" if self.routine else f"({name})"
        message = self.what.what()
        if not message:
            return status
        return f"{message}\n{status}" if "\n" in message else f"{message} {status}"


def trimmed(error: BaseException) -> BaseException:
    """`error` to raise again from a wait: a KernelError loses the frames of the launch that failed
    (the runtime's, of no use to the user); any other error keeps its traceback."""
    return error.with_traceback(None) if isinstance(error, KernelError) else error


class KernelCheckError(KernelError):
    """Checked mode (`-loomcl-check`, LOOMCL_CHECK=1) found a kernel doing something OpenCL leaves
    undefined; the message names the kernel, the source line, the object and the work-item. Its
    status is OUT_OF_RESOURCES, what OpenCL drivers report for a faulting kernel."""


class OutOfBoundsError(KernelCheckError):
    """An access outside the buffer, sub-buffer, local or private object its pointer points into."""


class NullBufferError(OutOfBoundsError):
    """An access through a buffer argument that was None."""


class BarrierDivergenceError(KernelCheckError):
    """Work-items of one work-group reached different barriers, or some a barrier and some none."""


_OUT_OF_MEMORY = (
    status_code.MEM_OBJECT_ALLOCATION_FAILURE,
    status_code.OUT_OF_RESOURCES,
    status_code.OUT_OF_HOST_MEMORY,
)


def error_for(routine: str, code: int, message: str = "") -> Error:
    """The exception pyopencl would raise for `code`, built but not raised."""
    if code in _OUT_OF_MEMORY:
        return MemoryError(routine, code, message)
    if code <= status_code.INVALID_VALUE:
        return LogicError(routine, code, message)
    return RuntimeError(routine, code, message)



class KernelFaultError(KernelError):
    """A kernel raised SIGSEGV, SIGBUS or SIGFPE; the launch was abandoned, and the process, the
    context and the queue stay usable (status OUT_OF_RESOURCES, as GPU drivers report a crashed kernel)."""


class KernelInterruptedError(KernelError):
    """Ctrl-C (SIGINT) stopped a launch and Python's handler did not raise (another thread launched, or
    the program's own SIGINT handler returned)."""
