"""The browser face of the crm app: a server-rendered, Lightning-like UI.

Object tabs with list views (sortable, filterable, paged), record pages (details, related
lists, activity timeline), new/edit forms that show the org's validation messages, the
opportunity pipeline (a kanban by stage, each card movable to another stage), lead
conversion and global search. Pages read through the same operations as every face (SOQL
and SOSL); writes are form posts through `invoke` with face "ui", answered with a 303
redirect, so they land in the trajectory like MCP and REST calls. A refused save re-renders
its form with an alert naming the fields (status 400) and writes nothing. Jinja autoescapes
every value an agent could have written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from apps.crm import ui_reports as R
from apps.crm import ui_views as V
from apps.crm.errors import CrmError
from apps.crm.ids import to18
from apps.crm.merge import MAX_MERGED, MERGEABLE
from apps.crm.objects import STAGES, sobject
from apps.crm.operations import OPERATIONS
from officegym.core.env_store import Env
from officegym.core.errors import AppError
from officegym.core.ops import invoke
from officegym.core.web import EnvRoute, current_env, env_store

router = APIRouter(route_class=EnvRoute)
_jinja = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True,
                            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
_jinja.globals.update(shown=V.shown, value_at=V.value_at, label=V.label, input_value=V.input_value, tabs=V.TABS, sobject=sobject,
                      merging=MERGEABLE, lookup_kinds=lambda field: ", ".join(sobject(t).plural for t in field.reference_to if sobject(t)))
OPEN_STAGES = [s for s in STAGES if not s.startswith("Closed")]
# What "Add Products" offers: the standard price book's active entries.
PRICE_BOOK = ("SELECT Id, Name, UnitPrice, Product2.ProductCode FROM PricebookEntry WHERE Pricebook2.IsStandard = true AND IsActive = true "
              "ORDER BY Name")
LINE_FIELDS = ("PricebookEntryId", "Quantity", "UnitPrice", "Discount", "Description")


def _op(request: Request, env: Env, name: str, route: str, **raw: Any) -> Any:
    return invoke(env_store(request), env, OPERATIONS, OPERATIONS[name], raw, face="ui", tool=route)


def _query(request: Request, env: Env, soql: str) -> dict[str, Any]:
    return _op(request, env, "crm.query", "GET query", q=soql)


def _page(request: Request, env: Env, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    base = f"/envs/{env.id}/crm"
    html = _jinja.get_template(template).render(base=base, request=request, current=context.pop("current", ""), **context)
    return HTMLResponse(html, status_code=status)


def _not_found(request: Request, env: Env, what: str) -> HTMLResponse:
    return _page(request, env, "not_found.html", status=404, title="Not found", what=what)


def _record(request: Request, env: Env, record_id: str) -> tuple[Any, dict[str, Any]] | Response:
    """The record's object and fields, or the not-found page."""
    obj = V.object_for(record_id)
    try:
        record = _op(request, env, "crm.retrieve", "GET record", sobject=obj.name if obj else "", id=record_id)
    except AppError:
        return _not_found(request, env, f"record {record_id!r}")
    return obj, record


@router.get("/")
async def home(request: Request, env: Env = Depends(current_env)) -> Response:
    counts = {name: _query(request, env, f"SELECT COUNT() FROM {name}")["totalSize"] for name in V.TABS}
    open_pipeline = _query(request, env, "SELECT SUM(Amount) total, COUNT(Id) n FROM Opportunity WHERE IsClosed = false")["records"][0]
    return _page(request, env, "home.html", title="Home", counts=counts, pipeline=open_pipeline)


