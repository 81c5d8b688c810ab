#!/usr/bin/env bash
# Runs the Atelier worker's unittest suite against the stand-in `art` module
# (tests/stand_in) and the real openai, pydantic and httpx. Prints a final line "worker: N passed,
# M failed" and exits non-zero on any failure, so CI can call it. Uses $PYTHON, else the python3 on
# PATH (3.10+); `PYTHON=.venv/bin/python` after `bash scripts/python-env.sh` (the rollout tests skip,
# saying why, without openai and pydantic; the others fail).
set -uo pipefail
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
export PYTHONDONTWRITEBYTECODE=1
"$PY" - <<'PYEOF'
import sys
import unittest

suite = unittest.defaultTestLoader.discover("tests", top_level_dir=".")
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
passed = result.testsRun - failed - len(result.skipped)
print(f"worker: {passed} passed, {failed} failed")
sys.exit(1 if failed or result.testsRun == 0 else 0)
PYEOF
