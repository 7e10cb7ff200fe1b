"""Learning the game: the `/cuarenta ayuda` guide (`guide`) and the presets in words (`presets`), as plain
text in the reader's language; `present` turns them into Discord messages and `items` holds the guide's
persistent buttons. No game logic: the numbers come from `bot.engine.Rules`."""

from .guide import EXAMPLES, PAGE_KEYS, GuidePage, guide_pages
from .presets import ASPECTS, REFERENCE, Aspect, difference_lines, differences, term_lines

__all__ = ["ASPECTS", "EXAMPLES", "PAGE_KEYS", "REFERENCE", "Aspect", "GuidePage", "difference_lines",
           "differences", "guide_pages", "term_lines"]
