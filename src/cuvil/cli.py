"""The `cuvil` command: `demo`, `inspect`, `diff`, `cache`, `doctor`."""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from pathlib import Path


def _demo(args: argparse.Namespace) -> int:
    from . import demo

    print("Cuvil demo: plain Python loops, compiled by @cuvil.jit, timed against CPython and NumPy.")
    print("(medians of several runs; CPython runs on a smaller input and is scaled up)\n")
    print(demo.run(scale=args.scale, repeat=args.repeat))
    return 0


def _inspect(args: argparse.Namespace) -> int:
    path, _, name = args.target.partition(":")
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if spec is None or spec.loader is None or not name:
        print(f"cuvil inspect: expected FILE.py:FUNCTION, got {args.target!r}", file=sys.stderr)
        return 2
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    import cuvil

    fn = getattr(module, name)
    jitted = fn if getattr(fn, "__cuvil_jit__", False) else cuvil.jit(fn)
    print(jitted.source(args.stage))
    return 0


def _diff(args: argparse.Namespace) -> int:
    from .inspect import cli_diff

    return cli_diff.run(args.target, args.shapes, args.sweep)


def _cache(args: argparse.Namespace) -> int:
    from .runtime.cache_root import cache_root

    root = cache_root()
    entries = [p for p in root.iterdir() if p.is_dir() and p.name != "validated"] if root.exists() else []
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file()) if root.exists() else 0
    print(f"{root}: {len(entries)} entries, {size / 1e6:.1f} MB")
    if args.clear:
        shutil.rmtree(root, ignore_errors=True)
        print("cleared")
    return 0


def _doctor(args: argparse.Namespace) -> int:
    import llvmlite
    import numba
    import numpy

    from . import __version__
    from .runtime.cache_root import cache_root

    print(f"cuvil {__version__}, python {sys.version.split()[0]}")
    print(f"numba {numba.__version__}, llvmlite {llvmlite.__version__}, numpy {numpy.__version__}")
    for optional in ("scipy", "torch", "libcst"):
        found = importlib.util.find_spec(optional) is not None
        print(f"{optional}: {'yes' if found else 'no'}")
    print(f"cache: {cache_root()}")
    from .runtime import threads

    print(f"threading layer for parallel=True: {threads.describe()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cuvil", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="time built-in kernels against Python and NumPy")
    demo.add_argument("--scale", type=float, default=1.0, help="problem size factor")
    demo.add_argument("--repeat", type=int, default=5)
    demo.set_defaults(run=_demo)
    insp = sub.add_parser("inspect", help="print a stage of a function: FILE.py:FUNCTION")
    insp.add_argument("target")
    insp.add_argument("--stage", default="kernel", choices=("normalized", "cfg", "kernel"))
    insp.set_defaults(run=_inspect)
    diff = sub.add_parser("diff", help="how two variants of FILE.py:FUNCTION differ, or a batch-size sweep")
    diff.add_argument("target")
    diff.add_argument("--shapes", nargs="+", required=True, metavar="SPEC",
                      help="arguments, e.g. '[8,64]:float32 5' (two SPECs; one with B in a shape for --sweep)")
    diff.add_argument("--sweep", metavar="FROM..TO", help="sizes for B, e.g. 1..32")
    diff.set_defaults(run=_diff)
    cache = sub.add_parser("cache", help="show (or --clear) the disk cache")
    cache.add_argument("--clear", action="store_true")
    cache.set_defaults(run=_cache)
    sub.add_parser("doctor", help="versions and settings").set_defaults(run=_doctor)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
