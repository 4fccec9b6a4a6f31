"""The benchmarks (make bench), each with its figures in its docstring."""
