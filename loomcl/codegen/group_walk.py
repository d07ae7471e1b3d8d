"""The walk of one worker over its work-groups: rows of groups, or tiles of them (Kim ch. 5).

The entry wrapper (entry.py) gets a chunk [begin, end) of linear group indices. Row order decodes
index g as x = g % groups0, y = g / groups0 (x fastest). Tiled order, which the group-order pass
(transforms/group_order.py) chooses for kernels that walk arrays down their columns, walks the
groups in bands of `tile` group rows, and each band in tiles of tile x tile groups (x fastest inside
a tile); the last band and the last tile of each band may be partial. It is a bijection of
[0, groups0 * groups1 * groups2), so a chunk still runs each of its groups once.

Decoding a tiled index takes divisions, so the wrapper decodes the chunk's first group only and
then steps: x, then y within the tile, then the next tile of the band, the next band, the next z.
"""
from __future__ import annotations


def _min(lines: list[str], name: str, a: str, b: str) -> str:
    lines += [f"  %{name}.lt = icmp ult i64 {a}, {b}", f"  %{name} = select i1 %{name}.lt, i64 {a}, i64 {b}"]
    return f"%{name}"


def tiled_decode(tile: int) -> list[str]:
    """`%x.first` ... `%z.first`, `%x0.first`, `%y0.first` (the tile's corner) of group `%begin`."""
    lines = ["  %plane = mul i64 %groups0, %groups1",
             "  %z.first = udiv i64 %begin, %plane",
             "  %r = urem i64 %begin, %plane",
             f"  %band.size = mul i64 %groups0, {tile}",
             "  %band = udiv i64 %r, %band.size",
             f"  %y0.first = mul i64 %band, {tile}",
             f"  %y0.end = add i64 %y0.first, {tile}"]
    y_end = _min(lines, "y.end.first", "%y0.end", "%groups1")
    lines += [f"  %h = sub i64 {y_end}, %y0.first",
              "  %r2 = urem i64 %r, %band.size",
              f"  %tile.size = mul i64 %h, {tile}",
              "  %column = udiv i64 %r2, %tile.size",
              f"  %x0.first = mul i64 %column, {tile}",
              f"  %x0.end = add i64 %x0.first, {tile}"]
    x_end = _min(lines, "x.end.first", "%x0.end", "%groups0")
    lines += [f"  %w = sub i64 {x_end}, %x0.first",
              "  %r3 = urem i64 %r2, %tile.size",
              "  %y.off = udiv i64 %r3, %w",
              "  %x.off = urem i64 %r3, %w",
              "  %y.first = add i64 %y0.first, %y.off",
              "  %x.first = add i64 %x0.first, %x.off"]
    return lines


def tiled_step(tile: int) -> list[str]:
    """`%x.next` ... `%z.next`, `%x0.next`, `%y0.next` after group (%x, %y, %z) of tile (%x0, %y0)."""
    lines = ["  %x.inc = add i64 %x, 1", f"  %x0.lim = add i64 %x0, {tile}"]
    x_end = _min(lines, "x.end", "%x0.lim", "%groups0")
    lines += ["  %y.inc = add i64 %y, 1", f"  %y0.lim = add i64 %y0, {tile}"]
    y_end = _min(lines, "y.end", "%y0.lim", "%groups1")
    lines += [f"  %x.wrap = icmp eq i64 %x.inc, {x_end}",            # the end of a row of the tile
              "  %y.carry = select i1 %x.wrap, i64 %y.inc, i64 %y",
              f"  %t.wrap = icmp eq i64 %y.carry, {y_end}",           # the end of the tile
              f"  %c.wrap = icmp eq i64 {x_end}, %groups0",          # ... and the band's last tile
              "  %band.wrap = and i1 %t.wrap, %c.wrap",
              f"  %b.wrap = icmp eq i64 {y_end}, %groups1",          # ... and the last band
              "  %z.wrap = and i1 %band.wrap, %b.wrap",
              f"  %x0.tile = select i1 %c.wrap, i64 0, i64 {x_end}",
              "  %x0.next = select i1 %t.wrap, i64 %x0.tile, i64 %x0",
              f"  %y0.band = select i1 %band.wrap, i64 {y_end}, i64 %y0",
              "  %y0.next = select i1 %z.wrap, i64 0, i64 %y0.band",
              "  %x.next = select i1 %x.wrap, i64 %x0.next, i64 %x.inc",
              "  %y.next = select i1 %t.wrap, i64 %y0.next, i64 %y.carry",
              "  %z.inc = add i64 %z, 1",
              "  %z.next = select i1 %z.wrap, i64 %z.inc, i64 %z"]
    return lines
