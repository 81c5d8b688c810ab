"""The user's own ART rollout, run inside the worker's Python environment (PROTOCOL.md, "Rollouts").

The entrypoint is ``pkg.module:function`` with ART's own signature, as ART's PipelineTrainer defines it
(``src/art/pipeline_trainer/types.py`` in PeterWofford/ART @ 679b236e81f2ddffff08e297920c4382274560f9):

- ``SingleRolloutFn``: ``async (model: art.TrainableModel, scenario: dict, config) -> art.Trajectory``;
- ``RolloutFn``: ``async (model, scenario, config) -> art.TrajectoryGroup``;
- and the two-argument ``async rollout(model, scenario) -> art.Trajectory`` of ART's examples.

A single-trajectory function is called ``count`` times at once, as ART's ``make_group_rollout_fn`` does
(``asyncio.gather(..., return_exceptions=True)``), and each trajectory is streamed the moment it finishes; a
group function is called once and its trajectories and exceptions are streamed when it returns. Which one a
function is comes from its return annotation; without one, the first call's result says.

The model handed to the rollout is ``art.TrainableModel(name, project, base_model)`` pointed at the inference
server Atelier rolls out on (``inference_base_url``, ``inference_api_key``, ``inference_model_name`` = the
served ``name@step``), so ``model.openai_client()`` and ``model.get_inference_name()`` work as under ART's
trainer. It is not registered with a backend: the same request runs on a GPU box next to LocalBackend and on a
GPU-less worker for serverless training. Every response of ``model.openai_client()`` is reported as a turn.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import re
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from .protocol import NAME_RE, ProtocolError, _name, invalid, json_safe

ENTRYPOINT_RE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
MAX_COUNT = 256


class EntrypointError(ProtocolError):
    """The entrypoint cannot be used: its module does not import, or it names nothing callable."""

    def __init__(self, code: str, module: str, message: str) -> None:
        super().__init__(422, code, message)
        self.module = module

    def body(self) -> dict[str, Any]:
        body = super().body()
        body["error"]["module"] = self.module
        return body


@dataclass
class Entrypoint:
    fn: Callable[..., Any]
    #: "single", "group" or "unknown" (no return annotation: the first result decides)
    mode: str
    takes_config: bool


@dataclass
class RolloutRequest:
    entrypoint: str
    name: str
    project: str
    base_model: str
    base_url: str
    api_key: str
    model_name: str
    scenario: dict[str, Any]
    count: int
    config: Any
    timeout_seconds: float


def validate_entrypoint(body: dict[str, Any]) -> str:
    value = body.get("entrypoint")
    if not isinstance(value, str) or not ENTRYPOINT_RE.match(value):
        raise invalid("entrypoint", "must be pkg.module:function (a dotted module path, a colon, an attribute)")
    return value


def validate_rollout(body: dict[str, Any]) -> RolloutRequest:
    entrypoint = validate_entrypoint(body)
    model = body.get("model")
    if not isinstance(model, dict):
        raise invalid("model", "must be an object {name, project, base_model, inference}")
    name = _name(model, "name", "model.")
    project = _name(model, "project", "model.")
    base_model = model.get("base_model")
    if not isinstance(base_model, str) or not base_model:
        raise invalid("model.base_model", "must be a non-empty string")
    inference = model.get("inference")
    if not isinstance(inference, dict):
        raise invalid("model.inference", "must be an object {base_url, api_key, model_name}")
    for key in ("base_url", "model_name"):
        if not isinstance(inference.get(key), str) or not inference[key]:
            raise invalid(f"model.inference.{key}", "must be a non-empty string")
    api_key = inference.get("api_key", "")
    if not isinstance(api_key, str):
        raise invalid("model.inference.api_key", "must be a string")
    scenario = body.get("scenario")
    if not isinstance(scenario, dict):
        raise invalid("scenario", "must be an object")
    count = body.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise invalid("count", f"must be an integer from 1 to {MAX_COUNT}")
    timeout = body.get("timeout_seconds", 120)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= 86400:
        raise invalid("timeout_seconds", "must be a number of seconds, above 0 and at most 86400")
    return RolloutRequest(entrypoint, name, project, base_model, inference["base_url"], api_key,
                          inference["model_name"], scenario, count, body.get("config"), float(timeout))


def load_entrypoint(entrypoint: str) -> Entrypoint:
    """Imports the module and finds the function; a failure names the module and the cause (422)."""
    module_name, _, attr = entrypoint.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except BaseException as exc:  # SyntaxError, ImportError, an exception at import time, even SystemExit
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise EntrypointError(
            "entrypoint_not_importable", module_name,
            f"entrypoint: cannot import module {module_name!r} ({type(exc).__name__}: {' '.join(str(exc).split())}); "
            f"the worker's Python is {sys.executable}",
        ) from None
    for part in attr.split("."):
        if not hasattr(target, part):
            raise EntrypointError("entrypoint_not_found", module_name,
                                  f"entrypoint: module {module_name!r} has no attribute {attr!r}")
        target = getattr(target, part)
    if not callable(target):
        raise EntrypointError("entrypoint_not_callable", module_name,
                              f"entrypoint: {entrypoint} is a {type(target).__name__}, not a function")
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return Entrypoint(target, "unknown", False)
    positional = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    varargs = any(p.kind == p.VAR_POSITIONAL for p in sig.parameters.values())
    if len(positional) < 2 and not varargs:
        raise EntrypointError("entrypoint_not_callable", module_name,
                              f"entrypoint: {entrypoint} must take (model, scenario) or (model, scenario, config), "
                              f"as ART's rollout functions do; it takes {len(positional)} positional argument(s)")
    annotation = sig.return_annotation
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    mode = "unknown"
    if annotation is not inspect.Signature.empty:
        if "TrajectoryGroup" in str(text):
            mode = "group"
        elif "Trajectory" in str(text):
            mode = "single"
    return Entrypoint(target, mode, len(positional) >= 3 or varargs)


def describe(entry: Entrypoint) -> dict[str, Any]:
    return {"ok": True, "mode": entry.mode, "takes_config": entry.takes_config}


# -- what the rollout gets -------------------------------------------------------------------------


def build_model(art: Any, req: RolloutRequest, on_response: Callable[[], None]) -> tuple[Any, Any]:
    """art.TrainableModel pointed at the inference server; returns (model, client to close or None)."""
    cls = art.TrainableModel
    params = inspect.signature(cls.__init__).parameters
    kwargs: dict[str, Any] = {"name": req.name, "project": req.project, "base_model": req.base_model}
    if "run_name" in params:
        kwargs["run_name"] = req.name
    model = cls(**kwargs)
    model.inference_base_url = req.base_url
    model.inference_api_key = req.api_key or "default"
    model.inference_model_name = req.model_name
    client = None
    try:
        import httpx
        import openai

        async def hook(_response: Any) -> None:
            on_response()

        client = openai.AsyncOpenAI(
            base_url=req.base_url,
            api_key=req.api_key or "default",
            max_retries=2,
            http_client=httpx.AsyncClient(timeout=httpx.Timeout(req.timeout_seconds, connect=5.0),
                                          event_hooks={"response": [hook]}),
        )
        # ART (679b236e, model.py) caches its client in _openai_client; openai_client() returns it.
        model._openai_client = client
    except ImportError:
        pass
    return model, client


def art_exception(exc: BaseException) -> dict[str, str]:
    """As ART's TrajectoryGroup keeps an exception (PydanticException: type, message, traceback)."""
    return {
        "type": str(type(exc)),
        "message": str(exc),
        "traceback": "\n".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
    }


