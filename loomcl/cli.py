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
            for label, value in device_summary(cl, device):
                print(f"    {label:<26} {value}")
    return 0


def device_summary(cl, device) -> list[tuple[str, str]]:
    """The device in words: what a user checks first, with units."""
    kinds = [name for name in ("CPU", "GPU", "ACCELERATOR") if device.type & getattr(cl.device_type, name)]
    sizes = " x ".join(str(n) for n in device.max_work_item_sizes)
    return [
        ("type", " ".join(kinds) or str(device.type)),
        ("version", f"{device.version}, {device.opencl_c_version}"),
        ("compute units", f"{device.max_compute_units} (worker threads: {_threads()})"),
        ("max work-group size", f"{device.max_work_group_size} work-items (per dimension {sizes})"),
        ("local memory", _bytes(device.local_mem_size)),
        ("global memory", f"{_bytes(device.global_mem_size)} (one buffer at most {_bytes(device.max_mem_alloc_size)})"),
        ("SIMD width", f"{device.preferred_vector_width_float} floats, {device.preferred_vector_width_double} doubles"),
        ("printf buffer", f"{_bytes(device.printf_buffer_size)} per kernel, grows after an overflow"),
        ("OpenCL C features", " ".join(feature.name for feature in device.opencl_c_features)),
        ("extensions", device.extensions),
    ]


def _threads() -> int:
    from .engine.pool import get_pool

    return get_pool().thread_count


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}".replace(".0 ", " ")
    return f"{n} bytes"


