"""End-to-end tests: the real worker (python -m atelier_worker) as a subprocess on a
free port, driven over HTTP, with the stand-in `art` and `openai` on PYTHONPATH."""

import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER_DIR = os.path.dirname(HERE)
STAND_IN = os.path.join(HERE, "stand_in")


def choice(content, token_id=7, logprob=-0.2):
    return {
        "finish_reason": "stop",
        "index": 0,
        "message": {"role": "assistant", "content": content},
        "logprobs": {"content": [{"token": f"token_id:{token_id}", "logprob": logprob}]},
    }


def group(rewards=(1.0, 0.0)):
    return {
        "trajectories": [
            {"reward": r, "metrics": {"correct": r > 0}, "messages_and_choices": [
                {"role": "system", "content": "Answer."}, {"role": "user", "content": "2+2?"}, choice(str(i))]}
            for i, r in enumerate(rewards)
        ],
        "metadata": {"input": "2+2?"},
        "exceptions": [],
    }


class Worker:
    def __init__(self, *, token=None, env=None, heartbeat=0.2, extra_args=()):
        self.tmp = tempfile.mkdtemp(prefix="atelier-worker-test-")
        self.art_path = os.path.join(self.tmp, ".art")
        args = [sys.executable, "-m", "atelier_worker", "--host", "127.0.0.1", "--port", "0",
                "--art-path", self.art_path, "--heartbeat-seconds", str(heartbeat), *extra_args]
        full_env = dict(os.environ)
        full_env.pop("ATELIER_WORKER_TOKEN", None)
        full_env["PYTHONPATH"] = os.pathsep.join([STAND_IN, WORKER_DIR])
        full_env["PYTHONDONTWRITEBYTECODE"] = "1"
        if token:
            full_env["ATELIER_WORKER_TOKEN"] = token
        full_env.update(env or {})
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("worker did not start: " + self.proc.stderr.read())
        self.info = json.loads(line)
        self.port = self.info["port"]
        self._stderr = []
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def conn(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)

    def request(self, method, path, body=None, token=None):
        c = self.conn()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        c.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, json.loads(data) if data else None

    def post(self, path, body, token=None):
        return self.request("POST", path, body, token)

    def train(self, body, token=None):
        """POST /v1/models/train; returns (status, headers, list of parsed lines or error body)."""
        c = self.conn()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        c.request("POST", "/v1/models/train", body=json.dumps(body), headers=headers)
        r = c.getresponse()
        raw = r.read()  # http.client decodes chunked transfer encoding
        c.close()
        if r.status != 200:
            return r.status, dict(r.getheaders()), json.loads(raw)
        lines = [json.loads(line) for line in raw.decode().splitlines() if line.strip()]
        return r.status, dict(r.getheaders()), lines

    def received(self):
        with open(os.path.join(self.art_path, "stand_in_received.jsonl")) as f:
            return [json.loads(line) for line in f]


REGISTER = {"name": "agent-1", "project": "atelier", "base_model": "Qwen/Qwen2.5-1.5B-Instruct"}
REF = {"name": "agent-1", "project": "atelier"}


