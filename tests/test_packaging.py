"""The folder layout the design card fixes, and the dependency direction between packages."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"engine": "zefiria.engine", "vision": "zefiria.vision", "device": "zefiria.device"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_every_code_folder_with_python_is_a_declared_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    declared = set(config["tool"]["setuptools"]["packages"])
    for folder, package in PACKAGES.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            name = ".".join([package, *rel.parts])
            assert name in declared, f"{init.parent} is not listed in pyproject's packages"


def test_engine_uses_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names)
    for path in (ROOT / "engine").rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            assert top in stdlib or name.startswith("zefiria.engine"), f"{path}: imports {name}"


def test_vision_never_imports_the_device() -> None:
    for path in (ROOT / "vision").rglob("*.py"):
        assert not any(n.startswith("zefiria.device") for n in _imports(path)), path


def test_engine_never_imports_vision_or_device() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        bad = [n for n in _imports(path) if n.startswith(("zefiria.vision", "zefiria.device"))]
        assert not bad, f"{path}: {bad}"
