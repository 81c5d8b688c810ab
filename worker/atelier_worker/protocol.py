"""Request validation for the atelier-worker/1 protocol.

Every check raises ProtocolError with an HTTP status, a machine-readable code and
a message that starts with the JSON path of the offending field, e.g.
``trajectory_groups[0].trajectories[1].reward: must be a number``.
This module does not import ``art``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

# Model names and projects become directory names under ART's .art path
# (`{art_path}/{project}/models/{name}`), so they are restricted to a safe set.
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
CONFIG_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


class ProtocolError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def invalid(path: str, message: str) -> ProtocolError:
    return ProtocolError(400, "invalid_request", f"{path}: {message}")


def parse_json_object(raw: bytes) -> dict[str, Any]:
    if not raw:
        raise ProtocolError(400, "invalid_json", "body: a JSON object is required")
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(400, "invalid_json", f"body: not valid JSON ({exc})") from None
    except RecursionError:
        # json's parser recurses per bracket: `[` nested 100,000 deep used to answer 500.
        raise ProtocolError(400, "too_deep", "body: nested too deeply to parse") from None
    if not isinstance(value, dict):
        raise ProtocolError(400, "invalid_json", "body: must be a JSON object")
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _name(body: dict[str, Any], key: str, path: str = "") -> str:
    where = f"{path}{key}"
    if key not in body:
        raise invalid(where, "is required")
    value = body[key]
    if not isinstance(value, str) or not NAME_RE.match(value) or ".." in value:
        raise invalid(
            where,
            "must be 1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit",
        )
    return value


def _optional_dict(body: dict[str, Any], key: str, path: str) -> dict[str, Any]:
    value = body.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise invalid(f"{path}{key}", "must be an object")
    return value


@dataclass
class ModelRef:
    project: str
    name: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.project, self.name)


def model_ref(body: dict[str, Any]) -> ModelRef:
    return ModelRef(project=_name(body, "project"), name=_name(body, "name"))


@dataclass
class RegisterRequest:
    ref: ModelRef
    base_model: str
    internal_config: dict[str, Any] | None


def validate_register(body: dict[str, Any]) -> RegisterRequest:
    ref = model_ref(body)
    base_model = body.get("base_model")
    if "base_model" not in body:
        raise invalid("base_model", "is required")
    if not isinstance(base_model, str) or not base_model.strip():
        raise invalid("base_model", "must be a non-empty string (a Hugging Face model id)")
    config = body.get("config")
    if config is not None and not isinstance(config, dict):
        raise invalid("config", "must be an object or null")
    return RegisterRequest(ref=ref, base_model=base_model, internal_config=config)


@dataclass
class TrainRequest:
    ref: ModelRef
    trajectory_groups: list[dict[str, Any]]
    config: dict[str, Any]
    log: bool = True


def _validate_message_or_choice(item: Any, path: str) -> None:
    if not isinstance(item, dict):
        raise invalid(path, "must be an object (a chat message or a chat completion choice)")
    if "finish_reason" in item and "message" in item and "role" not in item:
        if not isinstance(item["message"], dict):
            raise invalid(f"{path}.message", "must be an object")
        return
    role = item.get("role")
    if not isinstance(role, str) or not role:
        raise invalid(
            path,
            "is neither a message (needs a string 'role') nor a choice (needs 'finish_reason' and 'message')",
        )


def _validate_history(history: Any, path: str) -> None:
    if not isinstance(history, dict):
        raise invalid(path, "must be an object")
    items = history.get("messages_and_choices")
    if not isinstance(items, list):
        raise invalid(f"{path}.messages_and_choices", "must be an array")
    for i, item in enumerate(items):
        _validate_message_or_choice(item, f"{path}.messages_and_choices[{i}]")
    tools = history.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise invalid(f"{path}.tools", "must be an array or null")


def _validate_scalar_map(value: Any, path: str, *, allow_str: bool) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        raise invalid(path, "must be an object")
    for k, v in value.items():
        ok = _is_number(v) or isinstance(v, bool) or (allow_str and (v is None or isinstance(v, str)))
        if not ok:
            kinds = "a number, boolean, string or null" if allow_str else "a finite number or boolean"
            raise invalid(f"{path}.{k}", f"must be {kinds}")


def _validate_trajectory(t: Any, path: str) -> None:
    if not isinstance(t, dict):
        raise invalid(path, "must be an object")
    _validate_history(t, path)
    if "reward" not in t:
        raise invalid(f"{path}.reward", "is required")
    if not _is_number(t["reward"]):
        raise invalid(f"{path}.reward", "must be a finite number")
    _validate_scalar_map(t.get("metrics"), f"{path}.metrics", allow_str=False)
    _validate_scalar_map(t.get("metadata"), f"{path}.metadata", allow_str=True)
    logs = t.get("logs")
    if logs is not None and (not isinstance(logs, list) or not all(isinstance(x, str) for x in logs)):
        raise invalid(f"{path}.logs", "must be an array of strings")
    extra = t.get("additional_histories")
    if extra is not None:
        if not isinstance(extra, list):
            raise invalid(f"{path}.additional_histories", "must be an array")
        for i, h in enumerate(extra):
            _validate_history(h, f"{path}.additional_histories[{i}]")


def _validate_group(g: Any, path: str) -> None:
    if not isinstance(g, dict):
        raise invalid(path, "must be an object")
    trajectories = g.get("trajectories")
    if not isinstance(trajectories, list):
        raise invalid(f"{path}.trajectories", "must be an array")
    for i, t in enumerate(trajectories):
        _validate_trajectory(t, f"{path}.trajectories[{i}]")
    _validate_scalar_map(g.get("metadata"), f"{path}.metadata", allow_str=True)
    _validate_scalar_map(g.get("metrics"), f"{path}.metrics", allow_str=False)
    exceptions = g.get("exceptions")
    if exceptions is not None:
        if not isinstance(exceptions, list):
            raise invalid(f"{path}.exceptions", "must be an array")
        for i, e in enumerate(exceptions):
            if not isinstance(e, dict) or not isinstance(e.get("message", ""), str):
                raise invalid(f"{path}.exceptions[{i}]", "must be an object {type, message, traceback}")


def validate_train(body: dict[str, Any]) -> TrainRequest:
    ref = model_ref(body)
    groups = body.get("trajectory_groups")
    if "trajectory_groups" not in body:
        raise invalid("trajectory_groups", "is required")
    if not isinstance(groups, list) or not groups:
        raise invalid("trajectory_groups", "must be a non-empty array")
    for i, g in enumerate(groups):
        _validate_group(g, f"trajectory_groups[{i}]")
    if "config" not in body:
        raise invalid("config", "is required")
    config = body["config"]
    if not isinstance(config, dict):
        raise invalid("config", "must be an object")
    if "learning_rate" not in config:
        raise invalid("config.learning_rate", "is required")
    if not _is_number(config["learning_rate"]) or config["learning_rate"] <= 0:
        raise invalid("config.learning_rate", "must be a positive number")
    for key, value in config.items():
        if not CONFIG_KEY_RE.match(key):
            raise invalid(f"config.{key}", "is not a valid option name")
        if not (value is None or isinstance(value, (bool, str)) or _is_number(value)):
            raise invalid(f"config.{key}", "must be a number, boolean, string or null")
    log = body.get("log", True)
    if not isinstance(log, bool):
        raise invalid("log", "must be a boolean")
    return TrainRequest(ref=ref, trajectory_groups=groups, config=dict(config), log=log)


@dataclass
class DeleteRequest:
    ref: ModelRef
    steps_to_keep: list[int] | None = None
    best_checkpoint_metric: str | None = None


def validate_delete(body: dict[str, Any]) -> DeleteRequest:
    ref = model_ref(body)
    steps = body.get("steps_to_keep")
    if steps is not None:
        if not isinstance(steps, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in steps
        ):
            raise invalid("steps_to_keep", "must be an array of non-negative integers")
    metric = body.get("best_checkpoint_metric")
    if metric is not None and (not isinstance(metric, str) or not metric):
        raise invalid("best_checkpoint_metric", "must be a non-empty string")
    if steps is not None and metric is not None:
        raise invalid("best_checkpoint_metric", "give either steps_to_keep or best_checkpoint_metric, not both")
    return DeleteRequest(ref=ref, steps_to_keep=steps, best_checkpoint_metric=metric)


def json_safe(value: Any) -> Any:
    """Non-finite floats (NaN, inf) are not JSON; they become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy / torch scalars
        try:
            return json_safe(value.item())
        except Exception:
            return str(value)
    return value


def dumps(value: Any) -> bytes:
    return json.dumps(json_safe(value), separators=(",", ":"), allow_nan=False).encode()

