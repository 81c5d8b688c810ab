"""An ART rollout, written as ART's examples write them, that Atelier runs unchanged (rollout kind WORKER).

    pipeline: { rollout: { kind: WORKER, entrypoint: "calculator_agent:rollout" } }

Start the worker from this folder (or put it on PYTHONPATH) so `calculator_agent` imports. The agent solves
an arithmetic task with two tools: `calculate(expression)` as often as it likes, then
`submit_answer(answer)`; the reward is 1 when the answer equals the scenario's `answer` (from the task input's
`context`), else 0. It talks to the model in training through `model.openai_client()` with the real `openai`
client, asks for logprobs, and keeps every assistant turn as the `Choice` itself, so each turn is trained.
"""

from __future__ import annotations

import ast
import json
import operator

import art

MAX_TURNS = 8

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "calculate",
            "description": "Evaluates an arithmetic expression (numbers, + - * / and parentheses) and returns the result.",
            "parameters": {
                "type": "object",
                "properties": {"expression": {"type": "string", "description": "e.g. (12 + 7) * 3"}},
                "required": ["expression"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "submit_answer",
            "description": "Submits the final numeric answer and ends the task.",
            "parameters": {"type": "object", "properties": {"answer": {"type": "number"}}, "required": ["answer"]},
        },
    },
]

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def evaluate(expression: str) -> float:
    """+ - * / and parentheses over numbers; anything else is an error (never eval)."""

    def walk(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        raise ValueError(f"unsupported expression: {expression!r}")

    return walk(ast.parse(expression, mode="eval"))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


async def rollout(model: art.TrainableModel, scenario: dict) -> art.Trajectory:
    client = model.openai_client()
    trajectory = art.Trajectory(
        messages_and_choices=[
            {"role": "system", "content": "Solve the arithmetic task: use the calculate tool, then call submit_answer."},
            {"role": "user", "content": scenario["input_text"]},
        ],
        tools=TOOLS,
        reward=0.0,
        metadata={"task": scenario["input_text"]},
    )
    tool_calls = 0
    for _turn in range(MAX_TURNS):
        completion = await client.chat.completions.create(
            model=model.get_inference_name(),
            messages=trajectory.messages(),
            tools=TOOLS,
            logprobs=True,
            temperature=1.0,
        )
        choice = completion.choices[0]
        trajectory.messages_and_choices.append(choice)
        calls = choice.message.tool_calls or []
        if not calls:
            trajectory.messages_and_choices.append(
                {"role": "user", "content": "Use the calculate tool, then call submit_answer with the number."}
            )
            continue
        submitted = False
        for call in calls:
            tool_calls += 1
            try:
                args = json.loads(call.function.arguments or "{}")
            except json.JSONDecodeError:
                content = "error: the arguments are not JSON"
            else:
                if call.function.name == "calculate":
                    try:
                        content = _number(evaluate(str(args.get("expression", ""))))
                    except (ValueError, SyntaxError, ZeroDivisionError) as exc:
                        content = f"error: {exc}"
                elif call.function.name == "submit_answer":
                    correct = float(args.get("answer", "nan")) == float(scenario["answer"])
                    trajectory.reward = 1.0 if correct else 0.0
                    trajectory.metrics["correct"] = correct
                    content = "correct" if correct else "incorrect"
                    submitted = True
                else:
                    content = f"error: no tool named {call.function.name}"
            trajectory.messages_and_choices.append({"role": "tool", "tool_call_id": call.id, "content": content})
        if submitted:
            break
    trajectory.metrics["tool_calls"] = tool_calls
    return trajectory
