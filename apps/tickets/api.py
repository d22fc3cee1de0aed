"""The Jira REST face: `/envs/{env_id}/api/tickets/rest/api/{2|3}/…` and `/rest/agile/1.0/…`
(also at the agent origin's root `/rest/…`, the env named by its API token), so `jira.JIRA(
server=…)` works unchanged. Routes parse Jira's bodies and delegate to one operation each;
answers are Jira's (201 for creations, 204 for edits), errors Jira's
`{"errorMessages": […], "errors": {…}}` with 400/404. v3 carries rich text as ADF, v2 as text.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from apps.tickets import catalog
from apps.tickets.api_agile import router as agile_router
from apps.tickets.api_common import API, JiraRoute, answer, api_base, bad, body_of, fields_param, key_of, run, version_of
from officegym.core.env_store import Env
from officegym.core.web import current_env
from officegym.faces.rest import BadBody, json_body, url_path

router = APIRouter(route_class=JiraRoute)


# -- the calls agents make most, first: routes are tried in order, and every route tried before
# the one that answers costs each call a path match (a search behind forty routes paid ~0.1 ms) --
@router.api_route(API + "/search/jql", methods=["GET", "POST"])
@router.api_route(API + "/search", methods=["GET", "POST"])
async def search(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    v = version_of(version)
    q = request.query_params
    raw: dict[str, Any] = {"jql": q.get("jql"), "fields": fields_param(request), "max_results": q.get("maxResults"),
                           "start_at": q.get("startAt"), "next_page_token": q.get("nextPageToken"), "api": v}
    if request.method == "POST":
        try:
            body = await body_of(request)
        except BadBody as problem:
            return bad(problem)
        raw.update({"jql": body.get("jql", raw["jql"]), "fields": body.get("fields", raw["fields"]), "max_results": body.get("maxResults", raw["max_results"]),
                    "start_at": body.get("startAt", raw["start_at"]), "next_page_token": body.get("nextPageToken", raw["next_page_token"])})
    legacy = url_path(request).endswith("/search")
    if not legacy:
        raw["count"] = False  # the enhanced search tells isLast, not how many match
        if not raw["fields"]:
            raw["fields"] = "id"  # the enhanced search returns only issue ids unless fields are asked for (the legacy search: *navigable)

    def shape(body: dict[str, Any]) -> dict[str, Any]:
        if legacy:
            return {k: body[k] for k in ("expand", "startAt", "maxResults", "total", "issues")}
        return {k: body[k] for k in ("issues", "nextPageToken", "isLast") if k in body}

    return await run(request, env, "tickets.searchIssues", raw, shape=shape)


@router.post(API + "/issue/{issue}/comment")
async def add_comment(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    v = version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.addComment", {"issue": issue, "body": body.get("body"), "api": v}, status=201)


# -- server and people --------------------------------------------------------------------------
@router.get(API + "/serverInfo")
async def server_info(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return answer(request, {"baseUrl": api_base(request), "version": "1001.0.0-SNAPSHOT", "versionNumbers": [1001, 0, 0],
                             "deploymentType": "Cloud", "buildNumber": 100270, "serverTitle": "Jira", "defaultLocale": {"locale": "en_US"}})


@router.get(API + "/myself")
async def myself(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.myself", {})


@router.get(API + "/user")
async def user(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.getUser", {"account": q.get("accountId") or q.get("username", "")})


@router.get(API + "/user/search")
@router.get(API + "/user/assignable/search")
async def user_search(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.searchUsers", {"query": q.get("query") or q.get("username") or q.get("accountId"),
                                                             "max_results": q.get("maxResults"), "start_at": q.get("startAt")})


# -- issues ------------------------------------------------------------------------------------
@router.get(API + "/issue/{issue}")
async def get_issue(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    v = version_of(version)
    return await run(request, env, "tickets.getIssue", {"issue": issue, "fields": fields_param(request), "expand": request.query_params.get("expand"), "api": v})


@router.post(API + "/issue")
async def create_issue(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.createIssue", {"fields": body.get("fields") if body.get("fields") is not None else {}}, status=201)


@router.post(API + "/issue/bulk")
async def create_issues(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    updates = body.get("issueUpdates")
    if not isinstance(updates, list):
        return bad(ValueError("the body needs issueUpdates: a list of {\"fields\": {…}}"))
    return await run(request, env, "tickets.batchCreateIssues", {"issues": [{"fields": u.get("fields", {})} if isinstance(u, dict) else u for u in updates]}, status=201)


@router.put(API + "/issue/{issue}")
async def edit_issue(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    # `update` verbs (labels, components, fixVersions, issuelinks, comment, …) go to the operation as Jira sends them.
    return await run(request, env, "tickets.updateIssue", {"issue": issue, "fields": body.get("fields") or {}, "update": body.get("update") or None,
                                                            "transition": key_of(body.get("transition"))}, status=204)


@router.delete(API + "/issue/{issue}")
async def delete_issue(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.deleteIssue", {"issue": issue, "delete_subtasks": request.query_params.get("deleteSubtasks")}, status=204)


@router.put(API + "/issue/{issue}/assignee")
async def assign(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    who = body.get("accountId") or body.get("name") or body.get("emailAddress")
    return await run(request, env, "tickets.assignIssue", {"issue": issue, "assignee": who}, status=204)


@router.get(API + "/issue/{issue}/transitions")
async def transitions(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.getTransitions", {"issue": issue}, shape=lambda b: b)


@router.post(API + "/issue/{issue}/transitions")
async def transition(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.transitionIssue", {"issue": issue, "transition": key_of(body.get("transition")) or "",
                                                                "fields": body.get("fields"), "update": body.get("update")}, status=204)


@router.get(API + "/issue/{issue}/comment")
async def comments(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.getComments", {"issue": issue, "start_at": q.get("startAt"), "max_results": q.get("maxResults"), "api": version_of(version)})


@router.get(API + "/issue/{issue}/comment/{comment_id}")
async def comment(request: Request, version: str, issue: str, comment_id: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getComment", {"issue": issue, "comment_id": comment_id, "api": version_of(version)})


@router.put(API + "/issue/{issue}/comment/{comment_id}")
async def edit_comment(request: Request, version: str, issue: str, comment_id: str, env: Env = Depends(current_env)) -> Response:
    v = version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.editComment", {"issue": issue, "comment_id": comment_id, "body": body.get("body"), "api": v})


@router.delete(API + "/issue/{issue}/comment/{comment_id}")
async def delete_comment(request: Request, version: str, issue: str, comment_id: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.deleteComment", {"issue": issue, "comment_id": comment_id}, status=204)


@router.get(API + "/issue/{issue}/changelog")
async def changelog(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.getChangelog", {"issue": issue, "start_at": q.get("startAt"), "max_results": q.get("maxResults")})


@router.get(API + "/issue/{issue}/worklog")
async def worklogs(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getWorklogs", {"issue": issue, "api": version_of(version)})


@router.get(API + "/issue/{issue}/worklog/{worklog_id}")
async def worklog(request: Request, version: str, issue: str, worklog_id: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getWorklog", {"issue": issue, "worklog_id": worklog_id, "api": version_of(version)})


@router.post(API + "/issue/{issue}/worklog")
async def add_worklog(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    v = version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    q = request.query_params
    return await run(request, env, "tickets.addWorklog", {"issue": issue, "time_spent": body.get("timeSpent"), "time_spent_seconds": body.get("timeSpentSeconds"),
                                                           "comment": body.get("comment"), "started": body.get("started"), "api": v,
                                                           "adjust_estimate": q.get("adjustEstimate"), "new_estimate": q.get("newEstimate"),
                                                           "reduce_by": q.get("reduceBy")}, status=201)


@router.put(API + "/issue/{issue}/worklog/{worklog_id}")
async def update_worklog(request: Request, version: str, issue: str, worklog_id: str, env: Env = Depends(current_env)) -> Response:
    v = version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    q = request.query_params
    return await run(request, env, "tickets.updateWorklog", {"issue": issue, "worklog_id": worklog_id, "time_spent": body.get("timeSpent"),
                                                              "time_spent_seconds": body.get("timeSpentSeconds"), "comment": body.get("comment"),
                                                              "started": body.get("started"), "adjust_estimate": q.get("adjustEstimate"),
                                                              "new_estimate": q.get("newEstimate"), "api": v})


@router.delete(API + "/issue/{issue}/worklog/{worklog_id}")
async def delete_worklog(request: Request, version: str, issue: str, worklog_id: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    q = request.query_params
    return await run(request, env, "tickets.deleteWorklog", {"issue": issue, "worklog_id": worklog_id, "adjust_estimate": q.get("adjustEstimate"),
                                                              "new_estimate": q.get("newEstimate"), "increase_by": q.get("increaseBy")}, status=204)


@router.get(API + "/issue/{issue}/editmeta")
async def edit_meta(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.getEditMeta", {"issue": issue})


@router.get(API + "/issue/{issue}/remotelink")
async def remote_links(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.getRemoteLinks", {"issue": issue, "global_id": request.query_params.get("globalId") or None})


def _remote_link(body: dict[str, Any]) -> dict[str, Any]:
    """A remote link's body ({"globalId", "application", "relationship", "object": {"url", "title",
    "summary", "icon": {"url16x16", "title"}, "status": {"resolved"}}}) as the operation's arguments."""
    obj = body.get("object") if isinstance(body.get("object"), dict) else {}
    icon = obj.get("icon") if isinstance(obj.get("icon"), dict) else {}
    status = obj.get("status") if isinstance(obj.get("status"), dict) else {}
    return {"url": obj.get("url"), "title": obj.get("title"), "summary": obj.get("summary"), "relationship": body.get("relationship"),
            "icon_url": icon.get("url16x16"), "icon_title": icon.get("title"), "global_id": body.get("globalId"),
            "application": body.get("application"), "resolved": status.get("resolved")}


