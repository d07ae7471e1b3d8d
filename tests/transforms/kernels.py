"""Work-item-form kernels in IR text (as lowering would emit them: allocas, loads and stores for
private variables) with numpy references. Shared by the transform and end-to-end tests."""
import numpy as np

GID = """  %lid = local_id 0
  %grp = group_id 0
  %lsz = local_size 0
  %base = mul %grp, %lsz
  %gid = add %base, %lid"""

SCALE = f"""kernel @scale(ptr.global %in, ptr.global %out, f32 %a) {{
entry:
{GID}
  %pin = elementptr f32, %in, %gid
  %x = load f32, %pin
  %y = fmul %x, %a
  %pout = elementptr f32, %out, %gid
  store %y, %pout
  ret
}}
"""

REDUCE = f"""kernel @reduce(ptr.global %in, ptr.global %out) {{
  local @tile : [64 x f32]
entry:
  %s.addr = alloca i64
{GID}
  %pin = elementptr f32, %in, %gid
  %x = load f32, %pin
  %pt = elementptr f32, @tile, %lid
  store %x, %pt
  barrier 1
  %half = lshr %lsz, i64 1
  store %half, %s.addr
  jump cond
cond:
  %s = load i64, %s.addr
  %more = cmp ugt %s, i64 0
  branch %more, body, done
body:
  %s1 = load i64, %s.addr
  %act = cmp ult %lid, %s1
  branch %act, add, join
add:
  %s2 = load i64, %s.addr
  %o = add %lid, %s2
  %po = elementptr f32, @tile, %o
  %a = load f32, %po
  %pm = elementptr f32, @tile, %lid
  %b = load f32, %pm
  %c = fadd %b, %a
  store %c, %pm
  jump join
join:
  barrier 1
  %s3 = load i64, %s.addr
  %s4 = lshr %s3, i64 1
  store %s4, %s.addr
  jump cond
done:
  %first = cmp eq %lid, i64 0
  branch %first, write, end
write:
  %t0 = load f32, @tile
  %pout = elementptr f32, %out, %grp
  store %t0, %pout
  jump end
end:
  ret
}}
"""

UNIFORM_IF = f"""kernel @uniform_if(ptr.global %in, ptr.global %out, i32 %n) {{
  local @tile : [64 x f32]
entry:
{GID}
  %pos = cmp sgt %n, i32 0
  branch %pos, then, else
then:
  %pin = elementptr f32, %in, %gid
  %x = load f32, %pin
  %pt = elementptr f32, @tile, %lid
  store %x, %pt
  barrier 1
  %last = sub %lsz, i64 1
  %rl = sub %last, %lid
  %pr = elementptr f32, @tile, %rl
  %v = load f32, %pr
  %pout = elementptr f32, %out, %gid
  store %v, %pout
  jump end
else:
  %pout2 = elementptr f32, %out, %gid
  store f32 0.0, %pout2
  jump end
end:
  ret
}}
"""

VARYING_TRIP = f"""kernel @varying_trip(ptr.global %in, ptr.global %out) {{
  local @scratch : [64 x i32]
entry:
  %i.addr = alloca i64
{GID}
  %pin = elementptr i32, %in, %gid
  %x = load i32, %pin
  %ps = elementptr i32, @scratch, %lid
  store %x, %ps
  barrier 1
  store i64 0, %i.addr
  jump cond
cond:
  %i = load i64, %i.addr
  %lim = add %lid, i64 2
  %more = cmp ult %i, %lim
  branch %more, body, done
body:
  %i1 = load i64, %i.addr
  %v = load i32, %ps
  %it = trunc %i1 to i32
  %v2 = add %v, %it
  store %v2, %ps
  %low = cmp ult %i1, i64 2
  branch %low, sync, latch
sync:
  barrier 1
  %nb = add %lid, i64 1
  %nbm = urem %nb, %lsz
  %pn = elementptr i32, @scratch, %nbm
  %w = load i32, %pn
  %w1 = load i32, %ps
  %w2 = add %w1, i32 0
  store %w2, %ps
  barrier 1
  jump latch
latch:
  %i2 = load i64, %i.addr
  %i3 = add %i2, i64 1
  store %i3, %i.addr
  jump cond
done:
  %r = load i32, %ps
  %pout = elementptr i32, %out, %gid
  store %r, %pout
  ret
}}
"""

BROADCAST = f"""kernel @broadcast(ptr.global %in, ptr.global %out) {{
  local @shared : i32
entry:
{GID}
  %first = cmp eq %lid, i64 0
  branch %first, w, j
w:
  %pg = elementptr i32, %in, %grp
  %g = load i32, %pg
  store %g, @shared
  jump j
j:
  barrier 1
  %s = load i32, @shared
  %pin = elementptr i32, %in, %gid
  %x = load i32, %pin
  %y = add %x, %s
  %pout = elementptr i32, %out, %gid
  store %y, %pout
  ret
}}
"""

