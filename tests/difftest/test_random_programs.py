"""Differential testing in CI: a few hundred generated programs through every check.

SLOW-ISH (about 2 minutes on 2 cores): `PROGRAMS` random legal work-group programs, each checked in
the interpreter on the work-group form of the default pipeline and two other configurations, and
natively through the public runtime in one build-option configuration, both rotating with the seed
(so every configuration gets a share of the programs; with 12 interpreter configurations, checking
each program in all of them took CI's run past 14 minutes). For more, run `python3 -m tests.difftest --programs 10000 --jobs 2`.

Also the generator's self-test: on 200 seeds the checked reference (barrier divergence, races,
uninitialized reads, out-of-range accesses, undefined arithmetic) accepts every generated program,
and the same seed always gives the same program.
"""
import os

import pytest

from loomcl.driver import compiler

from . import check, runner
from .generator import PRELUDE, generate

PROGRAMS = 210
FIRST_SEED = 1_000_000  # away from the seeds people try by hand
CHUNK = 30


@pytest.fixture(scope="module")
def results():
    """Findings of every seed, checked on two worker processes."""
    found = {}
    plan = runner.Plan(interp="sample", native="one")
    runner.run(range(FIRST_SEED, FIRST_SEED + PROGRAMS), plan, min(2, os.cpu_count() or 1),
               lambda result: found.setdefault(result.seed, []).extend(result.findings))
    return found


@pytest.mark.parametrize("chunk", range(PROGRAMS // CHUNK))
def test_random_programs(chunk, results):
    seeds = range(FIRST_SEED + chunk * CHUNK, FIRST_SEED + (chunk + 1) * CHUNK)
    assert all(seed in results for seed in seeds), "a seed was never reported"
    findings = [f for seed in seeds for f in results[seed]]
    assert not findings, "\n".join(f.line() for f in findings) + \
        "\n(reproduce: python3 -m tests.difftest --programs 1 --native all --seed SEED --save DIR)"


@pytest.mark.parametrize("block", range(4))
def test_generated_programs_are_legal(block):
    """The reference rejects illegal programs; it must accept every generated one."""
    for seed in range(block * 50, (block + 1) * 50):
        program = generate(seed)
        module = compiler.build(PRELUDE + program.source).module
        check.reference(module, check.case_of(program))  # raises InvalidProgram


def test_generator_is_reproducible():
    for seed in (0, 1, 12345):
        a, b = generate(seed), generate(seed)
        assert a.source == b.source and a.global_size == b.global_size and a.local_size == b.local_size
        assert (a.inputs == b.inputs).all() and (a.out_initial == b.out_initial).all()


def test_native_configurations_cover_every_switch():
    """A new -loomcl- switch must be added to the tester's configurations."""
    from loomcl.driver.compiler import CompilerOptions

    debugging = {"-loomcl-verify-each", "-loomcl-no-microprofile"}  # (the second changes no code)
    assert set(CompilerOptions.SWITCHES) - debugging <= set(check.NATIVE_CONFIGS)


def test_a_crashing_worker_is_a_finding_not_the_end():
    found = []
    plan = runner.Plan(interp="none", native="one", crash_seeds=(5,))
    runner.run(range(4, 7), plan, 2, lambda result: found.append(result))
    assert sorted(r.seed for r in found) == [4, 5, 6]
    crash = [f for r in found for f in r.findings]
    assert [(f.seed, f.kind) for f in crash] == [(5, "crash")]


def test_about_half_the_programs_carry_vector_code():
    with_vectors = [seed for seed in range(40) if "vv" in generate(seed).source]
    assert 10 <= len(with_vectors) <= 30
    statements = sum(generate(seed).source.count(" = select(") + generate(seed).source.count("convert_")
                     for seed in with_vectors)
    assert statements > 0
