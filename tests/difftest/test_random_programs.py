"""Differential testing: a few hundred generated programs through every check.

By default a sample of QUICK_PROGRAMS programs runs, which share every interpreter and native
configuration out between them (each configuration checks one of them: the fewest programs, hence
the fewest reference and interpreter runs, that reach every configuration); QUICK_TWINS of them also
run as Python kernels (python_check.py). The campaign is the `slow` tier (about 2
minutes on 2 cores; `python3 -m pytest -m slow`, and .ci/run): `PROGRAMS` random legal work-group
programs, each checked in
the interpreter on the work-group form of the default pipeline and two other configurations, and
natively through the public runtime in one build-option configuration, both rotating with the seed
(so every configuration gets a share of the programs; with 12 interpreter configurations, checking
each program in all of them took CI's run past 14 minutes). For more, run `python3 -m tests.difftest --programs 10000 --jobs 2`.

Also the generator's self-test: on 200 seeds (20 in the quick tier) the checked reference (barrier divergence, races,
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
CHUNK = 21  # each chunk covers every configuration (20 native, 12 interpreter)
QUICK_PROGRAMS = 7  # 20 native configurations, 3 per program; 11 interpreter ones besides the default, 2 per program
QUICK_SEEDS = range(FIRST_SEED, FIRST_SEED + QUICK_PROGRAMS)
QUICK_TWINS = frozenset(QUICK_SEEDS[:3])  # (a Python twin costs about what its C program costs)
QUICK_PLAN = runner.Plan(interp="cover", native="cover", cover=QUICK_PROGRAMS, python="seeds", python_seeds=QUICK_TWINS)


def _seeds(chunk: int) -> range:
    return range(FIRST_SEED + chunk * CHUNK, FIRST_SEED + (chunk + 1) * CHUNK)


def _python_seeds(chunk: int) -> list:
    """The programs also checked as Python kernels: one in three."""
    return [seed for seed in _seeds(chunk) if runner.shared_twin(seed)]


def _plan(chunks) -> runner.Plan:
    twins = frozenset(seed for chunk in chunks for seed in _python_seeds(chunk))
    return runner.Plan(interp="sample", native="one", python="seeds", python_seeds=twins)


@pytest.fixture(scope="module")
def results(request):
    """Results of every seed of the chunks this run selected, checked on two worker processes."""
    chunks = sorted({item.callspec.params["chunk"] for item in request.session.items
                     if item.originalname == "test_random_programs"})
    found = {}
    runner.run([seed for chunk in chunks for seed in _seeds(chunk)], _plan(chunks), min(2, os.cpu_count() or 1),
               lambda result: found.setdefault(result.seed, []).append(result))
    return found


def test_a_sample_of_random_programs():
    found = {}
    runner.run(QUICK_SEEDS, QUICK_PLAN, min(2, os.cpu_count() or 1),
               lambda result: found.setdefault(result.seed, []).append(result))
    assert sorted(found) == list(QUICK_SEEDS), "a seed was never reported"
    findings = [f for seed in QUICK_SEEDS for result in found[seed] for f in result.findings]
    assert not findings, "\n".join(f.line() for f in findings) + \
        "\n(reproduce: python3 -m tests.difftest --programs 1 --native all --python all --seed SEED --save DIR)"
    twins = {seed: [r.python for r in found[seed]] for seed in QUICK_TWINS}
    assert all(status == ["compared"] for status in twins.values()), twins


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(PROGRAMS // CHUNK))
def test_random_programs(chunk, results):
    seeds = _seeds(chunk)
    assert all(seed in results for seed in seeds), "a seed was never reported"
    findings = [f for seed in seeds for result in results[seed] for f in result.findings]
    assert not findings, "\n".join(f.line() for f in findings) + \
        "\n(reproduce: python3 -m tests.difftest --programs 1 --native all --python all --seed SEED --save DIR)"
    twins = {seed: [r.python for r in results[seed]] for seed in _python_seeds(chunk)}
    assert twins and all(status == ["compared"] for status in twins.values()), twins


@pytest.mark.parametrize("seeds", [pytest.param(range(start, stop), marks=[pytest.mark.slow] if start else [],
                                                id=f"{start}-{stop}")
                                   for start, stop in ((0, 20), (20, 80), (80, 140), (140, 200))])
def test_generated_programs_are_legal(seeds):
    """The reference rejects illegal programs; it must accept every generated one (20 in the quick tier)."""
    for seed in seeds:
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


def test_the_quick_sample_covers_every_configuration():
    """The quick tier's programs reach every interpreter and native configuration, and so does each
    chunk of the campaign."""
    interp = {name for seed in QUICK_SEEDS for name in QUICK_PLAN.interp_configs(seed)}
    native = [options for seed in QUICK_SEEDS for options in QUICK_PLAN.native_configs(seed)]
    assert interp == set(check.INTERP_CONFIGS)
    assert sorted(native) == sorted(check.NATIVE_CONFIGS)  # each once
    plan = runner.Plan(interp="sample", native="one")
    interp = {name for seed in _seeds(0) for name in plan.interp_configs(seed)}
    native = {options for seed in _seeds(0) for options in plan.native_configs(seed)}
    assert interp == set(check.INTERP_CONFIGS) and native == set(check.NATIVE_CONFIGS)


def test_the_slow_chunks_check_python_twins_in_every_configuration():
    """The Python twins of the slow tier's programs reach every configuration too."""
    chunks = range(1, PROGRAMS // CHUNK)
    plan = _plan(chunks)
    twins = [seed for chunk in chunks for seed in _python_seeds(chunk)]
    assert [seed for chunk in chunks for seed in _seeds(chunk) if plan.python_twin(seed)] == twins
    assert abs(len(twins) * runner.PYTHON_SHARE - len(chunks) * CHUNK) <= runner.PYTHON_SHARE * len(chunks)
    assert {name for seed in twins for name in plan.interp_configs(seed)} == set(check.INTERP_CONFIGS)
    assert {options for seed in twins for options in plan.native_configs(seed)} == set(check.NATIVE_CONFIGS)
