"""What the REST face does to every answer, done the fast way and proved the same as the plain way:
links to the site's REST API point back at this API (`_linked_here` against the one regex pass),
the API's base URL is kept by what makes it (`api_base` against `str(request.url)`), a route's path
is read off the scope (`url_path` against `request.url.path`), and Jira's times come from
isoformat (`jira_time` against strftime)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import Request

from apps.tickets import api_common
from apps.tickets.api_common import _SITE, _linked_here, api_base
from officegym.faces.rest import url_path
from apps.tickets.ids import jira_time

# Pieces answers are made of: the env's site and others, near-misses of a link, and the text between.
PIECES = st.sampled_from([
    "https://acme.atlassian.net/rest/", "https://other-co.atlassian.net/rest/", "https://acme.atlassian.net/avatar/x.png",
    "http://acme.atlassian.net/rest/", "https://ACME.atlassian.net/rest/", "https://", ".atlassian.net/rest/", "https://a",
    "api/3/issue/10001", "\\", "\\g<0>", "h", "ttps://", "acme", '"', ",", "/rest/",
])
TEXTS = st.lists(PIECES, max_size=30).map(lambda parts: "".join(parts).encode())
HERES = st.sampled_from([
    b"http://127.0.0.1:8000/envs/abc/api/tickets/rest/", b"http://127.0.0.1:8000/rest/", b"https://host\\path/rest/",
    b"https://x.atlassian.net/rest/", b"http://h/\\g<0>/rest/",
])


def _by_regex(text: bytes, here: bytes) -> bytes:
    return _SITE.sub(here.replace(b"\\", b"\\\\"), text)


@settings(max_examples=400, deadline=None)
@given(TEXTS, HERES)
def test_links_point_here_exactly_as_one_regex_pass_would(text: bytes, here: bytes) -> None:
    assert _linked_here(text, here) == _by_regex(text, here)


def test_an_answer_linking_two_sites_has_both_pointed_here() -> None:
    text = b'{"self":"https://acme.atlassian.net/rest/api/3/issue/1","body":"see https://other.atlassian.net/rest/api/3/issue/2"}'
    here = b"http://127.0.0.1:8000/envs/e1/api/tickets/rest/"
    assert _linked_here(text, here) == (b'{"self":"http://127.0.0.1:8000/envs/e1/api/tickets/rest/api/3/issue/1",'
                                        b'"body":"see http://127.0.0.1:8000/envs/e1/api/tickets/rest/api/3/issue/2"}')


def _request(path: str, *, host: bytes | None = b"127.0.0.1:8000", scheme: str = "http", server: Any = ("127.0.0.1", 8000),
             query: bytes = b"") -> Request:
    headers = [(b"accept", b"*/*")] + ([(b"host", host)] if host is not None else [])
    return Request({"type": "http", "method": "GET", "scheme": scheme, "path": path, "root_path": "", "query_string": query,
                    "headers": headers, "server": server})


PATHS = ["/envs/e1/api/tickets/rest/api/3/search/jql", "/envs/e2/api/tickets/rest/api/3/search/jql", "/rest/api/3/myself",
         "/envs/e1/api/tickets/rest/agile/1.0/board", "/envs/e?1/api/tickets/rest/api/3/issue/A#1", "/envs/e\\1/api/tickets/rest/api/3/x",
         "/envs/e1/api/tickets/rest/api/3/issue/SUP-1\t/comment", "/envs/e1/api/tickets/rest/api/3/issue/a%2Fb", "/envs/e1/api/tickets/other"]
HOSTS: list[bytes | None] = [b"127.0.0.1:8000", b"example.com", b"example.com:443", b"[::1]:8000", b"bad host", None]


def test_the_api_base_is_what_the_request_url_says_whatever_the_host_and_path() -> None:
    api_common._BASES.clear()
    for _ in range(2):  # the second round is served from what the first kept
        for path in PATHS:
            for host in HOSTS:
                for scheme, server in (("http", ("127.0.0.1", 8000)), ("https", ("10.0.0.1", 443)), ("http", None)):
                    request = _request(path, host=host, scheme=scheme, server=server, query=b"jql=x%2F/rest/y")
                    assert api_base(request) == str(request.url).split("/rest/", 1)[0]


def test_a_kept_api_base_is_never_another_hosts_or_envs() -> None:
    api_common._BASES.clear()
    first = api_base(_request("/envs/e1/api/tickets/rest/api/3/myself", host=b"one.test"))
    other_host = api_base(_request("/envs/e1/api/tickets/rest/api/3/myself", host=b"two.test"))
    other_env = api_base(_request("/envs/e2/api/tickets/rest/api/3/myself", host=b"one.test"))
    assert (first, other_host, other_env) == ("http://one.test/envs/e1/api/tickets", "http://two.test/envs/e1/api/tickets",
                                              "http://one.test/envs/e2/api/tickets")


def test_the_kept_bases_stay_bounded() -> None:
    api_common._BASES.clear()
    for n in range(api_common._MAX_BASES + 10):
        api_base(_request(f"/envs/e{n}/api/tickets/rest/api/3/myself"))
    assert len(api_common._BASES) <= api_common._MAX_BASES


def test_the_route_path_is_the_request_urls_path() -> None:
    for path in PATHS + ["/rest/api/3/issue/x\r\ny", "/rest/api/3/issue/%3F"]:
        request = _request(path)
        assert url_path(request) == _request(path).url.path


def _strftime_time(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}+0000"


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=253_370_764_799_999_999), st.integers(min_value=-12, max_value=12))
def test_jira_times_are_strftimes_text(micros: int, hours: int) -> None:
    moment = (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=micros)).astimezone(timezone(timedelta(hours=hours)))
    assert jira_time(moment) == _strftime_time(moment)


def test_a_jira_time_before_year_1000_is_spelt_as_strftime_spells_it() -> None:
    moment = datetime(999, 3, 4, 5, 6, 7, 891_234, tzinfo=UTC)
    assert jira_time(moment) == _strftime_time(moment)
