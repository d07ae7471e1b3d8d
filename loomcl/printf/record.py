"""The printf buffer of a launch, as the compiled code writes it and the runtime reads it.

    buffer:  header (HEADER_BYTES)  then records, from DATA_OFFSET on
    header:  u64 cursor     bytes of records reserved so far (an atomic add by every printf call)
             u64 capacity   bytes of record space (set by the runtime)
             u64 dropped    printf calls whose record did not fit (an atomic add)
    record:  u32 format id, u32 record bytes, then the arguments, each at an offset aligned to its
             lane size, in their storage types (format_spec.Storage); the record is padded to 8 bytes

A call reserves its record with one atomic add on the cursor and then owns those bytes, so records of
concurrent work-items never mix. A record that does not fit in full is dropped (the call returns -1)
and counted; if its header still fits, it is written with format id 0, which ends the buffer for the
reader (every later reservation lies beyond it).
"""
from __future__ import annotations

HEADER_BYTES = 64  # one cache line: the counters do not share it with records
CURSOR_OFFSET, CAPACITY_OFFSET, DROPPED_OFFSET = 0, 8, 16
DATA_OFFSET = HEADER_BYTES
RECORD_HEADER_BYTES = 8
END_MARKER = 0  # format ids start at 1


def record_layout(arguments) -> tuple[list[int], int]:
    """Offsets within the record of arguments given as (lane bytes, lanes), and the record's size."""
    offsets, end = [], RECORD_HEADER_BYTES
    for lane_bytes, lanes in arguments:
        end = -(-end // lane_bytes) * lane_bytes
        offsets.append(end)
        end += lane_bytes * lanes
    return offsets, -(-end // 8) * 8
