from loomcl.analysis.uniformity import UNIFORM, VARYING, Uniformity, consecutive
from loomcl.ir.reader import read_function


def shapes(text):
    f = read_function(text)
    u = Uniformity(f)
    return {i.name: u.shape(i) for i in f.instructions() if i.name}, u, f


def test_arithmetic_shapes():
    s, _, _ = shapes("""kernel @k(ptr.global %p, ptr.constant %c, i64 %n) {
entry:
  %lid = local_id 0
  %lid1 = local_id 1
  %grp = group_id 0
  %base = mul %grp, i64 64
  %gid = add %base, %lid
  %twice = mul %gid, i64 2
  %shifted = shl %lid, i64 2
  %back = sub %n, %lid
  %sq = mul %lid, %lid
  %ptr = elementptr f32, %p, %gid
  %x = load f32, %ptr
  %cptr = elementptr f32, %c, %n
  %cv = load f32, %cptr
  %cvar = elementptr f32, %c, %lid
  %cw = load f32, %cvar
  %same = sub %lid, %lid
  %t = trunc %gid to i32
  ret
}""")
    assert s["base"] == UNIFORM and s["gid"] == consecutive(1) and s["twice"] == consecutive(2)
    assert s["shifted"] == consecutive(4) and s["back"] == consecutive(-1)
    assert s["sq"] == VARYING and s["lid1"] == VARYING
    assert s["ptr"] == consecutive(4) and s["x"] == VARYING
    assert s["cv"] == UNIFORM and s["cw"] == VARYING
    assert s["same"] == UNIFORM and s["t"] == consecutive(1)


def test_uniform_loop_stays_uniform_and_divergent_if_makes_join_varying():
    s, u, f = shapes("""kernel @k(ptr.global %p, i32 %n) {
entry:
  %lid = local_id 0
  jump cond
cond:
  %i = phi i32 [i32 0, entry], [%i2, latch]
  %more = cmp slt %i, %n
  branch %more, body, done
body:
  %small = cmp ult %lid, i64 4
  branch %small, then, latch
then:
  jump latch
latch:
  %m = phi i32 [i32 1, then], [i32 2, body]
  %i2 = add %i, %m
  jump cond
done:
  ret
}""")
    assert s["small"] == VARYING
    assert s["m"] == VARYING  # joins a divergent branch
    assert s["i2"] == VARYING and s["i"] == VARYING  # and so the loop becomes varying too
    blocks = {b.name: b for b in f.blocks}
    assert u.is_divergent(blocks["body"]) and u.is_divergent(blocks["cond"])


def test_loop_with_divergent_exit_is_varying_after_the_loop():
    s, u, f = shapes("""kernel @k(ptr.global %p, i32 %n) {
entry:
  %lid = local_id 0
  %lim = trunc %lid to i32
  jump cond
cond:
  %i = phi i32 [i32 0, entry], [%i2, cond]
  %k = mul %n, i32 3
  %i2 = add %i, i32 1
  %more = cmp slt %i2, %lim
  branch %more, cond, done
done:
  %after = add %k, i32 1
  ret
}""")
    assert s["i"] == VARYING and s["i2"] == VARYING
    assert s["k"] == VARYING  # uniform inside, but live out of a divergent loop
    assert s["after"] == VARYING


def test_uniform_loop_with_uniform_condition():
    s, u, f = shapes("""kernel @k(ptr.global %p, i64 %n) {
entry:
  %lid = local_id 0
  jump cond
cond:
  %s = phi i64 [i64 32, entry], [%s2, cond]
  %s2 = lshr %s, i64 1
  %more = cmp ugt %s2, i64 0
  %act = cmp ult %lid, %s2
  branch %more, cond, done
done:
  ret
}""")
    assert s["s"] == UNIFORM and s["s2"] == UNIFORM and s["more"] == UNIFORM and s["act"] == VARYING
    assert not any(u.is_divergent(b) for b in f.blocks)


def test_an_instruction_whose_kind_declares_no_rule_is_varying(monkeypatch):
    """Conservative by default: a kind without a uniformity rule (a new instruction) is VARYING,
    even on uniform operands, and a branch on it is divergent."""
    from loomcl.ir import instructions as ins

    text = """kernel @k(ptr.global %p, i32 %n) {
entry:
  %m = math.popcount i32 %n
  %c = cmp eq %m, i32 3
  branch %c, then, done
then:
  store i32 1, %p
  jump done
done:
  ret
}"""
    s, u, f = shapes(text)
    assert s["m"] == UNIFORM and not u.divergent
    monkeypatch.setattr(ins.MathCall, "uniformity", None)
    s, u, f = shapes(text)
    assert s["m"] == VARYING and s["c"] == VARYING and [b.name for b in u.divergent] == ["entry"]
