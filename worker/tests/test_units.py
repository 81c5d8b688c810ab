"""Unit tests: request validation and Choice rebuilding (no server)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "stand_in"))
sys.path.insert(0, os.path.dirname(HERE))

from atelier_worker.choices import is_choice_dict, load_choice_class, rebuild_group_payload  # noqa: E402
from atelier_worker.protocol import ProtocolError, dumps, validate_delete, validate_register, validate_train  # noqa: E402

CHOICE = {
    "finish_reason": "stop",
    "index": 0,
    "message": {"role": "assistant", "content": "4"},
    "logprobs": {"content": [{"token": "token_id:19", "logprob": -0.01}]},
}


def train_body(**over):
    body = {
        "name": "m",
        "project": "p",
        "config": {"learning_rate": 1e-5},
        "trajectory_groups": [
            {"trajectories": [{"reward": 1, "messages_and_choices": [{"role": "user", "content": "2+2"}, CHOICE]}]}
        ],
    }
    body.update(over)
    return body


class ValidationTests(unittest.TestCase):
    def assertInvalid(self, fn, body, field):
        with self.assertRaises(ProtocolError) as ctx:
            fn(body)
        self.assertEqual(ctx.exception.status, 400)
        self.assertTrue(ctx.exception.message.startswith(field + ":"), ctx.exception.message)

    def test_register_requires_fields(self):
        self.assertInvalid(validate_register, {"project": "p", "base_model": "b"}, "name")
        self.assertInvalid(validate_register, {"name": "m", "base_model": "b"}, "project")
        self.assertInvalid(validate_register, {"name": "m", "project": "p"}, "base_model")
        self.assertInvalid(validate_register, {"name": "m", "project": "p", "base_model": "b", "config": 3}, "config")

    def test_names_cannot_escape_the_art_directory(self):
        for bad in ["../etc", "a/b", "", ".hidden", "a..b", "x" * 200]:
            self.assertInvalid(validate_register, {"name": bad, "project": "p", "base_model": "b"}, "name")

    def test_train_field_paths(self):
        self.assertInvalid(validate_train, train_body(trajectory_groups=[]), "trajectory_groups")
        self.assertInvalid(validate_train, train_body(config={}), "config.learning_rate")
        self.assertInvalid(validate_train, train_body(config={"learning_rate": -1}), "config.learning_rate")
        body = train_body()
        body["trajectory_groups"][0]["trajectories"][0]["reward"] = "high"
        self.assertInvalid(validate_train, body, "trajectory_groups[0].trajectories[0].reward")
        body = train_body()
        body["trajectory_groups"][0]["trajectories"][0]["messages_and_choices"].append({"content": "no role"})
        self.assertInvalid(validate_train, body, "trajectory_groups[0].trajectories[0].messages_and_choices[2]")
        body = train_body()
        body["trajectory_groups"][0]["trajectories"][0]["metrics"] = {"acc": "x"}
        self.assertInvalid(validate_train, body, "trajectory_groups[0].trajectories[0].metrics.acc")

    def test_delete(self):
        self.assertEqual(validate_delete({"name": "m", "project": "p", "steps_to_keep": [1, 2]}).steps_to_keep, [1, 2])
        self.assertInvalid(validate_delete, {"name": "m", "project": "p", "steps_to_keep": [-1]}, "steps_to_keep")

    def test_non_finite_metrics_become_null(self):
        self.assertEqual(dumps({"a": float("nan"), "b": [float("inf")]}), b'{"a":null,"b":[null]}')


class ChoiceTests(unittest.TestCase):
    def test_choice_rule(self):
        self.assertTrue(is_choice_dict(CHOICE))
        self.assertFalse(is_choice_dict({"role": "assistant", "content": "x"}))

    def test_rebuild_makes_choice_objects_and_keeps_messages(self):
        Choice = load_choice_class()
        group = {"trajectories": [{"reward": 1, "messages_and_choices": [{"role": "user", "content": "q"}, CHOICE],
                                   "additional_histories": [{"messages_and_choices": [CHOICE]}]}]}
        out = rebuild_group_payload(group, "g", Choice)
        items = out["trajectories"][0]["messages_and_choices"]
        self.assertIsInstance(items[0], dict)
        self.assertIsInstance(items[1], Choice)
        self.assertEqual(items[1].message.model_dump()["content"], "4")
        self.assertIsInstance(out["trajectories"][0]["additional_histories"][0]["messages_and_choices"][0], Choice)
        self.assertIsInstance(group["trajectories"][0]["messages_and_choices"][1], dict)  # input untouched

    def test_invalid_choice_names_its_path(self):
        Choice = load_choice_class()
        bad = dict(CHOICE, finish_reason="exploded")
        with self.assertRaises(ProtocolError) as ctx:
            rebuild_group_payload({"trajectories": [{"reward": 0, "messages_and_choices": [bad]}]}, "trajectory_groups[3]", Choice)
        self.assertIn("trajectory_groups[3].trajectories[0].messages_and_choices[0]:", ctx.exception.message)
        self.assertIn("finish_reason", ctx.exception.message)


if __name__ == "__main__":
    unittest.main()