LOOP_IN_IF = f"""kernel @loop_in_if(ptr.global %in, ptr.global %out, i32 %n) {{
  local @tile : [64 x f32]
entry:
  %acc.addr = alloca f32
  %i.addr = alloca i32
{GID}
  %pin = elementptr f32, %in, %gid
  %x = load f32, %pin
  store %x, %acc.addr
  %big = cmp sgt %n, i32 0
  branch %big, pre, else
pre:
  store i32 0, %i.addr
  jump cond
cond:
  %i = load i32, %i.addr
  %more = cmp slt %i, %n
  branch %more, body, after
body:
  %acc = load f32, %acc.addr
  %pt = elementptr f32, @tile, %lid
  store %acc, %pt
  barrier 1
  %l1 = add %lid, i64 1
  %nb = urem %l1, %lsz
  %pn = elementptr f32, @tile, %nb
  %nv = load f32, %pn
  %acc2 = load f32, %acc.addr
  %acc3 = fadd %acc2, %nv
  store %acc3, %acc.addr
  barrier 1
  %i2 = load i32, %i.addr
  %i3 = add %i2, i32 1
  store %i3, %i.addr
  jump cond
after:
  %r = load f32, %acc.addr
  %pout = elementptr f32, %out, %gid
  store %r, %pout
  jump end
else:
  %pout2 = elementptr f32, %out, %gid
  store f32 -1.0, %pout2
  jump end
end:
  ret
}}
"""

EARLY_RETURN = f"""kernel @early_return(ptr.global %in, ptr.global %out, i64 %n) {{
  local @tile : [64 x i32]
entry:
{GID}
  %pin = elementptr i32, %in, %gid
  %x = load i32, %pin
  %pt = elementptr i32, @tile, %lid
  store %x, %pt
  barrier 1
  %oob = cmp uge %lid, %n
  branch %oob, quit, work
quit:
  ret
work:
  %nb = add %lid, i64 1
  %nbm = urem %nb, %lsz
  %pn = elementptr i32, @tile, %nbm
  %v = load i32, %pn
  %y = add %v, i32 1
  %pout = elementptr i32, %out, %gid
  store %y, %pout
  ret
}}
"""

PRIVATE_ARRAY = f"""kernel @private_array(ptr.global %in, ptr.global %out) {{
entry:
  %priv = alloca [4 x i32]
  %k.addr = alloca i32
{GID}
  %pin = elementptr i32, %in, %gid
  %x = load i32, %pin
  store i32 0, %k.addr
  jump fill
fill:
  %k = load i32, %k.addr
  %xk = mul %x, %k
  %kk = sext %k to i64
  %pk = elementptr i32, %priv, %kk
  store %xk, %pk
  %k1 = add %k, i32 1
  store %k1, %k.addr
  %again = cmp slt %k1, i32 4
  branch %again, fill, sync
sync:
  barrier 1
  %sel = and %lid, i64 3
  %ps = elementptr i32, %priv, %sel
  %v = load i32, %ps
  %pout = elementptr i32, %out, %gid
  store %v, %pout
  ret
}}
"""

TRANSPOSE_2D = """kernel @reverse_2d(ptr.global %in, ptr.global %out) {
  local @tile : [64 x f32]
entry:
  %lx = local_id 0
  %ly = local_id 1
  %gx0 = group_id 0
  %gy0 = group_id 1
  %sx = local_size 0
  %sy = local_size 1
  %width = global_size 0
  %bx = mul %gx0, %sx
  %gx = add %bx, %lx
  %by = mul %gy0, %sy
  %gy = add %by, %ly
  %row = mul %gy, %width
  %g = add %row, %gx
  %pin = elementptr f32, %in, %g
  %x = load f32, %pin
  %trow = mul %ly, %sx
  %t = add %trow, %lx
  %pt = elementptr f32, @tile, %t
  store %x, %pt
  barrier 1
  %size = mul %sx, %sy
  %last = sub %size, i64 1
  %rt = sub %last, %t
  %pr = elementptr f32, @tile, %rt
  %v = load f32, %pr
  %pout = elementptr f32, %out, %g
  store %v, %pout
  ret
}
"""


def ref_scale(inp, a):
    return inp * a


def ref_reduce(inp, L):
    return inp.reshape(-1, L).sum(axis=1)


def ref_uniform_if(inp, n, L):
    return inp.reshape(-1, L)[:, ::-1].reshape(-1) if n > 0 else np.zeros_like(inp)


def ref_varying_trip(inp, L):
    lid = np.arange(inp.size) % L
    return inp + ((lid + 1) * (lid + 2) // 2).astype(inp.dtype)


def ref_broadcast(inp, L):
    groups = inp.size // L
    return inp + np.repeat(inp[:groups], L)


def ref_loop_in_if(inp, n, L):
    if n <= 0:
        return np.full_like(inp, -1.0)
    acc = inp.reshape(-1, L).copy()
    for _ in range(n):
        acc = acc + np.roll(acc, -1, axis=1)
    return acc.reshape(-1)


def ref_early_return(inp, out_before, n, L):
    out = out_before.copy()
    tiles = inp.reshape(-1, L)
    lid = np.arange(L)
    keep = lid < n
    res = np.roll(tiles, -1, axis=1) + 1
    out.reshape(-1, L)[:, keep] = res[:, keep]
    return out


def ref_private_array(inp, L):
    lid = np.arange(inp.size) % L
    return inp * (lid & 3).astype(inp.dtype)


def ref_reverse_2d(inp2d, Lx, Ly):
    H, W = inp2d.shape
    out = np.empty_like(inp2d)
    for by in range(0, H, Ly):
        for bx in range(0, W, Lx):
            out[by:by + Ly, bx:bx + Lx] = inp2d[by:by + Ly, bx:bx + Lx][::-1, ::-1]
    return out
