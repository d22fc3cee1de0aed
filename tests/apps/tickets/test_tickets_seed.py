"""The seeded Jira site agrees with the company: every company ticket is an issue with the
same facts, customer tickets carry their CRM case, escalations block the customer's ticket,
the engineering board has closed, active and future sprints, and history sits before now."""

from __future__ import annotations

from sqlalchemy import func, select

from apps.tickets import catalog
from apps.tickets.ids import account_id, jira_time
from apps.tickets.models import ChangeItem, Comment, Issue, Link, Sprint, SprintIssue, User, Worklog
from officegym.gym import Gym
from seed_data.company import generate_company


def test_every_company_ticket_is_an_issue_with_the_same_facts(gym: Gym, shared_env) -> None:
    company = generate_company(0, "small")
    with gym.store.session(shared_env) as db:
        issues = {i.key: i for i in db.scalars(select(Issue))}
        for t in company.tickets:
            issue = issues[t.key]
            assert (issue.summary, issue.description, issue.issue_type, issue.status, issue.priority) == (
                t.summary, t.description, t.issue_type, t.status, t.priority), t.key
            assert issue.reporter_id == account_id(0, t.reporter_id)
            assert issue.assignee_id == (account_id(0, t.assignee_id) if t.assignee_id else None)
            assert (issue.created, issue.updated) == (jira_time(t.created), jira_time(t.updated))
            assert issue.case_number == company.case_number(t.key)
            assert (issue.resolution is not None) == (t.status == "Done"), t.key
        # New issues continue each project's numbering; nothing renumbers the company's keys.
        last = max(int(t.key.split("-")[1]) for t in company.tickets if t.project == "ENG")
        extra = sorted(i.number for i in issues.values() if i.project_key == "ENG" and i.number > last)
        assert extra == list(range(last + 1, last + 1 + len(extra))) and extra, "epics and subtasks follow ENG's last key"
        assert any(i.project_key == "IT" for i in issues.values())
        assert {i.issue_type for i in issues.values()} >= {"Epic", "Story", "Task", "Bug", "Subtask", "Incident"}


def test_customer_tickets_carry_cases_and_escalations_block_them(gym: Gym, shared_env) -> None:
    company = generate_company(0, "small")
    with gym.store.session(shared_env) as db:
        by_id = {i.id: i for i in db.scalars(select(Issue))}
        sup_customer = [t for t in company.tickets if t.project == "SUP" and t.customer_id]
        assert sup_customer and all(company.case_number(t.key) for t in sup_customer)
        links = list(db.scalars(select(Link)))
        assert links, "escalated engineering work links to the customer's support ticket"
        for link in links:
            source, target = by_id[link.source_id], by_id[link.target_id]
            assert (link.type_name, source.project_key, target.project_key) == ("Blocks", "ENG", "SUP")
            eng = next(t for t in company.tickets if t.key == source.key)
            sup = next(t for t in company.tickets if t.key == target.key)
            assert eng.customer_id == sup.customer_id and sup.created <= eng.created


def test_sprints_in_flight_and_history_before_now(gym: Gym, shared_env) -> None:
    company = generate_company(0, "small")
    now = jira_time(company.now)
    with gym.store.session(shared_env) as db:
        states = [s.state for s in db.scalars(select(Sprint).order_by(Sprint.id))]
        assert states.count("active") == 1 and states.count("future") >= 1 and states.count("closed") >= 3
        active = db.scalar(select(Sprint).where(Sprint.state == "active"))
        assert active.start_date <= now <= active.end_date
        in_active = db.scalar(select(func.count()).select_from(SprintIssue).where(SprintIssue.sprint_id == active.id))
        assert in_active >= 3
        for model, column in ((Comment, Comment.created), (Worklog, Worklog.started), (ChangeItem, ChangeItem.created)):
            assert db.scalar(select(func.count()).select_from(model)) > 50, model.__tablename__
            assert db.scalar(select(func.max(column))) <= now, f"{model.__tablename__} holds nothing after the company's now"
        oldest = db.scalar(select(func.min(Comment.created)))
        assert oldest < jira_time(company.now.replace(month=company.now.month - 2)), "months of history"
        assert db.scalar(select(func.count()).select_from(User)) == len(company.people)


def test_changelog_walks_the_workflow_to_each_issues_status(gym: Gym, shared_env) -> None:
    with gym.store.session(shared_env) as db:
        for issue in db.scalars(select(Issue).where(Issue.status != "To Do")):
            moves = list(db.scalars(select(ChangeItem).where(ChangeItem.issue_id == issue.id, ChangeItem.field == "status").order_by(ChangeItem.id)))
            assert moves, issue.key
            assert moves[0].from_string == "To Do" and moves[-1].to_string == issue.status, issue.key
            for before, after in zip(moves, moves[1:]):
                assert before.to_string == after.from_string, issue.key
            workflow = catalog.PROJECT_BY_KEY[issue.project_key].workflow
            assert all(m.to_string in workflow.statuses for m in moves)
