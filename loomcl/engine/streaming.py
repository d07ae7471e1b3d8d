"""Which of a launch's buffers get streaming (non-temporal) stores (codegen/streaming_stores.py).

A store that misses the cache first reads its line from memory; a streaming store writes the line
without reading it, past the caches. That is right for a buffer the kernel only writes (analysis/
write_only_params.py) and that is larger than the last-level cache: its lines would leave the cache
before anyone read them again, so caching them only costs the extra read. For a smaller buffer the
next kernel (or the host) finds the data in the cache, and streaming would lose that.

The decision is a specialization of the work-group function, like `ids_fit_int`: the argument setter
keeps the candidates whose buffer qualifies (size, and a 64-byte aligned address: a sub-buffer at an
odd origin does not), and the launch adds its own condition (dimension-0 global offset and local size
multiples of 64), so that the generated code can prove its vector stores line-aligned.
"""
from __future__ import annotations

import functools

from loomcl.abi.kernel import STREAM_ALIGN

from .. import host

FALLBACK_LAST_LEVEL_CACHE = 32 << 20     # when sysfs does not say


@functools.cache
def min_bytes() -> int:
    """The smallest buffer that streams: the last-level cache's size."""
    return host.caches()[1] or FALLBACK_LAST_LEVEL_CACHE


def candidates(compiled, kernel_name: str) -> tuple[int, ...]:
    """The parameters of a kernel whose stores may stream: its write-only `__global` pointers, unless
    streaming is switched off (-loomcl-no-streaming-stores) or the program is built in checked mode."""
    options = compiled.options
    if not options.streaming_stores or options.checked:
        return ()
    return compiled.write_only_params(kernel_name)


def buffer_streams(size: int, address: int) -> bool:
    return size >= min_bytes() and address % STREAM_ALIGN == 0


def launch_streams(offset: tuple[int, ...], local: tuple[int, ...]) -> bool:
    """The launch's side: the generated code assumes these multiples of 64 (streaming_stores.py)."""
    return offset[0] % STREAM_ALIGN == 0 and local[0] % STREAM_ALIGN == 0
