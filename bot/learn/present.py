"""The guide and the presets as Discord messages: embeds and components, fitted to and checked against
Discord's limits (`bot.ui.limits`, through `bot.ui.render.Payload`).

- `guide_payload(page, lang)`: one page of the guide (`bot.learn.guide`) with ◀ ▶ and a select of topics.
- `rules_payload(preset, lang)`: a preset explained (`bot.learn.presets`): its blurb, what differs from
  `quito` (or that quito is the reference), and every term with what it is and its value.
- `preset_choice_name(preset)`: the localized name of a preset in the command picker.
"""

from __future__ import annotations

import discord

from bot.engine import Rules
from bot.i18n import message, t
from bot.ui import limits
from bot.ui.faces import CardFaces
from bot.ui.render import COLOR, Payload, make_view

from .guide import clamp_page, command, guide_pages, page_count
from .items import GuideButton, GuideSelect
from .presets import REFERENCE, difference_lines, term_lines


def guide_payload(page: int, lang: str, public: str | None = None, *,
                  faces: CardFaces = CardFaces.TEXT) -> Payload:
    """Page ``page`` (0-based, kept within the guide) of the guide in ``lang``: an embed titled with the
    page's topic, the page number in the footer; ◀ and ▶ (disabled at the ends) and a select that jumps
    to any topic (the current one preselected). ``public``: the server's language, in which the guide
    quotes the table message's buttons and words (default ``lang``). ``faces``: how its example cards are
    written."""
    pages = guide_pages(lang, public, faces=faces)
    page = clamp_page(page)
    shown = pages[page]
    embed = discord.Embed(title=limits.clip(shown.title, limits.EMBED_TITLE), colour=COLOR,
                          description=limits.clip("\n".join(shown.body), limits.EMBED_DESCRIPTION))
    embed.set_footer(text=limits.clip(t("learn.guide.footer", lang, page=page + 1, total=page_count()),
                                      limits.FOOTER))
    last = page_count() - 1
    buttons = [
        GuideButton(max(page - 1, 0), "p", label=t("learn.guide.previous", lang), disabled=page == 0),
        GuideButton(min(page + 1, last), "n", label=t("learn.guide.next", lang), disabled=page == last),
    ]
    options = [discord.SelectOption(label=limits.clip(p.title, limits.OPTION_TEXT), value=str(i), default=i == page)
               for i, p in enumerate(pages)]
    select = GuideSelect(options=options, placeholder=limits.clip(t("learn.guide.jump", lang), limits.PLACEHOLDER))
    return Payload(embed=embed, view=make_view(buttons, [select]))


def rules_payload(preset: str, lang: str, rules: Rules | None = None) -> Payload:
    """A preset explained in ``lang``, from its `Rules` fields: the blurb, then what makes it different
    from `quito` (computed; for quito, that it is the reference), then each term with its value. With
    ``rules`` (a table's, under house rules), the house rules are listed first, as differences
    from the preset, and the terms are explained with the table's values.

    Raises:
        RulesError: ``preset`` is not a preset name.
    """
    base = Rules.preset(preset)
    lines = [t(f"rules.blurb.{preset}", lang), ""]
    house = difference_lines(rules, lang, base, preset) if rules is not None else []
    if house:
        lines += [t("lobby.house_title", lang, preset=preset), *("• " + line for line in house), ""]
    rules = rules or base
    if preset == REFERENCE:
        lines.append(t("learn.rules.reference", lang, reference=REFERENCE))
    else:
        lines.append(t("learn.rules.differences", lang, reference=REFERENCE))
        lines += ["• " + line for line in difference_lines(base, lang)]
    lines += ["", t("learn.rules.terms", lang)]
    lines += ["• " + line for line in term_lines(rules, lang)]
    embed = discord.Embed(title=limits.clip(t("learn.rules.title", lang, preset=preset), limits.EMBED_TITLE),
                          description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION), colour=COLOR)
    embed.set_footer(text=limits.clip(t("learn.rules.footer", lang, help=command(lang, "help")), limits.FOOTER))
    return Payload(embed=embed)


def preset_choice_key(preset: str) -> str:
    """The catalog key of a preset's name in the command picker: ``learn.choice.quito``."""
    return f"learn.choice.{preset}"


def preset_choice_name(preset: str) -> str:
    """A preset's picker name in English, Discord's fallback for locales without a catalog (≤ 100
    characters: ``"quito — the classic: everything is worth 2"``)."""
    return limits.clip(message(preset_choice_key(preset), "en") or preset, limits.OPTION_TEXT)
