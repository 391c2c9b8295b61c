"""`walk(node, visitor)`: a read-only visit of a libcst tree that calls a `CSTVisitor`'s `visit_X` and `leave_X`
in the order `node.visit(visitor)` calls them, without copying the tree.

Why: `CSTNode.visit` rebuilds every node it passes, for visitors as for transformers (libcst's
`_visit_and_replace_children`; its own comment: "TODO: provide traversal where children are not replaced"). The
analyses ask the same function dozens of questions per compile (which names it assigns, which calls it makes,
what it reads), one visitor each; those walks were a sixth of a compile's time, the copying most of it.

The order of a node's children is libcst's own: read once per node class from the fields its
`_visit_and_replace_children` passes to `visit_required`/`visit_sequence`/…, in the order it passes them (which
is not always the dataclass's field order: `Del` visits its target before its whitespace). A visitor with
attribute hooks (`visit_Call_func`) or its own `on_visit`/`on_leave`, or a node class whose source cannot be
read, is visited by libcst itself.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import weakref
from typing import Any

import libcst as cst

_Plan = tuple[str | None, str | None, tuple[str, ...]]  # (visit hook, leave hook, child fields in order)
_ORDERS: dict[type, tuple[str, ...] | None] = {}
# Per visitor class (many are local classes, made per call: weak keys) its hooks and, per node class, its plan
# (None: libcst walks that class); None for a visitor libcst walks.
_Plans = tuple[frozenset[str], dict[type, _Plan | None]]
_PLANS: weakref.WeakKeyDictionary[type, _Plans | None] = weakref.WeakKeyDictionary()
_GENERIC = ("on_visit", "on_leave", "on_visit_attribute", "on_leave_attribute")


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    cls = type(visitor)
    if cls not in _PLANS:
        _PLANS[cls] = _plans_for(cls)
    plans = _PLANS[cls]
    if plans is None:
        node.visit(visitor)
    else:
        _visit(node, visitor, plans)


def _plans_for(cls: type) -> _Plans | None:
    if cst.CSTVisitor not in cls.__mro__ or cst.CSTTransformer in cls.__mro__:  # the MRO: see _shape
        return None
    if any(getattr(cls, name) is not getattr(cst.CSTVisitor, name) for name in _GENERIC):
        return None
    hooks = _hooks(cls)
    if any(hook.split("_", 1)[1] not in _node_names() for hook in hooks):
        return None  # an attribute hook (`visit_Call_func`), which libcst calls between children
    return hooks, {}


def _hooks(cls: type) -> frozenset[str]:
    """The visit_/leave_ methods `cls` defines (CSTVisitor itself defines an empty one for every node)."""
    found: set[str] = set()
    for klass in cls.__mro__:
        if klass is cst.CSTVisitor:
            break
        found.update(n for n in vars(klass) if n.startswith(("visit_", "leave_")))
    return frozenset(found)


@functools.cache
def _node_names() -> frozenset[str]:
    # by the MRO, not issubclass: CSTNode is an ABC, and its subclass check of a class outside it visits every
    # node class (0.1-0.3 s of a process's first compile, measured)
    return frozenset(n for n, v in vars(cst).items() if isinstance(v, type) and cst.CSTNode in v.__mro__)


def _visit(node: cst.CSTNode, visitor: Any, hooks_plans: _Plans) -> None:
    hooks, plans = hooks_plans
    kind = type(node)
    if kind not in plans:
        order, name = _order(kind), kind.__name__
        plans[kind] = None if order is None else (f"visit_{name}" if f"visit_{name}" in hooks else None,
                                                  f"leave_{name}" if f"leave_{name}" in hooks else None, order)
    plan = plans[kind]
    if plan is None:  # libcst walks this subtree: the same hooks, in the same order (none between children)
        node.visit(visitor)
        return
    enter, leave, fields = plan
    if enter is None or getattr(visitor, enter)(node) is not False:
        for field in fields:
            value = getattr(node, field)
            shape = _SHAPES.get(type(value))
            if shape is None:
                shape = _SHAPES[type(value)] = _shape(type(value))
            if shape == _NODE:
                _visit(value, visitor, hooks_plans)
            elif shape == _NODES:
                for child in value:
                    _visit(child, visitor, hooks_plans)
    if leave is not None:
        getattr(visitor, leave)(node)


_NODE, _NODES, _OTHER = 1, 2, 0
_SHAPES: dict[type, int] = {}  # per class of a field's value: a node, a sequence of nodes, anything else


def _shape(kind: type) -> int:
    # by the MRO, not isinstance: CSTNode is an ABC, and its first check of each class outside it (str, None,
    # MaybeSentinel) visits every node class, again after any ABC anywhere registers a class
    return _NODE if cst.CSTNode in kind.__mro__ else _NODES if kind in (tuple, list) else _OTHER


def _order(kind: type) -> tuple[str, ...] | None:
    if kind in _ORDERS:
        return _ORDERS[kind]
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(kind._visit_and_replace_children)))  # type: ignore[attr-defined]
    except (OSError, TypeError, SyntaxError):  # no source (a frozen install): libcst walks these
        _ORDERS[kind] = None
        return None
    fields = sorted((c.lineno, c.col_offset, str(c.args[1].value)) for c in ast.walk(tree)
                    if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id.startswith("visit_")
                    and len(c.args) >= 2 and isinstance(c.args[1], ast.Constant))
    # once each: `ImportFrom` names a field in both arms of a conditional (one node, or a sequence of them)
    order = tuple(dict.fromkeys(field for _, _, field in fields))
    _ORDERS[kind] = order
    return order
