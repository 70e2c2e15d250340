"""Mutation testing of the engine, framing, metrics, bounds and streaming carry-over.

Every mutant is one single-point change of the source, generated from the syntax tree
(``ast``) and written as a textual edit at the node's position, so the rest of the
file keeps its formatting. Each mutant is run in a temporary COPY of the repository
(never in the checkout, which other processes may be importing): the mutated file is
written there, ``__pycache__`` and numba's cache (``*.nbi``/``*.nbc``; plus a fresh
``NUMBA_CACHE_DIR``) are cleared so numba recompiles the mutated kernels, and the
ordinary test command ``python -m pytest -q -x`` runs the whole test suite against
it, with the contract/engine/framing/metrics/bounds test files first (they kill most
mutants in seconds) and then every other test. A mutant is

* ``killed``: a test failed (the first failing test is printed);
* ``timeout``: the suite did not finish in the per-mutant time limit (counted as
  killed: a hang is a detected fault);
* ``survived``: the whole suite passed;
* ``equivalent``: listed in ``benchmarks/mutants_equivalent.txt`` with a reason
  (not run unless ``--check-equivalent``; excluded from the score);
* ``compile error``: the edit is not valid Python (not a mutant; excluded).

Score = (killed + timeout) / (mutants - equivalent - compile errors).

Mutation operators (located generically by walking the AST, never by line number):

* ``ROR``: relational operators, ``<`` -> ``<=``/``>=``, ``<=`` -> ``<``/``>``,
  ``>`` -> ``>=``/``<=``, ``>=`` -> ``>``/``<``, ``==`` <-> ``!=``;
* ``AOR``: arithmetic, ``+`` <-> ``-``, ``*`` <-> ``/``, ``//`` -> ``*``, ``**`` -> ``*``,
  and augmented assignments ``+=`` <-> ``-=``, ``*=`` <-> ``/=``;
* ``CRP``: numeric constants, ``n`` -> ``n + 1`` and ``n - 1`` (off-by-one on limits,
  indices and the framing constants 53, 48, 16, 38, 8, ...);
* ``SDL``: an assignment or augmented assignment statement replaced by ``pass``.

Scope: all of ``pqlab/node/engine.py`` (kernel, NodeState carry-over, validation) and of the
mechanisms it calls, ``pqlab/node/disciplines/`` (admission, shaper, priority, fair, layout),
``pqlab/node/wfq.py`` (the WFQ tag unit, moved out of the engine), ``pqlab/node/framing.py`` and
``pqlab/measure/bounds.py``; ``one_way_delay``, ``ipdv``, ``jitter``
and ``loss`` of ``pqlab/measure/metrics.py``; ``run_batches`` (the streaming carry-over) of
``pqlab/node/streaming.py``. Code inside ``raise`` statements and f-strings (error
messages) is not mutated.

Usage (from the repository root, with the test extras installed)::

    python benchmarks/mutants.py --list                 # the mutants, by file and operator
    python benchmarks/mutants.py                        # run all of them
    python benchmarks/mutants.py --sample 120 --seed 1  # a stratified random subset
    python benchmarks/mutants.py --only pqlab/node/engine.py -j 2 --json out.json

A mutant is identified stably by ``file | function | operator | line text`` (the
stripped source line; ``#k`` on the operator numbers repeated identical sites), which
is also how ``mutants_equivalent.txt`` names the equivalent ones.

Recorded runs (see docs/testing.md, "Mutation testing"; 2026-11-23, 2 cores):
``--sample 24 --seed 1``: 24 of 24 killed (352 s, 2 workers); ``--match`` over the lines of the
mutants that survived before the contract tests (bucket cap, token test, Ethernet overhead,
streaming horizon): 15 mutants, 3 equivalent, 12 of 12 killed (167 s).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import io
import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tokenize
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EQUIVALENT_FILE = Path(__file__).with_name("mutants_equivalent.txt")

#: File -> top-level functions/classes mutated (None: the whole file, module level included).
TARGETS: dict[str, tuple[str, ...] | None] = {
    "pqlab/node/engine.py": None,
    "pqlab/node/disciplines/admission.py": None,
    "pqlab/node/disciplines/shaper.py": None,
    "pqlab/node/disciplines/priority.py": None,
    "pqlab/node/disciplines/fair.py": None,
    "pqlab/node/disciplines/layout.py": None,
    "pqlab/node/wfq.py": None,
    "pqlab/node/framing.py": None,
    "pqlab/measure/bounds.py": None,
    "pqlab/measure/metrics.py": ("one_way_delay", "ipdv", "jitter", "loss"),
    "pqlab/node/streaming.py": ("run_batches",),
}

#: Test files run first (glob patterns, in order): fast and sensitive, so most mutants die in
#: seconds. The rest of ``tests/`` follows, so a survivor has passed the whole ordinary suite.
FIRST_TESTS = (
    "tests/test_contract_*.py",
    "tests/test_engine_traces.py",
    "tests/test_disciplines_*.py",
    "tests/test_adapter_buffer.py",
    "tests/test_engine_invariants.py",
    "tests/test_engine_*.py",
    "tests/test_bounds.py",
    "tests/test_metrics.py",
    "tests/test_streaming.py",
    "tests/test_validation.py",
    "tests/test_tandem.py",
    "tests/test_artefacts_worst_case.py",
    "tests/papers/test_globecom01_tab4.py",
    "tests/papers/test_globecom01_pq_bound.py",
    "tests/papers/test_path.py",
)

_ROR = {
    ast.Lt: ("<", ("<=", ">=")),
    ast.LtE: ("<=", ("<", ">")),
    ast.Gt: (">", (">=", "<=")),
    ast.GtE: (">=", (">", "<")),
    ast.Eq: ("==", ("!=",)),
    ast.NotEq: ("!=", ("==",)),
}
_AOR = {
    ast.Add: ("+", ("-",)),
    ast.Sub: ("-", ("+",)),
    ast.Mult: ("*", ("/",)),
    ast.Div: ("/", ("*",)),
    ast.FloorDiv: ("//", ("*",)),
    ast.Pow: ("**", ("*",)),
}
_COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "*.nbi",
    "*.nbc",
    ".hypothesis",
    ".pytest_cache",
    "*.egg-info",
    "build",
    "dist",
    "pqlab-output",
)


@dataclass
class Mutant:
    """One single-point edit: bytes ``[start, end)`` of ``file`` replaced by ``replacement``."""

    file: str
    function: str
    operator: str
    line_text: str
    lineno: int
    start: int  # byte offsets into the file
    end: int
    replacement: str
    outcome: str = "not run"
    detail: str = ""
    seconds: float = 0.0

    @property
    def key(self) -> str:
        return f"{self.file} | {self.function} | {self.operator} | {self.line_text}"

    @property
    def op_class(self) -> str:
        return self.operator.split()[0]

    def apply(self, source: bytes) -> bytes:
        return source[: self.start] + self.replacement.encode() + source[self.end :]


# --------------------------------------------------------------------------- generation


class _Sites(ast.NodeVisitor):
    """Collect mutation sites of one file, tracking the enclosing function's qualified name."""

    def __init__(self, rel: str, source: bytes, functions):
        self.rel = rel
        self.source = source
        self.lines = source.decode().splitlines(keepends=True)
        self.line_starts = [0]
        for line in self.lines:
            self.line_starts.append(self.line_starts[-1] + len(line.encode()))
        self.functions = functions
        self.scope: list[str] = []
        self.skip = 0
        self.ops = [
            t for t in tokenize.tokenize(io.BytesIO(source).readline) if t.type == tokenize.OP
        ]
        self.found: list[Mutant] = []

    # positions: AST gives (line, byte column); tokenize gives (line, character column)
    def _offset_bytes(self, lineno: int, byte_col: int) -> int:
        return self.line_starts[lineno - 1] + byte_col

    def _char_pos(self, lineno: int, byte_col: int) -> tuple[int, int]:
        return lineno, len(self.lines[lineno - 1].encode()[:byte_col].decode())

    def _token_offset(self, tok) -> int:
        line, col = tok.start
        return self.line_starts[line - 1] + len(self.lines[line - 1][:col].encode())

    def _op_between(self, left: ast.AST, right: ast.AST, text: str):
        lo = self._char_pos(left.end_lineno, left.end_col_offset)
        hi = self._char_pos(right.lineno, right.col_offset)
        for tok in self.ops:
            if tok.string == text and lo <= tok.start and tok.end <= hi:
                return tok
        raise RuntimeError(f"{self.rel}:{left.lineno}: operator {text!r} not found")

    def _active(self) -> bool:
        if self.skip:
            return False
        if self.functions is None:
            return True
        return bool(self.scope) and self.scope[0] in self.functions

    def _add(self, node: ast.AST, operator: str, start: int, end: int, replacement: str):
        lineno = node.lineno
        function = ".".join(self.scope) or "<module>"
        self.found.append(
            Mutant(
                self.rel,
                function,
                operator,
                self.lines[lineno - 1].strip(),
                lineno,
                start,
                end,
                replacement,
            )
        )

    def _add_token(self, node, tok, cls: str, new: str):
        start = self._token_offset(tok)
        self._add(
            node, f"{cls} {tok.string} -> {new}", start, start + len(tok.string.encode()), new
        )

    # scopes
    def _scoped(self, node):
        self.scope.append(node.name)
        for stmt in node.body:  # decorators, defaults and annotations are not mutated
            self.visit(stmt)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def _skipped(self, node):
        self.skip += 1
        self.generic_visit(node)
        self.skip -= 1

    visit_Raise = visit_JoinedStr = _skipped

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        self.generic_visit(node)

    # operators
    def visit_Compare(self, node):
        if self._active():
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                if type(op) in _ROR:
                    text, news = _ROR[type(op)]
                    tok = self._op_between(left, right, text)
                    for new in news:
                        self._add_token(node, tok, "ROR", new)
                left = right
        self.generic_visit(node)

    def visit_BinOp(self, node):
        if self._active() and type(node.op) in _AOR:
            text, news = _AOR[type(node.op)]
            tok = self._op_between(node.left, node.right, text)
            for new in news:
                self._add_token(node, tok, "AOR", new)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if self._active():
            self._drop_statement(node)
            if type(node.op) in _AOR and type(node.op) not in (ast.FloorDiv, ast.Pow):
                text, news = _AOR[type(node.op)]
                tok = self._op_between(node.target, node.value, text + "=")
                for new in news:
                    self._add_token(node, tok, "AOR", new + "=")
        self.generic_visit(node)

    def visit_Assign(self, node):
        if self._active():
            self._drop_statement(node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if self._active() and node.value is not None:
            self._drop_statement(node)
        self.generic_visit(node)

    def _drop_statement(self, node):
        if not self.scope:
            # a module-level name removed is a NameError at import, not a mutant worth running
            return
        start = self._offset_bytes(node.lineno, node.col_offset)
        end = self._offset_bytes(node.end_lineno, node.end_col_offset)
        self._add(node, "SDL statement -> pass", start, end, "pass")

    def visit_Constant(self, node):
        value = node.value
        if self._active() and isinstance(value, (int, float)) and not isinstance(value, bool):
            start = self._offset_bytes(node.lineno, node.col_offset)
            end = self._offset_bytes(node.end_lineno, node.end_col_offset)
            text = self.source[start:end].decode()
            for new in (value + 1, value - 1):
                new_text = repr(new)
                if new < 0:
                    new_text = f"({new_text})"  # keep precedence where the literal stood
                self._add(node, f"CRP {text} -> {repr(new)}", start, end, new_text)


def generate(repo: Path = REPO, targets=None) -> list[Mutant]:
    """All mutants of the target files, in a deterministic order (file, position, operator)."""
    mutants: list[Mutant] = []
    for rel, functions in (targets or TARGETS).items():
        source = (repo / rel).read_bytes()
        sites = _Sites(rel, source, functions)
        sites.visit(ast.parse(source))
        found = sorted(sites.found, key=lambda m: (m.start, m.end, m.operator))
        seen: Counter = Counter()
        for m in found:
            base = (m.function, m.operator, m.line_text)
            seen[base] += 1
            if seen[base] > 1:
                m.operator = f"{m.operator} #{seen[base]}"
        mutants.extend(found)
    return mutants


# --------------------------------------------------------------------------- equivalents


def read_equivalent(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """``key -> reason`` from the equivalents file (``file | function | operator | reason | line
    text``)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in raw.split(" | ", 4)]
        if len(parts) != 5 or not parts[3]:
            raise SystemExit(
                f"{path}:{n}: expected 'file | function | operator | reason | line text'"
            )
        file, function, operator, reason, line_text = parts
        out[f"{file} | {function} | {operator} | {line_text}"] = reason
    return out


# --------------------------------------------------------------------------- running


def _test_args(copy: Path) -> list[str]:
    args: list[str] = []
    for pattern in FIRST_TESTS:
        for path in sorted(copy.glob(pattern)):
            rel = path.relative_to(copy).as_posix()
            if rel not in args:
                args.append(rel)
    return args + ["tests"]


def _clear_caches(root: Path):
    for pattern in ("__pycache__", ".hypothesis", ".pytest_cache"):
        for path in list(root.rglob(pattern)):
            shutil.rmtree(path, ignore_errors=True)
    for pattern in ("*.nbi", "*.nbc"):
        for path in root.rglob(pattern):
            path.unlink(missing_ok=True)


def _first_failure(output: str) -> str:
    for line in output.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            text = line.split(" - ")[0]
            if "TypingError" in output or "UnsupportedError" in output or "LoweringError" in output:
                text += " (numba compile error)"
            return text
    tail = [line for line in output.splitlines() if line.strip()]
    return tail[-1] if tail else "no output"


class Worker:
    """A private copy of the repository in which mutants are applied one at a time."""

    def __init__(self, root: Path, hypothesis_seed: int):
        self.root = root
        self.copy = root / "repo"
        shutil.copytree(REPO, self.copy, ignore=_COPY_IGNORE)
        self.hypothesis_seed = hypothesis_seed
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = str(self.copy) + os.pathsep + self.env.get("PYTHONPATH", "")
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"
        self.env.pop("NUMBA_DISABLE_JIT", None)
        where = subprocess.run(
            [sys.executable, "-c", "import pqlab; print(pqlab.__file__)"],
            cwd=self.copy,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not Path(where).resolve().is_relative_to(self.copy.resolve()):
            raise SystemExit(f"the copy does not shadow the installed pqlab (imported {where})")

    def run_suite(self, timeout_s: float) -> tuple[str, str, float]:
        """Run the ordinary test suite in the copy: (outcome, detail, seconds)."""
        _clear_caches(self.copy)
        cache = Path(tempfile.mkdtemp(prefix="numba-", dir=self.root))
        env = dict(self.env, NUMBA_CACHE_DIR=str(cache))
        # -m "": both tiers (pyproject's addopts would leave the slow tier out)
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-m",
            "",
            f"--hypothesis-seed={self.hypothesis_seed}",
            *_test_args(self.copy),
        ]
        t0 = time.monotonic()
        proc = subprocess.Popen(
            cmd,
            cwd=self.copy,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            out, _ = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the suite we started, and its children only
            proc.communicate()
            return "timeout", f"killed by timeout ({timeout_s:.0f} s)", time.monotonic() - t0
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        seconds = time.monotonic() - t0
        if proc.returncode == 0:
            return "survived", "", seconds
        return "killed", _first_failure(out), seconds

    def run(self, mutant: Mutant, timeout_s: float):
        target = self.copy / mutant.file
        original = target.read_bytes()
        mutated = mutant.apply(original)
        try:
            compile(mutated, mutant.file, "exec")
        except SyntaxError as exc:
            mutant.outcome, mutant.detail = "compile error", str(exc)
            return
        try:
            target.write_bytes(mutated)
            mutant.outcome, mutant.detail, mutant.seconds = self.run_suite(timeout_s)
        finally:
            target.write_bytes(original)


def stratified_sample(mutants: list[Mutant], n: int, seed: int) -> list[Mutant]:
    """``n`` mutants drawn round-robin over (file, operator class) strata, each shuffled by
    ``seed``."""
    rng = random.Random(seed)
    strata: dict[tuple, list[Mutant]] = defaultdict(list)
    for m in mutants:
        strata[(m.file, m.op_class)].append(m)
    pools = [rng.sample(v, len(v)) for _, v in sorted(strata.items())]
    chosen: list[Mutant] = []
    while len(chosen) < n and any(pools):
        for pool in pools:
            if pool and len(chosen) < n:
                chosen.append(pool.pop())
    order = {id(m): i for i, m in enumerate(mutants)}
    return sorted(chosen, key=lambda m: order[id(m)])


def _digest(paths) -> str:
    h = hashlib.sha256()
    for rel in paths:
        h.update((REPO / rel).read_bytes())
    return h.hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="FILE",
        help="only mutants of this file (e.g. pqlab/node/engine.py); repeatable",
    )
    parser.add_argument(
        "--operator",
        action="append",
        default=[],
        choices=("ROR", "AOR", "CRP", "SDL"),
        help="only this operator class; repeatable",
    )
    parser.add_argument("--match", help="only mutants whose key matches this regular expression")
    parser.add_argument("--sample", type=int, help="run a stratified random subset of N mutants")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample (default 0)")
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, help="parallel workers, each with its own copy"
    )
    parser.add_argument(
        "--timeout", type=float, help="seconds per mutant (default: 3 x baseline + 60)"
    )
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip the unmutated run (then --timeout defaults to 900 s)",
    )
    parser.add_argument(
        "--check-equivalent",
        action="store_true",
        help="also run the mutants listed as equivalent (they should survive)",
    )
    parser.add_argument(
        "--hypothesis-seed", type=int, default=0, help="passed to pytest (default 0)"
    )
    parser.add_argument("--json", type=Path, help="write every mutant's outcome to this file")
    args = parser.parse_args(argv)

    mutants = generate()
    equivalent = read_equivalent()
    keys = {m.key for m in mutants}
    for stale in sorted(set(equivalent) - keys):
        print(f"warning: equivalents file names no current mutant: {stale}", file=sys.stderr)
    if args.only:
        wanted = {Path(f).as_posix() for f in args.only}
        mutants = [m for m in mutants if m.file in wanted or Path(m.file).name in wanted]
    if args.operator:
        mutants = [m for m in mutants if m.op_class in args.operator]
    if args.match:
        mutants = [m for m in mutants if re.search(args.match, m.key)]
    if args.sample is not None:
        mutants = stratified_sample(mutants, args.sample, args.seed)

    if args.list:
        for m in mutants:
            flag = "  [equivalent]" if m.key in equivalent else ""
            print(f"{m.file}:{m.lineno}: {m.function} | {m.operator} | {m.line_text}{flag}")
        counts = Counter((m.file, m.op_class) for m in mutants)
        for (file, op), c in sorted(counts.items()):
            print(f"# {file} {op}: {c}")
        print(
            f"# {len(mutants)} mutants, {sum(m.key in equivalent for m in mutants)} listed as"
            " equivalent"
        )
        return 0

    todo = [m for m in mutants if args.check_equivalent or m.key not in equivalent]
    for m in mutants:
        if m.key in equivalent and m not in todo:
            m.outcome, m.detail = "equivalent", equivalent[m.key]
    watched = sorted(TARGETS)
    before = _digest(watched)
    t_start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pqlab-mutants-") as tmp:
        workers = [
            Worker(Path(tmp) / f"w{k}", args.hypothesis_seed) for k in range(max(1, args.jobs))
        ]
        for w in workers:
            w.root.mkdir(exist_ok=True)
        timeout_s = args.timeout
        if not args.no_baseline:
            outcome, detail, seconds = workers[0].run_suite(timeout_s or 3600.0)
            print(f"baseline (unmutated) suite: {outcome} in {seconds:.0f} s {detail}", flush=True)
            if outcome != "survived":
                print("the unmutated suite must pass before mutants mean anything", file=sys.stderr)
                return 2
            timeout_s = timeout_s or 3.0 * seconds + 60.0
        timeout_s = timeout_s or 900.0
        print(
            f"{len(todo)} mutants to run, {args.jobs} worker(s), {timeout_s:.0f} s per mutant",
            flush=True,
        )
        jobs: queue.Queue = queue.Queue()
        for m in todo:
            jobs.put(m)
        done = [0]
        lock = threading.Lock()

        def work(worker: Worker):
            while True:
                try:
                    m = jobs.get_nowait()
                except queue.Empty:
                    return
                worker.run(m, timeout_s)
                if m.key in equivalent:
                    m.detail += f" (listed as equivalent: {equivalent[m.key]})"
                with lock:
                    done[0] += 1
                    print(
                        f"[{done[0]}/{len(todo)}] {m.outcome.upper():9s} {m.file}:{m.lineno}"
                        f" {m.function} | {m.operator} | {m.line_text} | {m.detail}"
                        f" ({m.seconds:.0f} s)",
                        flush=True,
                    )

        threads = [threading.Thread(target=work, args=(w,)) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    duration = time.monotonic() - t_start
    if _digest(watched) != before:
        print("ERROR: a source file of the checkout changed during the run", file=sys.stderr)
        return 3

    counts = Counter(m.outcome for m in mutants)
    valid = [m for m in mutants if m.outcome != "compile error"]
    counted = [
        m
        for m in valid
        if m.outcome != "equivalent" and not (m.key in equivalent and m.outcome == "survived")
    ]
    killed = sum(m.outcome in ("killed", "timeout") for m in counted)
    survivors = [m for m in counted if m.outcome == "survived"]
    print()
    print(
        f"mutants: {len(mutants)} (killed {counts['killed']}, timeout {counts['timeout']}, "
        f"survived {len(survivors)}, equivalent {len(valid) - len(counted)}, "
        f"compile error {counts['compile error']}) in {duration:.0f} s"
    )
    score = killed / len(counted) if counted else float("nan")
    print(f"score: {killed}/{len(counted)} non-equivalent mutants killed = {100 * score:.1f} %")
    for m in mutants:
        if m.key in equivalent and m.outcome in ("killed", "timeout"):
            print(f"note: listed as equivalent but killed: {m.key}")
    for m in survivors:
        print(f"SURVIVOR: {m.key}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "duration_s": duration,
                    "score": score,
                    "mutants": [dict(asdict(m), key=m.key) for m in mutants],
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
