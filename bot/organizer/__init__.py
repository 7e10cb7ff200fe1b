"""The organizer's tools of leagues: enter or correct a result by hand (with a reason, kept in the
history), the archive of finished leagues, a player's results, and CSV exports of a competition and of
the server's leaderboard."""

from .corrections import LeagueCorrections
from .present import OrganizerDiscord
from .repo import Correction, CorrectionRepo
from .service import OrganizerService

__all__ = ["Correction", "CorrectionRepo", "LeagueCorrections", "OrganizerDiscord", "OrganizerService"]
