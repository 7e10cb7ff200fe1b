"""Draws the table picture alone, 1 v 1 and 2 v 2, mid-hand with 16-character names, every badge and full
hands, into docs/preview/picture-1v1.png and picture-2v2.png (``--out`` to write elsewhere), with the
catalog's own words (``pic.*``, the computer's short name and level) in ``--lang``. ``--phone-out DIR``
also saves each scaled to the width a phone shows it (``--phone``, 280 px), to look at.

    python scripts/preview_picture.py [--out docs/preview] [--lang es] [--phone-out /tmp --phone 280]
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bot.i18n import t  # noqa: E402
from bot.ui.picture import LastPlay, SeatScene, SideScene, TableScene, render_table  # noqa: E402
from bot.ui.words import level_word  # noqa: E402

KEYS = ("perros", "tantos", "chicas", "cards", "dealer", "mano", "turn", "empty", "perros_one", "tantos_one",
        "chicas_one", "cards_one")


def scenes(lang: str) -> dict[str, TableScene]:
    """The two scenes drawn: a 1 v 1 against a computer, and a 2 v 2 with a side at 38."""
    labels = {key: t(f"pic.{key}", lang) for key in KEYS}
    labels["only_caida"] = t("pic.only_caida", lang, score=38)
    trail = t("pic.trail", lang)
    compu1, compu2, hard = t("ai.short", lang, n=1), t("ai.short", lang, n=2), level_word("dificil", lang)
    one = TableScene(
        "Mesa #12 · quito · chica 2 · mano 3", ("3H", "7S", "QD", "2C", "5H", "KS", "4D", "6C"), "6C", trail,
        (SeatScene("Ñañito Güeñez Ç", 5, 0, False, True, False, None, False),
         SeatScene(compu1, 4, 1, True, False, True, hard, False)),
        (SideScene("Ñañito Güeñez Ç", 2, 3, 1, False, 6), SideScene(compu1, 1, 4, 0, False, 9)),
        LastPlay(0, "5D", ("5S", "6H", "7D"), "¡Caída!"), labels)
    four = TableScene(
        "Mesa #7 · quito · chica 1 · mano 4", ("AS", "2H", "3D", "4C", "5S", "6H", "7D", "JC", "QS", "KH"), "KH",
        trail,
        (SeatScene("Ana María Ñúñez", 5, 0, False, True, False, None, False),
         SeatScene(compu2, 5, 1, False, False, True, hard, False),
         SeatScene("João Conceição", 4, 0, False, False, False, level_word("medio", lang), True),
         SeatScene("Ñañito Güeñez Ç", 4, 1, True, False, False, None, False)),
        (SideScene("Equipo A", 3, 4, 1, True, 12), SideScene("Equipo B", 2, 1, 0, False, 8)),
        LastPlay(3, "5D", ("5H", "6C", "7S"), "¡Caída y limpia!"), labels)
    return {"1v1": one, "2v2": four}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/preview"))
    parser.add_argument("--phone-out", type=Path, default=None, help="directory for the pictures at phone width")
    parser.add_argument("--phone", type=int, default=280, help="width a phone shows the picture at (px)")
    parser.add_argument("--lang", default="es")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, scene in scenes(args.lang).items():
        png = render_table(scene)
        path = args.out / f"picture-{name}.png"
        path.write_bytes(png)
        image = Image.open(io.BytesIO(png)).convert("RGB")
        print(f"{path}: {image.width}x{image.height}, {len(png) / 1024:.1f} KB")
        if args.phone_out is not None:
            small = image.resize((args.phone, round(image.height * args.phone / image.width)),
                                 Image.Resampling.LANCZOS)
            args.phone_out.mkdir(parents=True, exist_ok=True)
            small.save(args.phone_out / f"picture-{name}-{args.phone}.png")


if __name__ == "__main__":
    main()
