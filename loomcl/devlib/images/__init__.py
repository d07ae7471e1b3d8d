"""Image built-ins as LLVM IR helpers: reads (read.py) with samplers and filtering, texel loads and
conversions (texel.py, channels.py), writes (store.py), over abi/image.py's descriptor."""
