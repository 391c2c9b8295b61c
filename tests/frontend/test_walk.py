"""frontend/walk.py visits without copying, and must call a visitor's hooks exactly as `node.visit` does: the
same nodes, in the same order, children skipped where a hook returns False. Compared event by event on every
node class libcst's and Cuvil's own sources hold, and on generated programs."""

from __future__ import annotations

import pathlib

import libcst as cst
import pytest
from hypothesis import given, settings

import cuvil
from cuvil.frontend import walk as walking
from tests.fuzz.generator import programs

NODE_CLASSES = sorted(n for n, v in vars(cst).items() if isinstance(v, type) and issubclass(v, cst.CSTNode))


def _recorder(skip: frozenset[str] = frozenset()) -> type:
    """A visitor with a visit_ and a leave_ hook for every node class, recording each call; visit_ returns False
    for the classes in `skip` (their children are not visited) and None otherwise."""
    def hooks(name):
        def enter(self, node):
            self.events.append(("visit", name, id(node)))
            return False if name in skip else None

        def leave(self, node):
            self.events.append(("leave", name, id(node)))

        return {f"visit_{name}": enter, f"leave_{name}": leave}

    body = {k: v for name in NODE_CLASSES for k, v in hooks(name).items()}
    return type("Recorder", (cst.CSTVisitor,), {**body, "__init__": lambda self: setattr(self, "events", [])})


def _same_events(module: cst.Module, skip: frozenset[str] = frozenset()) -> int:
    recorder = _recorder(skip)
    by_libcst, by_walk = recorder(), recorder()
    module.visit(by_libcst)
    walking.walk(module, by_walk)
    assert by_walk.events == by_libcst.events
    return len(by_walk.events)


SOURCES = sorted(pathlib.Path(cst.__file__).parent.glob("_nodes/*.py")) + \
    sorted(pathlib.Path(cuvil.__file__).parent.glob("*/*.py"))[:40]


@pytest.mark.parametrize("skip", [frozenset(), frozenset({"Attribute", "Call", "Lambda", "FunctionDef"})],
                         ids=["all", "skipping"])
def test_the_walk_calls_what_libcst_calls_on_real_sources(skip):
    seen: set[str] = set()
    for path in SOURCES:
        module = cst.parse_module(path.read_text())
        assert _same_events(module, skip) > 0
        if not skip:
            recorder = _recorder()()
            walking.walk(module, recorder)
            seen.update(name for _, name, _ in recorder.events)
    if not skip:
        assert len(seen) > 100  # the sources reach most node classes (whitespace, operators, statements …)


@settings(max_examples=30)
@given(program=programs())
def test_the_walk_calls_what_libcst_calls_on_generated_programs(program):
    module = cst.parse_module(program.source)
    _same_events(module)
    _same_events(module, frozenset({"If", "Subscript"}))


def test_visitors_libcst_must_walk_are_walked_by_libcst():
    """Attribute hooks are called between a node's children, and an own on_visit decides for every node: those
    visitors are handed to libcst's own walk."""
    calls = []

    class Attribute(cst.CSTVisitor):
        def visit_Call_func(self, node):
            calls.append("func")

    class Own(cst.CSTVisitor):
        def on_visit(self, node):
            calls.append(type(node).__name__)
            return False

    module = cst.parse_module("f(x)\n")
    walking.walk(module, Attribute())
    walking.walk(module, Own())
    assert calls == ["func", "Module"]
