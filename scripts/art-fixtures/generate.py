"""Writes test/fixtures/art-folders/ with ART's own writer code, once; the output is committed.

Each folder is `.art/<project>/models/<name>/` as one ART version leaves it. The trajectory files and
history rows come from ART's own functions, taken from ART's git history (the PeterWofford/ART mirror,
which carries OpenPipe/ART's tags) at these commits:

  art-0.3  v0.3.11 126fa27b7ed6e2b77addf11da1fbd9eb8090cf38  trajectories/<split>/<step:04d>.yaml
           (utils/trajectory_logging.py serialize_trajectory_groups = yaml.dump); no history.jsonl
  art-0.4  v0.4.12 e3f79680c862e2d88ebe7ae8cb19813f3be64298  trajectories/<split>/<step:04d>.jsonl
           (JSONL groups), history.jsonl by local/backend.py LocalBackend._log_metrics
  art-0.5  0.5.17 679b236e (PeterWofford/ART)  trajectories/<split>/<step:04d>.parquet
           (utils/trajectory_logging.py write_trajectory_groups_parquet, zstd), history.jsonl by
           model.py Model._log_metrics (sections, splits, NaN dropped), and a 0.4-style
           trajectories/val/0000.jsonl that 0.5 still reads
  art-newer the 0.5.17 Parquet with the columns newer ART adds (exchanges, policy versions) appended
           with pyarrow: no newer writer was in the mirror; it checks unknown columns are kept.

ART's package __init__ pulls in torch, vLLM and more; only the modules the writers need are loaded
(trajectories.py, types.py, the logging module), from a temporary copy, with `litellm` stubbed (0.5's
writer imports its Choices type only for an isinstance check). model.json is json.dump of the fields
each version's Model declares (its model_dump()), an inference_api_key included: Atelier must drop it.

Run: a venv with pyarrow, pyyaml, pydantic and openai from the local mirror, then
  python scripts/art-fixtures/generate.py [ART_GIT_DIR] [OUT_DIR]
"""

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

ART_GIT = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/PeterWofford+ART/repo"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/art-folders")

VERSIONS = {
    "0.3": "126fa27b7ed6e2b77addf11da1fbd9eb8090cf38",
    "0.4": "e3f79680c862e2d88ebe7ae8cb19813f3be64298",
    "0.5": "679b236e",
}


def git_show(commit: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={ART_GIT}", "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
    ).stdout


def package(commit: str, modules: list[str]) -> str:
    """A temporary import root holding ART's modules at `commit` and a minimal art/__init__.py."""
    root = tempfile.mkdtemp(prefix="art-src-")
    os.makedirs(f"{root}/art/utils", exist_ok=True)
    with open(f"{root}/art/__init__.py", "w") as f:
        f.write("from .trajectories import Trajectory, TrajectoryGroup\n")
    open(f"{root}/art/utils/__init__.py", "w").close()
    for m in modules:
        with open(f"{root}/art/{m}", "w") as f:
            f.write(git_show(commit, f"src/art/{m}"))
    os.makedirs(f"{root}/litellm/types", exist_ok=True)
    open(f"{root}/litellm/__init__.py", "w").close()
    open(f"{root}/litellm/types/__init__.py", "w").close()
    with open(f"{root}/litellm/types/utils.py", "w") as f:
        f.write("class Choices:  # stub: ART only checks isinstance against it\n    pass\n")
    return root


def function_source(commit: str, path: str, cls: str, name: str) -> str:
    """The source of one method of one class in ART's file, as a module-level function."""
    text = git_show(commit, path)
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return textwrap.dedent(ast.get_source_segment(text, item))
    raise SystemExit(f"{cls}.{name} not found in {path} at {commit}")


def groups_for(art, step: int, split: str, n_groups: int = 2, per_group: int = 3):
    """Deterministic TrajectoryGroups: a system and user message, a tool call choice, a tool result, a final choice."""
    from openai.types.chat.chat_completion import Choice

    groups = []
    for g in range(n_groups):
        trajectories = []
        for t in range(per_group):
            reward = round(0.1 * ((step * 7 + g * 3 + t) % 10), 2)
            call = {
                "id": f"call_{step}_{g}_{t}",
                "type": "function",
                "function": {"name": "lookup", "arguments": json.dumps({"q": f"order {g}"})},
            }
            first = Choice.model_validate(
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": None, "tool_calls": [call]},
                    "logprobs": {"content": [{"token": "x", "logprob": -0.5, "bytes": [120], "top_logprobs": []}]},
                }
            )
            final = Choice.model_validate(
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": f"Order {g} ships in {t + 1} days. (step {step})"},
                }
            )
            kwargs = dict(
                messages_and_choices=[
                    {"role": "system", "content": "You answer shipping questions."},
                    {"role": "user", "content": f"{split} question {g} at step {step}: where is my order?"},
                    first,
                    {"role": "tool", "tool_call_id": call["id"], "content": json.dumps({"eta_days": t + 1})},
                    final,
                ],
                reward=reward,
                metrics={"correct": t % 2 == 0, "turns": 2},
                metadata={"scenario": f"s{g}", "attempt": t},
                logs=[f"rollout {g}.{t}"],
            )
            if "tools" in art.Trajectory.model_fields:
                kwargs["tools"] = [
                    {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}
                ]
            trajectories.append(art.Trajectory(**kwargs))
        group_kwargs = {}
        if "metadata" in art.TrajectoryGroup.model_fields:
            group_kwargs["metadata"] = {"group": g}
        groups.append(art.TrajectoryGroup(trajectories, **group_kwargs))
    return groups


