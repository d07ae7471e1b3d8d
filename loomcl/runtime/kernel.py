"""Kernels: argument setting and the NDRange launch.

`kernel(queue, global_size, local_size, *args)` converts the arguments into the kernel's slots
(arguments.py), finds or builds the launch plan for these sizes (launch_plan.py), checks that the
launch can run (sizes, arguments, memory) and enqueues it: the arguments as they are now go with the
command (launch.py), which hands each batch of regions to the worker pool when the queue runs it.
The work-group function of every local size is compiled on first use (compiler's
`work_group_function`) and cached on the kernel.
"""
from __future__ import annotations

import threading

from loomcl import errors
from loomcl.abi.kernel import ParamKind
from loomcl.errors import LogicError, status_code

from . import compiler_api, engine_api
from .arguments import KernelArguments
from .command_queue import CommandQueue
from .constants import (
    command_type,
    info_attribute,
    kernel_arg_access_qualifier,
    kernel_arg_address_qualifier,
    kernel_arg_info,
    kernel_arg_type_qualifier,
    kernel_info,
    kernel_work_group_info,
)
from .engine_api import LaunchPlan, Launcher, get_pool
from .event import Event, check_wait_list

ROUTINE = engine_api.ROUTINE
MAX_CACHED_PLANS = 64
INT_MAX = 2**31 - 1
_NDRANGE = command_type.NDRANGE_KERNEL
_TYPE_QUALIFIER = {"const": kernel_arg_type_qualifier.CONST, "restrict": kernel_arg_type_qualifier.RESTRICT,
                   "volatile": kernel_arg_type_qualifier.VOLATILE}
_QUALIFIER = {
    ParamKind.GLOBAL_POINTER: kernel_arg_address_qualifier.GLOBAL,
    ParamKind.CONSTANT_POINTER: kernel_arg_address_qualifier.CONSTANT,
    ParamKind.LOCAL_POINTER: kernel_arg_address_qualifier.LOCAL,
    ParamKind.SCALAR: kernel_arg_address_qualifier.PRIVATE,
    ParamKind.BY_VALUE: kernel_arg_address_qualifier.PRIVATE,
    ParamKind.IMAGE: kernel_arg_address_qualifier.GLOBAL,  # as clang reports images
    ParamKind.SAMPLER: kernel_arg_address_qualifier.PRIVATE,
}


