"""A mutation fuzzer of the front half of the compiler: real kernels, broken token by token.

The contract it checks (the safety issue's "a front-end that never breaks"): every mutant of a valid
kernel either builds (front end and lowering, `loomcl.driver.compiler.build`) or fails with a `CompileError`
whose diagnostics all carry a source location; any other exception is an internal error, and a build
that does not finish within a bound is a hang.

Seeds are our own kernels: the `.cl` files of the benchmark suite and the OpenCL C held in string
constants of the end-to-end tests. A mutant is a seed with one to three token-level edits (the classic
operators of grammar-agnostic fuzzers): delete, duplicate or swap tokens, replace a token by another of
the same seed, insert a punctuator or a keyword, or truncate the text. Tokens come from a small regex
of our own, not from loomcl's lexer, so a lexer bug cannot hide a mutant.

    python3 -m tests.frontend.fuzz_mutations --count 5000 --seed 1 [--work-group] [--extra DIR]
"""
from __future__ import annotations

import argparse
import ast as pyast
import collections
import pathlib
import random
import re
import threading
import time
import traceback
from dataclasses import dataclass

from loomcl.driver import compiler
from loomcl.frontend import CompileError

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNEL_DIRS = (ROOT / "loomcl" / "bench" / "kernels",)
TEST_DIRS = tuple(ROOT / "tests" / part for part in ("e2e", "frontend", "lower", "transforms", "codegen"))

TOKEN = re.compile(r"""
      (?P<space>\s+|//[^\n]*|/\*.*?\*/)
    | (?P<token>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'
      | (?:\d|\.\d)[\w.]*(?:[eEpP][+-][\w.]*)?
      | [A-Za-z_]\w*
      | \.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#
      | .)
""", re.VERBOSE | re.DOTALL)

PUNCTUATORS = ("(", ")", "{", "}", "[", "]", ";", ",", ".", "->", "*", "&", "=", "==", "?", ":",
               "<", ">", "<<", "+", "-", "!", "~", "++", "--", "#", "##", "...", "'", '"', "\\")
KEYWORDS = ("int", "float4", "void", "struct", "union", "enum", "typedef", "const", "__global",
            "__local", "__constant", "__private", "kernel", "return", "if", "else", "for", "while",
            "do", "switch", "case", "default", "break", "continue", "goto", "sizeof", "static",
            "volatile", "restrict", "unsigned", "signed", "long", "double", "bool", "half",
            "__attribute__", "barrier", "get_global_id", "defined", "#define", "#if", "#endif",
            "0", "1.5f", "0x7fffffff", "-1", "(float4)(1)", ".xyzw", ".s0123")


def tokens(source: str) -> list[str]:
    """The source as a list of pieces: tokens and the whitespace runs between them (kept, so that
    preprocessor lines stay lines)."""
    return [m.group() for m in TOKEN.finditer(source)]


def is_token(piece: str) -> bool:
    return not piece.isspace() and not piece.startswith(("//", "/*"))


@dataclass(frozen=True)
class Mutant:
    seed_name: str
    edits: tuple[str, ...]
    source: str


def mutate(name: str, source: str, rng: random.Random) -> Mutant:
    """One mutant of `source`: one to three random edits."""
    pieces = tokens(source)
    edits = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        operator = rng.choice(OPERATORS)
        edits.append(operator(pieces, rng))
    return Mutant(name, tuple(edits), "".join(pieces))


def _token_index(pieces: list[str], rng: random.Random) -> int:
    positions = [i for i, p in enumerate(pieces) if is_token(p)]
    return rng.choice(positions) if positions else 0


def delete(pieces, rng):
    i = _token_index(pieces, rng)
    removed = pieces[i] if pieces else ""
    if pieces:
        pieces[i] = ""
    return f"delete {removed!r}"


def duplicate(pieces, rng):
    i = _token_index(pieces, rng)
    if pieces:
        pieces.insert(i, pieces[i] + " ")
    return f"duplicate {pieces[i]!r}" if pieces else "duplicate"


