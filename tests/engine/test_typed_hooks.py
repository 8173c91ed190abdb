"""The card hooks re-applied after every action (auras, enrages, cost auras) and the cost hooks
asked for cards in hand are typed, with the module functions they call: compiled, a typed hook
reads the engine's fields directly, an untyped one looks each up by name (docs/engine.md,
"Typed hooks"). The other card scripts stay plain Python. Read from the sources (a compiled
function keeps no annotations), for every hook the scripts register."""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import workers.engine.cards  # noqa: F401  (registers every script)
from workers.engine.cardspec import SCRIPTS

ROOT = Path(__file__).resolve().parents[2]
# The Script fields whose hooks run after every action, or for every such card in hand.
TYPED_HOOKS = ("aura", "enrage", "cost", "cost_aura")


@lru_cache(maxsize=None)
def _module_functions(module: str) -> dict[str, ast.FunctionDef]:
    """The module-level functions of a module of the repository, by name, from its source."""
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def untyped(node: ast.FunctionDef, functions: dict[str, ast.FunctionDef],
            seen: set[str] | None = None) -> list[str]:
    """The names of `node` and of the module functions it calls (`functions`, by name), directly
    or not, that lack a parameter's or the return annotation."""
    seen = set() if seen is None else seen
    if node.name in seen:
        return []
    seen.add(node.name)
    args = node.args
    params = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
    out = [node.name] if node.returns is None or any(a.annotation is None for a in params) else []
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in functions:
            out += untyped(functions[call.func.id], functions, seen)
    return out


def registered_hooks() -> list[tuple[str, str, object]]:
    """(card id, field, function) of every typed-hook field some script sets."""
    return [(card_id, name, getattr(script, name)) for card_id, script in sorted(SCRIPTS.items())
            for name in TYPED_HOOKS if getattr(script, name) is not None]


def test_hooks_run_after_every_action_are_typed():
    hooks = registered_hooks()
    assert len(hooks) >= 30  # the scripts were found
    problems = []
    for card_id, name, fn in hooks:
        module, fn_name = getattr(fn, "__module__", None), getattr(fn, "__name__", "")
        functions = _module_functions(module) if module and module.startswith("workers.") else {}
        node = functions.get(fn_name)
        if node is None:  # a lambda, or defined elsewhere: nothing here says it is typed
            problems.append(f"{card_id} {name}: {module}.{fn_name} is not a module-level def")
            continue
        problems += [f"{card_id} {name}: {module}.{bad} is untyped" for bad in untyped(node, functions)]
    assert not problems, "\n".join(problems)


def test_the_check_finds_an_untyped_hook_and_helper():
    functions = {node.name: node for node in ast.parse(
        "def hook(g: GameState, owner: int, me: Minion) -> None:\n    helper(me)\n"
        "def helper(m):\n    return m\n"
        "def bare(g, owner, me):\n    pass\n").body if isinstance(node, ast.FunctionDef)}
    assert untyped(functions["hook"], functions) == ["helper"]
    assert untyped(functions["bare"], functions) == ["bare"]
    assert untyped(functions["helper"], functions) == ["helper"]
