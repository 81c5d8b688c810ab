"""The rollout calls (PROTOCOL.md, "Rollouts"): the real worker as a subprocess runs the user's ART rollout
functions with the stand-in `art` and the REAL `openai` and `pydantic` (from the venv scripts/python-env.sh
builds), against a simulated inference server; trajectories are streamed as NDJSON as they finish."""

import http.client
import json
import os
import sys
import tempfile
import time
import unittest

from .inference_sim import InferenceSim
from .test_server import STAND_IN, WORKER_DIR, Worker

REPO = os.path.dirname(WORKER_DIR)
EXAMPLE = os.path.join(REPO, "examples", "worker-rollout")
TESTS = os.path.dirname(os.path.abspath(__file__))

try:
    import openai  # noqa: F401
    import pydantic  # noqa: F401

    MISSING = None
except ImportError as exc:  # pragma: no cover - only without the venv
    MISSING = f"needs the real openai and pydantic (run bash scripts/python-env.sh; PYTHON=.venv/bin/python): {exc}"


def rollout_body(sim, entrypoint, scenario, count=1, **extra):
    return {
        "entrypoint": entrypoint,
        "model": {"name": "agent-1", "project": "atelier", "base_model": "Qwen/Qwen2.5-1.5B-Instruct",
                  "inference": {"base_url": sim.url, "api_key": "sk-inference", "model_name": "agent-1@3"}},
        "scenario": scenario,
        "count": count,
        **extra,
    }


