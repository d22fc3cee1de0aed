"""Jira Software's agile REST routes (`/rest/agile/1.0/…`): boards, sprints, moving issues
into a sprint or under an epic. Included in the tickets REST router (api.py), with its plumbing."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from apps.tickets.params import MAX_MOVED
from apps.tickets.api_common import AGILE, bad, body_of, fields_param, key_of, run
from officegym.core.env_store import Env
from officegym.core.web import EnvRoute, current_env
from officegym.faces.rest import BadBody

router = APIRouter(route_class=EnvRoute)


@router.get(AGILE + "/board")
async def boards(request: Request, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.getBoards", {"project": q.get("projectKeyOrId"), "board_type": q.get("type"), "name": q.get("name"),
                                                          "start_at": q.get("startAt"), "max_results": q.get("maxResults")}, shape=lambda b: b)


@router.get(AGILE + "/board/{board_id}/sprint")
async def board_sprints(request: Request, board_id: str, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.getSprints", {"board_id": board_id, "state": q.get("state"), "start_at": q.get("startAt"),
                                                           "max_results": q.get("maxResults")}, shape=lambda b: b)


@router.get(AGILE + "/board/{board_id}/backlog")
@router.get(AGILE + "/board/{board_id}/issue")
async def board_issues(request: Request, board_id: str, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.getBoardIssues", {"board_id": board_id, "backlog": request.url.path.endswith("/backlog"),
                                                               "fields": fields_param(request), "start_at": q.get("startAt"),
                                                               "max_results": q.get("maxResults")}, shape=lambda b: b)


@router.get(AGILE + "/sprint/{sprint_id}")
async def sprint(request: Request, sprint_id: str, env: Env = Depends(current_env)) -> Response:
    return await run(request, env, "tickets.getSprint", {"sprint_id": sprint_id})


@router.get(AGILE + "/sprint/{sprint_id}/issue")
async def sprint_issues(request: Request, sprint_id: str, env: Env = Depends(current_env)) -> Response:
    q = request.query_params
    return await run(request, env, "tickets.getSprintIssues", {"sprint_id": sprint_id, "fields": fields_param(request), "start_at": q.get("startAt"),
                                                                "max_results": q.get("maxResults")}, shape=lambda b: b)


@router.post(AGILE + "/sprint/{sprint_id}/issue")
async def move_to_sprint(request: Request, sprint_id: str, env: Env = Depends(current_env)) -> Response:
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.addIssuesToSprint", {"sprint_id": sprint_id, "issues": body.get("issues")}, status=204)


@router.post(AGILE + "/sprint")
async def create_sprint(request: Request, env: Env = Depends(current_env)) -> Response:
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.createSprint", {"board_id": body.get("originBoardId"), "name": body.get("name"), "start_date": body.get("startDate"),
                                                             "end_date": body.get("endDate"), "goal": body.get("goal")}, status=201)


@router.api_route(AGILE + "/sprint/{sprint_id}", methods=["POST", "PUT"])
async def update_sprint(request: Request, sprint_id: str, env: Env = Depends(current_env)) -> Response:
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    return await run(request, env, "tickets.updateSprint", {"sprint_id": sprint_id, "name": body.get("name"), "state": body.get("state"),
                                                             "start_date": body.get("startDate"), "end_date": body.get("endDate"), "goal": body.get("goal")})


async def _move(request: Request, env: Env, to: str, epic: str | None = None) -> Response:
    """A bulk move (`{"issues": [keys or ids]}`) as one operation: all the issues or none. 204,
    as Jira answers."""
    try:
        body = await body_of(request)
    except BadBody as problem:
        return bad(problem)
    issues = body.get("issues")
    if not isinstance(issues, list):
        return bad(ValueError(f"the body needs issues: a list of 1 to {MAX_MOVED} issue keys or ids, e.g. {{\"issues\": [\"ENG-12\"]}}"))
    return await run(request, env, "tickets.moveIssues", {"issues": [key_of(issue) for issue in issues], "to": to, "epic": epic}, status=204)


@router.post(AGILE + "/epic/{epic}/issue")
async def move_to_epic(request: Request, epic: str, env: Env = Depends(current_env)) -> Response:
    """Jira Software's "move issues to epic" (the jira client's add_issues_to_epic): the issues
    go under the epic; the epic `none` takes them out of their epic."""
    return await _move(request, env, "no_epic") if epic.lower() == "none" else await _move(request, env, "epic", epic)


@router.post(AGILE + "/backlog/issue")
async def move_to_backlog(request: Request, env: Env = Depends(current_env)) -> Response:
    """Jira Software's "move issues to backlog" (the jira client's move_to_backlog): out of their
    open sprints, as clearing the Sprint field does."""
    return await _move(request, env, "backlog")
