"""Members' data in their hands (``/cuarenta privacidad``: see, export, delete) and the pruning of a
server's data after the bot left it. `bot.privacy.repo` holds the SQL, `bot.privacy.service` the rules,
`bot.privacy.present` the message and `bot.privacy.items` its buttons; ``docs/PRIVACY.md`` says what is kept
and for how long."""

from .repo import ANONYMOUS_NAME, SCHEMA, USER_COLUMNS, PrivacyRepo, Summary
from .service import (
    CompetingError,
    PrivacyError,
    PrivacyService,
    QueuedError,
    RematchError,
    SeatedError,
)

__all__ = ["ANONYMOUS_NAME", "SCHEMA", "USER_COLUMNS", "CompetingError", "PrivacyError", "PrivacyRepo",
           "PrivacyService", "QueuedError", "RematchError", "SeatedError", "Summary"]
