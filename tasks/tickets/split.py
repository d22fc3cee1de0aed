"""tickets/split-story-into-subtasks-v1: split an engineering story into the subtasks the
prompt lists.

Passes when the subtasks created under the story since the task began are exactly the ones
asked (summaries compared as words: case, punctuation, spacing and a list number or the
story's key in front aside), each once and left open (resolved as they are made, the work is
put away, not planned); created one by one or in one batch, either way. A
subtask whose summary stuffs in several asked ones is another summary, and fails; so does
creating any other issue besides them (the subtasks filed under another story too).
"""

from __future__ import annotations

import json
import random
import re

from sqlalchemy import select

from apps.tickets.models import Issue
from graders.checks import Check, CheckResult, failed, passed
from graders.rubric import Expect
from tasks.base import Moves, SampleContext, TaskInstance, ToolError, Tools
from tasks.common.text import words
from tasks.common.variants import cached, choose, count, shuffled
from tasks.tickets._common import allow_issue, bumped, notes, comment, put_away, site, wreck

_SPLITS = (
    ("Design the data model", "Build the API endpoint", "Add the settings UI"),
    ("Write the migration", "Backfill existing records", "Remove the old code path"),
    ("Spike: measure current latency", "Implement the cache", "Load-test the change", "Update the runbook"),
    ("Add feature flag", "Ship behind the flag", "Enable for all customers"),
)


def _fits(story, parts: tuple[str, ...]) -> bool:
    """A split that fits the work: a feature (Story) is built (model, endpoint, settings; a look-only
    change has none of those) or rolled out behind a flag; a migration or removal (Task) is migrated
    and cleaned up; a slow path is measured, cached and load-tested. Chores fit none of them."""
    text = story.summary.lower()
    if story.type == "Story":
        return parts is _SPLITS[3] or (parts is _SPLITS[0] and not any(w in text for w in ("dark mode", "keyboard shortcuts")))
    if parts is _SPLITS[1]:
        return any(w in text for w in ("migrate", "remove", "deprecated"))
    return parts is _SPLITS[2] and any(w in text for w in ("latency", "slow", "performance", "cache"))