def swap(pieces, rng):
    i, j = _token_index(pieces, rng), _token_index(pieces, rng)
    if pieces:
        pieces[i], pieces[j] = pieces[j], pieces[i]
    return f"swap {i} {j}"


def replace(pieces, rng):
    i, j = _token_index(pieces, rng), _token_index(pieces, rng)
    if pieces:
        pieces[i] = pieces[j]
    return f"replace {i} by {pieces[j]!r}" if pieces else "replace"


def insert_punctuator(pieces, rng):
    i = rng.randrange(len(pieces) + 1)
    text = rng.choice(PUNCTUATORS)
    pieces.insert(i, text)
    return f"insert {text!r} at {i}"


def insert_keyword(pieces, rng):
    i = rng.randrange(len(pieces) + 1)
    text = rng.choice(KEYWORDS)
    pieces.insert(i, f" {text} ")
    return f"insert {text!r} at {i}"


SAME_KIND = (
    ("char", "uchar", "short", "int", "uint", "long", "ulong", "float", "double", "bool", "half",
     "float2", "float3", "float4", "float8", "int2", "int4", "uint4", "double2", "void", "size_t"),
    ("__global", "__local", "__constant", "__private", "global", "local", "constant", "private"),
    ("0", "1", "-1", "2", "3", "4", "7", "8", "16", "255", "0x80000000", "1.0f", "0.5", "1e30f",
     "-0.0f", "2147483647", "4294967295u", "9223372036854775807L"),
    ("x", "y", "z", "w", "xy", "s0", "s7", "sF", "lo", "hi", "even", "odd", "xyzw", "s01234567"),
    ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "<", "==", "=", "+=", ",",
     "<<=", "/=", "%="),
)


def substitute(pieces, rng):
    """Replace a token by another of its kind: a type by a type, a number by a number... so that
    the mutant often parses and reaches sema and the lowering."""
    spots = [(i, kind) for i, p in enumerate(pieces) for kind in SAME_KIND if p in kind]
    if not spots:
        return replace(pieces, rng)
    i, kind = rng.choice(spots)
    old, pieces[i] = pieces[i], rng.choice(kind)
    return f"substitute {old!r} by {pieces[i]!r}"


def truncate(pieces, rng):
    keep = rng.randrange(len(pieces) + 1)
    del pieces[keep:]
    return f"truncate at {keep}"


OPERATORS = (delete, delete, duplicate, swap, replace, replace, insert_punctuator, insert_keyword,
             truncate, substitute, substitute, substitute, substitute)


def seed_kernels(extra: pathlib.Path | None = None) -> dict[str, str]:
    """Our own valid kernels by name: benchmark .cl files and the kernel strings of the tests that
    build as they stand (some are templates or deliberately wrong); for a campaign, also the .cl
    files under `extra` (public kernels fetched to a scratch folder, never kept in the repository)."""
    candidates = _candidate_seeds()
    for path in sorted(extra.rglob("*.cl")) if extra else ():
        candidates[str(path)] = path.read_text(errors="replace")
    return {name: text for name, text in candidates.items() if check(text).kind == "built"}


def _candidate_seeds() -> dict[str, str]:
    seeds = {}
    for folder in KERNEL_DIRS:
        for path in sorted(folder.glob("*.cl")):
            seeds[path.name] = path.read_text()
    for folder in TEST_DIRS:
        for path in sorted(folder.glob("test_*.py")):
            for name, text in _kernel_strings(path):
                seeds[f"{path.name}:{name}"] = text
    return seeds


def _kernel_strings(path: pathlib.Path):
    """(line number, text) of the string literals of a test module that hold a kernel."""
    for node in pyast.walk(pyast.parse(path.read_text())):
        if (isinstance(node, pyast.Constant) and isinstance(node.value, str)
                and re.search(r"\bkernel\b", node.value) and "{" in node.value):
            yield node.lineno, node.value


# ---- checking one mutant


@dataclass
class Outcome:
    kind: str        # "built", "diagnostic", "internal", "no-location", "hang"
    detail: str = ""


