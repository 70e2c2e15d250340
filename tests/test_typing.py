"""pqlab's public API is typed (issue 33: no ``py.typed``, string annotations, ``seed``
unannotated):
every public function and method is annotated, with no string annotations, and mypy (configured in
pyproject.toml's ``[tool.mypy]``) finds no error in the modules that define the public names."""

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

import pqlab

ROOT = Path(__file__).resolve().parents[1]
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def _public_names() -> dict[str, set[str]]:
    """Module defining it -> the public names (of ``pqlab.__all__`` and the public modules'
    ``__all__``, or
    their names without a leading underscore where a module has no ``__all__``)."""
    found: dict[str, set[str]] = {}
    for module in (pqlab, *pqlab.PUBLIC_MODULES.values()):
        listed = getattr(module, "__all__", None)
        for name in (
            listed if listed is not None else [n for n in vars(module) if not n.startswith("_")]
        ):
            value = getattr(module, name)
            owner = getattr(value, "__module__", None) if not inspect.ismodule(value) else None
            if listed is None and owner != module.__name__:  # imported, not its own
                continue
            if (
                owner
                and owner.startswith("pqlab")
                and (inspect.isfunction(value) or inspect.isclass(value))
            ):
                found.setdefault(owner, set()).add(value.__name__)
    return found


def _callables(module: str, names: set[str]):
    tree = ast.parse(Path(importlib.import_module(module).__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and node.name in names:
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and (
                    not member.name.startswith("_") or member.name == "__post_init__"
                ):
                    yield f"{node.name}.{member.name}", member


def test_every_public_function_and_method_is_annotated_without_strings():
    missing, strings = [], []
    for module, names in sorted(_public_names().items()):
        for name, node in _callables(module, names):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            arguments += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
            bare = [
                a.arg for a in arguments if a.annotation is None and a.arg not in ("self", "cls")
            ]
            if bare or node.returns is None:
                missing.append(
                    f"{module}.{name}: {bare}{' and its return' if node.returns is None else ''}"
                )
            for annotation in [a.annotation for a in arguments] + [node.returns]:
                if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                    strings.append(f"{module}.{name}: {annotation.value!r}")
    assert missing == [] and strings == []


def test_simulate_and_simulate_arrivals_annotate_their_seed():
    assert inspect.signature(pqlab.simulate, eval_str=True).parameters["seed"].annotation is int
    assert (
        inspect.signature(pqlab.simulate_arrivals, eval_str=True).parameters["seed"].annotation
        == int | None
    )


def test_mypy_checks_every_module_defining_a_public_name():
    checked = {
        ".".join(Path(f).with_suffix("").parts).removesuffix(".__init__") for f in MYPY["files"]
    }
    assert set(_public_names()) | {"pqlab"} <= checked


@pytest.mark.slow  # mypy over the package
def test_mypy_is_clean_on_the_public_api():
    """``python -m mypy`` with pyproject.toml's configuration (its cache in .mypy_cache: a second
    run takes
    seconds, a first about 30 CPU-seconds)."""
    pytest.importorskip("mypy", reason="mypy is in the test extra")
    done = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout
