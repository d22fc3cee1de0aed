"""The tickets toolsets, as tables of tool → operation bindings.

`REFERENCE` (the default) is sooperset/mcp-atlassian's Jira tools: their `jira_` names, their
arguments (complex values as JSON inside strings) and their simplified, snake_case results.
`OFFICIAL` is Atlassian's remote MCP server (Rovo): camelCase tools with Jira REST's
vocabulary (cloudId, issueIdOrKey, jql, maxResults, nextPageToken) and REST's result shapes.
"""

from __future__ import annotations

from officegym.faces.mcp import Toolset, tool
from officegym.faces.probe import Call, Probe

SIMPLE = {"style": "simplified"}
ISSUE_KEY = {"issue_key": "Jira issue key (e.g., 'PROJ-123')"}
LIMIT_DOC = "Maximum number of results (1-50)"
START_DOC = "Starting index for pagination (0-based)"
# mcp-atlassian's DEFAULT_READ_JIRA_FIELDS: what jira_search returns when no fields are asked for.
SEARCH_FIELDS = "summary,description,status,assignee,reporter,labels,priority,created,updated,issuetype"
FIELDS_DOC = ("Comma-separated fields to return, e.g. 'summary,status,assignee'; '*all' for every field "
              "(default: the essential fields)")
ADDITIONAL_DOC = ("(Optional) JSON string of other fields, e.g. '{\"priority\": {\"name\": \"High\"}}', '{\"labels\": [\"frontend\"]}', "
                  "'{\"parent\": \"PROJ-1\"}', '{\"duedate\": \"2026-04-01\"}', '{\"customfield_10016\": 5}'")


def simple(name: str, operation: str, description: str, args: dict[str, str], docs: dict[str, str], **binding: object) -> object:
    return tool(name, operation, description, args=args, docs=docs, fixed={**SIMPLE, **binding.pop("fixed", {})}, **binding)


