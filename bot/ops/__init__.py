"""What a host sees of the running bot: its metrics in Prometheus' format (`metrics.BotMetrics`), the
opt-in HTTP port that serves them with a health check (`http.OpsServer`, ``METRICS_PORT``), and the
periodic log line of the live tables (`pulse.Pulse`). `docs/metrics.md` lists every metric.

The layers below never import this package: the table service and the presenter call narrow observer
protocols (`bot.tables.ports.TableObserver`, `bot.ui.dm_writes.DmObserver`,
`bot.ui.budget.RequestObserver`, the `bot.ui.answer.ON_ANSWERED` hook) that `BotMetrics` implements, and
`bot.app` wires them together.
"""

from __future__ import annotations

from .http import OpsServer, PortError
from .metrics import BotMetrics, RateLimitLog
from .pulse import Pulse

__all__ = ["BotMetrics", "OpsServer", "PortError", "Pulse", "RateLimitLog"]
