"""Stand-in for art.trajectories (see art/__init__.py).

Real ART: `messages_and_choices: list[Message | Choice]` where Message is a
TypedDict under pydantic SkipValidation, so a dict is accepted and STAYS a dict
(a choice sent as JSON is not turned into a Choice). Same here.
"""

import traceback
from typing import Any, Iterable

from openai.types.chat.chat_completion import Choice


def _check_items(items: Any, where: str) -> list:
    if not isinstance(items, list):
        raise TypeError(f"{where}: Input should be a valid list")
    for i, item in enumerate(items):
        if not isinstance(item, (dict, Choice)):
            raise TypeError(f"{where}.{i}: Input should be a valid dictionary or Choice")
    return items


def get_messages(messages_and_choices: list) -> list:
    """As ART's get_messages (trajectories.py @ 679b236e): a Choice becomes its assistant message."""
    messages = []
    for item in messages_and_choices:
        if isinstance(item, Choice):
            tool_calls = item.message.tool_calls or []
            message = {"role": "assistant", "content": item.message.content or ""}
            if tool_calls:
                message["tool_calls"] = [c.model_dump(mode="json") for c in tool_calls]
            messages.append(message)
        else:
            msg = dict(item)
            if msg.get("content") is None:
                msg["content"] = ""
            messages.append(msg)
    return messages


class History:
    def __init__(self, *, messages_and_choices: list, tools: list | None = None) -> None:
        self.messages_and_choices = _check_items(messages_and_choices, "messages_and_choices")
        self.tools = tools

    def messages(self) -> list:
        return get_messages(self.messages_and_choices)


class Trajectory:
    def __init__(
        self,
        *,
        messages_and_choices: list,
        reward: float,
        tools: list | None = None,
        additional_histories: list | None = None,
        metrics: dict | None = None,
        metadata: dict | None = None,
        logs: list | None = None,
        **extra: Any,
    ) -> None:
        if extra:
            raise TypeError(f"{sorted(extra)[0]}: Extra inputs are not permitted")
        if isinstance(reward, bool) or not isinstance(reward, (int, float)):
            raise TypeError("reward: Input should be a valid number")
        self.messages_and_choices = _check_items(messages_and_choices, "messages_and_choices")
        self.reward = float(reward)
        self.tools = tools
        self.additional_histories = [
            h if isinstance(h, History) else History(**h) for h in (additional_histories or [])
        ]
        self.metrics = dict(metrics or {})
        self.metadata = dict(metadata or {})
        self.logs = list(logs or [])

    def messages(self) -> list:
        return get_messages(self.messages_and_choices)


class TrajectoryGroup:
    def __init__(
        self,
        trajectories: Iterable[Any],
        *,
        exceptions: list | None = None,
        metadata: dict | None = None,
        metrics: dict | None = None,
        logs: list | None = None,
    ) -> None:
        items = list(trajectories)
        self.trajectories = [t for t in items if isinstance(t, Trajectory)]
        self.exceptions = [
            {"type": str(type(e)), "message": str(e),
             "traceback": "\n".join(traceback.format_exception(type(e), e, e.__traceback__))}
            for e in [x for x in items if isinstance(x, BaseException)] + list(exceptions or [])
        ]
        self.metadata = dict(metadata or {})
        self.metrics = dict(metrics or {})
        self.logs = list(logs or [])

    def __iter__(self):
        return iter(self.trajectories)

    def __len__(self) -> int:
        return len(self.trajectories)
