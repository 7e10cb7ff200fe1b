"""The request-body validator of the SimCord tests (`tests/support/openapi.py`): its document is the shared one,
it catches bad bodies, and the fast validator (jsonschema-rs) gives the reference validator's (jsonschema's)
verdict on every body a short game sends and on known bad ones."""

from __future__ import annotations

import copy
from functools import cache

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from . import openapi
from .helpers import member_of, pick_play, play_through_ui, start_1v1
from .openapi import SHARED_SPEC, VENDORED_SPEC, refused_by_discord, request_errors, route_of


def test_vendored_openapi_copy_matches_the_shared_document():
    if not SHARED_SPEC.is_file():
        pytest.skip("../shared is not next to this clone; the vendored copy is the only one here")
    assert VENDORED_SPEC.read_bytes() == SHARED_SPEC.read_bytes()


def test_the_openapi_validator_catches_a_bad_body():
    assert route_of("/users/@me/channels") == "/users/@me/channels"
    assert route_of("/channels/1/messages/2") == "/channels/{channel_id}/messages/{message_id}"
    bad = {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"}]}]}
    assert request_errors("POST", "/channels/1/messages", bad)
    assert request_errors("POST", "/channels/1/messages", {"content": "hola"}) == []
    assert request_errors("POST", "/users/@me/channels", {"recipient_id": 5}), "snowflakes are strings"


@cache
def _reference(template: str, method: str) -> Draft202012Validator:
    registry = Registry().with_resource(
        openapi._URI, Resource.from_contents(openapi._spec(), default_specification=DRAFT202012))
    pointer = openapi.schema_pointer(template, method).replace("%7B", "{").replace("%7D", "}")
    return Draft202012Validator({"$ref": f"{openapi._URI}#{pointer}"}, registry=registry)


def _verdicts(method: str, path: str, body: object) -> tuple[bool, bool]:
    """(fast says valid, reference says valid) for one body."""
    template = route_of(path)
    return not request_errors(method, path, body), _reference(template, method).is_valid(body)


def _broken(body: dict) -> list[dict]:
    """Bad variants of a good message body: a too long label, a wrong type, an unknown component type."""
    variants = []
    for change in ("label", "type", "content"):
        bad = copy.deepcopy(body)
        if change == "content":
            bad["content"] = 5
        else:
            rows = bad.get("components") or []
            buttons = [c for row in rows for c in row.get("components", []) if c.get("type") == 2]
            if not buttons:
                continue
            if change == "label":
                buttons[0]["label"] = "x" * 81
            else:
                buttons[0]["type"] = 99
        variants.append(bad)
    return variants


async def test_the_fast_validator_agrees_with_jsonschema_on_every_body_of_a_mesa(world):
    table = await start_1v1(world)
    for _ in range(8):  # a few plays: the table's edits, DM hands
        seat, play = pick_play(table)
        await play_through_ui(member_of(world, table, seat), table, play)
    requests = [r for r in world.env.http_requests if r.json is not None]
    assert len(requests) > 10
    checked = 0
    for request in requests:
        if openapi._validator(route_of(request.path), request.method) is None:
            continue
        fast, reference = _verdicts(request.method, request.path, request.json)
        assert fast == reference == True, (request.method, request.path)  # noqa: E712
        checked += 1
        if isinstance(request.json, dict) and request.json.get("components"):
            for bad in _broken(request.json):
                assert _verdicts(request.method, request.path, bad) == (False, False), (request.path, bad)
    assert checked > 10


class _Request:
    def __init__(self, method: str, path: str, json: object) -> None:
        self.method, self.path, self.json = method, path, json


def test_a_gallery_of_an_upload_edited_through_an_interaction_token_is_caught():
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://mesa.png"}, "description": "Mesa"}]}
    body = {"components": [{"type": 17, "components": [{"type": 10, "content": "x"}, gallery]}], "flags": 32768}
    token_edit = "/webhooks/11/tok/messages/@original"
    assert refused_by_discord([_Request("PATCH", token_edit, body)])
    assert refused_by_discord([_Request("PATCH", "/webhooks/11/tok/messages/55", body)])
    assert not refused_by_discord([_Request("PATCH", "/channels/1/messages/2", body)]), "the bot's token"
    assert not refused_by_discord([_Request("POST", "/interactions/1/tok/callback", {"type": 7, "data": body})])
    linked = {"components": [{"type": 12, "items": [{"media": {"url": "https://cdn.example/x.png"}}]}]}
    assert not refused_by_discord([_Request("PATCH", token_edit, linked)]), "no upload in the gallery"
