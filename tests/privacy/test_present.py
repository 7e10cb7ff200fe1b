"""The messages of ``/cuarenta privacidad`` (`bot.privacy.present`): within Discord's limits in every
language however much is kept, names escaped, the footer always shown."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.privacy import Summary
from bot.privacy.present import confirm_payload, summary_payload


@pytest.mark.parametrize("lang", ["es", "en", "pt"])
def test_a_long_summary_fits_and_keeps_its_footer_and_buttons(lang):
    summary = Summary(ratings=[(1, n, "2v2", 1500 + n, 300) for n in range(40)], chicas=9999,
                      finished_mesas=700, names=[f"**{n}**" + "x" * 30 for n in range(200)], servers=list(range(12)))
    payload = summary_payload(summary, lang)  # Payload checks every limit
    assert payload.content.endswith(t("privacy.footer", lang))
    assert "\\*\\*0\\*\\*" in payload.content and "**0**" not in payload.content.replace("\\*", ""), "names escaped"
    assert [c.custom_id for c in payload.view.children] == ["c4:d:e", "c4:d:a"]
    assert [c.custom_id for c in confirm_payload(lang).view.children] == ["c4:d:c"]


def test_nothing_kept_says_so():
    assert t("privacy.empty", "es") in summary_payload(Summary(), "es").content
