"""The programs the compile-time section builds: the generated ones always, hashcat's kernels when
hashcat is installed (`apt-get install hashcat`: /usr/share/hashcat/OpenCL, or the directory in
LOOMCL_BENCH_HASHCAT_DIR).

hashcat builds a kernel file with its include directory and these -D options (its backend.c); the
values are those of a CPU device with scalar code (VECT_SIZE=1) and an MD5-style digest layout.
hashcat also passes the function-like macros -D XM2S(x)=#x -D M2S(x)=XM2S(x), which the source
defines here itself, so that every implementation gets them the same way.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import synthetic

HASHCAT_DIR = Path("/usr/share/hashcat/OpenCL")
HASHCAT_FILES = ("m00000_a3-optimized.cl", "m01400_a3-optimized.cl", "m01700_a3-optimized.cl",
                 "m00000_a0-pure.cl")
HASHCAT_DEFINES = ("-D KERNEL_STATIC -D LOCAL_MEM_TYPE=2 -D VENDOR_ID=64 -D CUDA_ARCH=0 -D HAS_VPERM=0 "
                   "-D HAS_VADD3=0 -D HAS_VBFE=0 -D HAS_BFE=0 -D HAS_LOP3=0 -D HAS_MOV64=0 -D HAS_PRMT=0 "
                   "-D VECT_SIZE=1 -D DEVICE_TYPE=2 -D DGST_R0=0 -D DGST_R1=3 -D DGST_R2=2 -D DGST_R3=1 "
                   "-D DGST_ELEM=4 -D KERN_TYPE=0 -D ATTACK_EXEC=11 -D ATTACK_KERN=3 -D MAX_L=0")
STRINGIFY = "#define XM2S(x) #x\n#define M2S(x) XM2S(x)\n"


@dataclass(frozen=True)
class LargeProgram:
    name: str
    source: str
    options: str
    kernel: str             # the kernel the first launch runs (on one work-group of 64)


def synthetic_program(name: str, shape: synthetic.Shape) -> LargeProgram:
    program = synthetic.generate(shape)
    return LargeProgram(name, program.source, "", program.kernels[1])  # k1: the one with a barrier


def hashcat_dir() -> Path | None:
    found = Path(os.environ.get("LOOMCL_BENCH_HASHCAT_DIR") or HASHCAT_DIR)
    return found if (found / HASHCAT_FILES[0]).is_file() else None


def hashcat_programs() -> list[LargeProgram]:
    directory = hashcat_dir()
    if directory is None:
        return []
    programs = []
    for name in HASHCAT_FILES:
        path = directory / name
        if not path.is_file():
            continue
        source = STRINGIFY + path.read_text(errors="replace")
        options = f"-I {directory} -D INCLUDE_PATH={directory} {HASHCAT_DEFINES}"
        kernel = "m00000_m04" if "optimized" in name else "m00000_mxx"
        programs.append(LargeProgram(name.removesuffix(".cl"), source, options, kernel.replace("00000", name[1:6])))
    return programs


def programs(quick: bool) -> list[LargeProgram]:
    """Quick: the small generated program alone (a smoke test of the section)."""
    if quick:
        return [synthetic_program("generated-small", synthetic.SMALL)]
    return [synthetic_program("generated-large", synthetic.LARGE)] + hashcat_programs()
