"""Shared fixtures: the project's paths and the built site."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session")
def site() -> Path:
    """The site as `make site` built it (make test builds it first)."""
    if not (SITE / "index.html").exists():
        pytest.fail("site/ is not built: run `make test`, which builds it first")
    return SITE