class SplitStory:
    id = "tickets/split-story-into-subtasks-v1"
    apps = ("tickets",)
    difficulty = "medium"
    summary = "Split an engineering story into exactly the subtasks the prompt lists."

    def _axes(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build() -> tuple:
            stories = [t for t in site(ctx).tickets if t.project == "ENG" and t.type in ("Story", "Task") and t.resolution is None]
            return shuffled(self.id, ctx, [(t, parts) for t in stories for parts in _SPLITS if _fits(t, parts)])

        return (cached(ctx, self.id, build),)

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._axes(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        s = site(ctx)
        (pairs,) = self._axes(ctx)
        ((story, parts),) = choose(self.id, ctx.variant, pairs)
        other = next(t for t, _parts in pairs if t.key != story.key)
        first_new_id = max((t.id for t in s.tickets), default=0) + 1  # issues made later are the agent's
        want = sorted(" ".join(words(p)) for p in parts)  # case, punctuation and spacing aside: "Add feature flag." is asked one

        def split(db) -> CheckResult:
            made = list(db.scalars(select(Issue).where(Issue.id >= first_new_id, Issue.parent_id == story.id)))
            if not made:
                return failed(f"no subtasks were created under {story.key}")
            wrong_type = [i.key for i in made if i.issue_type != "Subtask"]
            if wrong_type:
                return failed(f"{', '.join(wrong_type)} under {story.key} are not Subtasks")
            got = sorted(" ".join(words(_unmarked(i.summary, story.key))) for i in made)
            if got != want:
                return failed(f"subtasks under {story.key} are {got}, not {want}")
            closed = [why for i in made if (why := put_away(i))]
            if closed:
                return failed(closed[0] + (f" (and {len(closed) - 1} more)" if len(closed) > 1 else ""))
            # The split is of this story: the same subtasks filed under another issue too are work planned twice.
            elsewhere = list(db.scalars(select(Issue.key).where(Issue.id >= first_new_id, Issue.parent_id.is_distinct_from(story.id))))
            if elsewhere:
                return failed(f"{len(made)} subtasks under {story.key}, but you also created {', '.join(elsewhere[:5])} elsewhere")
            return passed(f"{len(made)} subtasks under {story.key}")

        def subtasks_now(db) -> set[int]:
            return set(db.scalars(select(Issue.id).where(Issue.id >= first_new_id, Issue.parent_id == story.id)))

        def on_new_subtask(change, made: set[int]) -> bool:
            return change.row.get("issue_id") in made

        async def oracle(tools: Tools) -> None:
            for summary in parts:
                await tools.call("jira_create_issue", project_key="ENG", summary=summary, issue_type="Subtask",
                                 additional_fields=json.dumps({"parent": story.key}))

        async def in_one_batch(tools: Tools) -> None:
            batch = [{"project_key": "ENG", "summary": p.lower(), "issue_type": "Sub-task", "additional_fields": {"parent": {"key": story.key}}} for p in parts]
            await tools.call("jira_batch_create_issues", issues=json.dumps(batch))

        async def create(tools: Tools, parent: str, summaries: list[str]) -> None:
            for summary in summaries:
                try:
                    await tools.call("jira_create_issue", project_key="ENG", summary=summary, issue_type="Subtask",
                                     additional_fields=json.dumps({"parent": parent}))
                except ToolError:
                    pass

        wrong_parts = [*parts[:-1], next(p for split_ in _SPLITS for p in split_ if p not in parts)]
        every = sorted({p for split_ in _SPLITS for p in split_})
        listed = "; ".join(f"\"{p}\"" for p in parts)
        return TaskInstance(
            prompt=f"You are {s.me.name}. In Jira, split {story.key} (\"{story.summary}\") into these subtasks, one each: {listed}.",
            checks=[Check(f"{story.key} split into the {len(parts)} subtasks asked", split)],
            expected=[
                *allow_issue(story.id),
                Expect("tickets_issues", "insert", lambda c: c.row.get("parent_id") == story.id and c.row.get("issue_type") == "Subtask"),
                Expect("tickets_projects", "update", lambda c: c.row.get("key") == "ENG"),
                # The new subtasks are the agent's own work: filling them in after creating them (a description, a label, time
                # logged, a comment) is part of it; the check reads what they are.
                Expect("tickets_issues", "update", lambda c, made: c.row.get("id") in made, given=subtasks_now),
                *[Expect(table, "any", on_new_subtask, given=subtasks_now) for table in
                  ("tickets_changelog", "tickets_labels", "tickets_issue_components", "tickets_watchers")],
                *notes(on_new_subtask, given=subtasks_now),
                bumped(),
            ],
            oracle=oracle,
            alternatives=(in_one_batch,),
            moves=Moves(
                say=lambda tools, text: comment(tools, story.key, text),
                wrong=lambda tools: create(tools, story.key, wrong_parts),
                everything=lambda tools: create(tools, story.key, every),
                wrong_record=lambda tools: create(tools, other.key, list(parts)),
                shotgun=lambda tools: _shotgun(create, tools, [story.key, other.key], list(parts)),
                wreck=wreck,
            ),
            facts={"issue": story.key, "subtasks": list(parts)},
        )


def _unmarked(summary: str, story_key: str) -> str:
    """A subtask's summary without what people put in front of one item of a list: its number or bullet ("1. ", "2) ",
    "- ") or the story's key ("ENG-53: "). What follows is still compared whole."""
    return re.sub(rf"^\s*(?:(?:\d{{1,2}}[.)]|[-*•])\s+|{re.escape(story_key)}\s*[:\-–—]?\s+)", "", summary, flags=re.IGNORECASE)


async def _shotgun(create, tools: Tools, parents: list[str], parts: list[str]) -> None:
    for parent in parents:
        await create(tools, parent, parts)