REFERENCE = Toolset("reference", "tickets", (
    simple("jira_get_issue", "tickets.getIssue", "Get details of a specific Jira issue including its Epic links and relationship information.",
           {"issue_key": "issue", "fields": "fields", "expand": "expand", "comment_limit": "comment_limit", "update_history": "update_history"},
           {**ISSUE_KEY, "fields": FIELDS_DOC, "expand": "(Optional) Fields to expand, e.g. 'changelog'",
            "comment_limit": "Maximum number of comments to include (0 or null for no comments)",
            "update_history": "Whether to update the issue view history for the requesting user"},
           defaults={"comment_limit": 10, "update_history": True}, caps={"comment_limit": 100}),
    simple("jira_search", "tickets.searchIssues", "Search Jira issues using JQL (Jira Query Language).",
           {"jql": "jql", "fields": "fields", "limit": "max_results", "start_at": "start_at", "projects_filter": "projects_filter", "expand": "expand"},
           {"jql": "JQL query string, e.g. 'project = PROJ AND status = \"In Progress\"', 'assignee = currentUser() ORDER BY updated DESC'",
            "fields": FIELDS_DOC, "limit": LIMIT_DOC, "start_at": START_DOC,
            "projects_filter": "(Optional) Comma-separated project keys to limit the search to", "expand": "(Optional) Fields to expand"},
           defaults={"limit": 10, "start_at": 0, "fields": SEARCH_FIELDS}, caps={"limit": 50}, required=("jql",)),
    simple("jira_get_project_issues", "tickets.getProjectIssues", "Get all issues for a specific Jira project.",
           {"project_key": "project", "limit": "max_results", "start_at": "start_at"},
           {"project_key": "The project key", "limit": LIMIT_DOC, "start_at": START_DOC}, defaults={"limit": 10, "start_at": 0}, caps={"limit": 50}),
    simple("jira_create_issue", "tickets.createIssue", "Create a new Jira issue with optional Epic link or parent for subtasks.",
           {"project_key": "project", "summary": "summary", "issue_type": "issue_type", "assignee": "assignee", "description": "description",
            "components": "components", "additional_fields": "fields"},
           {"project_key": "The JIRA project key (e.g. 'PROJ', 'DEV', 'SUPPORT')", "summary": "Summary/title of the issue",
            "issue_type": "Issue type (e.g. 'Task', 'Bug', 'Story', 'Epic', 'Subtask')",
            "assignee": "(Optional) Assignee's user identifier (email, display name, or account ID)",
            "description": "Issue description (Markdown)", "components": "(Optional) Comma-separated component names",
            "additional_fields": ADDITIONAL_DOC},
           required=("project_key", "summary", "issue_type")),
    simple("jira_batch_create_issues", "tickets.batchCreateIssues", "Create multiple Jira issues in a batch.",
           {"issues": "issues", "validate_only": "validate_only"},
           {"issues": "JSON array string of issue objects, each with project_key, summary, issue_type and optional description, assignee, components",
            "validate_only": "If true, only validates the issues without creating them"}, defaults={"validate_only": False}),
    simple("jira_update_issue", "tickets.updateIssue", "Update an existing Jira issue including changing status, adding Epic links, updating fields, etc.",
           {"issue_key": "issue", "fields": "fields", "additional_fields": "additional_fields", "components": "components",
            "transition": "transition", "comment": "comment"},
           {**ISSUE_KEY, "fields": "JSON string of fields to update, e.g. '{\"summary\": \"New title\", \"assignee\": \"user@example.com\"}'",
            "additional_fields": ADDITIONAL_DOC, "components": "(Optional) Comma-separated component names",
            "transition": "(Optional) Transition name or id to apply after the update", "comment": "(Optional) Comment to add"},
           required=("issue_key", "fields"), hint="idempotent"),
    simple("jira_assign_issue", "tickets.assignIssue", "Assign a Jira issue to a user, or unassign it.",
           {"issue_key": "issue", "assignee": "assignee"},
           {**ISSUE_KEY, "assignee": "User identifier (email, display name, or account ID); null or omitted to unassign"}, hint="idempotent"),
    simple("jira_delete_issue", "tickets.deleteIssue", "Delete an existing Jira issue.", {"issue_key": "issue"},
           {"issue_key": "Jira issue key (e.g. PROJ-123)"}, hint="destructive"),
    simple("jira_add_comment", "tickets.addComment", "Add a comment to a Jira issue.", {"issue_key": "issue", "body": "body"},
           {**ISSUE_KEY, "body": "Comment text in Markdown format"}),
    simple("jira_edit_comment", "tickets.editComment", "Edit an existing comment on a Jira issue.",
           {"issue_key": "issue", "comment_id": "comment_id", "body": "body"},
           {**ISSUE_KEY, "comment_id": "The ID of the comment to edit", "body": "Updated comment text in Markdown format"}, hint="destructive"),
    simple("jira_get_transitions", "tickets.getTransitions", "Get available status transitions for a Jira issue.", {"issue_key": "issue"}, ISSUE_KEY),
    simple("jira_transition_issue", "tickets.transitionIssue", "Transition a Jira issue to a new status.",
           {"issue_key": "issue", "transition_id": "transition", "fields": "fields", "comment": "comment"},
           {**ISSUE_KEY, "transition_id": "ID of the transition (from jira_get_transitions), or its name",
            "fields": "(Optional) JSON string of fields to set during the transition, e.g. '{\"resolution\": {\"name\": \"Fixed\"}}'",
            "comment": "(Optional) Comment to add during the transition"}),
    simple("jira_search_fields", "tickets.searchFields", "Search Jira fields by keyword with fuzzy match.",
           {"keyword": "keyword", "limit": "limit"}, {"keyword": "Keyword for fuzzy search; empty lists the first fields", "limit": "Maximum number of results"},
           defaults={"keyword": "", "limit": 10}),
    simple("jira_get_user_profile", "tickets.getUser", "Retrieve profile information for a specific Jira user.",
           {"user_identifier": "account"}, {"user_identifier": "Identifier for the user (e.g. email address, display name, or account ID)"}),
    simple("jira_get_all_projects", "tickets.getProjects", "Get all Jira projects accessible to the current user.",
           {"include_archived": "include_archived"}, {"include_archived": "Whether to include archived projects"}, defaults={"include_archived": False}),
    simple("jira_get_project_issue_types", "tickets.getIssueTypes", "Get the issue types available in a Jira project.",
           {"project_key": "project"}, {"project_key": "The project key"}, required=("project_key",)),
    simple("jira_get_project_components", "tickets.getComponents", "Get the components of a Jira project.", {"project_key": "project"},
           {"project_key": "The project key"}),
    simple("jira_get_project_versions", "tickets.getVersions", "Get all fix versions for a specific Jira project.", {"project_key": "project"},
           {"project_key": "The project key"}),
    simple("jira_get_agile_boards", "tickets.getBoards", "Get Jira agile boards by name, project key, or type.",
           {"board_name": "name", "project_key": "project", "board_type": "board_type", "start_at": "start_at", "limit": "max_results"},
           {"board_name": "(Optional) Board name to search for (fuzzy)", "project_key": "(Optional) Project key",
            "board_type": "(Optional) 'scrum' or 'kanban'", "start_at": START_DOC, "limit": LIMIT_DOC},
           defaults={"start_at": 0, "limit": 10}, caps={"limit": 50}),
    simple("jira_get_sprints_from_board", "tickets.getSprints", "Get Jira sprints from a board by state.",
           {"board_id": "board_id", "state": "state", "start_at": "start_at", "limit": "max_results"},
           {"board_id": "The id of the board (e.g. '1000')", "state": "Sprint state: active, future or closed (all when omitted)",
            "start_at": START_DOC, "limit": LIMIT_DOC}, defaults={"start_at": 0, "limit": 10}, caps={"limit": 50}),
    simple("jira_get_sprint_issues", "tickets.getSprintIssues", "Get Jira issues from a sprint.",
           {"sprint_id": "sprint_id", "fields": "fields", "start_at": "start_at", "limit": "max_results"},
           {"sprint_id": "The id of the sprint (e.g. '10001')", "fields": FIELDS_DOC, "start_at": START_DOC, "limit": LIMIT_DOC},
           defaults={"start_at": 0, "limit": 10}, caps={"limit": 50}),
    tool("jira_add_issues_to_sprint", "tickets.addIssuesToSprint", "Add issues to a Jira sprint.",
         args={"sprint_id": "sprint_id", "issue_keys": "issues"},
         docs={"sprint_id": "The id of the sprint", "issue_keys": "Comma-separated issue keys (e.g. 'PROJ-1,PROJ-2')"}, hint="idempotent"),
    simple("jira_create_sprint", "tickets.createSprint", "Create a Jira sprint for a board.",
           {"board_id": "board_id", "sprint_name": "name", "start_date": "start_date", "end_date": "end_date", "goal": "goal"},
           {"board_id": "The id of the board", "sprint_name": "Name of the sprint", "start_date": "Start time, ISO 8601",
            "end_date": "End time, ISO 8601", "goal": "(Optional) Goal of the sprint"}),
    simple("jira_update_sprint", "tickets.updateSprint", "Update a Jira sprint: name, dates, goal, or state (active to start it, closed to complete it).",
           {"sprint_id": "sprint_id", "sprint_name": "name", "state": "state", "start_date": "start_date", "end_date": "end_date", "goal": "goal"},
           {"sprint_id": "The id of the sprint", "sprint_name": "(Optional) New name", "state": "(Optional) future, active or closed",
            "start_date": "(Optional) Start time", "end_date": "(Optional) End time", "goal": "(Optional) New goal"}, hint="idempotent"),
    simple("jira_get_link_types", "tickets.getLinkTypes", "Get all available issue link types.", {}, {}),
    simple("jira_create_issue_link", "tickets.createIssueLink", "Create a link between two Jira issues.",
           {"link_type": "link_type", "inward_issue_key": "inward_issue", "outward_issue_key": "outward_issue", "comment": "comment"},
           {"link_type": "The type of link (e.g. 'Blocks', 'Duplicate', 'Relates')",
            "inward_issue_key": "The key of the inward issue (e.g. 'PROJ-123'): for Blocks, the issue that blocks",
            "outward_issue_key": "The key of the outward issue (e.g. 'PROJ-456'): for Blocks, the issue that is blocked",
            "comment": "(Optional) Comment to add to the link"}, hint="idempotent"),
    tool("jira_remove_issue_link", "tickets.deleteIssueLink", "Remove a link between two Jira issues.", args={"link_id": "link_id"},
         docs={"link_id": "The ID of the link to remove"}, hint="destructive"),
    simple("jira_create_remote_issue_link", "tickets.createRemoteLink",
           "Create a remote issue link (web link or Confluence link) for a Jira issue. The link appears in the issue's links section "
           "and opens the external page.",
           {"issue_key": "issue", "url": "url", "title": "title", "summary": "summary", "relationship": "relationship", "icon_url": "icon_url"},
           {"issue_key": "The key of the issue to add the link to (e.g., 'PROJ-123')",
            "url": "The URL to link to (e.g., 'https://example.com/page' or Confluence page URL)",
            "title": "The title/name of the link (e.g., 'Documentation Page', 'Confluence Page')",
            "summary": "(Optional) Description of the link",
            "relationship": "(Optional) Relationship description (e.g., 'causes', 'relates to', 'documentation')",
            "icon_url": "(Optional) URL to a 16x16 icon for the link"}, required=("issue_key", "url", "title")),
    simple("jira_link_to_epic", "tickets.linkToEpic", "Link an existing issue to an epic.", {"issue_key": "issue", "epic_key": "epic"},
           {"issue_key": "The key of the issue to link (e.g. 'PROJ-123')", "epic_key": "The key of the epic to link to (e.g. 'PROJ-456')"},
           hint="idempotent"),
    simple("jira_get_issue_watchers", "tickets.getWatchers", "Get the list of watchers for a Jira issue.", {"issue_key": "issue"}, ISSUE_KEY),
    simple("jira_add_watcher", "tickets.addWatcher", "Add a user as a watcher to a Jira issue.", {"issue_key": "issue", "user_identifier": "account"},
           {**ISSUE_KEY, "user_identifier": "User to add as watcher (account ID, email or display name)"}, required=("issue_key", "user_identifier"),
           hint="idempotent"),
    simple("jira_remove_watcher", "tickets.removeWatcher", "Remove a user from watching a Jira issue.", {"issue_key": "issue", "user_identifier": "account"},
           {**ISSUE_KEY, "user_identifier": "User to remove (account ID, email or display name)"}, required=("issue_key", "user_identifier"),
           hint="destructive"),
    simple("jira_add_worklog", "tickets.addWorklog", "Add a worklog entry to a Jira issue.",
           {"issue_key": "issue", "time_spent": "time_spent", "comment": "comment", "started": "started",
            "original_estimate": "original_estimate", "remaining_estimate": "remaining_estimate"},
           {**ISSUE_KEY, "time_spent": "Time spent in Jira format, e.g. '1h 30m', '1d', '30m' (1d = 8h)",
            "comment": "(Optional) Comment for the worklog", "started": "(Optional) Start time, e.g. '2026-01-15T09:00:00.000+0000'",
            "original_estimate": "(Optional) New value for the original estimate, e.g. '2d'",
            "remaining_estimate": "(Optional) New value for the remaining estimate, e.g. '1d 4h' (otherwise the time logged comes off it)"},
           required=("issue_key", "time_spent")),
    simple("jira_get_worklog", "tickets.getWorklogs", "Get worklog entries for a Jira issue.", {"issue_key": "issue"}, ISSUE_KEY),
), instructions="Jira: issues (SUP support desk, ENG engineering, IT helpdesk), JQL search, workflow transitions, comments, links, sprints (jira_* tools).")

