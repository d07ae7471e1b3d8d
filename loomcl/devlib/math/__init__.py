"""Math built-ins as vectorizable LLVM IR functions (see codegen/llvm_math.py for which function is
where). Each module offers `supports(function, type)` and `libm_function(module, function, type)`."""
