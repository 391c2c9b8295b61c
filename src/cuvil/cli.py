"""The `cuvil` command: `demo`, `inspect`, `diff`, `cache`, `doctor`."""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import shutil
import sys
import traceback
from pathlib import Path
from typing import Any


def _demo(args: argparse.Namespace) -> int:
    from . import demo

    print("Cuvil demo: plain Python loops, compiled by @cuvil.jit, timed against CPython and NumPy.")
    print(f"(at the sizes shown; numpy and cuvil: the median of {args.repeat} or more runs (a fast kernel runs for")
    print(f" ~{demo.STEADY_S:g} s) and, in brackets, the middle half of the runs (interquartile range), after one")
    print(" untimed run that touches the memory; CPython runs on a smaller input, scaled up; each kernel's first")
    print(" call, which compiles or loads it from the cache, is not in its time)\n")
    print(demo.run(scale=args.scale, repeat=args.repeat, only=tuple(args.only)))
    return 0


def _inspect(args: argparse.Namespace) -> int:
    from .errors import CuvilError

    try:
        fn = load_function(args.target, "inspect")
        import cuvil

        jitted = fn if getattr(fn, "__cuvil_jit__", False) else cuvil.jit(fn)
        print(jitted.source(args.stage))
    except TargetError as exc:
        print(exc, file=sys.stderr)
        return 2
    except CuvilError as exc:  # the user's code, at the user's line: the message is the whole story
        print(f"cuvil {args.command}: {exc}", file=sys.stderr)
        return 1
    return 0


class TargetError(Exception):
    """FILE.py:FUNCTION names nothing that can be loaded: said in one line (or the file's own traceback, when
    running it raised), never a traceback through Cuvil or importlib."""


def load_function(target: str, command: str) -> Any:
    """The object FILE.py:FUNCTION names, the file run as a module with its folder first on sys.path (as
    `python FILE.py` would put it, so the file's own imports of its neighbours work)."""
    from .errors import CuvilError

    path, _, name = target.rpartition(":")
    if not path or not name.isidentifier():
        raise TargetError(f"cuvil {command}: expected FILE.py:FUNCTION, got {target!r}")
    file = Path(path)
    if not file.is_file():
        raise TargetError(f"cuvil {command}: no such file: {path}")
    spec = importlib.util.spec_from_file_location(file.stem, file)
    if spec is None or spec.loader is None:
        raise TargetError(f"cuvil {command}: {path} is not a Python file")
    folder = str(file.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except CuvilError:
        raise
    except SyntaxError as exc:
        raise TargetError(f"cuvil {command}: {path}:{exc.lineno}: {exc.msg}") from None
    except Exception as exc:  # the file's own error: its traceback, without the import machinery's frames
        shown = traceback.TracebackException.from_exception(exc)
        shown.stack = traceback.StackSummary.from_list(
            [f for f in shown.stack if f.filename != __file__ and not f.filename.startswith("<frozen")])
        raise TargetError(f"cuvil {command}: running {path} failed:\n" + "".join(shown.format()).rstrip()) from None
    fn = getattr(module, name, None)
    if fn is None:
        defined = sorted(k for k, v in vars(module).items()
                         if callable(v) and getattr(v, "__module__", None) == spec.name)
        known = f" (it defines: {', '.join(defined)})" if defined else ""
        raise TargetError(f"cuvil {command}: {path} has no function {name!r}{known}")
    if not (inspect.isfunction(fn) or getattr(fn, "__cuvil_jit__", False)):
        raise TargetError(f"cuvil {command}: {path}:{name} is not a function ({type(fn).__name__})")
    return fn


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
    demo.add_argument("--repeat", type=int, default=7, help="timed runs per system, at least (CPython: half)")
    demo.add_argument("--only", nargs="+", default=[], metavar="KERNEL",
                      help="run only these kernels (saxpy, pairwise, escape, stencil)")
    demo.set_defaults(run=_demo)
    insp = sub.add_parser(
        "inspect", help="print a stage of a function: FILE.py:FUNCTION",
        description="Print what Cuvil makes of one function, without calling it. The file is imported as a module "
                    "(not as __main__), with its folder first on sys.path: its top-level code runs, except what "
                    "stands under `if __name__ == \"__main__\":`. The function may be plain or decorated with "
                    "@cuvil.jit; a plain one is checked against the supported subset as @cuvil.jit would.")
    insp.add_argument("target", metavar="FILE.py:FUNCTION", help="the file and the name of a function defined in it")
    insp.add_argument("--stage", default="kernel", choices=("normalized", "cfg", "plan", "kernel"),
                      help="normalized: the canonical form (index loops, one exit), each line marked with its line "
                           "in your file; cfg: that form with each statement's block and predecessors; plan: the "
                           "loop nests, allocations and parallel decisions; kernel (default): the generated Numba "
                           "source. plan and kernel are those of the variant generated before any call (every dim "
                           "dynamic)")
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
