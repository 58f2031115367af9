"""arch_flags.py CPP_EXTENSION_PY - run torch.utils.cpp_extension's own
_get_cuda_arch_flags() on $TORCH_CUDA_ARCH_LIST without a torch install:
only that function is taken from the module's source (ast) and run with
the modules it uses; `torch` is a stub that fails if the function ever
needs it (it does not when TORCH_CUDA_ARCH_LIST is set).  Prints one
flag per line; exit 3 with the function's message when it refuses."""
import ast
import collections
import logging
import os
import re
import sys


class NoTorch:
    def __getattr__(self, name):
        raise RuntimeError("torch." + name + " needed: is TORCH_CUDA_ARCH_LIST set?")


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    fns = [n for n in tree.body
           if isinstance(n, ast.FunctionDef) and n.name == "_get_cuda_arch_flags"]
    if len(fns) != 1:
        print(path + ": no _get_cuda_arch_flags", file=sys.stderr)
        return 2
    ns = {"os": os, "re": re, "collections": collections, "torch": NoTorch(),
          "logger": logging.getLogger("cpp_extension")}
    exec(compile(ast.Module(body=fns, type_ignores=[]), path, "exec"), ns)
    try:
        flags = ns["_get_cuda_arch_flags"]()
    except ValueError as e:
        print(e, file=sys.stderr)
        return 3
    for flag in flags:
        print(flag)
    return 0


if __name__ == "__main__":
    sys.exit(main())
