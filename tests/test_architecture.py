"""The import graph of `workers`, `pipeline` and `tools` (docs/architecture.md): no module imports
itself through others, and no import points up the layers, nor sideways between packages of
one layer. Imports inside functions count too: a late import is still a dependency."""
from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from workers.moved import MOVED

ROOT = Path(__file__).resolve().parents[1]
# Bottom to top; a module may import the modules of its own layer and of the layers below.
LAYERS = (
    ("workers", "workers.errors", "workers.inputs", "workers.moved"),
    ("workers.engine",),
    ("workers.players",),
    ("workers.protocol",),
    ("workers.learning",),
    ("workers.sabberstone",),
    ("pipeline", "pipeline.run_errors", "pipeline.card_data", "pipeline.deck_space", "pipeline.behavior_space"),
    ("pipeline.cluster",),
    ("pipeline.state",),
    ("pipeline.search",),
    ("pipeline.report",),
    ("pipeline.driver", "pipeline.__main__"),
    ("tools",),
)
RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}


def module_files() -> dict[str, Path]:
    modules = {}
    for top in ("workers", "pipeline", "tools"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules) -> set[str]:
    """The project modules `name` imports, wherever in the file (`from . import x` is module x)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + ([base] if node.module else [])
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and not (name == target or name.startswith(target + ".")):  # a package is
                found.add(target)  # imported before its modules anyway: not a dependency
    return found


def layer_of(module: str) -> int:
    """The layer of the longest LAYERS entry that `module` is or lies in."""
    best = max((p for p in RANK if module == p or module.startswith(p + ".")), key=len, default=None)
    assert best is not None, f"{module} is in no layer of tests/test_architecture.py: add it there"
    return RANK[best]


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_imports_point_down_the_layers(graph):
    wrong = []
    for module, targets in graph.items():
        for target in targets:
            if layer_of(target) > layer_of(module):
                wrong.append(f"{module} imports {target}, a layer above it")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_module_imports_itself_through_others(graph):
    cycles, state = [], {}

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "\n".join(cycles)


def test_the_checker_sees_an_import_that_points_up(tmp_path):
    """The graph is built from the sources: a lower package importing a higher one is found."""
    (tmp_path / "workers" / "engine").mkdir(parents=True)
    (tmp_path / "workers" / "__init__.py").write_text("")
    (tmp_path / "workers" / "engine" / "__init__.py").write_text("")
    (tmp_path / "workers" / "engine" / "state.py").write_text("def f():\n    from ..protocol import evaluate\n")
    (tmp_path / "workers" / "protocol").mkdir()
    (tmp_path / "workers" / "protocol" / "__init__.py").write_text("")
    (tmp_path / "workers" / "protocol" / "evaluate.py").write_text("from ..engine.state import f\n")
    modules = {"workers.engine.state": tmp_path / "workers" / "engine" / "state.py",
               "workers.protocol.evaluate": tmp_path / "workers" / "protocol" / "evaluate.py",
               "workers.engine": tmp_path / "workers" / "engine" / "__init__.py",
               "workers.protocol": tmp_path / "workers" / "protocol" / "__init__.py"}
    found = imports_of("workers.engine.state", modules["workers.engine.state"], modules)
    assert found == {"workers.protocol", "workers.protocol.evaluate"}
    assert layer_of("workers.protocol.evaluate") > layer_of("workers.engine.state")


def test_an_old_module_path_names_its_new_one():
    done = subprocess.run([sys.executable, "-m", "workers.tournament", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "workers.tournament has moved to tools.tournament" in done.stderr
    with pytest.raises(ModuleNotFoundError, match="pipeline.config has moved to pipeline.state.config"):
        importlib.import_module("pipeline.config")


@pytest.mark.parametrize("old", sorted(MOVED))
def test_each_moved_path_names_a_module_that_exists(old):
    new = MOVED[old].split()[0]
    assert importlib.util.find_spec(new) is not None, f"{old} names {new}, which does not exist"
    assert old not in module_files(), f"{old} exists again; remove it from workers/moved.py"


def _repeated(names: dict[str, list[str]]) -> dict[str, list[str]]:
    return {name: sorted(places) for name, places in names.items() if len(places) > 1}


def test_no_two_modules_share_a_file_name():
    """A file name says which module it is, in a traceback, an editor's tab or a grep."""
    by_name: dict[str, list[str]] = {}
    for module, path in module_files().items():
        if path.name not in ("__init__.py", "__main__.py"):
            by_name.setdefault(path.name, []).append(module)
    assert not _repeated(by_name)


def test_no_two_classes_share_a_name():
    by_name: dict[str, list[str]] = {}
    for module, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                by_name.setdefault(node.name, []).append(module)
    assert not _repeated(by_name)
