"""Refusals of the table service. Each carries a translation key and its parameters, so the caller shows
a clear message in the user's language; a refused action changes nothing.

This is the one refusal hierarchy callers of the service (cogs, presenters) catch: the engine's own
errors (`bot.engine.RefusedPlayError` and its subclasses) never cross the service boundary, they are
translated into `IllegalPlayError` where the service plays (`TableWriter.apply`, `TableService.play`)."""

from __future__ import annotations


class TableError(Exception):
    """A refused action. ``key`` is an i18n message key; ``params`` its parameters."""

    key = "err.generic"

    def __init__(self, key: str | None = None, **params: object) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(f"{self.key} {params}" if params else self.key)


class UnknownTableError(TableError):
    """No open or finished table has that id."""

    key = "err.unknown_table"


class ForeignObjectError(TableError):
    """A component names an object (table, mesa, league, tournament, match, leaderboard) that is not this
    interaction's to act on: another server's, another channel's, or, from a DM, a table the user has no
    seat at. Answered as a button no longer in use; nothing is read out or changed."""

    key = "err.button_gone_other"


class BadOptionError(TableError):
    """A command option or a select value outside what the command offers (a choice it does not list, a
    number out of its range)."""

    key = "err.bad_option"


class NoTableHereError(TableError):
    """The channel holds no open table."""

    key = "err.no_table_here"


class ChannelBusyError(TableError):
    """The channel already holds an open table (params: table, link)."""

    key = "err.channel_busy"


class SeatError(TableError):
    """Joining or leaving was refused: team full, already seated, seated elsewhere, not seated."""


class NotHostError(TableError):
    """Only the host may do this."""

    key = "err.not_host"


class WrongStateError(TableError):
    """The table is not in a state that allows this (lobby only, not started, finished)."""


class NotPlayingError(TableError):
    """The user has no seat at this table."""

    key = "err.not_playing"


class NotYourTurnError(TableError):
    """It is another seat's turn (params: seat). The service checks the turn itself before it asks the
    engine, so the engine's `OutOfTurnError` is not what raises this."""

    key = "err.not_your_turn"


class StaleError(TableError):
    """The click carries the nonce of an earlier turn or hand."""

    key = "err.stale"


class IllegalPlayError(TableError):
    """The engine refused the play (`bot.engine.RefusedPlayError`, translated at the service boundary), or
    the click named no play the engine offers."""

    key = "err.illegal"


class TableBusyError(TableError):
    """Another bot process held the table's row longer than the store waits for it (`bot.store.BusyError`,
    PostgreSQL only): nothing was changed; the same click may be tried again."""

    key = "err.table_busy"
