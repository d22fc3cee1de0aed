"""The control plane's API docs page works with no internet: Swagger UI's files come from the
control plane itself (FastAPI's default page loads them from a CDN, and lab and cluster
machines are often offline). Chromium opens the page with every request off this machine
refused, and the page lists the control plane's operations."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def test_the_api_docs_page_renders_offline(page: Any, live_server: Any) -> None:
    control_origin = urlsplit(live_server.control_url).netloc
    elsewhere: list[str] = []

    def only_here(route: Any) -> None:
        if urlsplit(route.request.url).netloc == control_origin:
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_here)
    page.goto(f"{live_server.control_url}/v1/docs")
    page.get_by_text("/v1/envs/{env_id}/grade").first.wait_for(timeout=15_000)
    assert page.get_by_role("heading", name="officegym control plane").count() >= 1
    assert elsewhere == [], f"the docs page asked another host for {elsewhere}"
