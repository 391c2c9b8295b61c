"""The CFG as libcst metadata: for each statement, its block id and that block's predecessors."""

from __future__ import annotations

import dataclasses

import libcst as cst
from libcst.metadata import BatchableMetadataProvider, MetadataWrapper

from ..normalize.origins import origin_of
from .build import build_function


@dataclasses.dataclass(frozen=True)
class StatementInfo:
    block: int
    preds: tuple[int, ...]


class CfgProvider(BatchableMetadataProvider[StatementInfo]):
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        cfg = build_function(node)
        for stmt, block in cfg.block_of.items():
            self.set_metadata(stmt, StatementInfo(block, tuple(cfg.blocks[block].preds)))
        return False


class _Label(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (CfgProvider,)

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        info = self.get_metadata(CfgProvider, original, None)
        if info is None:
            return updated
        preds = ",".join(f"B{p}" for p in info.preds) or "-"
        label = f"# L{origin_of(original)}  B{info.block} <- {preds}"
        if isinstance(updated, cst.SimpleStatementLine):
            ws = updated.trailing_whitespace
            return updated.with_changes(trailing_whitespace=ws.with_changes(comment=cst.Comment(label)))
        assert isinstance(updated, cst.If | cst.For | cst.While)
        header = updated.body.header.with_changes(comment=cst.Comment(label))  # type: ignore[attr-defined]
        return updated.with_changes(body=updated.body.with_changes(header=header))


def cfg_source(module: cst.Module) -> str:
    """The normalized source with every statement's block and predecessors: `# L5  B2 <- B0,B1`."""
    return MetadataWrapper(module, unsafe_skip_copy=True).visit(_Label()).code
