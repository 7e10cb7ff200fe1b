"""Competitions refereed by the bot: today the matchmaking queue (`queue`, `present`,
`items`, `balance`, `repo`). Leagues and tournaments are not built yet."""

from .balance import balanced_teams
from .items import QUEUE_ITEMS, MatchButton, QueueButton
from .present import QueueDiscord, match_payload, queue_payload
from .queue import ACCEPT_TIMEOUT, EXPIRE_AFTER, MATCH_SIZE, REMIND_AFTER, Proposal, QueueError, QueueService
from .repo import Entry, QueueRepo

__all__ = ["ACCEPT_TIMEOUT", "EXPIRE_AFTER", "MATCH_SIZE", "QUEUE_ITEMS", "REMIND_AFTER", "Entry", "MatchButton",
           "Proposal", "QueueButton", "QueueDiscord", "QueueError", "QueueRepo", "QueueService", "balanced_teams",
           "match_payload", "queue_payload"]
