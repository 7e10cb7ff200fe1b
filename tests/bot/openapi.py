"""Validate the bot's REST request bodies against Discord's OpenAPI document.

Each request recorded by SimCord (``env.http_requests``: method, path, json) is mapped to its operation
in Discord's OpenAPI document (``../shared/discord-api-spec/openapi.json``, or the copy vendored beside
this module when the repository is cloned on its own) and its JSON body validated with jsonschema.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SHARED_SPEC = Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json"
VENDORED_SPEC = Path(__file__).resolve().parent / "discord_api_spec" / "openapi.json"
SPEC_PATH = SHARED_SPEC if SHARED_SPEC.is_file() else VENDORED_SPEC
"""``../shared/discord-api-spec/openapi.json`` next to the repository, else the vendored copy of it."""


@cache
def _spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


@cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    routes = []
    for template in _spec()["paths"]:
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        routes.append((re.compile(pattern), template))
    routes.sort(key=lambda r: r[1].count("{"))  # literal segments (/users/@me) win
    return routes


_URI = "urn:discord-openapi"


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


@cache
def _registry() -> Registry:
    return Registry().with_resource(_URI, Resource.from_contents(_spec(), default_specification=DRAFT202012))


@cache
def _validator(template: str, method: str) -> Draft202012Validator | None:
    operation = _spec()["paths"][template].get(method.lower())
    if operation is None:
        raise AssertionError(f"{method} {template} is not an operation of the Discord API")
    body = operation.get("requestBody")
    if body is None:
        return None
    if body["content"].get("application/json", {}).get("schema") is None:
        return None
    pointer = f"/paths/{_escape(template)}/{method.lower()}/requestBody/content/application~1json/schema"
    return Draft202012Validator({"$ref": f"{_URI}#{pointer}"}, registry=_registry())


def route_of(path: str) -> str:
    """The OpenAPI path template of a request path (``/channels/1/messages`` → ``/channels/{channel_id}/messages``).

    Raises:
        AssertionError: no route matches.
    """
    path = path.split("?", 1)[0]
    if path.startswith("/api/v10"):
        path = path[len("/api/v10"):]
    for pattern, template in _routes():
        if pattern.match(path):
            return template
    raise AssertionError(f"no Discord API route matches {path}")


def request_errors(method: str, path: str, body: Any) -> list[str]:
    """Schema violations of one request body (empty when valid)."""
    template = route_of(path)
    validator = _validator(template, method)
    if validator is None or body is None:
        return []
    return [f"{method} {template}: {e.json_path}: {e.message[:300]}" for e in validator.iter_errors(body)]


def invalid_requests(requests: list[Any]) -> list[str]:
    """Every schema violation in a list of SimCord ``HttpLogEntry`` records."""
    problems: list[str] = []
    for request in requests:
        problems.extend(request_errors(request.method, request.path, request.json))
    return problems
