"""JSON out of the faces (answers, MCP texts, event rows) is orjson's, and whatever the
standard library could encode still encodes: the same values come back when read."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from officegym.core import jsontext

ORDINARY = {"ok": True, "n": 3, "x": 0.1, "tiny": 1e-05, "big": 1e16, "neg": -0.0, "s": "héllo ✓", "l": [None, {"a": []}]}


@pytest.mark.parametrize("value", [ORDINARY, [1, 2, 3], "plain", 7, None])
def test_encoded_text_reads_back_as_the_value(value) -> None:
    assert json.loads(jsontext.dumps(value)) == value
    assert json.loads(jsontext.dump_bytes(value)) == value


def test_text_is_compact_and_keeps_non_ascii() -> None:
    assert jsontext.dumps({"a": 1, "b": "é"}) == '{"a":1,"b":"é"}'
    assert jsontext.dump_bytes({"b": "é"}) == '{"b":"é"}'.encode()


def test_sorted_keys_for_log_rows() -> None:
    assert jsontext.dumps({"b": 1, "a": {"d": 2, "c": 3}}, sort_keys=True) == '{"a":{"c":3,"d":2},"b":1}'


@pytest.mark.parametrize("value", [2**70, -(2**80), {1: "one"}, {"deep": [2**64]}])
def test_what_orjson_refuses_the_standard_library_encodes(value) -> None:
    assert json.loads(jsontext.dumps(value)) == json.loads(json.dumps(value))
    assert json.loads(jsontext.dump_bytes(value)) == json.loads(json.dumps(value))


def test_a_lone_surrogate_becomes_an_escape_in_a_body() -> None:
    body = jsontext.dump_bytes({"text": "a\ud800b"})
    body.decode("utf-8")  # valid UTF-8 on the wire
    assert json.loads(body) == {"text": "a\ud800b"}


def test_dates_and_decimals_read_as_the_standard_library_wrote_them() -> None:
    moment = datetime(2024, 5, 1, 9, 30, tzinfo=UTC)
    value = {"at": moment, "amount": Decimal("12.50")}
    assert json.loads(jsontext.dumps(value)) == json.loads(json.dumps(value, default=str))


def test_reading_refuses_deep_nesting_and_non_numbers() -> None:
    nested: list = []
    for _ in range(31):
        nested = [nested]
    assert jsontext.loads("[" * 32 + "]" * 32, 32) == nested
    with pytest.raises(jsontext.JsonTextError, match="nested deeper than 32"):
        jsontext.loads("[" * 33 + "]" * 33, 32)
    with pytest.raises(jsontext.JsonTextError, match="not valid JSON"):
        jsontext.loads('{"a": NaN}', 32)
    # brackets inside strings are text, not nesting
    assert jsontext.loads(json.dumps({"t": "[" * 100}), 32) == {"t": "[" * 100}
