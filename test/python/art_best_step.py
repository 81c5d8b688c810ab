# ART 0.5.17's Model.delete_checkpoints best step (src/art/model.py at PeterWofford/ART 679b236e),
# verbatim: read history.jsonl, drop rows without the metric, average per step, sort, take the last.
# Usage: art_best_step.py <history.jsonl> <metric>; prints the step as JSON (null: no such metric).
import json
import sys

import polars as pl

path, best_checkpoint_metric = sys.argv[1], sys.argv[2]
try:
    best_step = (
        pl.read_ndjson(path)
        .drop_nulls(subset=[best_checkpoint_metric])
        .group_by("step")
        .mean()
        .sort(best_checkpoint_metric)
        .select(pl.col("step").last())
        .item()
    )
except pl.exceptions.ColumnNotFoundError:
    best_step = None
print(json.dumps(best_step))
