"""Rebuild OpenAI ``Choice`` objects from JSON inside ``messages_and_choices``.

ART's ``MessageOrChoice`` is ``Message | Choice`` where ``Message`` is a
TypedDict wrapped in pydantic ``SkipValidation``. A choice that arrives as JSON
therefore validates as a *message* and stays a plain dict, and ART's tokenizer
(which trains only on ``isinstance(x, Choice)`` items) no longer sees it as the
assistant turn to train on; from ART 0.5.3 this breaks tokenization outright.
The worker turns every choice-shaped dict back into a real
``openai.types.chat.chat_completion.Choice`` (``Choice.model_validate``) before
building ART trajectories.

Rule: a dict with ``finish_reason`` and ``message`` and no ``role`` is a choice;
a dict with ``role`` is a message and is kept as the dict ART expects.
"""

from __future__ import annotations

from typing import Any

from .protocol import invalid


def load_choice_class() -> type:
    from openai.types.chat.chat_completion import Choice

    return Choice


def is_choice_dict(item: Any) -> bool:
    return isinstance(item, dict) and "finish_reason" in item and "message" in item and "role" not in item


def rebuild_choice(item: dict[str, Any], path: str, choice_cls: type) -> Any:
    data = dict(item)
    # vLLM always sets index; a client that dropped it loses nothing by 0.
    data.setdefault("index", 0)
    # vLLM sends top_logprobs on every token (an empty list without top_logprobs asked); openai's
    # ChatCompletionTokenLogprob requires it, so a choice stored without it (another server, an older
    # client) gets the empty list vLLM would have sent.
    logprobs = data.get("logprobs")
    if isinstance(logprobs, dict):
        logprobs = dict(logprobs)
        for key in ("content", "refusal"):
            tokens = logprobs.get(key)
            if isinstance(tokens, list):
                logprobs[key] = [
                    {**t, "top_logprobs": t.get("top_logprobs") or []} if isinstance(t, dict) else t for t in tokens
                ]
        data["logprobs"] = logprobs
    try:
        return choice_cls.model_validate(data)
    except Exception as exc:  # pydantic.ValidationError or the stand-in's ValueError
        detail = " ".join(str(exc).split())
        raise invalid(path, f"is not a valid chat completion choice ({detail})") from None


def rebuild_messages_and_choices(
    items: list[Any], path: str, choice_cls: type
) -> list[Any]:
    out: list[Any] = []
    for i, item in enumerate(items):
        where = f"{path}[{i}]"
        if is_choice_dict(item):
            out.append(rebuild_choice(item, where, choice_cls))
        else:
            out.append(item)
    return out


def rebuild_group_payload(
    group: dict[str, Any], path: str, choice_cls: type
) -> dict[str, Any]:
    """Return a copy of one TrajectoryGroup JSON with choices rebuilt as objects."""
    trajectories = []
    for ti, t in enumerate(group.get("trajectories", [])):
        tpath = f"{path}.trajectories[{ti}]"
        t2 = dict(t)
        t2["messages_and_choices"] = rebuild_messages_and_choices(
            t["messages_and_choices"], f"{tpath}.messages_and_choices", choice_cls
        )
        histories = []
        for hi, h in enumerate(t.get("additional_histories") or []):
            h2 = dict(h)
            h2["messages_and_choices"] = rebuild_messages_and_choices(
                h["messages_and_choices"],
                f"{tpath}.additional_histories[{hi}].messages_and_choices",
                choice_cls,
            )
            histories.append(h2)
        if histories:
            t2["additional_histories"] = histories
        trajectories.append(t2)
    g2 = dict(group)
    g2["trajectories"] = trajectories
    return g2

