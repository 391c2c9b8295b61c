"""Regenerate the snapshots: `nox -s update-golden`. Review the diff before committing it."""

from __future__ import annotations

from pathlib import Path

import cuvil
from tests.golden.programs import GOLDEN

HERE = Path(__file__).parent


def kernel_source(name: str) -> str:
    fn, options = GOLDEN[name]
    return cuvil.jit(fn, **options).source("kernel")


def main() -> None:
    for name in GOLDEN:
        (HERE / f"{name}.golden").write_text(kernel_source(name))
        print(f"wrote tests/golden/{name}.golden")


if __name__ == "__main__":
    main()
