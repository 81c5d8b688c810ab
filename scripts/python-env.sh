#!/usr/bin/env bash
# Builds the Python environment the tests use: a virtual environment at .venv (or $ATELIER_VENV) with the
# real packages the worker's tests and the ART-rule checks import — openai, pydantic, httpx, pytest,
# pyarrow, fastapi, mcp, polars, pyyaml (a stand-in stays only for `art` itself, which needs CUDA).
# Idempotent: a venv whose packages already import is left as it is. Prints the venv's python on its last
# line. pip reads its index from pip's own config; where that config names mirrors as extra indexes
# (global.extra-index-url), the first becomes the index so pip never waits on an unreachable internet.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${ATELIER_VENV:-.venv}"
PY="${PYTHON:-python3}"
PACKAGES=(openai pydantic httpx pytest pyarrow fastapi mcp polars pyyaml)
IMPORTS="import openai, pydantic, httpx, pytest, pyarrow, fastapi, mcp, polars, yaml"

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "$IMPORTS" >/dev/null 2>&1; then
  echo "python env: $VENV is up to date" >&2
  echo "$VENV/bin/python"
  exit 0
fi

"$PY" -m venv "$VENV"

INDEX_ARGS=()
extra="$("$PY" -m pip config get global.extra-index-url 2>/dev/null || true)"
urls=()
for url in $extra; do
  # A local mirror's per-package folders may be missing; pip then warns once per package and looks on.
  case "$url" in file://*) [ -d "${url#file://}" ] || continue ;; esac
  urls+=("$url")
done
if [ "${#urls[@]}" -gt 0 ]; then
  INDEX_ARGS+=(--index-url "${urls[0]}")
  for url in "${urls[@]:1}"; do INDEX_ARGS+=(--extra-index-url "$url"); done
fi

"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --timeout 60 --retries 2 \
  "${INDEX_ARGS[@]}" "${PACKAGES[@]}" 2>&1 | grep -v "is ignored: it is neither a file nor a directory" >&2 || true
"$VENV/bin/python" -c "$IMPORTS" # fails the script when the install did not complete
echo "python env: $VENV ready" >&2
echo "$VENV/bin/python"
