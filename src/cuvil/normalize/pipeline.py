"""The normalizer: origin comments first, then every pass in the one fixed order below."""

from __future__ import annotations

import dataclasses

import libcst as cst
from libcst.metadata import MetadataWrapper

from ..frontend.parse import Parsed
from .canonical import CanonicalBlocks
from .chained_compare import ChainedCompare
from .comprehensions import Comprehensions
from .elif_chain import ElifChain
from .for_in import ForInToIndex
from .fstrings import FStrings
from .int_constants import IntConstants
from .keyed_extremes import KeyedExtremes
from .lambdas import InlineLambdas
from .layout import FlatLayout
from .loop_else import LoopElse
from .names import assigned_names
from .nested_defs import NestedDefs
from .origins import AddOrigins
from .single_exit import SingleExit

PASSES: tuple[type[cst.CSTTransformer], ...] = (
    CanonicalBlocks,
    FlatLayout,
    IntConstants,
    FStrings,
    InlineLambdas,
    NestedDefs,
    KeyedExtremes,
    LoopElse,
    ElifChain,
    Comprehensions,
    ForInToIndex,
    ChainedCompare,
    SingleExit,
)


@dataclasses.dataclass(frozen=True)
class Normalized:
    module: cst.Module  # exactly one FunctionDef, every statement stamped "# L<n>"
    synthetic: frozenset[str]  # names the passes introduced (`_rv`, `_i0`, …)

    @property
    def function(self) -> cst.FunctionDef:
        fn = self.module.body[0]
        assert isinstance(fn, cst.FunctionDef)
        return fn


def stamp_origins(parsed: Parsed) -> cst.Module:
    offset = parsed.source.first_line - 1
    module = MetadataWrapper(parsed.module, unsafe_skip_copy=True).visit(AddOrigins(offset))
    fn = next(s for s in module.body if isinstance(s, cst.FunctionDef))
    return module.with_changes(body=[fn], header=(), footer=())


def run_passes(module: cst.Module) -> cst.Module:
    for pass_ in PASSES:
        module = module.visit(pass_())
    return module


def normalize(parsed: Parsed) -> Normalized:
    stamped = stamp_origins(parsed)
    module = run_passes(stamped)
    return Normalized(module, frozenset(assigned_names(module) - assigned_names(stamped)))
