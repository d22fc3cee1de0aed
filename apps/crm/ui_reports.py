"""Reports in the crm UI: an Opportunities summary report, as Salesforce's report builder
offers it. Filters (Opportunity Status, Close Date, Opportunity Owner), rows grouped by one
field (Stage, Owner, Type, Lead Source, Forecast Category, Account Name, Industry), a record
count and the Sum of Amount per group, a grand total, and the records themselves when
"Show details" is on.

The report is a read: one aggregate SOQL query (and one for the details) through the same
`crm.query` operation every face runs, so what a computer-use agent reads here is what SOQL
answers over the API. Every choice is from a fixed list: a query string a person edits by
hand cannot inject SOQL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GROUPS = {  # field path → column heading
    "StageName": "Stage", "Owner.Name": "Opportunity Owner", "Type": "Type", "LeadSource": "Lead Source",
    "ForecastCategoryName": "Forecast Category", "Account.Name": "Account Name", "Account.Industry": "Industry",
}
STATUSES = {  # value → (label, SOQL condition)
    "any": ("Any", ""), "open": ("Open", "IsClosed = false"), "closed": ("Closed", "IsClosed = true"),
    "won": ("Closed Won", "IsWon = true"), "lost": ("Closed Lost", "IsClosed = true AND IsWon = false"),
}
CLOSE_DATES = {  # SOQL date literal → label (the fiscal year is the calendar year)
    "": "All Time", "THIS_YEAR": "Current CY", "LAST_YEAR": "Previous CY", "NEXT_YEAR": "Next CY",
    "THIS_QUARTER": "Current CQ", "LAST_QUARTER": "Previous CQ", "NEXT_QUARTER": "Next CQ",
    "THIS_MONTH": "Current Month", "LAST_N_DAYS:30": "Last 30 Days", "NEXT_N_DAYS:30": "Next 30 Days",
    "NEXT_N_DAYS:90": "Next 90 Days",
}
DETAIL_FIELDS = ("Id", "Name", "Account.Name", "Owner.Name", "StageName", "Type", "Amount", "CloseDate")
MAX_DETAILS = 2000


@dataclass(frozen=True, slots=True)
class Report:
    group: str  # a key of GROUPS, or "" for none
    status: str  # a key of STATUSES
    close: str  # a key of CLOSE_DATES
    owner: str  # a User Id, or ""
    details: bool

    @classmethod
    def from_query(cls, params: Any, user_ids: set[str]) -> tuple[Report, list[str]]:
        """The report the page's query string asks for, and what in it was not understood
        (each replaced by the default, and shown to the person)."""
        problems = []
        group = params.get("group", "StageName")
        if group not in GROUPS and group != "":
            problems.append(f"Group Rows by: {group[:40]!r} is not a field of this report")
            group = "StageName"
        status = params.get("status", "open")
        if status not in STATUSES:
            problems.append(f"Opportunity Status: {status[:40]!r} is not one of {', '.join(v for v, _ in STATUSES.values())}")
            status = "open"
        close = params.get("close", "")
        if close not in CLOSE_DATES:
            problems.append(f"Close Date: {close[:40]!r} is not a range this report offers")
            close = ""
        owner = params.get("owner", "")
        if owner and owner not in user_ids:
            problems.append(f"Opportunity Owner: no user {owner[:40]!r}")
            owner = ""
        return cls(group, status, close, owner, params.get("details") in ("1", "on", "true")), problems

    def where(self) -> str:
        parts = [STATUSES[self.status][1]]
        if self.close:
            parts.append(f"CloseDate = {self.close}")
        if self.owner:
            parts.append(f"OwnerId = '{self.owner}'")  # one of the org's user ids (checked in from_query)
        found = " AND ".join(p for p in parts if p)
        return f" WHERE {found}" if found else ""

    def summary_soql(self) -> str:
        if not self.group:
            return f"SELECT COUNT(Id) n, SUM(Amount) total FROM Opportunity{self.where()}"
        return f"SELECT {self.group}, COUNT(Id) n, SUM(Amount) total FROM Opportunity{self.where()} GROUP BY {self.group}"

    def details_soql(self) -> str:
        order = f"{self.group}, Name" if self.group else "Name"
        return f"SELECT {', '.join(DETAIL_FIELDS)} FROM Opportunity{self.where()} ORDER BY {order} LIMIT {MAX_DETAILS}"


def group_value(record: dict[str, Any], path: str) -> Any:
    """A grouped field's value in an aggregate row (keyed by its last part) or a record."""
    if path in record:
        return record[path]
    head, _, tail = path.partition(".")
    if tail and tail in record and head not in record:
        return record[tail]
    parent = record.get(head)
    return parent.get(tail) if isinstance(parent, dict) else None


def summary_rows(records: list[dict[str, Any]], group: str) -> list[tuple[Any, int, float]]:
    """(group value, record count, sum of amount), sorted as the report shows them: by the
    group's value, blanks ("-") last."""
    rows = [(group_value(r, group) if group else None, int(r.get("n") or 0), float(r.get("total") or 0)) for r in records]
    return sorted(rows, key=lambda row: (row[0] in (None, ""), str(row[0] or "").lower()))
