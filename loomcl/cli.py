"""`loomcl` on the command line: info, build --emit, demo, bench, cache info|clear."""
from __future__ import annotations

import argparse
import sys

EMITS = ("ast", "ir", "wg", "llvm", "asm")


def cmd_info(args) -> int:
    import loomcl as cl

    for platform in cl.get_platforms():
        print(f"Platform: {platform.name} ({platform.vendor}, {platform.version})")
        for device in platform.get_devices():
            print(f"  Device: {device.name}")
            for name in ("type", "version", "max_compute_units", "max_work_group_size", "max_work_item_sizes",
                         "local_mem_size", "global_mem_size", "max_mem_alloc_size", "preferred_vector_width_float"):
                print(f"    {name:<30} {getattr(device, name)}")
    return 0


def _local_size(text: str) -> tuple[int, int, int]:
    sizes = [int(part) for part in text.split(",")]
    if not 1 <= len(sizes) <= 3 or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"local size must be 1 to 3 positive integers, got {text!r}")
    return tuple(sizes + [1] * (3 - len(sizes)))


def _build_options(args) -> str:
    """The build-options string, with --print-after and --verify-each as their -loomcl-* switches."""
    from .options import CompilerOptions

    words = [f"-D{d}" for d in args.define] + [f"-U{u}" for u in args.undefine] + [f"-I{i}" for i in args.include]
    words += [CompilerOptions.PRINT_AFTER + name for name in args.print_after]
    words += ["-loomcl-verify-each"] if args.verify_each else []
    return " ".join(words + ([args.options] if args.options else []))


def _unknown_pass(args) -> str | None:
    """An error message if --print-after names no pass of the pipeline."""
    from .transforms.pipeline import PASS_NAMES, unknown_pass_names

    unknown = unknown_pass_names(args.print_after)
    if not unknown:
        return None
    return (f"loomcl build: unknown pass '{unknown[0]}' for --print-after; "
            f"the passes are {', '.join(PASS_NAMES)} (or all)")


def cmd_build(args) -> int:
    from . import compiler, frontend
    from .frontend.printer import format_tree
    from .ir import print_function, print_module

    error = _unknown_pass(args)
    if error:
        print(error, file=sys.stderr)
        return 2
    source = open(args.file, encoding="utf-8").read()
    options = _build_options(args)
    try:
        if args.emit == "ast":
            unit = frontend.parse_program(source, frontend.parse_options(options), args.file)
            print(format_tree(unit))
            return 0
        program = compiler.build(source, options, args.file)
    except (frontend.CompileError, frontend.OptionError) as exc:
        print(getattr(exc, "log", str(exc)), file=sys.stderr)
        return 1
    if args.emit == "ir":
        print(print_module(program.module), end="")
        return 0
    if args.kernel and args.kernel not in program.kernels:
        print(f"{args.file}: no kernel named '{args.kernel}' (kernels: {', '.join(program.kernels)})", file=sys.stderr)
        return 1
    kernels = [args.kernel] if args.kernel else list(program.kernels)
    for name in kernels:
        local_size = args.local_size or program.kernels[name].reqd_work_group_size or (64, 1, 1)
        # As launched when every global id fits in an int (the runtime checks; nearly every launch).
        function = program.work_group_ir(name, local_size, ids_fit_int=True)
        if args.emit == "wg":
            print(print_function(function))
        else:
            from . import codegen

            emit = codegen.llvm_ir if args.emit == "llvm" else codegen.assembly
            try:
                print(emit(function, program.kernels[name], program.options))
            except codegen.LLVMFailure as exc:  # LLVM failed in its compile server: its message, no traceback
                print(f"{args.file}: kernel '{name}': {exc.log}", file=sys.stderr)
                return 1
    return 0


def cmd_demo(args) -> int:
    from .demo import main

    return main()


def _bytes(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} bytes" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def cmd_cache(args) -> int:
    from .codegen import cache

    if args.action == "clear":
        count, freed = cache.clear()
        print(f"removed {count} entr{'y' if count == 1 else 'ies'} ({_bytes(freed)}) from {cache.cache_directory()}")
        return 0
    state = cache.info()
    limit = "off (LOOMCL_CACHE_SIZE=0)" if state.limit_bytes == 0 else _bytes(state.limit_bytes)
    print(f"directory  {state.directory}")
    print(f"entries    {state.entries}")
    print(f"size       {_bytes(state.total_bytes)} of {limit}")
    print(f"writable   {'yes' if state.writable else 'no (compiled kernels are kept in memory only)'}")
    return 0


def cmd_bench(rest) -> int:
    from .bench import main

    return main(rest)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="loomcl", description="OpenCL kernels on CPUs, from Python.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="print the platform and device as OpenCL reports them")
    sub.add_parser("demo", help="build and run a few kernels, check them against numpy, print times")
    c = sub.add_parser("cache", help="the on-disk cache of compiled kernels: where it is and how full, or empty it")
    c.add_argument("action", choices=("info", "clear"))
    sub.add_parser("bench", help="the benchmark suite beside PoCL (see `loomcl bench --help`)", add_help=False)
    b = sub.add_parser("build", help="compile an OpenCL C file and print an intermediate form")
    b.add_argument("file")
    b.add_argument("--emit", choices=EMITS, default="wg")
    b.add_argument("--kernel", help="only this kernel (wg, llvm, asm)")
    b.add_argument("--local-size", type=_local_size, help="e.g. 256 or 16,16 (default: reqd_work_group_size or 64)")
    b.add_argument("-D", dest="define", action="append", default=[], metavar="NAME[=VALUE]")
    b.add_argument("-U", dest="undefine", action="append", default=[], metavar="NAME")
    b.add_argument("-I", dest="include", action="append", default=[], metavar="DIR")
    b.add_argument("--options", default="", help="more build options, as given to Program.build")
    b.add_argument("--print-after", action="append", default=[], metavar="PASS",
                   help="print the IR after this work-group pass to stderr, headed '; IR after PASS' "
                        "(repeatable; 'all' for every pass; wg, llvm, asm)")
    b.add_argument("--verify-each", action="store_true",
                   help="run the IR verifier after every work-group pass (wg, llvm, asm)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # the bench has its own argument parser
        return cmd_bench(argv[1:])
    args = parser().parse_args(argv)
    try:
        return {"info": cmd_info, "build": cmd_build, "demo": cmd_demo, "cache": cmd_cache}[args.command](args)
    except BrokenPipeError:  # `loomcl build ... | head`: the reader has all it wanted
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