@unittest.skipIf(MISSING, MISSING or "")
class RolloutTests(unittest.TestCase):
    extra_args: tuple = ()

    def setUp(self):
        self.sim = InferenceSim()
        self.addCleanup(self.sim.close)
        path = os.pathsep.join([STAND_IN, WORKER_DIR, EXAMPLE, TESTS])
        self.w = Worker(env={"PYTHONPATH": path}, extra_args=self.extra_args)
        self.addCleanup(self.w.stop)

    def stream(self, body):
        c = self.w.conn()
        c.request("POST", "/v1/rollouts", body=json.dumps(body), headers={"Content-Type": "application/json"})
        r = c.getresponse()
        raw = r.read()
        c.close()
        if r.status != 200:
            return r.status, json.loads(raw)
        lines = [json.loads(line) for line in raw.decode().splitlines() if line.strip()]
        # Heartbeats come whenever the worker was quiet for --heartbeat-seconds (a busy machine): not asserted on.
        return r.status, [line for line in lines if line["type"] != "heartbeat"]

    def test_an_art_style_agent_plays_multi_turn_tool_calls_with_real_openai_choices(self):
        scenario = {"input_text": "Compute 12 * 7 + 5", "answer": 89}
        status, lines = self.stream(rollout_body(self.sim, "calculator_agent:rollout", scenario, count=2))
        self.assertEqual(status, 200, lines)
        trajectories = [l for l in lines if l["type"] == "trajectory"]
        self.assertEqual(len(trajectories), 2, lines)
        self.assertEqual(sorted(t["index"] for t in trajectories), [0, 1])
        self.assertEqual(lines[-1], {"type": "done", "mode": "single", "trajectories": 2, "exceptions": 0})
        # Each finished turn was reported as it happened: 4 model calls per rollout.
        self.assertEqual(sum(1 for l in lines if l["type"] == "turn"), 8)
        for t in trajectories:
            traj = t["trajectory"]
            self.assertEqual(traj["reward"], 1.0)  # 12 * 7 + 5 computed by the tool, then submitted
            choices = [x for x in traj["messages_and_choices"] if "finish_reason" in x]
            self.assertEqual(len(choices), 4)
            calls = [c for x in choices for c in (x["message"].get("tool_calls") or [])]
            self.assertGreaterEqual(len(calls), 3)
            self.assertEqual(calls[-1]["function"]["name"], "submit_answer")
            tools = [x for x in traj["messages_and_choices"] if x.get("role") == "tool"]
            self.assertEqual([m["tool_call_id"] for m in tools], [c["id"] for c in calls])
            for c in choices:  # every assistant turn is the choice itself, with its token logprobs
                self.assertTrue(c["logprobs"]["content"][0]["token"].startswith("token_id:"))
            self.assertEqual(traj["tools"][0]["function"]["name"], "calculate")
            self.assertEqual(traj["metrics"], {"correct": True, "tool_calls": 4})
        # The model the rollout got points at the inference server Atelier rolls out on, by its served name.
        self.assertEqual({r["body"]["model"] for r in self.sim.requests}, {"agent-1@3"})
        self.assertEqual({r["authorization"] for r in self.sim.requests}, {"Bearer sk-inference"})
        self.assertTrue(all(r["body"]["logprobs"] for r in self.sim.requests))
        # The conversation sent back to the model is ART's get_messages: the tool calls as openai dumps them.
        last = self.sim.requests[-1]["body"]["messages"]
        self.assertEqual([m["role"] for m in last][:4], ["system", "user", "assistant", "tool"])

    def test_an_entrypoint_that_cannot_be_imported_is_422_naming_the_module(self):
        for entrypoint, code, module in [
            ("rollout_broken:rollout", "entrypoint_not_importable", "rollout_broken"),
            ("atelier_nowhere.agent:rollout", "entrypoint_not_importable", "atelier_nowhere.agent"),
            ("rollout_fixtures:missing", "entrypoint_not_found", "rollout_fixtures"),
            ("rollout_fixtures:NOT_A_FUNCTION", "entrypoint_not_callable", "rollout_fixtures"),
        ]:
            for path, body in [("/v1/rollouts/check", {"entrypoint": entrypoint}),
                               ("/v1/rollouts", rollout_body(self.sim, entrypoint, {"input_text": "x"}))]:
                status, err = self.w.post(path, body)
                self.assertEqual(status, 422, (path, err))
                self.assertEqual(err["error"]["code"], code)
                self.assertEqual(err["error"]["module"], module)
                self.assertIn(repr(module) if code != "entrypoint_not_callable" else "NOT_A_FUNCTION",
                              err["error"]["message"])
        status, err = self.w.post("/v1/rollouts/check", {"entrypoint": "rollout_broken:rollout"})
        self.assertIn("ModuleNotFoundError", err["error"]["message"])
        self.assertIn("atelier_not_installed_package", err["error"]["message"])
        status, err = self.w.post("/v1/rollouts/check", {"entrypoint": "not a path"})
        self.assertEqual((status, err["error"]["code"]), (400, "invalid_request"))
        self.assertTrue(err["error"]["message"].startswith("entrypoint: "))
        status, ok = self.w.post("/v1/rollouts/check", {"entrypoint": "calculator_agent:rollout"})
        self.assertEqual((status, ok), (200, {"ok": True, "mode": "single", "takes_config": False}))
        status, ok = self.w.post("/v1/rollouts/check", {"entrypoint": "rollout_fixtures:group_of_two"})
        self.assertEqual((status, ok), (200, {"ok": True, "mode": "group", "takes_config": True}))
        self.assertEqual(self.sim.requests, [])

    def test_a_failing_rollout_is_streamed_as_arts_exception(self):
        status, lines = self.stream(rollout_body(self.sim, "rollout_fixtures:flaky",
                                                 {"input_text": "x", "fail": True}, count=2, config={"k": 1}))
        self.assertEqual(status, 200, lines)
        exceptions = [l for l in lines if l["type"] == "exception"]
        self.assertEqual(len(exceptions), 2)
        e = exceptions[0]["exception"]
        self.assertEqual(e["type"], "<class 'ValueError'>")  # str(type(e)), as ART's TrajectoryGroup keeps it
        self.assertEqual(e["message"], "the environment refused 'x'")
        self.assertIn("Traceback", e["traceback"])
        self.assertEqual(lines[-1]["exceptions"], 2)
        status, lines = self.stream(rollout_body(self.sim, "rollout_fixtures:flaky", {"input_text": "y"},
                                                 count=1, config={"k": 1}))
        self.assertEqual(lines[0]["trajectory"]["metadata"], {"config": "{'k': 1}"})  # config passed through

    def test_a_group_rollout_is_called_once_and_streams_its_trajectories_and_exceptions(self):
        status, lines = self.stream(rollout_body(self.sim, "rollout_fixtures:group_of_two", {"input_text": "g"},
                                                 count=3))
        self.assertEqual(status, 200, lines)
        kinds = [l["type"] for l in lines]
        self.assertEqual(kinds, ["trajectory", "trajectory", "exception", "done"])
        self.assertEqual([l["trajectory"]["reward"] for l in lines[:2]], [1.0, 0.0])
        self.assertEqual(lines[2]["exception"]["message"], "third rollout crashed")
        self.assertEqual(lines[-1]["group"], {"metadata": {"scenario": "g"}})

    def test_closing_the_connection_cancels_the_in_flight_rollout(self):
        marker = os.path.join(self.w.tmp, "hang")
        c = http.client.HTTPConnection("127.0.0.1", self.w.port, timeout=10)
        c.request("POST", "/v1/rollouts", body=json.dumps(rollout_body(self.sim, "rollout_fixtures:hang",
                                                                        {"input_text": "h", "marker": marker})),
                  headers={"Content-Type": "application/json"})
        r = c.getresponse()
        self.assertEqual(r.status, 200)
        deadline = time.monotonic() + 10
        while not os.path.exists(f"{marker}.started"):
            self.assertLess(time.monotonic(), deadline, "the rollout did not start")
            time.sleep(0.02)
        self.assertFalse(os.path.exists(f"{marker}.closed"))
        c.close()  # Atelier cancels by closing the stream
        deadline = time.monotonic() + 10
        while not os.path.exists(f"{marker}.closed"):
            self.assertLess(time.monotonic(), deadline, "the rollout was not cancelled")
            time.sleep(0.02)

    def test_bad_requests_name_the_field(self):
        for body, field in [
            ({**rollout_body(self.sim, "calculator_agent:rollout", {"input_text": "x"}), "count": 0}, "count"),
            ({**rollout_body(self.sim, "calculator_agent:rollout", {"input_text": "x"}), "scenario": []}, "scenario"),
            ({**rollout_body(self.sim, "calculator_agent:rollout", {"input_text": "x"}), "model": {"name": "a"}},
             "model.project"),
        ]:
            status, err = self.w.post("/v1/rollouts", body)
            self.assertEqual(status, 400, err)
            self.assertTrue(err["error"]["message"].startswith(f"{field}: "), err)


class RolloutsOnlyTests(RolloutTests):
    """A GPU-less worker (--rollouts-only, beside serverless training): rollouts run, training is refused."""

    extra_args = ("--rollouts-only",)

    def test_training_calls_are_refused(self):
        status, body = self.w.request("GET", "/v1/health")
        self.assertEqual((body["rollouts"], body["training"]), (True, False))
        status, err = self.w.post("/v1/models/register", {"name": "a", "project": "p", "base_model": "m"})
        self.assertEqual((status, err["error"]["code"]), (409, "rollouts_only"))


if __name__ == "__main__":
    unittest.main()