def _dump_item(item: Any) -> Any:
    if hasattr(item, "model_dump"):
        return json_safe(item.model_dump(mode="json"))
    return json_safe(_plain(item))


def _plain(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def dump_trajectory(t: Any) -> dict[str, Any]:
    """An ART Trajectory as JSON (choices as openai dumps them, logprobs included; messages as given)."""
    histories = []
    for h in getattr(t, "additional_histories", None) or []:
        histories.append({
            "messages_and_choices": [_dump_item(x) for x in h.messages_and_choices],
            "tools": _plain(getattr(h, "tools", None)),
        })
    out = {
        "messages_and_choices": [_dump_item(x) for x in t.messages_and_choices],
        "tools": _plain(getattr(t, "tools", None)),
        "additional_histories": histories,
        "reward": float(t.reward),
        "metrics": json_safe(_plain(dict(getattr(t, "metrics", {}) or {}))),
        "metadata": json_safe(_plain(dict(getattr(t, "metadata", {}) or {}))),
        "logs": [str(x) for x in getattr(t, "logs", []) or []],
    }
    return out


def _exception_of(e: Any) -> dict[str, str]:
    if isinstance(e, BaseException):
        return art_exception(e)
    if isinstance(e, dict):
        return {k: str(e.get(k, "")) for k in ("type", "message", "traceback")}
    return {k: str(getattr(e, k, "")) for k in ("type", "message", "traceback")}


async def run_rollouts(art: Any, req: RolloutRequest, entry: Entrypoint, emit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Runs the entrypoint; emits trajectory / exception / turn lines; returns the done line."""
    model, client = build_model(art, req, lambda: emit({"type": "turn"}))
    args: tuple[Any, ...] = (model, dict(req.scenario), req.config) if entry.takes_config else (model, dict(req.scenario))
    counts = {"trajectories": 0, "exceptions": 0}
    group_info: dict[str, Any] = {}
    next_index = 0

    def send_trajectory(t: Any) -> None:
        nonlocal next_index
        emit({"type": "trajectory", "index": next_index, "trajectory": dump_trajectory(t)})
        next_index += 1
        counts["trajectories"] += 1

    def send_exception(e: Any) -> None:
        nonlocal next_index
        emit({"type": "exception", "index": next_index, "exception": _exception_of(e)})
        next_index += 1
        counts["exceptions"] += 1

    def send_result(result: Any) -> None:
        if isinstance(result, art.TrajectoryGroup):
            for t in result.trajectories:
                send_trajectory(t)
            for e in getattr(result, "exceptions", None) or []:
                send_exception(e)
            for k in ("metadata", "metrics", "logs"):
                v = getattr(result, k, None)
                if v:
                    group_info[k] = json_safe(_plain(v))
        elif isinstance(result, art.Trajectory):
            send_trajectory(result)
        else:
            send_exception(TypeError(
                f"{req.entrypoint} returned {type(result).__name__}, not an art.Trajectory or art.TrajectoryGroup"))

    async def one() -> Any:
        result = entry.fn(*args)
        if inspect.isawaitable(result):
            result = await result
        return result

    async def guarded() -> Any:
        try:
            send_result(await one())
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # one rollout failed: ART keeps it as the group's exception
            send_exception(exc)

    try:
        mode = entry.mode
        if mode == "unknown":
            try:
                first = await one()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                send_exception(exc)
                first = None
            if first is not None:
                send_result(first)
            mode = "group" if isinstance(first, art.TrajectoryGroup) else "single"
            remaining = 0 if mode == "group" else req.count - 1
        elif mode == "group":
            remaining = 0
            await guarded()
        else:
            remaining = req.count
        if remaining > 0:
            tasks = [asyncio.ensure_future(guarded()) for _ in range(remaining)]
            try:
                await asyncio.gather(*tasks)
            except asyncio.CancelledError:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                raise
    finally:
        if client is not None:
            try:
                await client.close()
            except Exception:
                pass
    done: dict[str, Any] = {"type": "done", "mode": mode, **counts}
    if group_info:
        done["group"] = group_info
    return done


__all__ = [
    "EntrypointError", "Entrypoint", "RolloutRequest", "validate_entrypoint", "validate_rollout",
    "load_entrypoint", "describe", "run_rollouts", "NAME_RE",
]