class WorkerTests(unittest.TestCase):
    def setUp(self):
        self.w = Worker(env={"ART_STAND_IN_STEP_SECONDS": "0.05"})
        self.addCleanup(self.w.stop)

    def test_health_reports_protocol_and_art_version(self):
        status, body = self.w.request("GET", "/v1/health")
        self.assertEqual(status, 200)
        self.assertEqual(body["status"], "ok")
        self.assertEqual(body["protocol"], "atelier-worker/1")
        self.assertEqual(body["art_version"], "0.5.9+stand.in")  # from importlib.metadata, as with real ART
        self.assertEqual(body["worker_version"], "0.1.0")

    def test_register_is_idempotent_and_names_are_name_at_step(self):
        status, body = self.w.post("/v1/models/register", dict(REGISTER, config={"engine_args": {"gpu_memory_utilization": 0.7}}))
        self.assertEqual(status, 200, body)
        self.assertEqual(body, {"step": 0, "inference": {
            "base_url": "http://127.0.0.1:8000/v1", "api_key": "default", "model_name": "agent-1@0"}})
        status, again = self.w.post("/v1/models/register", REGISTER)
        self.assertEqual((status, again), (200, body))
        registers = [e for e in self.w.received() if e["call"] == "register"]
        self.assertEqual(len(registers), 1)  # ART was asked once
        self.assertEqual(registers[0]["run_name"], "agent-1")
        self.assertEqual(registers[0]["internal_config"], {"engine_args": {"gpu_memory_utilization": 0.7}})
        status, err = self.w.post("/v1/models/register", dict(REGISTER, base_model="other/model"))
        self.assertEqual(status, 409)
        self.assertEqual(err["error"]["code"], "conflict")

    def test_step_before_and_after_register(self):
        status, err = self.w.post("/v1/models/step", REF)
        self.assertEqual(status, 404)
        self.assertEqual(err["error"]["code"], "model_not_registered")
        self.w.post("/v1/models/register", REGISTER)
        self.assertEqual(self.w.post("/v1/models/step", REF), (200, {"step": 0, "inference_model_name": "agent-1@0"}))

    def test_train_streams_each_gradient_step_then_done(self):
        self.w.post("/v1/models/register", REGISTER)
        status, headers, lines = self.w.train(dict(REF, trajectory_groups=[group(), group((0.2, 0.9, 0.5))],
                                                   config={"learning_rate": 2e-5, "beta": 0.0}))
        self.assertEqual(status, 200)
        self.assertEqual(headers["Content-Type"], "application/x-ndjson")
        self.assertEqual(headers["Transfer-Encoding"], "chunked")
        steps = [l for l in lines if l["type"] == "gradient_step"]
        self.assertEqual([s["step_index"] for s in steps], [0, 1, 2, 3, 4])
        for s in steps:
            for key in ("loss/train", "loss/grad_norm", "loss/learning_rate", "data/step_num_gradient_steps"):
                self.assertIn(key, s["metrics"])
            self.assertEqual(s["metrics"]["loss/learning_rate"], 2e-5)
            self.assertEqual(s["metrics"]["data/step_num_gradient_steps"], 5.0)
        done = lines[-1]
        self.assertEqual(done["type"], "done")
        self.assertEqual(done["step"], 1)
        self.assertEqual(done["inference_model_name"], "agent-1@1")
        self.assertEqual(done["gradient_steps"], 5)
        self.assertAlmostEqual(done["metrics"]["loss/grad_norm"], 3.0)
        self.assertEqual(self.w.post("/v1/models/step", REF), (200, {"step": 1, "inference_model_name": "agent-1@1"}))
        # ART got real Choice objects for the assistant turns, dicts for the messages
        trained = [e for e in self.w.received() if e["call"] == "_train_model"]
        self.assertEqual(trained[0]["messages_and_choices_types"], [["dict", "dict", "Choice"]] * 5)
        self.assertEqual(trained[0]["learning_rate"], 2e-5)
        # trajectories and averaged metrics logged through model.log
        with open(os.path.join(self.w.art_path, "atelier", "models", "agent-1", "history.jsonl")) as f:
            history = [json.loads(line) for line in f]
        self.assertEqual(history[-1]["step"], 1)
        self.assertIn("loss/train", history[-1])

    def test_group_without_reward_variance_still_advances_the_step(self):
        self.w.post("/v1/models/register", REGISTER)
        _, _, lines = self.w.train(dict(REF, trajectory_groups=[group((1.0, 1.0))], config={"learning_rate": 1e-5}))
        self.assertEqual(lines[-1]["type"], "done")
        self.assertEqual(lines[-1]["step"], 1)
        self.assertEqual(lines[0]["metrics"]["data/step_num_gradient_steps"], 0.0)

    def test_heartbeats_while_a_step_is_slow(self):
        w = Worker(env={"ART_STAND_IN_STEP_SECONDS": "0.7"}, heartbeat=0.15)
        self.addCleanup(w.stop)
        w.post("/v1/models/register", REGISTER)
        _, _, lines = w.train(dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5}))
        kinds = [l["type"] for l in lines]
        self.assertGreaterEqual(kinds.count("heartbeat"), 3)
        self.assertEqual(kinds.count("gradient_step"), 2)
        self.assertEqual(kinds[-1], "done")

    def test_error_during_training_is_an_error_line(self):
        w = Worker(env={"ART_STAND_IN_FAIL_AT_STEP": "1"})
        self.addCleanup(w.stop)
        w.post("/v1/models/register", REGISTER)
        _, _, lines = w.train(dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5}))
        self.assertEqual([l["type"] for l in lines if l["type"] != "heartbeat"], ["gradient_step", "error"])
        self.assertIn("CUDA out of memory", lines[-1]["message"])
        self.assertEqual(w.post("/v1/models/step", REF)[1]["step"], 0)
        # the model is free again after the failure
        w2 = dict(REF, trajectory_groups=[group((1.0, 1.0))], config={"learning_rate": 1e-5})
        self.assertEqual(w.train(w2)[2][-1]["type"], "done")

    def test_validation_errors_name_the_field(self):
        self.w.post("/v1/models/register", REGISTER)
        bad = group()
        bad["trajectories"][1]["messages_and_choices"][2]["finish_reason"] = "exploded"
        status, _, err = self.w.train(dict(REF, trajectory_groups=[group(), bad], config={"learning_rate": 1e-5}))
        self.assertEqual(status, 400)
        self.assertEqual(err["error"]["code"], "invalid_request")
        self.assertTrue(err["error"]["message"].startswith(
            "trajectory_groups[1].trajectories[1].messages_and_choices[2]:"), err)
        status, _, err = self.w.train(dict(REF, trajectory_groups=[group()], config={}))
        self.assertEqual((status, err["error"]["message"]), (400, "config.learning_rate: is required"))
        # options the installed ART's LocalBackend.train does not take are refused by name
        status, _, err = self.w.train(dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5, "beta": 0.1}))
        self.assertEqual(status, 400)
        self.assertTrue(err["error"]["message"].startswith("config.beta:"), err)
        # ... and the ones it takes are passed through
        _, _, lines = self.w.train(dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5, "kl_penalty_coef": 0.05}))
        self.assertEqual(lines[-1]["type"], "done")
        self.assertEqual(self.w.received()[-1]["dev_config"]["kl_penalty_coef"], 0.05)
        status, err = self.w.post("/v1/models/register", {"name": "../../etc", "project": "p", "base_model": "b"})
        self.assertEqual(status, 400)
        self.assertTrue(err["error"]["message"].startswith("name:"))
        c = self.w.conn()
        c.request("POST", "/v1/models/step", body="{not json", headers={"Content-Type": "application/json"})
        r = c.getresponse()
        self.assertEqual(r.status, 400)
        self.assertEqual(json.loads(r.read())["error"]["code"], "invalid_json")
        c.close()
        self.assertEqual(self.w.request("GET", "/v1/nope")[0], 404)

    def test_stand_in_refuses_a_choice_left_as_a_dict(self):
        """Guards the stand-in itself: a dict choice (no role) reaching ART fails, as in ART 0.5.3+."""
        sys.path.insert(0, STAND_IN)
        try:
            import asyncio
            import art
            backend = art.LocalBackend(path=os.path.join(self.w.tmp, "direct"))
            model = art.TrainableModel(name="m", run_name="m", project="p", base_model="b")
            asyncio.run(model.register(backend))
            self.assertEqual(model.inference_model_name, "m@0")
            t = art.Trajectory(messages_and_choices=[{"role": "user", "content": "q"}, choice("a")], reward=1.0)
            self.assertIsInstance(t.messages_and_choices[1], dict)  # stays a dict, like ART's SkipValidation
            t2 = art.Trajectory(messages_and_choices=[{"role": "user", "content": "q"}, choice("b")], reward=0.0)
            with self.assertRaises(KeyError):
                asyncio.run(backend.train(model, [art.TrajectoryGroup([t, t2])], learning_rate=1e-5))
        finally:
            sys.path.remove(STAND_IN)

    def test_second_concurrent_train_on_the_same_model_is_409(self):
        w = Worker(env={"ART_STAND_IN_STEP_SECONDS": "0.4"})
        self.addCleanup(w.stop)
        w.post("/v1/models/register", REGISTER)
        w.post("/v1/models/register", dict(REGISTER, name="agent-2"))
        body = dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5})
        first = {}
        t = threading.Thread(target=lambda: first.update(result=w.train(body)))
        t.start()
        time.sleep(0.25)
        status, _, err = w.train(body)
        self.assertEqual(status, 409)
        self.assertEqual(err["error"]["code"], "busy")
        status, err = w.post("/v1/models/delete_checkpoints", REF)
        self.assertEqual(status, 409)
        # another model trains at the same time
        other = w.train(dict(body, name="agent-2"))
        self.assertEqual(other[2][-1]["type"], "done")
        t.join(10)
        self.assertEqual(first["result"][2][-1]["type"], "done")
        self.assertEqual(first["result"][2][-1]["step"], 1)

    def test_token_auth(self):
        w = Worker(token="s3cret")
        self.addCleanup(w.stop)
        self.assertEqual(w.request("GET", "/v1/health")[0], 200)  # health stays open
        status, err = w.post("/v1/models/register", REGISTER)
        self.assertEqual((status, err["error"]["code"]), (401, "unauthorized"))
        self.assertEqual(w.post("/v1/models/register", REGISTER, token="wrong")[0], 401)
        self.assertEqual(w.train(dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5}))[0], 401)
        self.assertEqual(w.post("/v1/models/register", REGISTER, token="s3cret")[0], 200)

    def test_delete_checkpoints(self):
        self.w.post("/v1/models/register", REGISTER)
        for _ in range(3):
            self.w.train(dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5}))
        ckpts = os.path.join(self.w.art_path, "atelier", "models", "agent-1", "checkpoints")
        self.assertEqual(sorted(os.listdir(ckpts)), ["0000", "0001", "0002", "0003"])
        status, body = self.w.post("/v1/models/delete_checkpoints", dict(REF, steps_to_keep=[1]))
        self.assertEqual((status, body), (200, {"deleted": True, "kept_steps": [1, 3]}))  # the served step is kept
        self.assertEqual(sorted(os.listdir(ckpts)), ["0001", "0003"])
        status, body = self.w.post("/v1/models/delete_checkpoints", REF)  # model.delete_checkpoints(): latest + best
        self.assertEqual((status, body), (200, {"deleted": True}))
        self.assertIn("0003", os.listdir(ckpts))
        self.assertEqual(self.w.post("/v1/models/delete_checkpoints", dict(REF, name="ghost"))[0], 404)


if __name__ == "__main__":
    unittest.main()
