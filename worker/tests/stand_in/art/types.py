"""Stand-in for art.types (see art/__init__.py)."""

from dataclasses import dataclass, field

from openai.types.chat.chat_completion import Choice  # noqa: F401  (ART imports it here too)


class TrainConfig:
    model_fields = {"learning_rate": None, "beta": None}

    def __init__(self, learning_rate: float = 5e-6, beta: float = 0.0) -> None:
        self.learning_rate = float(learning_rate)
        self.beta = float(beta)


@dataclass
class TrainResult:
    step: int
    metrics: dict = field(default_factory=dict)


@dataclass
class LocalTrainResult(TrainResult):
    checkpoint_path: str | None = None
