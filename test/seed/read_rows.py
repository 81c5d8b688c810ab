"""Reads every training_runs and trajectories row of an Atelier SQLite file with the seed's own
TrainingRun.from_row / TrajectoryRecord.from_row, as the seed's code would, and prints the models.

Usage: python3 read_rows.py <path to seed models.py> <path to atelier.sqlite>
Prints one JSON object: {"runs": [...], "trajectories": [...]}, one entry per row, each either
{"ok": true, "model": <model_dump_json>, "instants": {...}} or {"ok": false, "error": ..., "row": ...}.
"""
from __future__ import annotations

import json
import sqlite3
import sys
import traceback

from _seed import instant, load_models


def main() -> None:
    models_path, db_path = sys.argv[1], sys.argv[2]
    models = load_models(models_path)
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5)
    conn.row_factory = sqlite3.Row
    out: dict[str, list] = {"runs": [], "trajectories": []}
    tables = [
        ("runs", "training_runs", models.TrainingRun, ["created_at", "started_at", "completed_at"]),
        ("trajectories", "trajectories", models.TrajectoryRecord, ["created_at"]),
    ]
    for key, table, cls, date_fields in tables:
        for row in conn.execute(f"SELECT * FROM {table} ORDER BY id"):
            try:
                model = cls.from_row(row)
                out[key].append({
                    "ok": True,
                    "model": json.loads(model.model_dump_json()),
                    "instants": {f: instant(getattr(model, f)) for f in date_fields},
                })
            except Exception:  # reported per row, so one bad row does not hide the others
                out[key].append({"ok": False, "error": traceback.format_exc(), "row": dict(row)})
    conn.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
