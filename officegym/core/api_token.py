"""Per-env API tokens: what a product's own client sends where the product wants a session.

Some clients build every URL from the host alone and name the tenant by a token instead
(`simple_salesforce` sends the session id as `Authorization: Bearer …` to
`https://<host>/services/data/…`), so an env must be reachable without its id in the path.
The control plane hands out `api_token(env_id)` with the env's URLs; every app's REST face
accepts it, and an app that declares a root prefix answers there for the env it names.

The token grants exactly what the env's URLs grant (the env id is already the capability),
so it is derived from the id rather than stored: any worker sharing the env registry
resolves it, with nothing more to persist or expire.
"""

from __future__ import annotations

import re

PREFIX = "og_"
_TOKEN = re.compile(r"og_([0-9a-f]{32})")


def api_token(env_id: str) -> str:
    return PREFIX + env_id


def env_id_of(token: str) -> str | None:
    """The env a token names, or None when the text is not an officegym token."""
    match = _TOKEN.fullmatch(token.strip())
    return match.group(1) if match else None


def bearer(authorization: str) -> str | None:
    """The token of an `Authorization: Bearer <t>` header (Salesforce clients also send
    `OAuth <t>`), or None."""
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() in ("bearer", "oauth") and value.strip():
        return value.strip()
    return None
