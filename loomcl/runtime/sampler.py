"""Samplers: pyopencl's `Sampler(context, normalized_coords, addressing_mode, filter_mode)`, or
`Sampler(context, properties)` with clCreateSamplerWithProperties' flat list of (name, value) pairs.

A kernel sees a sampler as its `bits` (loomcl/abi/image.py): the same integer a
`const sampler_t` initializer in kernel source folds to.
"""
from __future__ import annotations

import numpy as np

from loomcl.abi import image as image_abi
from loomcl.errors import LogicError, status_code

from .constants import info_attribute
from .context import Context
from .image_constants import addressing_mode, filter_mode, sampler_info, sampler_properties

_ROUTINE = "clCreateSampler"
_ADDRESSING = {
    addressing_mode.NONE: image_abi.ADDRESS_NONE, addressing_mode.CLAMP_TO_EDGE: image_abi.ADDRESS_CLAMP_TO_EDGE,
    addressing_mode.CLAMP: image_abi.ADDRESS_CLAMP, addressing_mode.REPEAT: image_abi.ADDRESS_REPEAT,
    addressing_mode.MIRRORED_REPEAT: image_abi.ADDRESS_MIRRORED_REPEAT,
}
_FILTERING = {filter_mode.NEAREST: image_abi.FILTER_NEAREST, filter_mode.LINEAR: image_abi.FILTER_LINEAR}
_NEEDS_NORMALIZED = (addressing_mode.REPEAT, addressing_mode.MIRRORED_REPEAT)


class Sampler:
    """pyopencl's Sampler; attributes are sampler_info's lowercase names."""

    reference_count = 1

    def __init__(self, context: Context, *args) -> None:
        if not isinstance(context, Context):
            raise LogicError(_ROUTINE, status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        if len(args) == 3:
            normalized, addressing, filtering = args
            self.properties = []
        elif len(args) == 1:
            normalized, addressing, filtering = _from_properties(args[0])
            self.properties = [int(v) for v in args[0]]
        else:
            raise TypeError("Sampler(context, normalized_coords, addressing_mode, filter_mode) or "
                            "Sampler(context, properties)")
        if not isinstance(normalized, (bool, int, np.integer)):
            raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                             f"normalized_coords must be a bool, got {normalized!r}")
        if addressing not in _ADDRESSING:
            raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                             f"addressing_mode must be an addressing_mode value, got {addressing!r}")
        if filtering not in _FILTERING:
            raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                             f"filter_mode must be a filter_mode value, got {filtering!r}")
        if addressing in _NEEDS_NORMALIZED and not normalized:
            raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                             f"addressing mode {addressing_mode.to_string(addressing)} needs normalized_coords=True")
        self.context = context
        self.normalized_coords = bool(normalized)
        self.addressing_mode = int(addressing)
        self.filter_mode = int(filtering)
        self.bits = image_abi.sampler_bits(self.normalized_coords, _ADDRESSING[addressing], _FILTERING[filtering])

    def get_info(self, param: int):
        return getattr(self, info_attribute(sampler_info, param, "clGetSamplerInfo"))

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __eq__(self, other) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return (f"<loomcl.Sampler normalized_coords={self.normalized_coords} "
                f"{addressing_mode.to_string(self.addressing_mode)} {filter_mode.to_string(self.filter_mode)}>")


def _from_properties(properties) -> tuple:
    """(normalized, addressing, filtering) from [name, value, name, value, ...] (a trailing 0 ends it);
    unnamed ones default as in clCreateSamplerWithProperties: True, CLAMP, NEAREST."""
    values = [int(v) for v in properties]
    if values and values[-1] == 0 and len(values) % 2:
        values.pop()
    if len(values) % 2:
        raise LogicError("clCreateSamplerWithProperties", status_code.INVALID_VALUE,
                         f"properties must be (name, value) pairs, got {len(values)} values")
    given = {sampler_properties.NORMALIZED_COORDS: True, sampler_properties.ADDRESSING_MODE: addressing_mode.CLAMP,
             sampler_properties.FILTER_MODE: filter_mode.NEAREST}
    for name, value in zip(values[::2], values[1::2]):
        if name not in given:
            raise LogicError("clCreateSamplerWithProperties", status_code.INVALID_VALUE,
                             f"{name:#x} is not a sampler property")
        given[name] = value
    return (given[sampler_properties.NORMALIZED_COORDS], given[sampler_properties.ADDRESSING_MODE],
            given[sampler_properties.FILTER_MODE])
