"""Stand-in for art.local.backend.LocalBackend (see art/__init__.py).

What it imitates from ART's LocalBackend:
- register(model): model.base_path = path; writes {path}/{project}/models/{name}/model.json
- _prepare_backend_for_training: starts "vLLM" (here: nothing), makes checkpoint 0000,
  answers (base_url, api_key)
- _model_inference_name(model, step): always f"{model.name}@{step}" (LoRA adapters are
  served as name@step; a bare name is never served)
- _get_step: the largest checkpoints/NNNN directory (utils/get_model_step.py)
- train(model, groups, *, learning_rate, loss_fn, kl_penalty_coef, ...) -> LocalTrainResult,
  averaging what _train_model yields
- _train_model: refuses what ART's tokenizer refuses, skips groups whose rewards are all
  equal, yields one dict per gradient step with ART's newest key names, and saves the next
  checkpoint; with nothing trainable it copies the checkpoint forward and yields one dict
  with data/step_num_gradient_steps = 0
- _delete_checkpoint_files(model, steps_to_keep): local/checkpoints.py delete_checkpoints
Also records what it received in {path}/stand_in_received.jsonl for the tests.
"""

import asyncio
import json
import os
import shutil
from typing import Any, AsyncIterator, Iterable

from openai.types.chat.chat_completion import Choice

from ..trajectories import TrajectoryGroup
from ..types import LocalTrainResult, TrainConfig

TRAIN_GRADIENT_STEPS_KEY = "data/step_num_gradient_steps"


