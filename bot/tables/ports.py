"""The small interface through which the table service tells the presenter what changed.

The service never imports discord: the Discord presenter (`bot.ui.notifier.DiscordNotifier`) implements
this protocol in full, and tests use `NullNotifier` (or a recorder built on it) where nothing is shown.
Every method is called; a presenter that has nothing to do for one implements it as a no-op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from bot.engine import Event

if TYPE_CHECKING:
    from .model import Table
    from .rematch import ReadyCheck


class Notifier(Protocol):
    """What the presenter is told. Calls come after the change is persisted, outside the table lock,
    in the order the changes happened (per table, under the table's ``notify_lock``)."""

    async def lobby_changed(self, table: Table) -> None:
        """Seats, host or status of a lobby changed (post or edit the lobby message)."""

    async def game_changed(self, table: Table, events: Sequence[Event]) -> None:
        """The game started or a play was accepted; ``events`` are what it caused, in order."""

    async def table_closed(self, table: Table) -> None:
        """The table was ended or closed before the mesa finished."""

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel."""

    async def resumed(self, table: Table) -> None:
        """The table was restored after a restart: bring its messages up to date."""

    async def reloaded(self, table: Table, hand: int | None) -> None:
        """Another process changed the table; this process reloaded it (with hand ``hand`` in play, None
        before the game) and saved a change (`bot.tables.shared`): take over what the stored message ids
        say is due. Comes before the notice of that change."""

    async def overtaken(self, table: Table, version: int) -> bool:
        """Another process saved ``table`` at ``version``, above this process's copy (`bot.tables.shared`):
        that process writes the table's messages, so writes still pending here are dropped while
        ``table.version`` is below ``version`` (this process reloads the table when it changes it, and
        `reloaded` follows, or when it catches up, and `caught_up` follows). Returns whether a write of the
        table was already on its way (Discord may apply it after that process's): the service then
        catches the table up and tells `caught_up`."""

    async def caught_up(self, table: Table) -> None:
        """The service reloaded ``table`` because `overtaken` said a write of it was on its way: write what
        that write showed once more, from the state now (in the same hand; a new hand is the other
        process's to post)."""

    async def table_note(self, table: Table, kind: str, **params: object) -> None:
        """A table event to say in words: ``reminder`` (seat, deadline), ``expired`` / ``away`` / ``back``
        (seat), ``left`` / ``kicked`` / ``removed`` (seat, name, user_id, locale, ended), ``host`` (name,
        user_id), ``lobby_timeout``."""

    async def rematch_changed(self, table: Table, check: ReadyCheck) -> None:
        """The rematch ready check of the finished ``table`` opened, got an answer or ended: post or edit
        its message (and set ``check.message_id`` once posted)."""

    def forget(self, table: Table) -> None:
        """The ended table left the service's memory (`bot.tables.memory`): drop what is kept for it.
        Called under its notify lock, after its last notification."""


class TableObserver(Protocol):
    """What the table service tells whoever counts its work (`bot.ops.metrics.BotMetrics`): two cheap,
    synchronous calls, made after the change was saved. They must not raise or await."""

    def played(self, table: Table) -> None:
        """A play (a person's or a computer player's) was saved at ``table``."""

    def mesa_finished(self, table: Table, seconds: float | None) -> None:
        """The play just saved ended ``table``'s mesa, ``seconds`` after its deal (None when the deal's time
        is unknown: a mesa dealt by a build that did not keep it)."""


class NullObserver:
    """An observer that counts nothing (the default, and the service tests)."""

    def played(self, table: Table) -> None:
        """Ignore."""

    def mesa_finished(self, table: Table, seconds: float | None) -> None:
        """Ignore."""


class NullNotifier:
    """A notifier that does nothing (service tests; a base for test recorders that watch a few calls)."""

    async def lobby_changed(self, table: Table) -> None:
        """Ignore."""

    async def game_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Ignore."""

    async def table_closed(self, table: Table) -> None:
        """Ignore."""

    async def repost(self, table: Table) -> None:
        """Ignore."""

    async def resumed(self, table: Table) -> None:
        """Ignore."""

    async def reloaded(self, table: Table, hand: int | None) -> None:
        """Ignore."""

    async def overtaken(self, table: Table, version: int) -> bool:
        """Ignore: nothing is on its way."""
        return False

    async def caught_up(self, table: Table) -> None:
        """Ignore."""

    async def table_note(self, table: Table, kind: str, **params: object) -> None:
        """Ignore."""

    async def rematch_changed(self, table: Table, check: ReadyCheck) -> None:
        """Ignore."""

    def forget(self, table: Table) -> None:
        """Ignore."""
