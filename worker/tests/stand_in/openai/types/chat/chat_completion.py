"""TEST STAND-IN for ``openai.types.chat.chat_completion.Choice`` (not openai).

The real class is a pydantic model: ``finish_reason`` (one of stop, length,
tool_calls, content_filter, function_call), ``index: int``,
``logprobs: ChoiceLogprobs | None`` and ``message: ChatCompletionMessage``
(role "assistant", content, tool_calls, ...). ``model_validate`` raises on a
missing or mistyped field; so does this one.
"""

from __future__ import annotations

from typing import Any

FINISH_REASONS = ("stop", "length", "tool_calls", "content_filter", "function_call")


class ValidationError(ValueError):
    pass


class _Model:
    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def model_dump(self, **_: Any) -> dict[str, Any]:
        return _dump(self._data)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_data"][name]
        except KeyError:
            raise AttributeError(name) from None


def _dump(value: Any) -> Any:
    if isinstance(value, _Model):
        return value.model_dump()
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value


class ChatCompletionMessage(_Model):
    @classmethod
    def model_validate(cls, data: Any) -> "ChatCompletionMessage":
        if not isinstance(data, dict):
            raise ValidationError("message: Input should be a valid dictionary")
        if data.get("role") != "assistant":
            raise ValidationError("message.role: Input should be 'assistant'")
        content = data.get("content")
        if content is not None and not isinstance(content, str):
            raise ValidationError("message.content: Input should be a valid string")
        return cls(dict(data))


class ChoiceLogprobs(_Model):
    @classmethod
    def model_validate(cls, data: Any) -> "ChoiceLogprobs":
        if not isinstance(data, dict):
            raise ValidationError("logprobs: Input should be a valid dictionary")
        content = data.get("content")
        if content is not None:
            if not isinstance(content, list):
                raise ValidationError("logprobs.content: Input should be a valid list")
            for i, tok in enumerate(content):
                if not isinstance(tok, dict) or not isinstance(tok.get("token"), str):
                    raise ValidationError(f"logprobs.content.{i}.token: Field required")
                lp = tok.get("logprob")
                if not isinstance(lp, (int, float)) or isinstance(lp, bool):
                    raise ValidationError(f"logprobs.content.{i}.logprob: Field required")
        return cls(dict(data))


class Choice(_Model):
    @classmethod
    def model_validate(cls, data: Any) -> "Choice":
        if not isinstance(data, dict):
            raise ValidationError("Input should be a valid dictionary")
        for key in ("finish_reason", "index", "message"):
            if key not in data:
                raise ValidationError(f"{key}: Field required")
        if data["finish_reason"] not in FINISH_REASONS:
            raise ValidationError(f"finish_reason: Input should be one of {', '.join(FINISH_REASONS)}")
        if not isinstance(data["index"], int) or isinstance(data["index"], bool):
            raise ValidationError("index: Input should be a valid integer")
        out = dict(data)
        out["message"] = ChatCompletionMessage.model_validate(data["message"])
        if data.get("logprobs") is not None:
            out["logprobs"] = ChoiceLogprobs.model_validate(data["logprobs"])
        else:
            out["logprobs"] = None
        return cls(out)
