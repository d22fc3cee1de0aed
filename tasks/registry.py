"""The explicit registry of task families: a family exists when it is listed here."""

from __future__ import annotations

from tasks.base import TaskFamily
from tasks.chat.answer import FindAndAnswer
from tasks.chat.channels import CreateChannelAndInvite
from tasks.chat.post import PostInChannel
from tasks.chat.react import ReactToMessage
from tasks.chat.summarise import SummariseThread
from tasks.chat.thread import ReplyInThread

FAMILIES: tuple[TaskFamily, ...] = (
    PostInChannel(),
    ReactToMessage(),
    FindAndAnswer(),
    ReplyInThread(),
    CreateChannelAndInvite(),
    SummariseThread(),
)


def get(family_id: str) -> TaskFamily:
    for family in FAMILIES:
        if family.id == family_id:
            return family
    raise KeyError(f"unknown task {family_id!r}; known tasks: {', '.join(f.id for f in FAMILIES)}")


def all_families() -> tuple[TaskFamily, ...]:
    return FAMILIES
