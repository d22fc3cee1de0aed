"""What the crm pages show, apart from how: list-view columns per object, the record
title, field values as Lightning displays them, and reading an edit form back into field
values. Kept apart from the routes (ui.py) so both stay small."""

from __future__ import annotations

from typing import Any

from apps.crm.objects import sobject
from apps.crm.schema import Field, SObject
from apps.crm.values import BadValue, coerce

TABS = ("Account", "Contact", "Lead", "Opportunity", "Case", "Task")
LIST_COLUMNS: dict[str, tuple[str, ...]] = {
    "Account": ("Name", "Industry", "Tier__c", "BillingCity", "Owner.Name"),
    "Contact": ("Name", "Title", "Account.Name", "Email", "Phone"),
    "Lead": ("Name", "Company", "Status", "LeadSource", "Owner.Name"),
    "Opportunity": ("Name", "Account.Name", "StageName", "Amount", "CloseDate", "Owner.Name"),
    "Case": ("CaseNumber", "Subject", "Status", "Priority", "Account.Name", "Owner.Name"),
    "Task": ("Subject", "Status", "Priority", "ActivityDate", "What.Name", "Owner.Name"),
    "Event": ("Subject", "StartDateTime", "Location", "What.Name", "Owner.Name"),
    "User": ("Name", "Title", "Department", "Email", "IsActive"),
    "Product2": ("Name", "ProductCode", "Family", "IsActive"),
    "Note": ("Title", "Parent.Name", "Owner.Name"),
}
RELATED: dict[str, tuple[str, ...]] = {  # child relationship -> columns shown in the related list
    "Contacts": ("Name", "Title", "Email"), "Opportunities": ("Name", "StageName", "Amount", "CloseDate"),
    "Cases": ("CaseNumber", "Subject", "Status", "Priority"), "OpportunityLineItems": ("Name", "Quantity", "UnitPrice", "TotalPrice"),
    "CaseComments": ("CommentBody", "CreatedDate"), "Notes": ("Title", "CreatedDate"), "ChildAccounts": ("Name", "Industry"),
}
PAGE_SIZE = 25
# What a lookup's suggestions show under each record's name, as Lightning's lookups do.
LOOKUP_DETAIL: dict[str, str] = {"Account": "BillingCity", "Contact": "Account.Name", "Opportunity": "Account.Name", "Case": "Subject",
                                 "Lead": "Company", "User": "Title", "Product2": "ProductCode"}
LOOKUP_SIZE = 10


def columns(obj: SObject) -> tuple[str, ...]:
    return LIST_COLUMNS.get(obj.name, (obj.name_field, "CreatedDate"))


def label(obj: SObject, path: str) -> str:
    """A column heading: the field's label, or the parent's label for a path (Account.Name -> Account)."""
    if "." in path:
        head = path.split(".")[0]
        ref = obj.parent(head)
        return ref.label.removesuffix(" ID") if ref and ref.label else head
    field = obj.field(path)
    if field is None:
        return path
    text = field.describe()["label"]
    return text.removesuffix(" ID") if field.type == "reference" else text


def value_at(record: dict[str, Any] | None, path: str) -> Any:
    for part in path.split("."):
        if record is None:
            return None
        record = record.get(part)  # type: ignore[assignment]
    return record


def shown(field: Field | None, value: Any) -> str:
    """A value as a record page shows it."""
    if value is None or value == "":
        return ""
    kind = field.type if field else ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if kind == "currency":
        return f"${value:,.2f}".replace(".00", "")
    if kind == "percent":
        return f"{value:g}%"
    if kind == "datetime" and isinstance(value, str):
        return value[:16].replace("T", " ") + " UTC"
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}" if kind != "double" else f"{int(value)}"
    return str(value)


def title(obj: SObject, record: dict[str, Any]) -> str:
    if obj.name == "Case":
        return f"Case {record.get('CaseNumber') or ''}: {record.get('Subject') or ''}".strip()
    return str(record.get(obj.name_field) or record.get("Id"))


def form_fields(obj: SObject, creating: bool) -> list[Field]:
    """The fields a new/edit form offers: writable ones, lookups included, audit fields not."""
    return [f for f in obj.fields if (f.createable if creating else f.updateable) and f.name != "Id"]


def read_form(obj: SObject, form: dict[str, str], creating: bool) -> dict[str, Any]:
    """Field values from a submitted form: blanks are left out of a new record and clear a
    field on edit; an unticked checkbox is false; datetime-local inputs become UTC datetimes;
    a text area's line breaks are the stored ones (a browser sends each as CR LF, which made
    every save of a form rewrite a description with line breaks)."""
    values: dict[str, Any] = {}
    for field in form_fields(obj, creating):
        if field.type == "boolean":
            values[field.name] = form.get(field.name) in ("on", "true", "1")
            continue
        if field.name not in form:
            continue
        raw = form[field.name].strip() if field.type not in ("textarea", "string") else form[field.name].replace("\r\n", "\n")
        if raw == "" or (field.type == "string" and raw.strip() == ""):
            if not creating:
                values[field.name] = None
            continue
        if field.type == "datetime" and len(raw) == 16:
            raw += ":00Z"
        values[field.name] = raw
    return values


def unchanged(field: Field, before: Any, submitted: Any) -> bool:
    """Whether a submitted form value is the record's value again ("20" for 20.0, a blank for
    null): only real changes are saved, so a form never re-sends a derived field (a stage's
    probability) as if the user had set it."""
    try:
        return coerce(field, submitted) == before or (submitted is None and before in (None, ""))
    except BadValue:
        return False


def input_value(field: Field, value: Any) -> str:
    if value is None:
        return ""
    if field.type == "datetime" and isinstance(value, str):
        return value[:16]
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def object_for(record_id: str) -> SObject | None:
    from apps.crm.objects import BY_PREFIX

    return BY_PREFIX.get((record_id or "")[:3])


def quoted(text: str) -> str:
    """Text inside a SOQL string literal."""
    return text.replace("\\", "\\\\").replace("'", "\\'")


def searchable(name: str) -> SObject | None:
    obj = sobject(name)
    return obj if obj is not None and obj.name in LIST_COLUMNS else None


def is_lookup(field: Field) -> bool:
    """A related-record field a form shows as a lookup: a search by name that posts the Id
    (the Owner is a picker of people of its own)."""
    return field.type == "reference" and field.name != "OwnerId"


def lookup_where(target: SObject, words: str) -> str:
    """The SOQL condition a lookup's search text makes: the name (a case also by subject) containing the words."""
    text = quoted(words.replace("%", "").strip())
    names = [target.name_field] + (["Subject"] if target.name == "Case" else [])
    return " OR ".join(f"{name} LIKE '%{text}%'" for name in names)