CLOUD = {"cloudId": "cloud_id"}
CLOUD_DOC = {"cloudId": "The cloud id of the site (from getAccessibleAtlassianResources) or the site URL"}
ISSUE_DOC = {"issueIdOrKey": "Issue id or key, e.g. 'SUP-12'"}
OFFICIAL = Toolset("official", "tickets", (
    tool("getAccessibleAtlassianResources", "tickets.accessibleResources", "Get the Atlassian sites you can access, with the cloudId each tool takes."),
    tool("atlassianUserInfo", "tickets.myself", "Get the current user's Atlassian account: accountId, name, email."),
    tool("search", "tickets.searchText", "Search Jira with Rovo: issues whose key, summary, description or comments match; returns ids for fetch.",
         args={"query": "query", "limit": "limit"}, docs={"query": "Words to search for, or an issue key", "limit": "Maximum results (default 10, max 50)"},
         defaults={"limit": 10}, caps={"limit": 50}),
    tool("fetch", "tickets.getIssue", "Fetch a Jira issue by the id a search returned (an ARI) or by its key.", args={"id": "issue"},
         docs={"id": "The id from search (ari:cloud:jira:…:issue/10002) or an issue key"}),
    tool("getJiraIssue", "tickets.getIssue", "Get the details of a Jira issue by id or key.",
         args={**CLOUD, "issueIdOrKey": "issue", "fields": "fields", "expand": "expand"},
         docs={**CLOUD_DOC, **ISSUE_DOC, "fields": "Fields to return (list or comma-separated)", "expand": "e.g. 'changelog'"}, required=("cloudId", "issueIdOrKey")),
    tool("searchJiraIssuesUsingJql", "tickets.searchIssues", "Search Jira issues with JQL; page with nextPageToken.",
         args={**CLOUD, "jql": "jql", "fields": "fields", "maxResults": "max_results", "nextPageToken": "next_page_token"},
         docs={**CLOUD_DOC, "jql": "JQL query", "fields": "Fields to return", "maxResults": "Page size (default 50, max 100)",
               "nextPageToken": "nextPageToken of the previous page"}, required=("cloudId", "jql"), caps={"maxResults": 100}),
    tool("createJiraIssue", "tickets.createIssue", "Create a Jira issue in a project.",
         args={**CLOUD, "projectKey": "project", "issueTypeName": "issue_type", "summary": "summary", "description": "description",
               "assignee_account_id": "assignee", "parent": "parent", "additional_fields": "fields"},
         docs={**CLOUD_DOC, "projectKey": "Project key, e.g. 'ENG'", "issueTypeName": "Issue type name, e.g. 'Bug'", "summary": "Summary",
               "description": "Description (Markdown)", "assignee_account_id": "Assignee's accountId", "parent": "Parent issue key (for a subtask, or an epic)",
               "additional_fields": "Other fields as Jira field JSON, e.g. {\"priority\": {\"name\": \"High\"}}"},
         required=("cloudId", "projectKey", "issueTypeName", "summary")),
    tool("editJiraIssue", "tickets.updateIssue", "Edit the fields of a Jira issue.",
         args={**CLOUD, "issueIdOrKey": "issue", "fields": "fields"},
         docs={**CLOUD_DOC, **ISSUE_DOC, "fields": "Fields to set as Jira field JSON, e.g. {\"summary\": \"…\", \"labels\": [\"x\"]}"},
         required=("cloudId", "issueIdOrKey", "fields"), hint="idempotent"),
    tool("transitionJiraIssue", "tickets.transitionIssue", "Move a Jira issue through its workflow with a transition id from getTransitionsForJiraIssue.",
         args={**CLOUD, "issueIdOrKey": "issue", "transition": "transition", "fields": "fields", "update": "update"},
         docs={**CLOUD_DOC, **ISSUE_DOC, "transition": "The transition id (e.g. '41'), as {\"id\": \"41\"} in REST; its name also works",
               "fields": "Fields the transition sets, e.g. {\"resolution\": {\"name\": \"Fixed\"}}", "update": "Jira update operations, e.g. a comment"},
         required=("cloudId", "issueIdOrKey", "transition")),
    tool("getTransitionsForJiraIssue", "tickets.getTransitions", "List the transitions available for a Jira issue in its current status.",
         args={**CLOUD, "issueIdOrKey": "issue"}, docs={**CLOUD_DOC, **ISSUE_DOC}),
    tool("lookupJiraAccountId", "tickets.searchUsers", "Find users' accountIds by name or email.",
         args={**CLOUD, "searchString": "query"}, docs={**CLOUD_DOC, "searchString": "Part of a name or email"}, required=("cloudId", "searchString")),
    tool("getJiraIssueTypeMetaWithFields", "tickets.getCreateMeta", "The fields an issue type takes when created in a project (required ones, allowed values).",
         args={**CLOUD, "projectIdOrKey": "project", "issueTypeId": "issue_type"},
         docs={**CLOUD_DOC, "projectIdOrKey": "Project key or id", "issueTypeId": "Issue type id or name"}),
    tool("listJiraProjects", "tickets.getProjects", "List the Jira projects you can see.",
         args={**CLOUD, "searchString": "query"}, docs={**CLOUD_DOC, "searchString": "(Optional) Part of a project key or name"}, required=("cloudId",)),
    tool("listJiraProjectIssueTypesMetadata", "tickets.getIssueTypes", "List the issue types of a Jira project.",
         args={**CLOUD, "projectIdOrKey": "project"}, docs={**CLOUD_DOC, "projectIdOrKey": "Project key or id"}, required=("cloudId", "projectIdOrKey")),
    tool("addOrEditJiraIssueComment", "tickets.addComment", "Add a comment to a Jira issue, or edit one of your comments (give commentId).",
         args={**CLOUD, "issueIdOrKey": "issue", "commentBody": "body", "commentId": "comment_id"},
         docs={**CLOUD_DOC, **ISSUE_DOC, "commentBody": "The comment (Markdown)", "commentId": "(Optional) The id of your comment to edit"}),
    tool("getIssueLinkTypes", "tickets.getLinkTypes", "List the kinds of issue links (Blocks, Cloners, Duplicate, Relates).", args=CLOUD, docs=CLOUD_DOC,
         required=("cloudId",)),
    tool("createIssueLink", "tickets.createIssueLink", "Link two Jira issues: inwardIssue <outward verb> outwardIssue (e.g. ENG-5 blocks SUP-9).",
         args={**CLOUD, "type": "link_type", "inwardIssue": "inward_issue", "outwardIssue": "outward_issue"},
         docs={**CLOUD_DOC, "type": "Link type name, e.g. 'Blocks'", "inwardIssue": "Key of the issue that blocks/duplicates/clones",
               "outwardIssue": "Key of the issue that is blocked/duplicated/cloned"}, hint="idempotent"),
    tool("addWorklogToJiraIssue", "tickets.addWorklog", "Log time spent on a Jira issue.",
         args={**CLOUD, "issueIdOrKey": "issue", "timeSpent": "time_spent", "commentBody": "comment", "started": "started"},
         docs={**CLOUD_DOC, **ISSUE_DOC, "timeSpent": "Time spent, e.g. '1h 30m' or '2d' (1d = 8h)", "commentBody": "(Optional) What the time was spent on",
               "started": "(Optional) When the work started"}, required=("cloudId", "issueIdOrKey", "timeSpent")),
), instructions=(
    "Jira, as Atlassian's own MCP server offers it. Call getAccessibleAtlassianResources first for the cloudId every Jira tool takes; "
    "search with JQL (searchJiraIssuesUsingJql) or with words (search), read issues (getJiraIssue), create, edit, transition, comment, link and log work."
))

TOOLSETS = (REFERENCE, OFFICIAL)

# What `officegym bench` times for tickets: a JQL search over the seeded issues, and a comment.
BENCH_PROBE = Probe(
    mcp_read=Call("jira_search", {"jql": "project = SUP AND status != Done ORDER BY created DESC", "limit": 10}),
    mcp_write=Call("jira_add_comment", {"issue_key": "SUP-1", "body": "bench comment {i}"}),
    rest_read=Call("rest/api/3/search/jql", {"jql": "project = SUP AND status != Done ORDER BY created DESC", "maxResults": 10,
                                             "fields": "summary,status,assignee"}, method="GET",
                   operation="tickets.searchIssues"),
    rest_write=Call("rest/api/3/issue/SUP-1/comment", {"body": "bench comment {i}"}),
    queries=(("JQL search", Call("tickets.searchIssues", {"jql": "project = SUP AND status != Done ORDER BY created DESC", "maxResults": 10})),
             ("JQL history (WAS)", Call("tickets.searchIssues", {"jql": 'project = SUP AND status WAS "In Progress" BEFORE -7d ORDER BY created DESC',
                                                                  "maxResults": 10}))),
)