class LocalBackend:
    def __init__(self, *, in_process: bool = False, path: str | None = None) -> None:
        self._path = path or os.path.join(os.getcwd(), ".art")
        os.makedirs(self._path, exist_ok=True)
        self._served: set[tuple[str, str]] = set()
        self._closed = False

    # -- helpers --------------------------------------------------------------------

    def _model_dir(self, model) -> str:
        return f"{self._path}/{model.project}/models/{model.name}"

    def _checkpoint_dir(self, model, step: int) -> str:
        return f"{self._model_dir(model)}/checkpoints/{step:04d}"

    def __get_step(self, model) -> int:
        base = f"{self._model_dir(model)}/checkpoints"
        if not os.path.isdir(base):
            return 0
        return max((int(d) for d in os.listdir(base) if d.isdigit() and os.path.isdir(f"{base}/{d}")), default=0)

    def _record(self, event: dict) -> None:
        with open(f"{self._path}/stand_in_received.jsonl", "a") as f:
            f.write(json.dumps(event) + "\n")

    # -- Backend ----------------------------------------------------------------------

    async def close(self) -> None:
        self._closed = True

    async def register(self, model) -> None:
        model.base_path = self._path
        out = self._model_dir(model)
        os.makedirs(out, exist_ok=True)
        with open(f"{out}/model.json", "w") as f:
            json.dump({"name": model.name, "project": model.project, "base_model": getattr(model, "base_model", None),
                       "trainable": model.trainable}, f)
        self._record({"call": "register", "model": model.name, "run_name": getattr(model, "run_name", None),
                      "internal_config": getattr(model, "_internal_config", None)})

    def _model_inference_name(self, model, step: int | None = None) -> str:
        actual = step if step is not None else self.__get_step(model)
        return f"{model.name}@{actual}"

    async def _prepare_backend_for_training(self, model, config=None) -> tuple[str, str]:
        await asyncio.sleep(0)
        os.makedirs(self._checkpoint_dir(model, self.__get_step(model)), exist_ok=True)
        self._served.add((model.project, model.name))
        return "http://127.0.0.1:8000/v1", "default"

    async def _get_step(self, model) -> int:
        return self.__get_step(model)

    async def _delete_checkpoint_files(self, model, steps_to_keep: list[int]) -> None:
        base = f"{self._model_dir(model)}/checkpoints"
        if not os.path.isdir(base):
            return
        for d in os.listdir(base):
            if d.isdigit() and int(d) not in steps_to_keep:
                shutil.rmtree(f"{base}/{d}")
        self._record({"call": "delete_checkpoint_files", "model": model.name, "steps_to_keep": steps_to_keep})

    async def train(
        self,
        model,
        trajectory_groups: Iterable[TrajectoryGroup],
        *,
        learning_rate: float = 5e-6,
        loss_fn: str = "cispo",
        kl_penalty_coef: float = 0.0,
        epsilon: float | None = None,
        advantage_balance: float = 0.0,
        scale_rewards: bool = True,
        allow_training_without_logprobs: bool = False,
        save_checkpoint: bool = True,
        verbose: bool = False,
    ) -> LocalTrainResult:
        groups = list(trajectory_groups)
        if loss_fn not in {"cispo", "ppo"}:
            raise ValueError("LocalBackend only supports loss_fn='cispo' or 'ppo'.")
        config = TrainConfig(learning_rate=learning_rate)
        dev_config = {
            "advantage_balance": advantage_balance,
            "scale_rewards": scale_rewards,
            "allow_training_without_logprobs": allow_training_without_logprobs,
            "kl_penalty_coef": kl_penalty_coef,
        }
        if epsilon is not None:
            dev_config["epsilon"] = epsilon
        collected: list[dict[str, float]] = []
        async for metrics in self._train_model(model, groups, config, dev_config, verbose):
            collected.append(metrics)
        keys = {k for m in collected for k in m}
        avg = {k: sum(m.get(k, 0.0) for m in collected) / sum(1 for m in collected if k in m) for k in keys}
        step = self.__get_step(model)
        path = self._checkpoint_dir(model, step)
        return LocalTrainResult(step=step, metrics=avg, checkpoint_path=path if os.path.exists(path) else None)

    async def _train_model(self, model, trajectory_groups: list, config: TrainConfig, dev_config: dict,
                           verbose: bool = False) -> AsyncIterator[dict[str, float]]:
        if (model.project, model.name) not in self._served:
            raise RuntimeError(f"model {model.name} has no service: register it first")
        allow_no_logprobs = dev_config.get("allow_training_without_logprobs", False)
        received = []
        trainable_sequences = 0
        groups_trainable = 0
        for gi, group in enumerate(trajectory_groups):
            if not isinstance(group, TrajectoryGroup):
                raise TypeError(f"trajectory_groups[{gi}] is {type(group).__name__}, not a TrajectoryGroup")
            has_variance = len({t.reward for t in group.trajectories}) > 1
            groups_trainable += 1 if has_variance else 0
            for ti, t in enumerate(group.trajectories):
                kinds = []
                with_logprobs = False
                for i, item in enumerate(t.messages_and_choices):
                    if isinstance(item, Choice):
                        kinds.append("Choice")
                        with_logprobs = with_logprobs or item.logprobs is not None
                    elif isinstance(item, dict):
                        if "role" not in item:
                            # ART treats every dict as a chat message; a choice sent as a plain
                            # dict has no "role" and tokenization fails on it (ART 0.5.3+).
                            raise KeyError(
                                f"'role' (stand-in ART: messages_and_choices[{i}] of trajectory {ti} in group {gi} "
                                f"is a dict without a role; choices must be Choice objects)"
                            )
                        kinds.append("dict")
                    else:
                        raise TypeError(f"unexpected {type(item).__name__} in messages_and_choices")
                received.append(kinds)
                if has_variance and "Choice" in kinds and (with_logprobs or allow_no_logprobs):
                    trainable_sequences += 1
        self._record({"call": "_train_model", "model": model.name, "learning_rate": config.learning_rate,
                      "dev_config": dev_config, "messages_and_choices_types": received})

        base = {
            "data/step_num_groups_submitted": float(len(trajectory_groups)),
            "data/step_num_groups_trainable": float(groups_trainable),
            "data/step_num_trajectories": float(sum(len(g.trajectories) for g in trajectory_groups)),
        }
        current = self.__get_step(model)
        if trainable_sequences == 0:
            print("Skipping tuning as there is no suitable data.")
            src = self._checkpoint_dir(model, current)
            if os.path.exists(src):
                shutil.copytree(src, self._checkpoint_dir(model, current + 1), dirs_exist_ok=True)
            yield {**base, "data/step_num_groups_trainable": 0.0, TRAIN_GRADIENT_STEPS_KEY: 0.0}
            return

        step_seconds = float(os.environ.get("ART_STAND_IN_STEP_SECONDS", "0"))
        fail_at = os.environ.get("ART_STAND_IN_FAIL_AT_STEP")
        for i in range(trainable_sequences):
            await asyncio.sleep(step_seconds)
            if fail_at is not None and i == int(fail_at):
                raise RuntimeError(f"stand-in ART: CUDA out of memory at gradient step {i}")
            yield {
                **base,
                "loss/train": 0.5 / (i + 1),
                "loss/grad_norm": 1.0 + i,
                "loss/entropy": 0.7,
                "loss/learning_rate": config.learning_rate,
                "data/step_trainable_assistant_tokens": 12.0,
                TRAIN_GRADIENT_STEPS_KEY: float(trainable_sequences),
            }
        os.makedirs(self._checkpoint_dir(model, current + 1), exist_ok=True)
        self._served.add((model.project, model.name))