def write_model_json(folder: str, fields: dict) -> None:
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/model.json", "w") as f:
        json.dump(fields, f)


def checkpoints(folder: str, steps: list[int]) -> None:
    for s in steps:
        os.makedirs(f"{folder}/checkpoints/{s:04d}", exist_ok=True)
        with open(f"{folder}/checkpoints/{s:04d}/adapter_config.json", "w") as f:
            json.dump({"r": 8, "fixture": True}, f)


def gen_03(out: str) -> None:
    commit = VERSIONS["0.3"]
    root = package(commit, ["trajectories.py", "types.py", "utils/trajectory_logging.py"])
    sys.path.insert(0, root)
    import art
    from art.utils.trajectory_logging import serialize_trajectory_groups

    folder = f"{out}/art-0.3/.art/support/models/agent-003"
    write_model_json(
        folder,
        {
            "name": "agent-003",
            "project": "support",
            "config": None,
            "trainable": True,
            "inference_api_key": "sk-fixture-secret-0.3",
            "inference_base_url": "http://0.0.0.0:8000/v1",
            "inference_model_name": None,
            "base_model": "Qwen/Qwen2.5-0.5B-Instruct",
        },
    )
    os.makedirs(f"{folder}/trajectories/train", exist_ok=True)
    os.makedirs(f"{folder}/trajectories/val", exist_ok=True)
    for step in (0, 1):
        with open(f"{folder}/trajectories/train/{step:04d}.yaml", "w") as f:
            f.write(serialize_trajectory_groups(groups_for(art, step, "train")))
    with open(f"{folder}/trajectories/val/0001.yaml", "w") as f:
        f.write(serialize_trajectory_groups(groups_for(art, 1, "val", n_groups=1)))
    checkpoints(folder, [1])


def gen_04(out: str) -> None:
    commit = VERSIONS["0.4"]
    root = package(commit, ["trajectories.py", "types.py", "utils/trajectory_logging.py"])
    sys.path.insert(0, root)
    import art
    from art.utils.trajectory_logging import serialize_trajectory_groups

    folder = f"{out}/art-0.4/.art/support/models/agent-004"
    write_model_json(
        folder,
        {
            "name": "agent-004",
            "project": "support",
            "entity": None,
            "id": None,
            "config": None,
            "trainable": True,
            "inference_api_key": "sk-fixture-secret-0.4",
            "inference_base_url": "http://0.0.0.0:8000/v1",
            "inference_model_name": None,
            "base_model": "Qwen/Qwen2.5-0.5B-Instruct",
        },
    )
    # LocalBackend._log_metrics of this version, as its source says, on a stand-in for the backend.
    scope = {"json": json, "datetime": __import__("datetime").datetime, "Model": object}
    scope["get_model_dir"] = lambda model, art_path: folder
    exec(function_source(commit, "src/art/local/backend.py", "LocalBackend", "_log_metrics"), scope)
    log_metrics = scope["_log_metrics"]

    class Backend:
        _path = out

        def _get_wandb_run(self, model):
            return None

    backend = Backend()
    for split, steps in (("train", (1, 2)), ("val", (2,))):
        os.makedirs(f"{folder}/trajectories/{split}", exist_ok=True)
        for step in steps:
            groups = groups_for(art, step, split)
            with open(f"{folder}/trajectories/{split}/{step:04d}.jsonl", "w") as f:
                f.write(serialize_trajectory_groups(groups))
            rewards = [t.reward for g in groups for t in g.trajectories]
            log_metrics(
                backend,
                None,
                {"reward": sum(rewards) / len(rewards), "exception_rate": 0.0, "reward_std_dev": float("nan")},
                split,
                step,
            )
            if split == "train":
                log_metrics(backend, None, {"loss": 0.5 / step, "grad_norm": 1.25}, split, step)
    checkpoints(folder, [1, 2])


