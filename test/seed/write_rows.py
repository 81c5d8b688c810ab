"""Writes rows into an Atelier SQLite file the way the seed's code would: builds TrainingRun and
TrajectoryRecord objects, calls their to_dict(), and INSERTs the result by column name (the seed
has no avg_reward or step columns, and its ids are None: SQLite assigns them).

Usage: python3 write_rows.py <path to seed models.py> <path to atelier.sqlite> <atelier run id>
<atelier run id> is the row id of a run Atelier created; one seed trajectory goes into it.
Prints {"runs": {key: entry}, "trajectories": {key: entry}} where each entry is
{"id": <row id>, "model": <model_dump_json>, "row": <to_dict()>, "instants": {...}}.
"""
from __future__ import annotations

import json
import sqlite3
import sys
from datetime import datetime, timedelta, timezone
from uuid import UUID

from _seed import instant, load_models


def insert(conn: sqlite3.Connection, table: str, obj) -> tuple[int, dict]:
    row = obj.to_dict()
    assert row.pop("id") is None
    cols = list(row)
    sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
    cur = conn.execute(sql, [row[c] for c in cols])
    return cur.lastrowid, row


def main() -> None:
    models_path, db_path, atelier_run_id = sys.argv[1], sys.argv[2], int(sys.argv[3])
    m = load_models(models_path)
    conn = sqlite3.connect(db_path, timeout=5)
    conn.execute("PRAGMA foreign_keys = ON")

    runs: dict[str, object] = {
        # Every default: empty config (to_dict writes NULL), no metrics, created_at = naive datetime.now().
        "defaults": m.TrainingRun(model_name="Qwen/Qwen2.5-1.5B-Instruct", project_name="seed-compat", task_description="Seed defaults"),
        "full": m.TrainingRun(
            uuid=UUID("6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"),
            status=m.TrainingStatus.FAILED,
            model_name="meta-llama/Llama-3.2-3B-Instruct",
            project_name="seed-compat",
            trained_model_name="support-agent-v2",
            task_description="Answer support tickets — politely, “in kind”, café ✓",
            num_examples=7,
            rollouts_per_group=2,
            learning_rate=2.5e-4,
            num_epochs=3,
            max_steps=30,
            system_prompt="You are a support agent.\nBe brief.",
            created_at=datetime(2026, 3, 4, 5, 6, 7, 891234, tzinfo=timezone.utc),
            started_at=datetime(2026, 3, 4, 7, 8, 9, 5000, tzinfo=timezone(timedelta(hours=2))),
            completed_at=datetime(2026, 3, 4, 6, 30, 0, tzinfo=timezone.utc),
            metrics=m.TrainingMetrics(total_trajectories=3, avg_reward=0.5, min_reward=-1.25, max_reward=1.0, training_loss=0.125, epoch=1, step=4),
            error='CUDA out of memory: "tried to allocate 2 GiB"\nat step 4',
            config={"groups_per_step": 2, "judge": {"model": "o3", "weights": [0.5, 0.25]}, "note": "naïve ✓", "flag": True, "nothing": None},
        ),
        "metrics_defaults": m.TrainingRun(
            status=m.TrainingStatus.COMPLETED,
            model_name="m",
            project_name="seed-compat",
            task_description="metrics all defaults",
            created_at=datetime(2026, 3, 5, 0, 0, 0),
            metrics=m.TrainingMetrics(),
            config={"k": 1},
        ),
        # Written by the seed, then moved on and extended by Atelier; the seed reads it back.
        "shared": m.TrainingRun(
            model_name="Qwen/Qwen2.5-1.5B-Instruct",
            project_name="seed-compat",
            task_description="seed writes, Atelier continues",
            created_at=datetime(2026, 3, 6, 1, 2, 3, 456789),
            config={"owner": "seed"},
        ),
    }
    for status in m.TrainingStatus:
        runs[f"status_{status.value}"] = m.TrainingRun(status=status, model_name="m", project_name="seed-compat-status", task_description=f"status {status.value}")

    out: dict[str, dict] = {"runs": {}, "trajectories": {}}
    for key, run in runs.items():
        row_id, row = insert(conn, "training_runs", run)
        out["runs"][key] = {
            "id": row_id,
            "model": json.loads(run.model_dump_json()),
            "row": row,
            "instants": {f: instant(getattr(run, f)) for f in ("created_at", "started_at", "completed_at")},
        }

    full_id = out["runs"]["full"]["id"]
    trajectories = {
        # Every default: no messages, no reward, empty metadata (to_dict writes NULL), created_at = now.
        "defaults": m.TrajectoryRecord(run_id=full_id, task_input=m.TaskInput(step=0, input_text="What is 2 + 2?")),
        "full": m.TrajectoryRecord(
            uuid=UUID("0b1c2d3e-4f50-4a61-b7c8-d9e0f1a2b3c4"),
            run_id=full_id,
            task_input=m.TaskInput(step=3, input_text="Refund “order” #42 — café", context={"ticket": 42, "tags": ["refund", "vip"], "nested": {"ok": True}}),
            messages=[
                m.TrajectoryMessage(role="system", content="You are helpful."),
                m.TrajectoryMessage(role="user", content="Refund “order” #42 — café ✓"),
                m.TrajectoryMessage(role="assistant", content='Done.\n{"refund": true}'),
            ],
            reward=0.0,
            metadata={"judge": "ruler", "scores": [0.1, 0.2], "emoji": "🎉"},
            created_at=datetime(2026, 3, 4, 5, 10, 0, 120500, tzinfo=timezone.utc),
        ),
        "test_input": m.TrajectoryRecord(
            run_id=full_id,
            task_input=m.TaskInput(step=999, input_text="held-out test input"),
            messages=[m.TrajectoryMessage(role="user", content="hi"), m.TrajectoryMessage(role="assistant", content="hello")],
            reward=-1.25,
            metadata={"split": "test"},
            created_at=datetime(2026, 3, 4, 5, 11, 0, 999999),
        ),
        "into_atelier_run": m.TrajectoryRecord(
            run_id=atelier_run_id,
            task_input=m.TaskInput(step=0, input_text="seed row in an Atelier run", context={"source": "seed"}),
            messages=[m.TrajectoryMessage(role="user", content="q"), m.TrajectoryMessage(role="assistant", content="a")],
            reward=0.625,
            metadata={"source": "seed"},
        ),
        "into_shared_run": m.TrajectoryRecord(
            run_id=out["runs"]["shared"]["id"],
            task_input=m.TaskInput(step=0, input_text="seed trajectory of the shared run"),
            messages=[m.TrajectoryMessage(role="user", content="q")],
            reward=0.25,
            metadata={"by": "seed"},
        ),
    }
    for key, t in trajectories.items():
        row_id, row = insert(conn, "trajectories", t)
        out["trajectories"][key] = {
            "id": row_id,
            "model": json.loads(t.model_dump_json()),
            "row": row,
            "instants": {"created_at": instant(t.created_at)},
        }
    conn.commit()
    conn.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