def _local_size(text: str) -> tuple[int, int, int]:
    """`256` or `16,16`: checked against the device's limits, as a launch would check it."""
    from .runtime.device import MAX_WORK_GROUP_SIZE

    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        sizes = []
    if not 1 <= len(sizes) <= 3 or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"local size must be 1 to 3 positive integers, got {text!r}")
    items = 1
    for size in sizes:
        items *= size
    if items > MAX_WORK_GROUP_SIZE:
        raise argparse.ArgumentTypeError(
            f"local size {text} has {items} work-items; the device allows at most {MAX_WORK_GROUP_SIZE} "
            f"per work-group (and {MAX_WORK_GROUP_SIZE} per dimension)")
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
    from .driver import compiler
    from . import frontend
    from .frontend.printer import format_tree

    error = _unknown_pass(args)
    if error:
        print(error, file=sys.stderr)
        return 2
    try:
        source = open(args.file, encoding="utf-8").read()
    except OSError as exc:
        print(f"loomcl build: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as exc:
        print(f"loomcl build: {args.file} is not UTF-8 text ({exc.reason} at byte {exc.start})", file=sys.stderr)
        return 1
    options = _build_options(args)
    if args.file.endswith(".py"):
        return _build_python(args, options)
    try:
        if args.emit == "ast":
            unit = frontend.parse_program(source, frontend.parse_options(options), args.file)
            _print_warnings(unit.warnings)
            print(format_tree(unit))
            return 0
        program = compiler.build(source, options, args.file)
    except (frontend.CompileError, frontend.OptionError) as exc:
        print(getattr(exc, "log", str(exc)), file=sys.stderr)
        return 1
    return _emit(args, program)


def _build_python(args, options: str) -> int:
    """`loomcl build kernels.py`: Python kernels (loomcl/pyfront/cli.py) through the same stages."""
    from . import frontend
    from .frontend.printer import format_tree
    from .pyfront import cli

    try:
        if args.emit == "ast":
            print(format_tree(cli.translate_file(args.file)))
            return 0
        program = cli.build_file(args.file, options)
    except (frontend.CompileError, frontend.OptionError) as exc:
        print(getattr(exc, "log", str(exc)), file=sys.stderr)
        return 1
    return _emit(args, program)


def _emit(args, program) -> int:
    from .ir import print_function, print_module

    _print_warnings(program.build_log)
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
            from . import jit
            from .driver import backend

            emit = backend.llvm_ir if args.emit == "llvm" else backend.assembly
            try:
                print(emit(function, program.kernels[name], program.options))
            except jit.LLVMFailure as exc:  # LLVM failed in its compile server: its message, no traceback
                print(f"{args.file}: kernel '{name}': {exc.log}", file=sys.stderr)
                return 1
    return 0


def _print_warnings(log: str) -> None:
    if log:
        print(log, file=sys.stderr)


def cmd_demo(args) -> int:
    from .demo import main

    return main()


def cmd_cache(args) -> int:
    from .jit import cache

    if args.action == "clear":
        from .engine import choices

        count, freed = cache.clear()
        print(f"removed {count} entr{'y' if count == 1 else 'ies'} ({_bytes(freed)}) from {cache.cache_directory()}")
        forgotten = choices.clear()
        if forgotten:
            print(f"forgot {forgotten} remembered kernel variant choice{'' if forgotten == 1 else 's'}")
        return 0
    state = cache.info()
    limit = "off (LOOMCL_CACHE_SIZE=0)" if state.limit_bytes == 0 else _bytes(state.limit_bytes)
    print(f"directory  {state.directory}")
    print(f"entries    {state.entries}")
    print(f"size       {_bytes(state.total_bytes)} of {limit}")
    print(f"writable   {'yes' if state.writable else 'no (compiled kernels are kept in memory only)'}")
    return 0


def cmd_icd(args) -> int:
    """Build the ICD library if needed and print its vendor file's path last (for OCL_ICD_VENDORS)."""
    from .icd.build import SYSTEM_VENDORS, IcdUnavailable, build_library, write_vendor_file

    try:
        library = build_library()
    except IcdUnavailable as exc:
        print(f"loomcl: no ICD: {exc}", file=sys.stderr)
        return 1
    vendor = write_vendor_file(library, library.parent)
    print(f"ICD library: {library}")
    if args.install:
        try:
            installed = write_vendor_file(library, SYSTEM_VENDORS)
        except OSError as exc:
            print(f"loomcl: cannot write {SYSTEM_VENDORS / vendor.name}: {exc.strerror} "
                  "(run as root, or use OCL_ICD_VENDORS with the file below)", file=sys.stderr)
            print(vendor)
            return 1
        print(f"installed for every OpenCL program: {installed}")
        print(installed)
        return 0
    print("use it with:  export OCL_ICD_VENDORS=" + str(vendor))
    print(vendor)
    return 0


def cmd_bench(rest) -> int:
    from .bench import main

    return main(rest)


def parser() -> argparse.ArgumentParser:
    from .version import __version__

    p = argparse.ArgumentParser(prog="loomcl", description="OpenCL kernels on CPUs, from Python.")
    p.add_argument("--version", action="version", version=f"loomcl {__version__} (llvmlite {_llvmlite_version()})")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="print the platform and device as OpenCL reports them")
    sub.add_parser("demo", help="build and run a few kernels, check them against numpy, print times")
    c = sub.add_parser("cache", help="the on-disk cache of compiled kernels: where it is and how full, or empty it")
    c.add_argument("action", choices=("info", "clear"))
    i = sub.add_parser("icd", help="build loomcl's OpenCL ICD library and print its vendor file (for OCL_ICD_VENDORS)")
    i.add_argument("--install", action="store_true", help="also install the vendor file into /etc/OpenCL/vendors")
    sub.add_parser("bench", help="the benchmark suite beside PoCL (see `loomcl bench --help`)", add_help=False)
    b = sub.add_parser("build", help="compile an OpenCL C file (or a Python file of @cl.kernel functions) and "
                                     "print an intermediate form")
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


def _llvmlite_version() -> str:
    import llvmlite

    return llvmlite.__version__


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # the bench has its own argument parser
        return cmd_bench(argv[1:])
    args = parser().parse_args(argv)
    try:
        commands = {"info": cmd_info, "build": cmd_build, "demo": cmd_demo, "cache": cmd_cache, "icd": cmd_icd}
        return commands[args.command](args)
    except BrokenPipeError:  # `loomcl build ... | head`: the reader has all it wanted
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
