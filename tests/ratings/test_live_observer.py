"""`Ratings.on_rated`: observers are told the server and mode of each chica rated now, never of a casual
or an already stored one, and an observer that fails neither stops the others nor the recording."""

from __future__ import annotations

from bot.ratings import ChicaResult, Ratings


def chica(table_id: int, *, guild: int = 7, casual: bool = False, teams=((1,), (2,))) -> ChicaResult:
    return ChicaResult(guild, table_id, 1, teams, 0, scores=(40, 10), casual=casual)


async def test_observers_hear_each_chica_rated_now(repo: Ratings):
    heard: list[tuple[int, str]] = []

    def broken(guild_id: int, mode: str) -> None:
        raise RuntimeError("observer down")

    repo.on_rated.extend([broken, lambda g, m: heard.append((g, m))])
    assert await repo.record_chica(chica(1))
    await repo.record_chicas([chica(2, teams=((1, 3), (2, 4))), chica(3, guild=8)])
    await repo.record_chica(chica(4, casual=True))
    await repo.record_chica(chica(1))  # already stored
    assert heard == [(7, "1v1"), (7, "2v2"), (8, "1v1")]
