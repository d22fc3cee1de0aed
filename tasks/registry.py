"""The explicit registry of task families: a family exists when it is listed here."""

from __future__ import annotations

from tasks.base import TaskFamily
from tasks.chat.answer import FindAndAnswer
from tasks.chat.channels import CreateChannelAndInvite
from tasks.chat.post import PostInChannel
from tasks.chat.react import ReactToMessage
from tasks.chat.summarise import SummariseThread
from tasks.chat.thread import ReplyInThread
from tasks.tickets.answer import AnswerWithJql
from tasks.tickets.escalate import EscalateToEngineering
from tasks.tickets.link import LinkBugToEpic
from tasks.tickets.reassign import ReassignDepartingEngineer
from tasks.tickets.reopen import ReopenWithComment
from tasks.tickets.split import SplitStory
from tasks.tickets.sprint import PlanSprintByCapacity
from tasks.tickets.resolve import ResolveWithResolution
from tasks.tickets.triage import TriageSupportTicket
from tasks.tickets.worklog import LogWork
from tasks.sheets.answer_from_sheet import AnswerFromSheet
from tasks.sheets.answer_from_xlsx import AnswerFromXlsx
from tasks.sheets.fill_column import FillFormulaColumn
from tasks.sheets.filter_rows import FilterByRule
from tasks.sheets.highlight import HighlightByRule
from tasks.sheets.dropdown import AddDropdown
from tasks.sheets.fix_formula import FixBrokenFormula
from tasks.sheets.pivot_summary import PivotSummary
from tasks.sheets.reconcile import ReconcileTabs
from tasks.sheets.sort_rows import SortByRule
from tasks.sheets.summary_tab import SummaryTab
from tasks.sheets.update_from_crm import UpdateFromCrm
from tasks.crm.build_quote import BuildQuote
from tasks.crm.close_case import CloseCase
from tasks.crm.advance_opportunity import AdvanceOpportunity
from tasks.crm.convert_lead import ConvertLead
from tasks.crm.dedupe_contact import MergeDuplicateContact
from tasks.crm.follow_up import AssignFollowUp
from tasks.crm.log_call import LogCall
from tasks.crm.pipeline_question import PipelineQuestion
from tasks.crm.reassign_book import ReassignDepartingRep
from tasks.crm.stale_deals import PushStaleDeals
from tasks.cross.issue_export import IssueExport
from tasks.cross.log_issue import LogCustomerIssue
from tasks.cross.pipeline_report import PipelineReport

FAMILIES: tuple[TaskFamily, ...] = (
    PostInChannel(),
    ReactToMessage(),
    FindAndAnswer(),
    ReplyInThread(),
    CreateChannelAndInvite(),
    SummariseThread(),
    ResolveWithResolution(),
    TriageSupportTicket(),
    ReopenWithComment(),
    LogWork(),
    ReassignDepartingEngineer(),
    LinkBugToEpic(),
    SplitStory(),
    PlanSprintByCapacity(),
    AnswerWithJql(),
    EscalateToEngineering(),
    FillFormulaColumn(),
    FixBrokenFormula(),
    SummaryTab(),
    ReconcileTabs(),
    UpdateFromCrm(),
    AnswerFromSheet(),
    SortByRule(),
    PivotSummary(),
    AnswerFromXlsx(),
    FilterByRule(),
    HighlightByRule(),
    AddDropdown(),
    CloseCase(),
    LogCall(),
    AdvanceOpportunity(),
    ConvertLead(),
    ReassignDepartingRep(),
    PipelineQuestion(),
    BuildQuote(),
    PushStaleDeals(),
    MergeDuplicateContact(),
    AssignFollowUp(),
    PipelineReport(),
    LogCustomerIssue(),
    IssueExport(),
)


def get(family_id: str) -> TaskFamily:
    for family in FAMILIES:
        if family.id == family_id:
            return family
    raise KeyError(f"unknown task {family_id!r}; known tasks: {', '.join(f.id for f in FAMILIES)}")


def all_families() -> tuple[TaskFamily, ...]:
    return FAMILIES