def gen_05(out: str) -> None:
    commit = VERSIONS["0.5"]
    root = package(
        commit,
        ["trajectories.py", "types.py", "utils/trajectory_logging.py", "utils/trajectory_migration.py"],
    )
    sys.path.insert(0, root)
    import time
    from datetime import datetime

    import art
    from art.utils.trajectory_logging import write_trajectory_groups_parquet
    from art.utils.trajectory_migration import serialize_trajectory_groups

    folder = f"{out}/art-0.5/.art/support/models/agent-005"
    write_model_json(
        folder,
        {
            "name": "agent-005",
            "project": "support",
            "entity": None,
            "id": None,
            "run_id": "run-0005-fixture",
            "config": {"max_turns": 4},
            "trainable": True,
            "inference_api_key": "sk-fixture-secret-0.5",
            "inference_base_url": "http://0.0.0.0:8000/v1",
            "inference_model_name": "agent-005",
            "base_path": ".art",
            "report_metrics": None,
            "base_model": "Qwen/Qwen2.5-0.5B-Instruct",
        },
    )
    source = git_show(commit, "src/art/model.py")
    tree = ast.parse(source)
    constants = "\n".join(
        ast.get_source_segment(source, n)
        for n in tree.body
        if isinstance(n, ast.Assign) and any(getattr(t, "id", "") in ("METRIC_SECTIONS", "METRIC_SPLITS") for t in n.targets)
    )
    scope = {"json": json, "os": os, "time": time, "datetime": datetime}
    exec(constants, scope)
    exec(function_source(commit, "src/art/model.py", "Model", "_log_metrics"), scope)
    log_metrics = scope["_log_metrics"]

    class ModelStandIn:
        _run_start_time = time.time() - 60
        report_metrics = ["history"]  # not wandb: history.jsonl only

        def _get_output_dir(self):
            return folder

    model = ModelStandIn()
    for step in (1, 2, 3):
        for split in ("train", "val") if step != 1 else ("train",):
            groups = groups_for(art, step, split)
            os.makedirs(f"{folder}/trajectories/{split}", exist_ok=True)
            write_trajectory_groups_parquet(groups, f"{folder}/trajectories/{split}/{step:04d}.parquet")
            rewards = [t.reward for g in groups for t in g.trajectories]
            log_metrics(
                model,
                {
                    "reward": sum(rewards) / len(rewards),
                    "exception_rate": 0.0,
                    "correct": 0.5,
                    "reward_std_dev": 0.2,
                    "data/step_num_trajectories": float(len(rewards)),
                    "not_a_number": float("nan"),
                },
                split,
                step,
            )
            if split == "train":
                # what backend.train's result logs: model.log(metrics=result.metrics, step=..., split="train")
                log_metrics(
                    model,
                    {"loss/train": 0.5 / step, "loss/grad_norm": 1.5, "loss/learning_rate": 1e-5},
                    split,
                    step,
                )
    # A 0.4 JSONL file still in the folder: 0.5's trajectory_migration reads (and migrates) it.
    with open(f"{folder}/trajectories/val/0000.jsonl", "w") as f:
        f.write(serialize_trajectory_groups(groups_for(art, 0, "val", n_groups=1)))
    checkpoints(folder, [1, 2, 3])


def gen_newer(out: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = f"{out}/art-0.5/.art/support/models/agent-005"
    folder = f"{out}/art-newer/.art/support/models/agent-newer"
    os.makedirs(f"{folder}/trajectories/train", exist_ok=True)
    with open(f"{src}/model.json") as f:
        model = json.load(f)
    model.update(name="agent-newer", run_id="run-newer-fixture", inference_api_key="sk-fixture-secret-newer")
    write_model_json(folder, model)
    table = pq.read_table(f"{src}/trajectories/train/0001.parquet")
    n = table.num_rows
    table = table.append_column("initial_policy_version", pa.array([1] * n, pa.int64()))
    table = table.append_column("final_policy_version", pa.array([1] * n, pa.int64()))
    table = table.append_column("exchanges", pa.array([json.dumps([{"model": "agent-newer@1"}])] * n, pa.string()))
    pq.write_table(table, f"{folder}/trajectories/train/0001.parquet", compression="zstd")
    shutil.copy(f"{src}/history.jsonl", f"{folder}/history.jsonl")


if __name__ == "__main__":
    which = sys.argv[3] if len(sys.argv) > 3 else None
    if which is None:
        shutil.rmtree(OUT, ignore_errors=True)
        os.makedirs(OUT)
        # each version's modules in a fresh interpreter: they share module names
        for v in ("0.3", "0.4", "0.5", "newer"):
            subprocess.run([sys.executable, __file__, ART_GIT, OUT, v], check=True)
    else:
        {"0.3": gen_03, "0.4": gen_04, "0.5": gen_05, "newer": gen_newer}[which](OUT)
