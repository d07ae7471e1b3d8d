"""The kernel IR: an SSA control-flow graph of typed instructions (see ../shared DESIGN, ir/)."""
from . import instructions, types
from .builder import Builder
from .function import Block, Function, KernelAttributes, Module, WorkItemLoop
from .instructions import *  # noqa: F401,F403 - the instruction classes are the IR's vocabulary
from .printer import print_function, print_module
from .values import Argument, Constant, GlobalVariable, Undef, Value, VectorConstant
from .verifier import VerificationError, verify_function, verify_module