def check(source: str, hang_seconds: float = 30.0, work_group: bool = False) -> Outcome:
    """Build one program; classify what happened. With `work_group`, a program that builds also goes
    through the work-group transforms of each kernel (local size 4)."""
    result: dict = {}

    def run():
        try:
            program = compiler.build(source, filename="mutant.cl")
            if work_group:
                for name in program.kernels:
                    program.work_group_ir(name, (4, 1, 1))
            result["outcome"] = Outcome("built")
        except CompileError as error:
            result["outcome"] = _diagnostic_outcome(error)
        except Exception:  # noqa: BLE001 - the fuzzer's job is to report it
            result["outcome"] = Outcome("internal", traceback.format_exc())

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(hang_seconds)
    if worker.is_alive():
        return Outcome("hang", f"no result after {hang_seconds} s")
    return result["outcome"]


def _diagnostic_outcome(error: CompileError) -> Outcome:
    errors = [d for d in error.diagnostics if d.severity.value == "error"]
    if not errors:
        return Outcome("no-location", "CompileError without an error diagnostic:\n" + error.log)
    unplaced = [d for d in errors if d.location.file is None and not _placeless_by_nature(d)]
    if unplaced:
        return Outcome("no-location", unplaced[0].render())
    return Outcome("diagnostic", errors[0].render().splitlines()[0])


def _placeless_by_nature(diagnostic) -> bool:
    """The one diagnostic about the whole program rather than a place in it."""
    return "nested too deeply" in diagnostic.message


def mutants(count: int, seed: int, seeds: dict[str, str] | None = None):
    """`count` mutants, reproducibly from `seed`, cycling over the seed kernels."""
    seeds = seeds or seed_kernels()
    names = sorted(seeds)
    rng = random.Random(seed)
    for k in range(count):
        name = names[k % len(names)]
        yield mutate(name, seeds[name], rng)


def failure_signature(outcome: Outcome) -> str:
    """One line that groups failures with the same cause: the last frame and the exception."""
    lines = [line for line in outcome.detail.strip().splitlines() if line.strip()]
    frames = [line.strip() for line in lines if line.strip().startswith("File ")]
    return f"{outcome.kind}: {(frames[-1] if frames else '')} | {lines[-1] if lines else ''}"


def campaign(count: int, seed: int, work_group: bool, show: int, hang_seconds: float = 30,
             extra: pathlib.Path | None = None) -> int:
    started = time.time()
    seeds = seed_kernels(extra)
    print(f"{len(seeds)} seed kernels", flush=True)
    tally = collections.Counter()
    failures: dict[str, Mutant] = {}
    for number, mutant in enumerate(mutants(count, seed, seeds)):
        outcome = check(mutant.source, hang_seconds=hang_seconds, work_group=work_group)
        tally[outcome.kind] += 1
        if outcome.kind not in ("built", "diagnostic"):
            signature = failure_signature(outcome)
            if signature not in failures:
                print(f"mutant {number}: {signature}", flush=True)
            failures.setdefault(signature, mutant)
        if outcome.kind == "hang":
            break  # the stuck thread keeps running; the campaign's numbers would mean little after it
    print(f"{sum(tally.values())} mutants in {time.time() - started:.0f} s: {dict(tally)}")
    for signature, mutant in list(failures.items())[:show]:
        print(f"\n== {signature}\n-- seed {mutant.seed_name}, edits {mutant.edits}")
        print(mutant.source if len(mutant.source) < 3000 else mutant.source[:3000] + "\n...")
    return len(failures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work-group", action="store_true", help="also run the work-group transforms")
    parser.add_argument("--show", type=int, default=20, help="print this many distinct failures")
    parser.add_argument("--extra", type=pathlib.Path, help="a folder of more seed kernels (*.cl)")
    parser.add_argument("--hang-seconds", type=float, default=30, help="a build taking longer hangs")
    args = parser.parse_args()
    failures = campaign(args.count, args.seed, args.work_group, args.show, args.hang_seconds, args.extra)
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
