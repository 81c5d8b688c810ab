"""Rollout functions the worker's rollout tests name as entrypoints (`rollout_fixtures:<name>`)."""

from __future__ import annotations

import asyncio
import os

import art


async def hang(model: art.TrainableModel, scenario: dict) -> art.Trajectory:
    """Starts, then waits until cancelled; says so in files the test waits on (the in-flight rollout is closed)."""
    marker = scenario["marker"]
    with open(f"{marker}.started", "w") as f:
        f.write("started")
    try:
        await asyncio.sleep(3600)
    finally:
        with open(f"{marker}.closed", "w") as f:
            f.write("closed")
    raise AssertionError("unreachable")


async def flaky(model: art.TrainableModel, scenario: dict, config) -> art.Trajectory:
    """ART's SingleRolloutFn (model, scenario, config): the second of each pair raises."""
    if scenario.get("fail"):
        raise ValueError(f"the environment refused {scenario['input_text']!r}")
    return art.Trajectory(messages_and_choices=[{"role": "user", "content": scenario["input_text"]}], reward=0.5,
                          metadata={"config": str(config)})


async def group_of_two(model: art.TrainableModel, scenario: dict, config) -> art.TrajectoryGroup:
    """ART's RolloutFn: one call gives the whole group, an exception included."""
    return art.TrajectoryGroup(
        [
            art.Trajectory(messages_and_choices=[{"role": "user", "content": "a"}], reward=1.0),
            art.Trajectory(messages_and_choices=[{"role": "user", "content": "b"}], reward=0.0),
            RuntimeError("third rollout crashed"),
        ],
        metadata={"scenario": scenario["input_text"]},
    )


def not_async(model, scenario):
    return 42


NOT_A_FUNCTION = 3
