"""An enqueued NDRange launch: the argument block captured at the enqueue call, and its run.

OpenCL fixes a launch's arguments when it is enqueued (a later clSetKernelArg must not change it),
but a kernel has one set of argument slots (arguments.py). So the enqueue call copies the slots into
an image (bytes; one per batch of the launch plan when local arguments give each batch its own
offsets) and keeps alive what they point to (`KernelArguments.held`). The native code reads the
kernel's launch block, a second argument block at a fixed address that every plan of the kernel
points to: each run copies its image there under the worker pool's lock, which runs one launch at a
time, so launches of one kernel from several queues take turns for the block. A launch with printf
or checked mode also holds the kernel's launch lock, for the printf buffer and the checked-mode
record.

A fault, Ctrl-C or checked-mode violation raises the same exception as before; the command keeps it
on its event (scheduler.py). printf output is written when the launch ends, also when it failed.
"""
from __future__ import annotations

import ctypes
import threading

from loomcl import errors
from loomcl.errors import status_code

from . import pool as pool_module
from .check_report import violation_error
from .launch_errors import ROUTINE, raise_launch_failure
from .launch_plan import LaunchPlan
from .pool import get_pool
from .printf_output import PrintfOutput

MAX_PRIVATE_BYTES = 1 << 30  # per work-group and worker thread


class Launcher:
    """What the launches of one kernel share: the launch block, its lock, the printf output."""

    def __init__(self, name: str, args, printf_formats: dict | None, local_limit: int) -> None:
        self.name = name
        self.params = args.params
        self.slots = type(args.slots)()  # the launch block (what check_report reads as `slots`)
        self.address = ctypes.addressof(self.slots)
        self._block = memoryview(self.slots).cast("B")  # (a memoryview copies 5x faster than memmove)
        self._arguments = memoryview(args.slots).cast("B")
        self.check_record = args.check_record
        self.lock = threading.Lock()
        self._printf_formats = printf_formats
        self._printf: PrintfOutput | None = None
        self._local_limit = local_limit
        self._plain = printf_formats is None and self.check_record is None  # no printf, not checked

    def work_args(self, plan: LaunchPlan, args) -> tuple:
        """The arguments of `run` for a launch of `plan` with the kernel's arguments as set now (an
        image of the slots: ~30 ns for a few slots, so no copy-on-write). MemoryError
        OUT_OF_RESOURCES when a batch needs more memory than a work-group may have."""
        if args.local_indices:
            runs = tuple((b.request_pointer, b.total_groups, self._checked_arena(b, args.place_locals(b.static_local_bytes)),
                          self._arguments.tobytes()) for b in plan.batches)
            return plan, runs, None, tuple(args.held)
        runs = plan.runs
        if runs is None:
            runs = plan.runs = tuple((b.request_pointer, b.total_groups, self._checked_arena(b, b.static_local_bytes),
                                      None) for b in plan.batches)
        return plan, runs, self._arguments.tobytes(), tuple(args.held)

    def _checked_arena(self, batch, arena: int) -> int:
        private = batch.private_bytes
        if arena - private > self._local_limit or private > MAX_PRIVATE_BYTES:
            if private > MAX_PRIVATE_BYTES:
                need = f"{private} bytes of private memory per work-group (the work-items' private arrays)"
                have = f"the limit is {MAX_PRIVATE_BYTES}; use a smaller local size"
            else:
                need, have = f"{arena - private} bytes of local memory per work-group", f"the device has {self._local_limit}"
            raise errors.MemoryError(ROUTINE, status_code.OUT_OF_RESOURCES, f"kernel '{self.name}' needs {need}; {have}")
        return arena

    def run(self, plan: LaunchPlan, runs: tuple, image: bytes | None, held: tuple) -> None:
        """Run each (request, groups, arena, image of its own or None for `image`) of `plan`;
        raise what stopped it. `held` only lives as long as the launch."""
        if self._plain and len(runs) == 1:
            # (the common case: the pool's lock alone keeps the copy and the run together)
            request, groups, arena, own_image = runs[0]
            pool = pool_module._pool or get_pool()
            if own_image is not None:
                image = own_image
            if plan.selection is None:
                failure = pool.run(request, groups, arena, self._block, image)
            else:  # its variant is being chosen (microprofile.py)
                failure = plan.selection.run(plan, pool, arena, self._block, image)
            if failure is not None:
                raise_launch_failure(failure, self.name)
            return
        with self.lock:
            printf = self._printf_output(plan) if self._printf_formats is not None else None
            try:
                self._run(plan, runs, image)
            finally:  # also when the launch fails: what was printed before is what a user debugs with
                if printf is not None:
                    printf.flush()

    def _run(self, plan: LaunchPlan, runs: tuple, image: bytes | None) -> None:
        pool = get_pool()
        record = self.check_record
        for request, groups, arena, own_image in runs:
            if record is not None:  # checked mode: the violation this launch records, if any
                record.status = 0
            failure = pool.run(request, groups, arena, self._block, image if own_image is None else own_image)
            if failure is not None:
                raise_launch_failure(failure, self.name)
            if record is not None and record.status:
                raise violation_error(self.name, record, plan, self)

    def _printf_output(self, plan: LaunchPlan) -> PrintfOutput:
        """The kernel's printf buffer, emptied and given to this launch's plan."""
        if self._printf is None:
            self._printf = PrintfOutput(self.name, self._printf_formats)
        self._printf.reset()
        plan.use_printf_buffer(self._printf.address)
        return self._printf
