"""An issue being edited off the ORM: the issue's row, read and assigned by attribute as a
model object is, with the assignments written back in one UPDATE by `save`.

Loading an issue as a model object, and flushing it through the unit of work, cost more than
the rest of an edit together; the setters (edits.py, workflow.py) only read and assign
attributes, so they run on a draft unchanged. A draft is never in the session: code that
edits one must `save` it before the operation ends (and before anything reads the issue's
row from the database again).
"""

from __future__ import annotations

from typing import Any

from apps.tickets import queries as Q


class Draft:
    __slots__ = ("_values", "changed")

    def __init__(self, values: dict[str, Any]) -> None:
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "changed", {})

    @classmethod
    def of(cls, row: Any) -> Draft:
        """A draft of a plain issue row (queries.ISSUE_BY_KEY / ISSUE_BY_ID)."""
        return cls(row._asdict())

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._values:
            raise AttributeError(f"an issue has no column {name!r}")
        if self._values[name] != value or name in self.changed:
            self.changed[name] = value
        self._values[name] = value

    def save(self, db: Any) -> None:
        """Write the columns assigned since the last save."""
        if not self.changed:
            return
        columns = tuple(sorted(self.changed))
        Q.issue_update(columns).run(db, issue_id=self._values["id"], **self.changed)
        self.changed.clear()
