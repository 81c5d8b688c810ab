"""The only module that touches OpenPipe ART.

Written against ART's public Python API as read in the ART source:
- OpenPipe/ART main as stored in the public code index (newest versions found:
  ``src/art/model.py`` with ``TrainableModel(run_name=...)`` and no
  ``TrainableModel.train``; ``src/art/local/backend.py`` with
  ``LocalBackend.train(model, groups, *, learning_rate, loss_fn, kl_penalty_coef, ...)``
  and ``_train_model`` yielding one dict per gradient step with keys such as
  ``loss/train``, ``loss/grad_norm``, ``data/step_num_gradient_steps``;
  ``src/art/_backend_training.py`` @ 6b6c7f58565409a6887152a0db01b91a67a8b01b,
  ``src/art/metrics_taxonomy.py`` @ 9ff532901877db8a026dc8127ff5ff297ffa3ff0);
- openpipe-art 0.5.9 as in github.com/pmukeshreddy/ART @
  a470ba4453f0ce43602ef7f3bd0a4e8a8fd73405 (``LocalBackend.train(..., beta=...)``,
  deprecated ``TrainableModel.train``, ``model.get_inference_name(step)``);
- openpipe-art 0.3.11 as in github.com/OpenPipe/ART @
  779559fd0c68ce073cbd041447f88aacf1d9f585 (no ``LocalBackend.train``; the
  worker then falls back to ``TrainableModel.train(groups, config=TrainConfig)``).

Public API used: ``art.TrainableModel(...)``, ``model.register(backend)``,
``backend.train(model, groups, **options)`` (or ``model.train`` on old ART),
``model.get_step()``, ``model.get_inference_name(step)``,
``model.inference_base_url`` / ``inference_api_key``, ``model.log(...)``,
``model.delete_checkpoints(best_checkpoint_metric)``,
``art.Trajectory`` / ``art.TrajectoryGroup`` / ``art.TrainConfig``.

Private names used, and why (said plainly in README.md):
- ``LocalBackend._train_model`` is *wrapped, not called*: the public
  ``backend.train`` returns only the average of the per-step metrics, so the
  worker replaces the attribute on its own backend instance with a pass-through
  async generator that reports every dict ART yields and yields it on unchanged.
  ART still builds its own configs and does its own training. Without the
  attribute the stream simply has no ``gradient_step`` lines.
- ``LocalBackend._delete_checkpoint_files(model, steps_to_keep)`` only when the
  client asks to keep an explicit list of steps; ``model.delete_checkpoints``
  (public) only takes a metric name.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.metadata
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

from .choices import load_choice_class, rebuild_group_payload
from .protocol import DeleteRequest, ProtocolError, RegisterRequest, TrainRequest, invalid


class DriverError(ProtocolError):
    pass


def art_version(art: Any) -> str | None:
    """ART has no ``art.__version__``; the installed distribution knows it."""
    try:
        return importlib.metadata.version("openpipe-art")
    except importlib.metadata.PackageNotFoundError:
        return getattr(art, "__version__", None)


@dataclass
class Registered:
    model: Any
    base_model: str
    listeners: list[Callable[[dict[str, Any]], None]] = field(default_factory=list)


class ArtDriver:
    def __init__(self, art_path: str | None) -> None:
        import art

        self.art = art
        backend_cls = getattr(art, "LocalBackend", None)
        if backend_cls is None:  # ART 0.3.x exports it from art.local only
            backend_cls = importlib.import_module("art.local").LocalBackend
        self.backend = backend_cls(path=art_path) if art_path else backend_cls()
        self.choice_cls = load_choice_class()
        self._models: dict[tuple[str, str], Registered] = {}
        self._by_object: dict[int, Registered] = {}
        self.observes_gradient_steps = self._install_step_tap()

    # -- metadata -----------------------------------------------------------------

    def version(self) -> str | None:
        return art_version(self.art)

    def _install_step_tap(self) -> bool:
        original = getattr(self.backend, "_train_model", None)
        if original is None or not callable(original):
            return False
        by_object = self._by_object

        async def observed_train_model(model: Any, *args: Any, **kwargs: Any):
            registered = by_object.get(id(model))
            async for metrics in original(model, *args, **kwargs):
                if registered is not None:
                    for listener in list(registered.listeners):
                        listener(dict(metrics))
                yield metrics

        self.backend._train_model = observed_train_model
        return True

    # -- models -------------------------------------------------------------------

    def lookup(self, project: str, name: str) -> Registered:
        reg = self._models.get((project, name))
        if reg is None:
            raise DriverError(
                404,
                "model_not_registered",
                f"model {project}/{name} is not registered with this worker; POST /v1/models/register first",
            )
        return reg

    def _new_trainable_model(self, req: RegisterRequest) -> Any:
        cls = self.art.TrainableModel
        params = inspect.signature(cls.__init__).parameters
        kwargs: dict[str, Any] = {
            "name": req.ref.name,
            "project": req.ref.project,
            "base_model": req.base_model,
        }
        if "run_name" in params:  # newest ART: durable lineage name, defaults to the alias
            kwargs["run_name"] = req.ref.name
        if req.internal_config is not None:
            # ART's dev.InternalModelConfig (engine_args, init_args, ...): ART marks it unstable.
            kwargs["_internal_config"] = req.internal_config
        return cls(**kwargs)

    async def register(self, req: RegisterRequest) -> dict[str, Any]:
        existing = self._models.get(req.ref.key)
        if existing is not None:
            if existing.base_model != req.base_model:
                raise DriverError(
                    409,
                    "conflict",
                    f"model {req.ref.project}/{req.ref.name} is already registered with base_model {existing.base_model!r}",
                )
            return await self._describe(existing.model, with_inference=True)
        model = self._new_trainable_model(req)
        await model.register(self.backend)
        reg = Registered(model=model, base_model=req.base_model)
        self._models[req.ref.key] = reg
        self._by_object[id(model)] = reg
        return await self._describe(model, with_inference=True)

    async def _describe(self, model: Any, *, with_inference: bool) -> dict[str, Any]:
        step = int(await model.get_step())
        name = model.get_inference_name(step)
        if with_inference:
            return {
                "step": step,
                "inference": {
                    "base_url": model.inference_base_url,
                    "api_key": model.inference_api_key,
                    "model_name": name,
                },
            }
        return {"step": step, "inference_model_name": name}

    async def step(self, project: str, name: str) -> dict[str, Any]:
        return await self._describe(self.lookup(project, name).model, with_inference=False)

    # -- training -----------------------------------------------------------------

    def build_groups(self, req: TrainRequest) -> list[Any]:
        """JSON groups -> art.TrajectoryGroup with real Choice objects (400 on bad input)."""
        art = self.art
        groups = []
        for gi, raw in enumerate(req.trajectory_groups):
            path = f"trajectory_groups[{gi}]"
            payload = rebuild_group_payload(raw, path, self.choice_cls)
            trajectories = []
            for ti, t in enumerate(payload["trajectories"]):
                fields = {
                    k: t[k]
                    for k in ("messages_and_choices", "tools", "reward", "metrics", "metadata", "logs", "additional_histories")
                    if k in t and t[k] is not None
                }
                try:
                    trajectories.append(art.Trajectory(**fields))
                except Exception as exc:
                    raise invalid(f"{path}.trajectories[{ti}]", f"ART rejected the trajectory ({_one_line(exc)})") from None
            exceptions = [
                RuntimeError(f"{e.get('type', 'Exception')}: {e.get('message', '')}")
                for e in (payload.get("exceptions") or [])
            ]
            kwargs: dict[str, Any] = {"exceptions": exceptions}
            for k in ("metadata", "metrics", "logs"):
                if payload.get(k) is not None:
                    kwargs[k] = payload[k]
            try:
                groups.append(art.TrajectoryGroup(trajectories, **kwargs))
            except Exception as exc:
                raise invalid(path, f"ART rejected the trajectory group ({_one_line(exc)})") from None
        return groups

    def train_options(self, config: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """Map the request's config onto the installed ART's train signature.

        Returns ("backend", kwargs) for LocalBackend.train or ("model", kwargs)
        for the old TrainableModel.train(config=TrainConfig(...)).
        """
        train = getattr(self.backend, "train", None)
        if train is not None:
            params = inspect.signature(train).parameters
            accepted = {
                n for n, p in params.items()
                if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and n not in ("model", "trajectory_groups")
            }
            kwargs: dict[str, Any] = {}
            for key, value in config.items():
                if key in accepted:
                    kwargs[key] = value
                elif key == "beta" and not value:
                    continue  # beta 0 is the no-op default of every ART version
                else:
                    raise invalid(
                        f"config.{key}",
                        f"is not accepted by the installed ART's LocalBackend.train (ART {self.version()})",
                    )
            return "backend", kwargs
        fields = set(getattr(self.art.TrainConfig, "model_fields", {}) or {"learning_rate", "beta"})
        for key in config:
            if key not in fields:
                raise invalid(f"config.{key}", f"is not a field of the installed ART's TrainConfig (ART {self.version()})")
        return "model", config

    async def train(
        self,
        reg: Registered,
        groups: list[Any],
        mode: str,
        options: dict[str, Any],
        log: bool,
        on_gradient_step: Callable[[dict[str, Any]], None],
    ) -> dict[str, Any]:
        model = reg.model
        reg.listeners.append(on_gradient_step)
        warnings: list[str] = []
        metrics: dict[str, Any] = {}
        try:
            if mode == "backend":
                result = await self.backend.train(model, groups, **options)
                metrics = dict(getattr(result, "metrics", {}) or {})
                step = int(getattr(result, "step", None) if getattr(result, "step", None) is not None else await model.get_step())
                if log:
                    # ART's migration guide: backend.train does not log; call model.log.
                    try:
                        await model.log(groups, split="train", metrics=metrics, step=step)
                    except Exception as exc:
                        warnings.append(f"model.log failed: {_one_line(exc)}")
            else:
                await model.train(groups, config=self.art.TrainConfig(**options))
                step = int(await model.get_step())
        finally:
            reg.listeners.remove(on_gradient_step)
        done: dict[str, Any] = {
            "type": "done",
            "step": step,
            "inference_model_name": model.get_inference_name(step),
            "metrics": metrics,
        }
        if warnings:
            done["warnings"] = warnings
        return done

    # -- checkpoints --------------------------------------------------------------

    async def delete_checkpoints(self, req: DeleteRequest) -> dict[str, Any]:
        reg = self.lookup(req.ref.project, req.ref.name)
        model = reg.model
        if req.steps_to_keep is not None:
            current = int(await model.get_step())
            keep = sorted(set(req.steps_to_keep) | {current})  # never delete the served step
            await self.backend._delete_checkpoint_files(model, keep)
            return {"deleted": True, "kept_steps": keep}
        if req.best_checkpoint_metric is not None:
            await model.delete_checkpoints(best_checkpoint_metric=req.best_checkpoint_metric)
        else:
            await model.delete_checkpoints()
        return {"deleted": True}

    async def close(self) -> None:
        close = getattr(self.backend, "close", None)
        if close is None:
            return
        result = close()
        if asyncio.iscoroutine(result):
            await result


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: " + " ".join(str(exc).split())


class RolloutsOnlyDriver:
    """``--rollouts-only``: no LocalBackend (no GPU, e.g. beside W&B's serverless training). Only health and
    the rollout calls answer; the model calls are ``409 rollouts_only``."""

    observes_gradient_steps = False
    trains = False

    def __init__(self) -> None:
        import art

        self.art = art

    def version(self) -> str | None:
        return art_version(self.art)

    def _refuse(self, *_: Any, **__: Any) -> Any:
        raise DriverError(409, "rollouts_only",
                          "this worker runs rollouts only (--rollouts-only): it has no LocalBackend to train with")

    lookup = _refuse
    train_options = _refuse
    build_groups = _refuse

    async def register(self, req: Any) -> dict[str, Any]:
        self._refuse()

    async def step(self, project: str, name: str) -> dict[str, Any]:
        self._refuse()

    async def delete_checkpoints(self, req: Any) -> dict[str, Any]:
        self._refuse()

    async def close(self) -> None:
        return None