class Kernel:
    """pyopencl's Kernel(program, name)."""

    reference_count = 1

    def __init__(self, program, name: str) -> None:
        compiled = program.compiled("clCreateKernel")
        signature = compiled.kernels.get(name)
        if signature is None:
            raise LogicError(
                "clCreateKernel",
                status_code.INVALID_KERNEL_NAME,
                f"no kernel named '{name}' in the program; it has {sorted(compiled.kernels)}",
            )
        self.program = program
        self.context = program.context
        self.function_name = name
        self.signature = signature
        self._compiled = compiled
        self._args = KernelArguments(name, signature.params, compiled.options.checked,
                                     engine_api.streaming_candidates(compiled, name))
        self._functions: dict = {}
        self._plans: dict = {}
        self._selections: dict = {}  # micro-profiling's variant choices, by choice key (microprofile.py)
        # the argument slots are the kernel's, so setting them and the enqueue that copies them are
        # one step for concurrent callers
        self._lock = threading.Lock()
        printf_formats = compiled.module.printf_formats if signature.uses_printf else None
        self._launcher = Launcher(name, self._args, printf_formats, program.context.devices[0].local_mem_size)

    @property
    def num_args(self) -> int:
        return len(self.signature.params)

    def set_arg(self, index: int, value) -> None:
        lock = self._lock  # (acquire and release: pyopencl sets every argument before every launch)
        lock.acquire()
        try:
            self._args.set(index, value)
        finally:
            lock.release()

    def set_args(self, *args) -> None:
        with self._lock:
            self._args.set_all(args)

    def copy_arguments_from(self, other: Kernel) -> None:
        with self._lock:
            self._args.copy_from(other._args)

    def set_scalar_arg_dtypes(self, dtypes) -> None:
        """Accepted for pyopencl compatibility; loomcl knows every argument's type from the source."""

    set_arg_types = set_scalar_arg_dtypes

    def __call__(self, queue, global_size, local_size, *args, global_offset=None, wait_for=None,
                 g_times_l=False, allow_empty_ndrange=False) -> Event:
        lock = self._lock  # (acquire and release: a `with` costs 0.14 µs more on this path)
        lock.acquire()
        try:
            if args:
                self._args.set_all(args)
            return self._enqueue(queue, global_size, local_size, global_offset, wait_for, g_times_l,
                                 allow_empty_ndrange)
        finally:
            lock.release()

    def enqueue(self, queue, global_size, local_size, global_offset=None, wait_for=None,
                g_times_l=False, allow_empty_ndrange=False) -> Event:
        """Enqueue the kernel over an NDRange with the arguments already set; returns its Event."""
        lock = self._lock
        lock.acquire()
        try:
            return self._enqueue(queue, global_size, local_size, global_offset, wait_for, g_times_l,
                                 allow_empty_ndrange)
        finally:
            lock.release()

    def _enqueue(self, queue, global_size, local_size, global_offset, wait_for, g_times_l, allow_empty_ndrange):
        if not isinstance(queue, CommandQueue):
            raise LogicError(ROUTINE, status_code.INVALID_COMMAND_QUEUE, f"{queue!r} is not a CommandQueue")
        if queue.context is not self.context:
            raise LogicError(ROUTINE, status_code.INVALID_CONTEXT, "the queue and the kernel belong to different contexts")
        try:  # (the cache hit of _lookup, inlined)
            plan = self._plans.get((global_size, local_size, global_offset, g_times_l, self._args.image_formats,
                                    self._args.streaming))
        except TypeError:
            plan = None
        if plan is None:
            plan = self._lookup(queue, global_size, local_size, global_offset, g_times_l, allow_empty_ndrange)
        if plan is None:  # an allowed empty NDRange: a command that does nothing, in its place
            return queue.enqueue(_NDRANGE, ROUTINE, None, wait_for)
        args = self._args
        if args.missing:
            args.check_complete(ROUTINE)
        launcher = self._launcher
        # (queue.enqueue inlined: this is the launch path)
        wait_for = check_wait_list(wait_for, ROUTINE) if wait_for else None
        event = Event(queue, _NDRANGE, queue.profiling, ROUTINE, launcher.run, wait_for, launcher.work_args(plan, args))
        queue.scheduler.enqueue(event, plan.hand_off)
        return event

    def _lookup(self, queue, global_size, local_size, global_offset, g_times_l, allow_empty) -> LaunchPlan | None:
        """The cached plan for these sizes; built (and the sizes checked) on a miss."""
        formats, streamed = self._args.image_formats, self._args.streaming
        key = (global_size, local_size, global_offset, g_times_l, formats, streamed)
        try:
            plan = self._plans.get(key)
        except TypeError:  # lists: normalize to tuples
            key = (_tuple(global_size), _tuple(local_size), _tuple(global_offset), g_times_l, formats, streamed)
            plan = self._plans.get(key)
        if plan is None:
            if allow_empty and _is_empty(global_size):
                return None
            plan = self._plan(queue, key)
        return plan

    def _plan(self, queue, key) -> LaunchPlan:
        global_size, local_size, global_offset, g_times_l, formats, streamed = key
        device = queue.device
        required = self.signature.reqd_work_group_size
        global_size = engine_api.check_global(global_size)
        dims = len(global_size)
        if local_size is None:
            local = engine_api.choose_local_size(global_size, get_pool().thread_count, required)
        else:
            local = engine_api.check_local(local_size, dims, device, required)
            if self._compiled.options.uniform_work_group_size and not g_times_l \
                    and any(g % l for g, l in zip(global_size, local)):
                raise LogicError(ROUTINE, status_code.INVALID_WORK_GROUP_SIZE,
                                 f"global size {global_size} is not a multiple of local size {local}, and "
                                 f"the program was built with -cl-uniform-work-group-size")
        if g_times_l:
            global_size = tuple(g * l for g, l in zip(global_size, local))
        offset = engine_api.check_offset(global_offset, dims)
        ids_fit_int = all(o + g <= INT_MAX for o, g in zip(offset, global_size))
        streamed = streamed if engine_api.launch_streams(offset, local) else ()
        plan = LaunchPlan(global_size, local, offset,
                          lambda size: self._function(size, ids_fit_int, formats, streamed), self._launcher.address)
        pool = get_pool()
        engine_api.attach_profiling(plan, self._args, self.signature, self._compiled.options,
                            lambda size, switches: self._variant(size, ids_fit_int, formats, streamed, switches),
                            self._selections, pool.thread_count)
        pool.warm_up(max(batch.total_groups for batch in plan.batches))
        if len(self._plans) >= MAX_CACHED_PLANS:
            self._plans.clear()
        self._plans[key] = plan
        return plan

    def _function(self, local_size, ids_fit_int: bool, image_formats: tuple = (), streamed: tuple = ()):
        """The work-group function for one region's local size. `ids_fit_int`: every global id of
        the launch fits in a C int, so the compiler may treat `(int)get_global_id(d)` as exact;
        `image_formats`: the image arguments' formats, which the code is specialized for;
        `streamed`: the parameters whose stores stream (streaming.py)."""
        key = (local_size, ids_fit_int, image_formats, streamed)
        function = self._functions.get(key)
        if function is None:
            try:
                function = self._compiled.work_group_function(self.function_name, local_size, ids_fit_int,
                                                              image_formats, streamed)
            except compiler_api.errors().build as exc:
                message = f"kernel '{self.function_name}' could not be compiled for local size {local_size}:\n{exc.log}"
                self.program.add_to_build_log(message)
                raise errors.RuntimeError(ROUTINE, status_code.BUILD_PROGRAM_FAILURE, message) from None
            finally:
                self._log_notes()
            self._functions[key] = function
        return function

    def _variant(self, local_size, ids_fit_int: bool, image_formats: tuple, streamed: tuple, switches: tuple):
        """The work-group function of a variant of the kernel (engine/variants.py)."""
        try:
            return self._compiled.work_group_function(self.function_name, local_size, ids_fit_int, image_formats,
                                                      streamed, variant=switches)
        finally:
            self._log_notes()

    def _log_notes(self) -> None:
        """The compiler's warnings from this kernel's back half (an optional pass left out after an
        internal error) go to the build log, as a warning of build() would."""
        for note in self._compiled.take_notes():
            self.program.add_warning_to_build_log(note)

    @property
    def attributes(self) -> str:
        """CL_KERNEL_ATTRIBUTES: vec_type_hint, work_group_size_hint, reqd_work_group_size as written."""
        return self.signature.attributes

    def get_info(self, param: int):
        return getattr(self, info_attribute(kernel_info, param, "clGetKernelInfo"))

    def get_arg_info(self, index: int, param: int):
        """clGetKernelArgInfo: answered, as by real drivers, only for a program built with
        -cl-kernel-arg-info; otherwise RuntimeError KERNEL_ARG_INFO_NOT_AVAILABLE."""
        if not 0 <= index < self.num_args:
            raise LogicError("clGetKernelArgInfo", status_code.INVALID_ARG_INDEX, f"no argument {index}")
        name = info_attribute(kernel_arg_info, param, "clGetKernelArgInfo")
        if not self._compiled.arg_info:
            raise errors.RuntimeError("clGetKernelArgInfo", status_code.KERNEL_ARG_INFO_NOT_AVAILABLE,
                                      "build the program with -cl-kernel-arg-info to query its arguments")
        item = self.signature.params[index]
        values = {
            "address_qualifier": _QUALIFIER[item.kind],
            "access_qualifier": access_qualifier(item),
            "type_name": item.info_type_name,
            "type_qualifier": sum(bit for qualifier, bit in _TYPE_QUALIFIER.items()
                                  if qualifier in item.type_qualifiers),
            "name": item.name,
        }
        return values[name]

    def get_work_group_info(self, param: int, device):
        name = info_attribute(kernel_work_group_info, param, "clGetKernelWorkGroupInfo")
        required = self.signature.reqd_work_group_size
        values = {
            "work_group_size": device.max_work_group_size,
            "compile_work_group_size": list(required) if required else [0, 0, 0],
            "local_mem_size": self._compiled.local_variable_bytes(self.function_name)
                              + sum(self._args.local_sizes.values()),
            "preferred_work_group_size_multiple": device.preferred_vector_width_float,
            "private_mem_size": 0,
        }
        return values[name]

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<loomcl.Kernel '{self.function_name}' ({self.num_args} args)>"


def enqueue_nd_range_kernel(queue, kernel: Kernel, global_work_size, local_work_size,
                            global_work_offset=None, wait_for=None, g_times_l=False,
                            allow_empty_ndrange=False) -> Event:
    """pyopencl's enqueue_nd_range_kernel: launch with the kernel's current arguments."""
    return kernel.enqueue(queue, global_work_size, local_work_size, global_work_offset, wait_for,
                          g_times_l, allow_empty_ndrange)


def _tuple(value):
    if value is None or isinstance(value, int):
        return value
    try:
        return tuple(value)
    except TypeError:
        return value


def _is_empty(global_size) -> bool:
    try:
        return any(int(g) == 0 for g in global_size)
    except TypeError:
        return global_size == 0


def access_qualifier(param) -> int:
    """An image's access qualifier (its type name spells it: "__write_only image2d_t"), else NONE."""
    if param.kind is not ParamKind.IMAGE:
        return kernel_arg_access_qualifier.NONE
    if "write_only" in param.type_name:
        return kernel_arg_access_qualifier.WRITE_ONLY
    return kernel_arg_access_qualifier.READ_ONLY