@router.post(API + "/issue/{issue}/remotelink")
async def add_remote_link(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    """201 with the new link's {id, self}; 200 when a link with the body's globalId was there and is updated."""
    version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    updated: list[bool] = []

    def shape(answer: dict[str, Any]) -> dict[str, Any]:
        updated.append(bool(answer.get("_updated")))
        return {"id": answer["id"], "self": answer["self"]}

    response = await run(request, env, "tickets.createRemoteLink", {"issue": issue, **_remote_link(body)}, status=201, shape=shape)
    if updated and updated[0]:
        response.status_code = 200
    return response


@router.get(API + "/issue/{issue}/remotelink/{link_id}")
async def remote_link(request: Request, version: str, issue: str, link_id: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.getRemoteLink", {"issue": issue, "link_id": link_id})


@router.put(API + "/issue/{issue}/remotelink/{link_id}")
async def update_remote_link(request: Request, version: str, issue: str, link_id: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.updateRemoteLink", {"issue": issue, "link_id": link_id, **_remote_link(body)}, status=204)


@router.delete(API + "/issue/{issue}/remotelink/{link_id}")
async def delete_remote_link(request: Request, version: str, issue: str, link_id: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return await run(request, env, "tickets.deleteRemoteLink", {"issue": issue, "link_id": link_id}, status=204)


@router.delete(API + "/issue/{issue}/remotelink")
async def delete_remote_link_by_global_id(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    global_id = request.query_params.get("globalId")
    if not global_id:
        return bad(ValueError("globalId is required: DELETE …/remotelink?globalId=… (or …/remotelink/{linkId})"))
    return await run(request, env, "tickets.deleteRemoteLink", {"issue": issue, "global_id": global_id}, status=204)


@router.get(API + "/issue/{issue}/watchers")
async def watchers(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getWatchers", {"issue": issue})


@router.post(API + "/issue/{issue}/watchers")
async def add_watcher(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    try:
        body = await json_body(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.addWatcher", {"issue": issue, "account": body if isinstance(body, str) else None}, status=204)


@router.delete(API + "/issue/{issue}/watchers")
async def remove_watcher(request: Request, version: str, issue: str, env: Env = Depends(current_env)) -> Response:
    who = request.query_params.get("accountId") or request.query_params.get("username") or ""
    return await run(request, env, "tickets.removeWatcher", {"issue": issue, "account": who or None}, status=204)


@router.post(API + "/issueLink")
async def link(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    kind = body.get("type") or {}
    comment = body.get("comment")
    return await run(request, env, "tickets.createIssueLink", {
        "link_type": (kind.get("name") or kind.get("id")) if isinstance(kind, dict) else kind, "inward_issue": key_of(body.get("inwardIssue")),
        "outward_issue": key_of(body.get("outwardIssue")), "comment": comment.get("body") if isinstance(comment, dict) else None}, status=201)


@router.delete(API + "/issueLink/{link_id}")
async def unlink(request: Request, version: str, link_id: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.deleteIssueLink", {"link_id": link_id}, status=204)


@router.get(API + "/issueLinkType")
async def link_types(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getLinkTypes", {}, shape=lambda b: b)


# -- search (the searches themselves are first, above) ---------------------------------------------
@router.post(API + "/search/approximate-count")
async def approximate_count(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.searchIssues", {"jql": body.get("jql"), "max_results": 1, "fields": "summary"},
                      shape=lambda b: {"count": b["total"]})


# -- projects and configuration ----------------------------------------------------------------
@router.get(API + "/project")
async def projects(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getProjects", {})


@router.get(API + "/project/search")
async def project_search(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getProjects", {"query": request.query_params.get("query")},
                      shape=lambda b: {k: b[k] for k in ("values", "total", "isLast", "startAt", "maxResults")})


@router.get(API + "/project/{project}")
async def project(request: Request, version: str, project: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getProject", {"project": project})


@router.get(API + "/project/{project}/components")
async def components(request: Request, version: str, project: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getComponents", {"project": project})


@router.get(API + "/project/{project}/versions")
async def versions(request: Request, version: str, project: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getVersions", {"project": project})


@router.get(API + "/issuetype")
async def issue_types(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getIssueTypes", {})


@router.get(API + "/issue/createmeta/{project}/issuetypes")
async def create_meta_types(request: Request, version: str, project: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getIssueTypes", {"project": project}, shape=lambda b: {"issueTypes": b["_list"], "values": b["_list"]})


@router.get(API + "/issue/createmeta/{project}/issuetypes/{issue_type}")
async def create_meta(request: Request, version: str, project: str, issue_type: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getCreateMeta", {"project": project, "issue_type": issue_type},
                      shape=lambda b: {**b, "values": b["fields"]})


@router.get(API + "/field")
async def fields(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.searchFields", {})


@router.get(API + "/priority")
async def priorities(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    from apps.tickets import shapes

    return answer(request, [shapes.priority(p.name, api_base(request)) for p in catalog.PRIORITIES])


@router.get(API + "/status")
async def statuses(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    from apps.tickets import shapes

    return answer(request, [shapes.status(s.name, api_base(request)) for s in catalog.STATUSES])


@router.get(API + "/resolution")
async def resolutions(request: Request, version: str, env: Env = Depends(current_env)) -> Response:
    version_of(version)
    return answer(request, [{"id": catalog.RESOLUTION_IDS[r], "name": r, "description": ""} for r in catalog.RESOLUTIONS])


router.include_router(agile_router)


__all__ = ["router"]


# What a GET on this API's base URL answers (officegym.apps.App.rest_index).
INDEX = {"api": "Jira Cloud REST API (v3 and v2) and Jira Software Agile API 1.0", "call": "<base>/rest/api/3/…, as https://<site>.atlassian.net/rest/api/3/…",
         "examples": ["rest/api/3/myself", "rest/api/3/search/jql?jql=project=SUP+ORDER+BY+created+DESC", "rest/agile/1.0/board"]}
