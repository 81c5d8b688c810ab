"""TEST STAND-IN for OpenPipe ART (`openpipe-art`) — not ART, never shipped.

Imitates the public API the Atelier worker uses, with behaviour read in ART's
source: OpenPipe/ART main as stored in the public code index (model.py with
`TrainableModel(run_name=...)`, local/backend.py with `LocalBackend.train(...)`
and `_train_model` yielding per-gradient-step dicts keyed `loss/train`,
`loss/grad_norm`, `data/step_num_gradient_steps`, ...;
`_backend_training.py` @ 6b6c7f58565409a6887152a0db01b91a67a8b01b,
`metrics_taxonomy.py` @ 9ff532901877db8a026dc8127ff5ff297ffa3ff0) and
openpipe-art 0.5.9 in github.com/pmukeshreddy/ART @ a470ba4453f0ce43602ef7f3bd0a4e8a8fd73405
(`types.py`, `trajectories.py`, `local/checkpoints.py`, `utils/get_model_step.py`).
Like real ART it has no `__version__`; the version comes from the dist-info.
Knobs for tests (environment): ART_STAND_IN_STEP_SECONDS (sleep per gradient
step), ART_STAND_IN_FAIL_AT_STEP (raise at that 0-based gradient step).
"""

from .local import LocalBackend
from .model import Model, TrainableModel
from .trajectories import History, Trajectory, TrajectoryGroup
from .types import LocalTrainResult, TrainConfig

__all__ = [
    "LocalBackend",
    "LocalTrainResult",
    "Model",
    "TrainableModel",
    "TrainConfig",
    "History",
    "Trajectory",
    "TrajectoryGroup",
]
