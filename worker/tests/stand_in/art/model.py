"""Stand-in for art.model (see art/__init__.py)."""

import json
import os
from typing import Any

from .trajectories import TrajectoryGroup


class Model:
    trainable = False

    def __init__(self, *, name: str, project: str, config: Any = None, **_: Any) -> None:
        self.name = name
        self.project = project
        self.config = config
        self.inference_api_key: str | None = None
        self.inference_base_url: str | None = None
        self.inference_model_name: str | None = None
        self.base_path = ".art"
        self._backend = None
        self._openai_client = None

    def openai_client(self):
        """As ART's (model.py @ 679b236e): the cached client, else AsyncOpenAI on the inference server."""
        if self._openai_client is not None:
            return self._openai_client
        if self.inference_api_key is None or self.inference_base_url is None:
            if self.trainable:
                raise ValueError(
                    "OpenAI client not yet available on this trainable model. You must call `model.register()` first."
                )
            raise ValueError(
                "In order to create an OpenAI client you must provide an `inference_api_key` and `inference_base_url`."
            )
        from openai import AsyncOpenAI

        self._openai_client = AsyncOpenAI(base_url=self.inference_base_url, api_key=self.inference_api_key)
        return self._openai_client

    def backend(self):
        if self._backend is None:
            raise ValueError("Model is not registered with a Backend. You must call `model.register()` first.")
        return self._backend

    async def register(self, backend) -> None:
        self._backend = backend
        await backend.register(self)

    def get_inference_name(self, step: int | None = None) -> str:
        if self._backend is not None and hasattr(self._backend, "_model_inference_name"):
            return self._backend._model_inference_name(self, step=step)
        base = self.inference_model_name or self.name
        return f"{base}@{step}" if step is not None else base

    async def get_step(self) -> int:
        if self.trainable:
            return await self.backend()._get_step(self)
        return 0

    def _get_output_dir(self) -> str:
        return f"{self.base_path}/{self.project}/models/{self.name}"

    async def log(self, trajectories=None, split: str = "val", *, metrics=None, step=None) -> None:
        if step is None:
            step = await self.get_step() if self.trainable else 0
        out = self._get_output_dir()
        row: dict[str, Any] = {"step": step}
        if trajectories is not None:
            groups = list(trajectories)
            if not all(isinstance(g, TrajectoryGroup) for g in groups):
                raise TypeError("trajectories must be an iterable of TrajectoryGroup objects")
            rewards = [t.reward for g in groups for t in g.trajectories]
            if rewards:
                row[f"{split}/reward"] = sum(rewards) / len(rewards)
            os.makedirs(f"{out}/trajectories/{split}", exist_ok=True)
            with open(f"{out}/trajectories/{split}/{step:04d}.jsonl", "w") as f:
                for g in groups:
                    f.write(json.dumps({"num_trajectories": len(g.trajectories)}) + "\n")
        for k, v in (metrics or {}).items():
            row[k if "/" in k else f"{split}/{k}"] = v
        os.makedirs(out, exist_ok=True)
        with open(f"{out}/history.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")


class TrainableModel(Model):
    trainable = True

    def __init__(
        self,
        *,
        name: str,
        run_name: str,
        project: str,
        base_model: str,
        entity: str | None = None,
        id: str | None = None,
        config: Any = None,
        lora_config: Any = None,
        base_path: str = ".art",
        report_metrics: list | None = None,
        _internal_config: dict | None = None,
    ) -> None:
        super().__init__(name=name, project=project, config=config)
        self.run_name = run_name
        self.base_model = base_model
        self.base_path = base_path
        self._internal_config = _internal_config

    async def register(self, backend, _openai_client_config=None) -> None:
        await super().register(backend)
        base_url, api_key = await backend._prepare_backend_for_training(self, _openai_client_config)
        self.inference_base_url = base_url
        self.inference_api_key = api_key
        self.inference_model_name = (
            hasattr(backend, "_model_inference_name") and backend._model_inference_name(self) or self.name
        )

    async def delete_checkpoints(self, best_checkpoint_metric: str = "val/reward") -> None:
        out = self._get_output_dir()
        keep = [await self.get_step()]
        try:
            best = None
            with open(f"{out}/history.jsonl") as f:
                for line in f:
                    row = json.loads(line)
                    if best_checkpoint_metric in row and (best is None or row[best_checkpoint_metric] > best[0]):
                        best = (row[best_checkpoint_metric], row["step"])
            if best is not None:
                keep.append(best[1])
        except FileNotFoundError:
            pass
        await self.backend()._delete_checkpoint_files(self, keep)
