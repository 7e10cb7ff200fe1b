"""Replays of finished mesas (``/cuarenta repetir mesa:<id>``), step by step, rebuilt by the engine from
the stored seed and plays.

- `steps`: the pure model (`build` → `Replay` of `Step`, one per play; hand navigation).
- `source`: the stored rows of a finished mesa of this server, checked (refusals are `ReplayError`, a
  `bot.tables.TableError` with an i18n key), rebuilt.
- `present`: a step as an embed with ⏮ ◀ ▶ ⏭; `replay_command` for `/cuarenta historial`.
- `items`: the persistent buttons (custom_id ``c4:w:<table>:<step>:<k>``, see `bot.replays.items`).
"""

from .items import REPLAY_ITEMS, ReplayButton
from .present import replay_command, step_payload
from .source import (
    BrokenReplayError,
    MesaInPlayError,
    MesaNotFinishedError,
    ReplayedMesa,
    ReplayError,
    UnknownMesaError,
    load,
)
from .steps import Replay, Step, build

__all__ = [
    "REPLAY_ITEMS",
    "BrokenReplayError",
    "MesaInPlayError",
    "MesaNotFinishedError",
    "Replay",
    "ReplayButton",
    "ReplayError",
    "ReplayedMesa",
    "Step",
    "UnknownMesaError",
    "build",
    "load",
    "replay_command",
    "step_payload",
]
