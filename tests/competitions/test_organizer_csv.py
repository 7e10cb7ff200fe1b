"""The CSV files of the organizer's export (`bot.organizer.export`): UTF-8 with a byte-order mark, the
csv module's quoting, and no spreadsheet formula from a name."""

from __future__ import annotations

import csv
import io

from bot.organizer.export import BOM, to_csv


def test_a_csv_starts_with_the_bom_and_quotes_commas_quotes_and_accents():
    data = to_csv(["nombre", "puntos"], [["Peña, José", 3], ['el "Loco"', 0], ["Ñandú", -2]])
    text = data.decode("utf-8")
    assert text.startswith(BOM)
    assert list(csv.reader(io.StringIO(text[1:]))) == [["nombre", "puntos"], ["Peña, José", "3"],
                                                      ['el "Loco"', "0"], ["Ñandú", "-2"]]


def test_a_name_that_looks_like_a_formula_is_written_as_text():
    text = to_csv(["nombre"], [["=HYPERLINK(1)"], ["+ana"], ["-beto"], ["@caro"], ["dani"]]).decode("utf-8")
    assert [r[0] for r in csv.reader(io.StringIO(text[1:]))][1:] == ["'=HYPERLINK(1)", "'+ana", "'-beto", "'@caro",
                                                                      "dani"]
