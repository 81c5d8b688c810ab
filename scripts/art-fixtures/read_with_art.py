"""Reads an ART model folder with ART's own readers and prints what they see, as JSON.

ART 0.5.17 (PeterWofford/ART 679b236e): utils/trajectory_logging.py read_trajectory_groups_parquet
(duckdb) for each trajectories/<split>/<step>.parquet, pyarrow for its schema, and history.jsonl line
by line as ART's polars.read_ndjson would. Used by test/art-folders.test.ts to check that what
`atelier export --format art` writes loads in ART. Needs pyarrow, duckdb, pydantic and openai.

  python scripts/art-fixtures/read_with_art.py ART_GIT_DIR MODEL_FOLDER
"""

import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from generate import VERSIONS, package  # noqa: E402

art_git, folder = sys.argv[1], sys.argv[2]
import generate  # noqa: E402

generate.ART_GIT = art_git
sys.path.insert(0, package(VERSIONS["0.5"], ["trajectories.py", "types.py", "utils/trajectory_logging.py"]))

import pyarrow.parquet as pq  # noqa: E402
from art.utils.trajectory_logging import read_trajectory_groups_parquet  # noqa: E402

out = {"model": None, "history": [], "trajectories": {}, "checkpoints": []}
with open(f"{folder}/model.json") as f:
    out["model"] = json.load(f)
if os.path.exists(f"{folder}/history.jsonl"):
    with open(f"{folder}/history.jsonl") as f:
        out["history"] = [json.loads(line) for line in f if line.strip()]
for path in sorted(glob.glob(f"{folder}/trajectories/*/*.parquet")):
    rel = os.path.relpath(path, folder)
    schema = pq.read_schema(path)
    groups = read_trajectory_groups_parquet(path)
    out["trajectories"][rel] = {
        "schema": {name: str(schema.field(name).type) for name in schema.names},
        "compression": pq.ParquetFile(path).metadata.row_group(0).column(0).compression
        if pq.ParquetFile(path).metadata.num_row_groups
        else None,
        "groups": [
            {
                "metadata": g.metadata,
                "trajectories": [
                    {
                        "reward": t.reward,
                        "metrics": t.metrics,
                        "metadata": t.metadata,
                        "logs": t.logs,
                        "messages": [
                            m if isinstance(m, dict) else m.model_dump(mode="json") for m in t.messages_and_choices
                        ],
                    }
                    for t in g.trajectories
                ],
            }
            for g in groups
        ],
    }
out["checkpoints"] = sorted(os.listdir(f"{folder}/checkpoints")) if os.path.isdir(f"{folder}/checkpoints") else []
print(json.dumps(out))
