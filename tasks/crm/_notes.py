"""What else the actor wrote while doing a task: the text of every task, event, note and case
comment they added to the org, on any record, and of any other record they created (an
account's or a deal's description, a case's subject). A family that reads a field as the
phrase it claims reads these with it, as chat reads everything said anywhere (canvases,
scheduled messages): a hedge written one record over, or on an unrelated record, is still a
hedge, not only a stray row that costs a fifth of the reward. (Text written over an existing
record's field is an overwrite, which costs more than half the reward on its own.)"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from apps.crm.models import TABLES
from officegym.core.sql import Prepared
from tasks.base import SampleContext
from tasks.common.variants import cached
from tasks.crm._common import me

# Each kind of free text: the object and the fields it is written in.
_KINDS = (
    ("Task", ("Subject", "Description")),
    ("Event", ("Subject", "Description")),
    ("Note", ("Title", "Body")),
    ("CaseComment", ("CommentBody",)),
    ("Case", ("Subject", "Description", "Resolution__c")),
    ("Account", ("Name", "Description")),
    ("Contact", ("Description",)),
    ("Lead", ("Description",)),
    ("Opportunity", ("Name", "NextStep", "Description")),
    ("OpportunityLineItem", ("Description",)),
)


# Each kind's rows by their creator, only the Id and the text: a grade reads all four.
_WRITTEN_BY = {
    obj: Prepared(select(TABLES[obj].c.Id, *(TABLES[obj].c[f] for f in fields))
                  .where(TABLES[obj].c.CreatedById == bindparam("actor")).order_by(TABLES[obj].c.Id))
    for obj, fields in _KINDS
}


def _seeded(ctx: SampleContext, obj: str) -> frozenset[str]:
    """The template's ids of `obj`, read once per template: what was there before the task."""
    return cached(ctx, f"crm/ids/{obj}", lambda: frozenset(ctx.db.scalars(select(TABLES[obj].c.Id))))  # Ids only: chat families read these too


def written(ctx: SampleContext) -> Callable[[Session], list[str]]:
    """A reader of the final state: the text of every task, event, note and case comment the
    actor added since the template, wherever it is, and of every other record they created."""
    before = {obj: _seeded(ctx, obj) for obj, _ in _KINDS}
    actor = me(ctx)

    def read(db: Session) -> list[str]:
        found = []
        for obj, _fields in _KINDS:
            for record_id, *texts in _WRITTEN_BY[obj].tuples(db, actor=actor):  # a rep's own rows: dozens at most
                if record_id not in before[obj]:
                    found.append("\n".join(str(text) for text in texts if text))
        return found

    return read
