"""Run the engine's docstring examples under their installed names."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "abilities",
    "flow",
    "game",
    "grid",
    "paths",
    "rules",
    "scoring",
    "setup",
    "spirits",
    "storm",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"zefiria.engine.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
