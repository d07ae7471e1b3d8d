"""The calling convention between generated code and the engine that calls it: data only.

kernel.py: a kernel's signature and parameter kinds, the 64-bit argument slots, `struct launch`,
the entry point's C type, checked mode's record, the arena's alignment. image.py: the image
descriptor and the sampler bits. Both sides read these definitions: codegen/ and devlib/ when they
write the entry wrapper and the helpers, the runtime and engine/ when they fill the argument block.

May import: the standard library and numpy only (every other package may import this one).
"""