@router.get("/o/{object_name}")
async def list_view(object_name: str, request: Request, env: Env = Depends(current_env)) -> Response:
    obj = V.searchable(object_name)
    if obj is None:
        return _not_found(request, env, f"object {object_name!r}")
    cols = V.columns(obj)
    sort = request.query_params.get("sort", cols[0])
    sort = sort if sort in cols and not sort.startswith("What.") else cols[0]
    descending = request.query_params.get("dir") == "desc"
    words = request.query_params.get("q", "").strip()[:100]
    page = max(1, min(int(request.query_params.get("page", "1")) if request.query_params.get("page", "1").isdigit() else 1, 80))
    owned = obj.field("OwnerId") is not None
    owner = request.query_params.get("owner", "").strip()
    owner = owner if owned and re.fullmatch(r"005[A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?", owner) else ""
    terms = [f"{obj.name_field} LIKE '%{V.quoted(words).replace('%', '')}%'" if words else "", f"OwnerId = '{owner}'" if owner else ""]
    where = " WHERE " + " AND ".join(t for t in terms if t) if any(terms) else ""
    soql = (f"SELECT Id, {', '.join(c for c in cols if c != 'Id')} FROM {obj.name}{where} "
            f"ORDER BY {sort} {'DESC' if descending else 'ASC'} LIMIT {V.PAGE_SIZE} OFFSET {(page - 1) * V.PAGE_SIZE}")
    records = _query(request, env, soql)["records"]
    total = _query(request, env, f"SELECT COUNT() FROM {obj.name}{where}")["totalSize"]

    def link(**changes: Any) -> str:
        params = {"sort": sort, "dir": "desc" if descending else "asc", "q": words, "owner": owner, "page": page, **changes}
        return "?" + urlencode({k: v for k, v in params.items() if v not in ("", None)})

    users = _query(request, env, "SELECT Id, Name, IsActive FROM User ORDER BY Name")["records"] if owned else []
    return _page(request, env, "list.html", title=obj.plural, current=obj.name, obj=obj, cols=cols, records=records, total=total,
                 sort=sort, descending=descending, words=words, page=page, pages=max(1, -(-total // V.PAGE_SIZE)), link=link,
                 owner=owner, users=users)


@router.get("/r/{record_id}")
async def record_page(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    return _record_page(request, env, record_id)


def _record_page(request: Request, env: Env, record_id: str, error: AppError | None = None, form: dict[str, str] | None = None) -> Response:
    """A record's page; with `error`, the refused action's alert (status 400) and what its dialog held."""
    found = _record(request, env, record_id)
    if isinstance(found, Response):
        return found
    obj, record = found
    names = _names(request, env, obj, record)
    related = []
    for child in obj.children:
        if child.name not in V.RELATED:
            continue
        fields = V.RELATED[child.name]
        rows = _query(request, env, f"SELECT Id, {', '.join(fields)} FROM {child.object} WHERE {child.field} = '{record['Id']}' ORDER BY CreatedDate DESC LIMIT 10")
        related.append((child, fields, sobject(child.object), rows))
    timeline = []
    for kind, link_field in (("Task", "WhatId"), ("Task", "WhoId"), ("Event", "WhatId"), ("Event", "WhoId")):
        if sobject(kind).field(link_field).reference_to and obj.name in sobject(kind).field(link_field).reference_to:
            date_field = "ActivityDate" if kind == "Task" else "StartDateTime"
            extra = ", Status, TaskSubtype" if kind == "Task" else ", Location"
            rows = _query(request, env, f"SELECT Id, Subject, {date_field}, Owner.Name{extra} FROM {kind} WHERE {link_field} = '{record['Id']}' "
                                        f"ORDER BY {date_field} DESC NULLS LAST LIMIT 30")["records"]
            timeline += [(kind, r.get(date_field) or "", r) for r in rows]
    timeline.sort(key=lambda item: item[1], reverse=True)
    products = _query(request, env, PRICE_BOOK)["records"] if obj.name == "Opportunity" else []
    return _page(request, env, "record.html", status=400 if error else 200, title=V.title(obj, record), current=obj.name, obj=obj,
                 record=record, names=names, related=related, timeline=timeline, stages=list(STAGES), products=products, error=error,
                 form=form or {})


def _names(request: Request, env: Env, obj: Any, record: dict[str, Any]) -> dict[str, str]:
    """Display names of the records this one looks up (owner, account, ...), by Id."""
    names: dict[str, str] = {}
    for field in obj.fields:
        target = record.get(field.name)
        if field.type != "reference" or not target:
            continue
        target_obj = V.object_for(target)
        if target_obj is None:
            continue
        found = _query(request, env, f"SELECT {target_obj.name_field} FROM {target_obj.name} WHERE Id = '{target}'")["records"]
        if found:
            names[target] = str(found[0].get(target_obj.name_field))
    return names


@router.get("/o/{object_name}/new")
async def new_form(object_name: str, request: Request, env: Env = Depends(current_env)) -> Response:
    obj = V.searchable(object_name)
    if obj is None:
        return _not_found(request, env, f"object {object_name!r}")
    preset = {k: v for k, v in request.query_params.items() if obj.field(k) is not None}
    return _form(request, env, obj, None, preset)


def _form(request: Request, env: Env, obj: Any, record: dict[str, Any] | None, values: dict[str, Any],
          error: CrmError | None = None) -> HTMLResponse:
    creating = record is None
    users = _query(request, env, "SELECT Id, Name, IsActive FROM User ORDER BY Name")["records"]  # the Owner picker's people
    picked = {f.name: values.get(f.name) for f in obj.fields if V.is_lookup(f) and isinstance(values.get(f.name), str) and to18(values[f.name])}
    return _page(request, env, "form.html", status=400 if error else 200, title=f"{'New' if creating else 'Edit'} {obj.label}",
                 current=obj.name, obj=obj, record=record, values=values, fields=V.form_fields(obj, creating), error=error,
                 bad=set(error.fields) if error else set(), users=users, lookup_names=_names(request, env, obj, picked))


def _resolve_lookups(request: Request, env: Env, obj: Any, form: dict[str, str]) -> dict[str, str]:
    """The form with each lookup's Id (see `_lookup_id`)."""
    resolved = dict(form)
    for field in obj.fields:
        if V.is_lookup(field) and f"{field.name}.search" in form:
            resolved[field.name] = _lookup_id(request, env, form, field.name, field.reference_to, V.label(obj, field.name))
    return resolved


def _lookup_id(request: Request, env: Env, form: dict[str, str], name: str, targets: tuple[str, ...], label: str) -> str:
    """A lookup's Id: the record picked from its suggestions (form[name]), or else the one its
    search text (form[name + ".search"]) names: an Id, or the name of exactly one record, as
    Lightning refuses a lookup left with text that names no single record. Blank: none."""
    text, picked = form.get(f"{name}.search", "").strip(), form.get(name, "").strip()
    picked = picked if to18(picked) is not None else ""
    if not text:
        return ""
    if picked and (text == picked or _name_of(request, env, picked) == text):
        return picked
    if to18(text) is not None:
        return text
    kinds = [t for t in (sobject(target) for target in targets) if t is not None]
    found = [r["Id"] for t in kinds for r in _query(request, env, f"SELECT Id FROM {t.name} WHERE {t.name_field} = '{V.quoted(text)}' LIMIT 3")["records"]]
    if len(found) != 1:
        what = " or ".join(t.label.lower() for t in kinds)
        problem = f"no {what} is named '{text[:80]}'" if not found else f"more than one {what} is named '{text[:80]}'"
        raise CrmError("INVALID_CROSS_REFERENCE_KEY", f"{label}: {problem}. Type part of the name and select an option from the list, "
                                                      f"or remove the search term.", [name])
    return found[0]


def _name_of(request: Request, env: Env, record_id: str) -> str | None:
    target = V.object_for(record_id)
    if target is None or to18(record_id) is None:
        return None
    found = _query(request, env, f"SELECT {target.name_field} FROM {target.name} WHERE Id = '{record_id}'")["records"]
    return str(found[0].get(target.name_field)) if found else None


@router.get("/lookup")
async def lookup(request: Request, env: Env = Depends(current_env)) -> Response:
    """A lookup field's suggestions: records its search text names (`field` is Object.Field, e.g. Contact.AccountId)."""
    object_name, _, field_name = request.query_params.get("field", "").partition(".")
    obj = V.searchable(object_name)
    field = obj.field(field_name) if obj is not None else None
    if field is None or not V.is_lookup(field):
        return JSONResponse({"error": "field must name a lookup field, e.g. Contact.AccountId"}, status_code=400)
    words = request.query_params.get("q", "").strip()[:80]
    results: list[dict[str, str]] = []
    for target in field.reference_to:
        t = sobject(target)
        if t is None or not words:
            continue
        detail = V.LOOKUP_DETAIL.get(t.name)
        rows = _query(request, env, f"SELECT Id, {t.name_field}{', ' + detail if detail else ''} FROM {t.name} "
                                    f"WHERE {V.lookup_where(t, words)} ORDER BY {t.name_field} LIMIT {V.LOOKUP_SIZE}")["records"]
        for r in rows:
            name = V.title(t, r) if t.name == "Case" else str(r.get(t.name_field) or r["Id"])
            results.append({"id": r["Id"], "name": name, "type": t.label, "detail": str(V.value_at(r, detail) or "") if detail else ""})
    return JSONResponse({"results": results[:V.LOOKUP_SIZE * 2]})


@router.post("/o/{object_name}/new")
async def create(object_name: str, request: Request, env: Env = Depends(current_env)) -> Response:
    obj = V.searchable(object_name)
    if obj is None:
        return _not_found(request, env, f"object {object_name!r}")
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    try:
        values = V.read_form(obj, _resolve_lookups(request, env, obj, form), creating=True)
        made = _op(request, env, "crm.create", f"POST /o/{obj.name}/new", sobject=obj.name, record=values)
    except CrmError as error:
        return _form(request, env, obj, None, form, error)
    return RedirectResponse(f"/envs/{env.id}/crm/r/{made['id']}", status_code=303)


@router.get("/r/{record_id}/edit")
async def edit_form(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    found = _record(request, env, record_id)
    if isinstance(found, Response):
        return found
    obj, record = found
    return _form(request, env, obj, record, record)


@router.post("/r/{record_id}/edit")
async def update(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    found = _record(request, env, record_id)
    if isinstance(found, Response):
        return found
    obj, record = found
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    try:
        values = V.read_form(obj, _resolve_lookups(request, env, obj, form), creating=False)
        changed = {k: v for k, v in values.items() if not V.unchanged(obj.field(k), record.get(k), v)}
        if changed:
            _op(request, env, "crm.update", "POST /r/edit", sobject=obj.name, id=record["Id"], record=changed)
    except CrmError as error:
        return _form(request, env, obj, record, {**record, **form}, error)
    return RedirectResponse(f"/envs/{env.id}/crm/r/{record['Id']}", status_code=303)


@router.post("/r/{record_id}/delete")
async def delete(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """The record page's Delete, once its dialog is confirmed; then the object's list, saying what was deleted."""
    found = _record(request, env, record_id)
    if isinstance(found, Response):
        return found
    obj, record = found
    try:
        _op(request, env, "crm.delete", "POST /r/delete", sobject=obj.name, id=record["Id"])
    except CrmError as error:
        return _record_page(request, env, record["Id"], error=error)
    said = urlencode({"deleted": V.title(obj, record)})
    if V.searchable(obj.name) is not None:
        return RedirectResponse(f"/envs/{env.id}/crm/o/{obj.name}?{said}", status_code=303)
    if record.get("OpportunityId"):  # a product line: back to its deal
        return RedirectResponse(f"/envs/{env.id}/crm/r/{record['OpportunityId']}?{said}", status_code=303)
    return RedirectResponse(f"/envs/{env.id}/crm/?{said}", status_code=303)


@router.get("/o/{object_name}/merge")
async def merge_form(object_name: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """Merge Contacts / Merge Accounts: the records chosen on the list side by side, the first one the master."""
    obj = V.searchable(object_name)
    if obj is None or obj.name not in MERGEABLE:
        return _not_found(request, env, f"merging of {object_name!r}")
    return _merge_page(request, env, obj, request.query_params.getlist("ids"))


def _merge_page(request: Request, env: Env, obj: Any, ids: list[str], master: str | None = None, picked: dict[str, str] | None = None,
                error: AppError | None = None) -> Response:
    back = f"/envs/{env.id}/crm/o/{obj.name}"
    ids = list(dict.fromkeys(i for i in ids if i))
    if not 2 <= len(ids) <= MAX_MERGED + 1:
        problem = CrmError("INVALID_INPUT", f"Select 2 or 3 {obj.plural.lower()} to merge (you selected {len(ids)}).")
        return _page(request, env, "message.html", status=400, title=f"Merge {obj.plural}", current=obj.name, error=problem, back=back)
    chosen = []
    for record_id in ids:
        try:
            chosen.append(_op(request, env, "crm.retrieve", "GET record", sobject=obj.name, id=record_id))
        except AppError as bad:
            return _page(request, env, "message.html", status=400 if bad.code != "NOT_FOUND" else 404, title=f"Merge {obj.plural}",
                         current=obj.name, error=bad, back=back)
    fields = V.form_fields(obj, creating=False)
    differing = {f.name for f in fields if len({repr(r.get(f.name)) for r in chosen}) > 1}
    names: dict[str, str] = {}
    for record in chosen:
        names.update(_names(request, env, obj, record))
    headings = {r["Id"]: V.title(obj, r) for r in chosen}
    master = master if master in headings else chosen[0]["Id"]
    return _page(request, env, "merge.html", status=400 if error else 200, title=f"Merge {obj.plural}", current=obj.name, obj=obj,
                 chosen=chosen, fields=[f for f in fields if f.name in differing or any(r.get(f.name) not in (None, "", False) for r in chosen)],
                 differing=differing, names=names, headings=headings, master=master, picked=picked or {}, error=error)


@router.post("/o/{object_name}/merge")
async def merge(object_name: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """The merge, once the master and the values to keep are chosen: the master takes the values picked from the
    other records (one field at a time), the others' related records move to it, and they are deleted."""
    obj = V.searchable(object_name)
    if obj is None or obj.name not in MERGEABLE:
        return _not_found(request, env, f"merging of {object_name!r}")
    form = await request.form()
    ids = [str(i) for i in dict.fromkeys(form.getlist("ids")) if i]
    master = str(form.get("master") or (ids[0] if ids else ""))
    picked = {k[2:]: str(v) for k, v in form.items() if k.startswith("f.") and isinstance(v, str)}
    records: dict[str, dict[str, Any]] = {}
    for record_id in ids:
        try:
            records[record_id] = _op(request, env, "crm.retrieve", "GET record", sobject=obj.name, id=record_id)
        except AppError:
            continue  # the merge itself says what is wrong with it
    kept = {"Id": master}
    for name, source in picked.items():
        field = obj.field(name)
        if field is None or not field.updateable or source == master or source not in records:
            continue
        value = records[source].get(field.name)
        if master in records and records[master].get(field.name) != value:
            kept[field.name] = value
    try:
        _op(request, env, "crm.merge", "POST /o/merge", sobject=obj.name, masterRecord=kept, recordToMergeIds=[i for i in ids if i != master])
    except AppError as error:
        return _merge_page(request, env, obj, ids, master=master, picked=picked, error=error)
    return RedirectResponse(f"/envs/{env.id}/crm/r/{master}?merged={len(ids) - 1}", status_code=303)


@router.post("/r/{record_id}/products")
async def add_product(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    """An opportunity's "Add Products": one line from the standard price book (quantity, and a sales price or a
    discount if given; the entry's list price otherwise), made as an OpportunityLineItem."""
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    line = {"OpportunityId": record_id, **{k: form[k] for k in LINE_FIELDS if form.get(k, "").strip()}}
    try:
        _op(request, env, "crm.create", "POST /r/products", sobject="OpportunityLineItem", record=line)
    except CrmError as error:
        return _record_page(request, env, record_id, error=error, form=form)
    return RedirectResponse(f"/envs/{env.id}/crm/r/{record_id}", status_code=303)


@router.post("/r/{record_id}/stage")
async def move_stage(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    form = await request.form()
    stage = str(form.get("StageName", ""))
    back = f"/envs/{env.id}/crm/pipeline" if form.get("from") == "pipeline" else f"/envs/{env.id}/crm/r/{record_id}"
    try:
        _op(request, env, "crm.update", "POST /r/stage", sobject="Opportunity", id=record_id, record={"StageName": stage})
    except CrmError as error:
        return _page(request, env, "message.html", status=400, title="Could not change the stage", error=error, back=back)
    return RedirectResponse(back, status_code=303)


@router.get("/pipeline")
async def pipeline(request: Request, env: Env = Depends(current_env)) -> Response:
    rows = _query(request, env, "SELECT Id, Name, Amount, CloseDate, StageName, Account.Name, Owner.Name FROM Opportunity "
                                "WHERE IsClosed = false ORDER BY CloseDate")["records"]
    columns = {stage: [r for r in rows if r["StageName"] == stage] for stage in OPEN_STAGES}
    totals = {stage: sum(r["Amount"] or 0 for r in cards) for stage, cards in columns.items()}
    return _page(request, env, "pipeline.html", title="Pipeline", current="Opportunity", columns=columns, totals=totals, stages=list(STAGES))


@router.get("/reports")
async def reports(request: Request, env: Env = Depends(current_env)) -> Response:
    """An Opportunities summary report: filters, rows grouped by a field, count and Sum of Amount per group."""
    users = _query(request, env, "SELECT Id, Name, IsActive FROM User ORDER BY Name")["records"]
    report, problems = R.Report.from_query(request.query_params, {u["Id"] for u in users})
    rows = R.summary_rows(_query(request, env, report.summary_soql())["records"], report.group)
    details = _query(request, env, report.details_soql())["records"] if report.details else []
    grouped: dict[Any, list[dict[str, Any]]] = {}
    for record in details:
        grouped.setdefault(R.group_value(record, report.group) if report.group else None, []).append(record)
    return _page(request, env, "reports.html", title="Opportunities report", current="reports", report=report, rows=rows, users=users,
                 details=grouped, problems=problems, groups=R.GROUPS, statuses=R.STATUSES, closes=R.CLOSE_DATES,
                 amount=sobject("Opportunity").field("Amount"), fields=R.DETAIL_FIELDS)


@router.get("/r/{record_id}/convert")
async def convert_form(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    try:
        lead = _op(request, env, "crm.retrieve", "GET record", sobject="Lead", id=record_id)
    except AppError:
        return _not_found(request, env, f"lead {record_id!r}")
    return _page(request, env, "convert.html", title=f"Convert Lead {lead['Name']}", current="Lead", lead=lead, error=None, form={})


@router.post("/r/{record_id}/convert")
async def convert(record_id: str, request: Request, env: Env = Depends(current_env)) -> Response:
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    try:
        chosen = {key: _lookup_id(request, env, form, key, (kind,), f"Existing {kind}") if f"{key}.search" in form else form.get(key, "")
                  for key, kind in (("accountId", "Account"), ("contactId", "Contact"))}
        raw = {"leadId": record_id, "accountId": chosen["accountId"] or None, "contactId": chosen["contactId"] or None,
               "opportunityName": form.get("opportunityName") or None, "doNotCreateOpportunity": form.get("doNotCreateOpportunity") == "on"}
        done = _op(request, env, "crm.convertLead", "POST /r/convert", **raw)
    except AppError as error:
        try:
            lead = _op(request, env, "crm.retrieve", "GET record", sobject="Lead", id=record_id)
        except AppError:
            return _not_found(request, env, f"lead {record_id!r}")
        return _page(request, env, "convert.html", status=400, title=f"Convert Lead {lead['Name']}", current="Lead", lead=lead,
                     error=error, form=form)
    return RedirectResponse(f"/envs/{env.id}/crm/r/{done['accountId']}?converted={record_id}", status_code=303)


@router.get("/search")
async def search(request: Request, env: Env = Depends(current_env)) -> Response:
    words = request.query_params.get("q", "").strip()[:200]
    groups: list[tuple[Any, list[dict[str, Any]]]] = []
    error = None
    if words:
        term = words.replace("\\", "\\\\").replace("}", "\\}").replace("{", "\\{")
        returning = ", ".join(f"{name}(Id, {', '.join(V.LIST_COLUMNS[name][:3])} LIMIT 20)" for name in V.TABS)
        try:
            found = _op(request, env, "crm.search", "GET search", q=f"FIND {{{term}}} IN ALL FIELDS RETURNING {returning}")["searchRecords"]
        except AppError as bad:
            found, error = [], bad
        for name in V.TABS:
            rows = [r for r in found if r["attributes"]["type"] == name]
            if rows:
                groups.append((sobject(name), rows))
    return _page(request, env, "search.html", title=f"Search: {words}" if words else "Search", words=words, groups=groups, error=error)
