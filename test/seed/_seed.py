"""Shared by the seed-compatibility scripts: loads the user's seed models.py from a path, and
turns datetimes into exact instants (microseconds since the epoch) for comparison."""
from __future__ import annotations

import importlib.util
import sys
from datetime import datetime, timedelta, timezone
from types import ModuleType

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def load_models(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("seed_models", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the seed models from {path}")
    module = importlib.util.module_from_spec(spec)
    # pydantic resolves the postponed annotations through sys.modules.
    sys.modules["seed_models"] = module
    spec.loader.exec_module(module)
    return module


def instant(dt: datetime | None) -> dict | None:
    """The instant a datetime stands for; a naive one is local time, as Python (and JavaScript) read it."""
    if dt is None:
        return None
    aware = dt.utcoffset() is not None
    micros = (dt.astimezone(timezone.utc) - EPOCH) // timedelta(microseconds=1)
    return {"epoch_us": micros, "aware": aware}
