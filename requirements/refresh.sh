#!/usr/bin/env bash
# Refresh pqlab's locks: the one command that rewrites requirements/run.txt (the package, what it
# imports and the dask extra: dask.distributed sweeps and their dashboard), requirements/test.txt
# (plus the test, lab and dask extras) and binder/requirements.txt
# (Binder installs the test lock: it holds JupyterLab). Every package, transitive ones included, is
# pinned to one version per Python version pqlab supports (one "universal" resolution with
# environment markers, from 3.10 up to pyproject.toml's requires-python bound) with the sha256 of
# every distribution file. run.txt is resolved under test.txt's pins, so the reproduction and the
# tests run the same numpy, numba, pandas, ... (tests/test_environment_lock.py checks it).
#
# Before refreshing, run `python requirements/check_latest.py` (docs/environment.md) to
# see which numbers of the report today's newest packages move; after, regenerate the golden quick
# report (tests/data/README.md) and list every moved number in the commit.
#
# uv is pinned so that the lock's format does not change with the tool; it is installed into a
# scratch venv when the pinned version is not on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
UV_VERSION=0.13.9
uv_bin=$(command -v uv || true)
if [ -z "$uv_bin" ] || [ "$("$uv_bin" --version | awk '{print $2}')" != "$UV_VERSION" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  python3 -m venv "$scratch/venv"
  "$scratch/venv/bin/pip" install --quiet "uv==$UV_VERSION"
  uv_bin="$scratch/venv/bin/uv"
fi
compile=("$uv_bin" pip compile pyproject.toml --universal --python-version 3.10 --generate-hashes
         --custom-compile-command "bash requirements/refresh.sh" --quiet)
"${compile[@]}" --extra test --extra lab --extra dask -o requirements/test.txt --upgrade
"${compile[@]}" --extra dask -c requirements/test.txt -o requirements/run.txt --upgrade
cp requirements/test.txt binder/requirements.txt
echo "refreshed requirements/run.txt, requirements/test.txt and binder/requirements.txt"
