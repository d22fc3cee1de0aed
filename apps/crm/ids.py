"""Salesforce record ids: 15 case-sensitive characters (key prefix, instance, a serial
number in base 62) plus the 3-character case-safe checksum that makes the 18-character form.

Serial numbers come from one counter per env (in og_meta), so the same calls in the same
env always mint the same ids; the seeder numbers its records from the same counter.
"""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from officegym.core.db import get_meta

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
CHECKSUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
INSTANCE = "Hs"  # the pod-ish characters after the prefix
COUNTER_KEY = "crm.id_serial"
ID_SHAPE = re.compile(r"^[a-zA-Z0-9]{15}([A-Z0-5]{3})?$")


# Each id character as its checksum bit: "1" for an uppercase letter, "0" for anything else.
_BITS = str.maketrans({chr(code): "1" if "A" <= chr(code) <= "Z" else "0" for code in range(128)})


def checksum(id15: str) -> str:
    """The 3-character suffix: for each 5-character chunk, a bit per uppercase letter (the
    chunk's first character is the lowest bit). Every save computes two or three of these."""
    bits = id15.translate(_BITS)
    return CHECKSUM[int(bits[4::-1], 2)] + CHECKSUM[int(bits[9:4:-1], 2)] + CHECKSUM[int(bits[14:9:-1], 2)]


_PAIRS = tuple(high + low for high in BASE62 for low in BASE62)  # two base-62 digits at a time


def make_id(prefix: str, serial: int) -> str:
    """The id of serial number `serial` (its last 9 base-62 digits) for an object's key prefix."""
    serial, d0 = divmod(serial, 3844)
    serial, d1 = divmod(serial, 3844)
    serial, d2 = divmod(serial, 3844)
    serial, d3 = divmod(serial, 3844)
    id15 = f"{prefix}{INSTANCE}0{BASE62[serial % 62]}{_PAIRS[d3]}{_PAIRS[d2]}{_PAIRS[d1]}{_PAIRS[d0]}"
    return id15 + checksum(id15)


def to18(value: str) -> str | None:
    """The 18-character form of a 15- or 18-character id (checksum verified), else None."""
    value = (value or "").strip()
    if not ID_SHAPE.match(value):
        return None
    id15 = value[:15]
    full = id15 + checksum(id15)
    if len(value) == 18 and value.upper() != full.upper():
        return None
    return full


def upcoming_ids(db: Session, prefix: str, count: int = 1) -> tuple[list[str], dict[str, str]]:
    """The next `count` ids and the counter's meta value once they are taken, not yet written:
    a save writes it in its clock tick's statement (`clock.tick(also=…)`)."""
    serial = int(get_meta(db, COUNTER_KEY, "0") or 0)
    return [make_id(prefix, serial + n + 1) for n in range(count)], {COUNTER_KEY: str(serial + count)}
