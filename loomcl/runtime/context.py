"""Contexts. A context groups devices; loomcl has one device, so a context is mostly a token that
buffers, programs and queues carry so that mixing objects of different contexts is caught."""
from __future__ import annotations

from loomcl.errors import LogicError, status_code

from .constants import context_info, device_type, info_attribute
from .device import Device
from .platform import get_platforms


class Context:
    """pyopencl's Context(devices=None, properties=None, dev_type=None)."""

    def __init__(self, devices=None, properties=None, dev_type=None) -> None:
        platform = get_platforms()[0]
        if devices is None:
            devices = platform.get_devices(device_type.ALL if dev_type is None else dev_type)
        devices = list(devices)
        if not devices:
            raise LogicError("clCreateContext", status_code.INVALID_VALUE, "no devices given")
        for device in devices:
            if not isinstance(device, Device):
                raise LogicError(
                    "clCreateContext", status_code.INVALID_DEVICE, f"{device!r} is not a loomcl Device"
                )
        self.devices = devices
        self.properties = list(properties or [])
        self.reference_count = 1

    @property
    def num_devices(self) -> int:
        return len(self.devices)

    def get_info(self, param: int):
        return getattr(self, info_attribute(context_info, param, "clGetContextInfo"))

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<loomcl.Context on {[d.name for d in self.devices]}>"


def create_some_context(interactive=None, answers=None) -> Context:
    """A context on the CPU device; never prompts (there is only one choice)."""
    return Context()
