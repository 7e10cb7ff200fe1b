"""Compile the gettext catalogs (``locale/<lang>/LC_MESSAGES/<domain>.po``) to ``.mo`` with Babel.

The install runs this (``setup.py`` hooks it into ``build_py``, for ordinary and editable installs), so a
translator edits only ``.po`` files. The runtime loader calls `compile_po` too when a ``.mo`` is missing
or older than its ``.po`` (a catalog edited after the install). This module imports only Babel and the
standard library: ``setup.py`` loads it by path, before the package is importable.
"""

from __future__ import annotations

import io
from pathlib import Path

LOCALE_DIR = Path(__file__).with_name("locale")
"""Where the catalogs live: ``LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "cuarenta.po"``."""


def compile_po(po_path: Path) -> bytes:
    """The ``.mo`` bytes of one ``.po`` file (untranslated and fuzzy entries are left out, as msgfmt does).

    Raises:
        OSError: the file cannot be read.
        babel.messages.pofile.PoFileError: the file is not valid PO.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def compile_all(root: Path = LOCALE_DIR) -> list[Path]:
    """Write ``X.mo`` beside every ``X.po`` under ``root``; returns the ``.mo`` paths written."""
    written = []
    for po_path in sorted(root.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        mo_path.write_bytes(compile_po(po_path))
        written.append(mo_path)
    return written


if __name__ == "__main__":  # pragma: no cover - a translator's convenience: python bot/i18n/build.py
    for path in compile_all():
        print(path)
