"""The table service layer: lobby, seats, teams, start, the turn loop, persistence, notifications.

No discord import here: the presenter implements `Notifier`.
"""

from .errors import (
    BadOptionError,
    ChannelBusyError,
    ForeignObjectError,
    IllegalPlayError,
    NoTableHereError,
    NotHostError,
    NotPlayingError,
    NotYourTurnError,
    SeatError,
    StaleError,
    TableBusyError,
    TableError,
    UnknownTableError,
    WrongStateError,
)
from .model import (
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    TEAMS,
    LeaveResult,
    Messages,
    Seat,
    SeatSpell,
    Table,
    TableOptions,
)
from .players import available_levels, choose_play, register_level
from .ports import Notifier, NullNotifier
from .service import Choice, Played, TableService

__all__ = [
    "CLOSED", "FINISHED", "LOBBY", "PLAYING", "TEAMS",
    "BadOptionError", "ChannelBusyError", "Choice", "ForeignObjectError", "IllegalPlayError", "LeaveResult", "Messages", "NoTableHereError",
    "NotHostError", "NotPlayingError", "NotYourTurnError", "Notifier", "NullNotifier", "Played",
    "SeatError", "Seat", "SeatSpell", "StaleError", "Table", "TableBusyError", "TableError", "TableOptions", "TableService",
    "UnknownTableError",
    "WrongStateError", "available_levels", "choose_play", "register_level",
]
