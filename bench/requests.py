"""The floor of a play's three requests: what discord.py and aiohttp cost the bot per play, with nothing
else around them.

A play rewrites three messages (`bot.ui.delivery`): the clicker's hand as the click's answer (``POST
/interactions/…/callback``, UPDATE_MESSAGE), the next player's hand through their interaction token
(``PATCH /webhooks/…/messages/@original``) and the public table message with its picture (``PATCH
/channels/…/messages/…``, multipart). This bench builds those three bodies as the bot does (a real
hand payload for each seat, the table's words and its PNG, from a 1 v 1 game in mid-hand), then sends
them through the calls the bot made before `bot.ui.delivery` (discord.py's internals, no message objects built), to a small aiohttp server in another process
that answers as Discord does (204 for the callback, the message JSON with rate-limit headers for the
edits). Bodies are built once: only the requests are measured.

Prints the bot process's CPU µs per play (``time.process_time``, the server's CPU not included), for
plays one after another (with each request's share) and for 50 plays in flight at once (as 50 live
tables). Compare with the bot's CPU per play in `bench/loopback.py`: the rest of a play is the gateway
event, the game, the payloads, the store and the picture.

    python bench/requests.py [--plays 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

if TYPE_CHECKING:
    from bot.ui.render import Payload

MESSAGE = (b'{"id":"1300000000000000002","channel_id":"1300000000000000001","type":0,"content":"",'
           b'"author":{"id":"1","username":"Cuarenta","discriminator":"0","avatar":null},"attachments":[],'
           b'"embeds":[],"mentions":[],"mention_roles":[],"pinned":false,"mention_everyone":false,"tts":false,'
           b'"timestamp":"2026-01-01T00:00:00+00:00","edited_timestamp":null,"flags":0,"components":[]}')


def serve(port: int, ready: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    """Answer as Discord would: 204 to an interaction callback, the message to an edit."""
    from aiohttp import web

    headers = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "4", "X-RateLimit-Reset-After": "0.001",
               "X-RateLimit-Bucket": "bench"}

    async def answer(request: web.Request) -> web.Response:
        await request.read()
        if request.path.endswith("/callback"):
            return web.Response(status=204)
        return web.Response(body=MESSAGE, content_type="application/json", headers=headers)

    app = web.Application(client_max_size=32 * 2**20)
    app.router.add_route("*", "/{tail:.*}", answer)

    async def main() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ready.set()
        await asyncio.Event().wait()

    asyncio.run(main())


def bodies() -> tuple[Payload, Payload, Payload]:
    """The three payloads of one play: the clicker's hand, the other seat's hand, the table with its PNG."""
    import discord

    from bot.engine import Game, Rules
    from bot.engine.cards import ALL_CARDS
    from bot.tables import PLAYING, Seat, Table, TableOptions
    from bot.ui import render
    from bot.ui.faces import CardFaces
    from bot.ui.picture import render_table
    from bot.ui.table_scene import table_scene

    faces = CardFaces(emojis={card.code: discord.PartialEmoji(name=f"c4_{card.code}", id=1_300_000_000_000_000_000)
                              for card in ALL_CARDS})
    table = Table(id=1, guild_id=1, channel_id=100, host_id=10, players=2, preset="quito", status=PLAYING,
                  seed="requests", seats=[Seat(10, name="Ana María"), Seat(11, name="Beto Peña")],
                  options=TableOptions(guild_name="Ecuador", channel_name="cuarenta"))
    game = table.game = Game.new(Rules.preset("quito"), 2, "requests")
    table.messages.public = 5_000
    rng = random.Random(1)
    for _ in range(7):  # mid-hand: cards on the table, a last play to show
        game.play(rng.choice(game.legal_plays()))
    seat = game.to_play
    assert seat is not None
    clicker = render.hand_payload(table, 1 - seat, game.view(1 - seat), "es", faces=faces)
    other = render.hand_payload(table, seat, game.view(seat), "es", faces=faces)
    public = render.with_picture(render.table_payload(table, "es", faces=faces),
                                 render_table(table_scene(table, "es")))
    return clicker, other, public


async def run(port: int, plays: int) -> None:
    import aiohttp
    import discord
    from discord.http import HTTPClient, Route, handle_message_parameters
    from discord.webhook.async_ import async_context, interaction_message_response_params

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    clicker, other, public = bodies()
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    http = HTTPClient(asyncio.get_running_loop(), connector=session.connector)
    http.token = "bench"
    # what ``static_login`` sets up, without asking Discord who the bot is
    http._HTTPClient__session = session  # noqa: SLF001
    http._global_over = asyncio.Event()  # noqa: SLF001
    http._global_over.set()  # noqa: SLF001
    adapter = async_context.get()
    none = discord.AllowedMentions.none()
    spent = {"answer": 0.0, "other hand": 0.0, "table + picture": 0.0}

    async def answer() -> None:  # wire.update_message
        route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="t")
        with interaction_message_response_params(type=7, **clicker.edit_kwargs(),
                                                 previous_allowed_mentions=none) as params:
            await adapter.request(route, session=session, payload=params.payload)

    async def other_hand() -> None:  # wire.edit_original
        with handle_message_parameters(**other.edit_kwargs(),
                                       previous_allowed_mentions=none) as params:
            await adapter.edit_original_interaction_response(1, "t", session=session, payload=params.payload,
                                                             multipart=params.multipart, files=params.files)

    async def table() -> None:  # wire.edit_channel_message
        with handle_message_parameters(**public.edit_kwargs(),
                                       previous_allowed_mentions=none) as params:
            await http.edit_message(100 + random.randrange(50), 5_000, params=params)

    async def play() -> None:
        for name, call in (("answer", answer), ("other hand", other_hand), ("table + picture", table)):
            start = time.process_time()
            await call()
            spent[name] += time.process_time() - start

    for _ in range(100):  # warm-up: connections open, code paths hot
        await play()
    for in_flight in (1, 50):
        for key in spent:
            spent[key] = 0.0
        gate = asyncio.Semaphore(in_flight)

        async def one(gate: asyncio.Semaphore = gate) -> None:
            async with gate:
                await play()

        start = time.process_time()
        await asyncio.gather(*(one() for _ in range(plays)))
        total = time.process_time() - start
        line = f"{in_flight:>3} in flight: {total / plays * 1e6:6.0f} µs of CPU a play"
        if in_flight == 1:  # with others in flight, a request's clock would run during their work too
            line += " (" + ", ".join(f"{name} {seconds / plays * 1e6:.0f}" for name, seconds in spent.items()) + \
                "; the parts time each request's own steps, the total also the event loop's work between them)"
        print(line)
    await session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=2000)
    args = parser.parse_args()
    port = 18_000 + random.randrange(1000)
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    server = ctx.Process(target=serve, args=(port, ready), daemon=True)
    server.start()
    ready.wait(30)
    try:
        from bot import loop

        loop.run(run(port, args.plays))
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
