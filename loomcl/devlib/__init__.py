"""The device library: OpenCL C built-in functions written as LLVM IR functions, defined once per
module where a kernel calls them, so that they inline and vectorize.

math/: the transcendental functions, branch-free, float and double (codegen/llvm_math.py chooses
between them and LLVM's intrinsics). images/: image reads, writes and samplers over the descriptor of
abi/image.py. printf.py: the helper that appends one printf record to the launch's buffer.

May import: ir, abi, llvmtext, printf (the record layout). Not codegen (codegen calls in here).
"""
