"""The chat toolsets, as tables of tool → operation bindings.

`REFERENCE` (the default) is the Slack reference MCP server (modelcontextprotocol/servers,
src/slack): its 8 tools with their exact names, arguments and descriptions, plus the tools
agents need beyond them in the same naming style. Results are one text item holding the
Slack API response JSON, as that server returns them.
"""

from __future__ import annotations

from officegym.faces.mcp import Toolset, tool
from officegym.faces.probe import Call, Probe

CHANNEL_ID = {"channel_id": "channel"}
THREAD_TS_DOC = (
    "The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format "
    "without the period can be converted by adding the period such that 6 numbers come after it."
)
CURSOR_DOC = "Pagination cursor for next page of results"
REACTION_DOC = "The name of the emoji reaction (without ::)"
TS_DOC = "The timestamp of the message, in the format '1234567890.123456'"
CHANNEL_DOC = "The ID of the channel (e.g. 'C0123ABCDEF'); '#name' also works"

REFERENCE = Toolset("reference", "chat", (
    # -- the reference server's 8 tools ------------------------------------------------
    tool("slack_list_channels", "conversations.list", "List public channels in the workspace with pagination",
         args={"limit": "limit", "cursor": "cursor"}, fixed={"types": "public_channel", "exclude_archived": True},
         defaults={"limit": 100}, caps={"limit": 200},
         docs={"limit": "Maximum number of channels to return (default 100, max 200)", "cursor": CURSOR_DOC}),
    tool("slack_post_message", "chat.postMessage", "Post a new message to a Slack channel",
         args={"channel_id": "channel", "text": "text"}, required=("channel_id", "text"),
         docs={"channel_id": "The ID of the channel to post to", "text": "The message text to post"}),
    tool("slack_reply_to_thread", "chat.postMessage", "Reply to a specific message thread in Slack",
         args={"channel_id": "channel", "thread_ts": "thread_ts", "text": "text"}, required=("channel_id", "thread_ts", "text"),
         docs={"channel_id": "The ID of the channel containing the thread", "thread_ts": THREAD_TS_DOC, "text": "The reply text"}),
    tool("slack_add_reaction", "reactions.add", "Add a reaction emoji to a message",
         args={"channel_id": "channel", "timestamp": "timestamp", "reaction": "name"},
         docs={"channel_id": "The ID of the channel containing the message", "timestamp": "The timestamp of the message to react to", "reaction": REACTION_DOC}),
    tool("slack_get_channel_history", "conversations.history", "Get recent messages from a channel",
         args={"channel_id": "channel", "limit": "limit"}, defaults={"limit": 10},
         docs={"channel_id": "The ID of the channel", "limit": "Number of messages to retrieve (default 10)"}),
    tool("slack_get_thread_replies", "conversations.replies", "Get all replies in a message thread",
         args={"channel_id": "channel", "thread_ts": "ts"},
         docs={"channel_id": "The ID of the channel containing the thread", "thread_ts": THREAD_TS_DOC}),
    tool("slack_get_users", "users.list", "Get a list of all users in the workspace with their basic profile information",
         args={"cursor": "cursor", "limit": "limit"}, defaults={"limit": 100}, caps={"limit": 200},
         docs={"cursor": CURSOR_DOC, "limit": "Maximum number of users to return (default 100, max 200)"}),
    tool("slack_get_user_profile", "users.profile.get", "Get detailed profile information for a specific user",
         args={"user_id": "user"}, required=("user_id",), docs={"user_id": "The ID of the user"}),
    # -- beyond the reference server ---------------------------------------------------
    tool("slack_search_messages", "search.messages",
         "Search messages you can see. Supports Slack search syntax: words, \"phrases\", -exclude, in:#channel, "
         "from:@user, from:me, before:/after:/on:YYYY-MM-DD, during:YYYY-MM, has:reaction, has:pin, is:thread",
         defaults={"count": 20, "page": 1},
         docs={"query": "Search query, e.g. 'renewal in:#cs-renewals from:@priya.sharma'",
               "count": "Results per page (default 20, max 100)", "page": "Page number, starting at 1",
               "sort": "'score' (default) or 'timestamp'", "sort_dir": "'desc' (default) or 'asc'"}),
    tool("slack_list_conversations", "users.conversations",
         "List the conversations you are a member of: public and private channels, group DMs and DMs",
         args={"types": "types", "limit": "limit", "cursor": "cursor"},
         defaults={"types": "public_channel,private_channel,mpim,im", "limit": 100}, caps={"limit": 200},
         docs={"limit": "Maximum number to return (default 100, max 200)", "cursor": CURSOR_DOC}),
    tool("slack_get_channel_info", "conversations.info", "Get information about a channel: name, topic, purpose, privacy, member count",
         args=CHANNEL_ID, docs={"channel_id": CHANNEL_DOC}),
    tool("slack_get_channel_members", "conversations.members", "List the user IDs of a channel's members",
         args={"channel_id": "channel", "limit": "limit", "cursor": "cursor"}, defaults={"limit": 100},
         docs={"channel_id": CHANNEL_DOC, "limit": "Maximum number of members (default 100, max 1000)", "cursor": CURSOR_DOC}),
    tool("slack_lookup_user_by_email", "users.lookupByEmail", "Find a user by email address",
         docs={"email": "The user's email address"}),
    tool("slack_create_channel", "conversations.create", "Create a public or private channel; you become its first member",
         docs={"is_private": "Create a private channel (default false)"}),
    tool("slack_join_channel", "conversations.join", "Join a public channel", args=CHANNEL_ID, hint="idempotent",
         docs={"channel_id": CHANNEL_DOC}),
    tool("slack_invite_to_channel", "conversations.invite", "Invite users to a channel you are a member of",
         args={"channel_id": "channel", "users": "users"},
         docs={"channel_id": CHANNEL_DOC, "users": "Comma-separated user IDs, e.g. 'U0123ABCDEF,U0456GHIJKL'"}),
    tool("slack_open_dm", "conversations.open",
         "Open (or find) a direct message with one user, or a group DM with several; returns the channel ID to post to",
         hint="idempotent", docs={"users": "One user ID for a DM, or up to 8 comma-separated for a group DM"}),
    tool("slack_update_message", "chat.update", "Edit the text of one of your messages",
         args={"channel_id": "channel", "ts": "ts", "text": "text"}, required=("channel_id", "ts", "text"), hint="destructive",
         docs={"channel_id": CHANNEL_DOC, "ts": TS_DOC, "text": "The new message text"}),
    tool("slack_delete_message", "chat.delete", "Delete one of your messages",
         args={"channel_id": "channel", "ts": "ts"}, hint="destructive", docs={"channel_id": CHANNEL_DOC, "ts": TS_DOC}),
    tool("slack_remove_reaction", "reactions.remove", "Remove one of your reactions from a message",
         args={"channel_id": "channel", "timestamp": "timestamp", "reaction": "name"}, hint="destructive",
         docs={"channel_id": CHANNEL_DOC, "timestamp": TS_DOC, "reaction": REACTION_DOC}),
    tool("slack_pin_message", "pins.add", "Pin a message to its channel",
         args={"channel_id": "channel", "timestamp": "timestamp"}, hint="idempotent", docs={"channel_id": CHANNEL_DOC, "timestamp": TS_DOC}),
    tool("slack_unpin_message", "pins.remove", "Unpin a message from its channel",
         args={"channel_id": "channel", "timestamp": "timestamp"}, hint="destructive", docs={"channel_id": CHANNEL_DOC, "timestamp": TS_DOC}),
    tool("slack_set_channel_topic", "conversations.setTopic", "Set a channel's topic",
         args={"channel_id": "channel", "topic": "topic"}, hint="idempotent",
         docs={"channel_id": CHANNEL_DOC, "topic": "The new topic (max 250 characters)"}),
    tool("slack_archive_channel", "conversations.archive", "Archive a channel", args=CHANNEL_ID, hint="destructive",
         docs={"channel_id": CHANNEL_DOC}),
), instructions="Slack: channels, messages, threads, reactions, people (slack_* tools).")

# -- Slack's official hosted MCP server ---------------------------------------------------
# Its 13 tool names as MCP catalogs list them. Its arguments are not published, so they take
# the Web API's own names (channel_id, thread_ts, text, query, user_id, post_at, cursor, limit);
# `channel_id` also takes a user ID, meaning your DM with them, as Slack's server does.
SEARCH_ARGS = {"query": "query", "limit": "count", "page": "page", "sort": "sort", "sort_dir": "sort_dir"}
SEARCH_DOCS = {
    "query": "Search query: words, \"phrases\", -excluded, in:#channel, from:@user, from:me, before:/after:/on:YYYY-MM-DD, "
             "during:YYYY-MM, has:reaction, has:pin, is:thread",
    "limit": "Results per page (default 20, max 100)", "page": "Page number, starting at 1",
    "sort": "'score' (default) or 'timestamp'", "sort_dir": "'desc' (default) or 'asc'",
}
MESSAGE_DOCS = {
    "channel_id": "Where to send: a channel ID ('C…'), or a user ID ('U…') for your DM with them",
    "text": "The message, in Slack mrkdwn (*bold*, _italic_, `code`, <@U…> mentions); at most 40,000 characters",
    "thread_ts": "To reply in a thread: the parent message's ts ('1234567890.123456'); leave out for a new message",
    "reply_broadcast": "With thread_ts: also show the reply in the channel (default false)",
    "blocks": "Optional Block Kit blocks (a JSON array, at most 50); text is then their fallback, rendered from them when left out",
}
OFFICIAL = Toolset("official", "chat", (
    tool("slack_search_public", "search.messages", "Search messages in public channels (no private channels or DMs). Supports Slack search syntax.",
         args=SEARCH_ARGS, fixed={"channel_types": "public_channel"}, defaults={"limit": 20}, caps={"limit": 100}, docs=SEARCH_DOCS),
    tool("slack_search_public_and_private", "search.messages",
         "Search messages in every conversation you can see: public and private channels, DMs and group DMs. Supports Slack search syntax.",
         args=SEARCH_ARGS, fixed={"channel_types": "public_channel,private_channel,mpim,im"}, defaults={"limit": 20}, caps={"limit": 100},
         docs=SEARCH_DOCS),
    tool("slack_search_channels", "conversations.list", "Find channels by words in their name, topic or purpose; returns their IDs and details",
         args={"query": "query", "channel_types": "types", "limit": "limit", "cursor": "cursor"}, required=("query",),
         defaults={"channel_types": "public_channel,private_channel", "limit": 20}, caps={"limit": 200},
         docs={"query": "Words to find in channel names, topics and purposes, e.g. 'renewals'",
               "channel_types": "Comma-separated: public_channel, private_channel (default both; private ones only if you are in them)",
               "limit": "Maximum number of channels (default 20, max 200)", "cursor": CURSOR_DOC}),
    tool("slack_search_users", "users.list", "Find people by name, handle, email or title; returns their user IDs and profiles",
         args={"query": "query", "limit": "limit", "cursor": "cursor"}, required=("query",), defaults={"limit": 20}, caps={"limit": 200},
         docs={"query": "Words to find, e.g. 'priya' or 'account executive'", "limit": "Maximum number of people (default 20, max 200)",
               "cursor": CURSOR_DOC}),
    tool("slack_read_channel", "conversations.history", "Read a channel's or DM's messages, newest first, with thread summaries and reactions",
         args={"channel_id": "channel", "limit": "limit", "cursor": "cursor", "oldest": "oldest", "latest": "latest"},
         defaults={"limit": 20}, caps={"limit": 200},
         docs={"channel_id": "The channel ID ('C…'), a DM ID ('D…'), or '#name'", "limit": "Maximum number of messages (default 20, max 200)",
               "cursor": CURSOR_DOC, "oldest": "Only messages after this ts", "latest": "Only messages before this ts"}),
    tool("slack_read_thread", "conversations.replies", "Read a whole thread: the parent message, then its replies oldest first",
         args={"channel_id": "channel", "thread_ts": "ts", "limit": "limit", "cursor": "cursor"}, caps={"limit": 1000},
         docs={"channel_id": "The ID of the channel holding the thread", "thread_ts": THREAD_TS_DOC,
               "limit": "Maximum number of replies (default all, up to 1000)", "cursor": CURSOR_DOC}),
    tool("slack_read_user_profile", "users.info", "Read a person's profile: name, title, email, time zone, status",
         args={"user_id": "user"}, docs={"user_id": "The user's ID ('U…'); leave out to read your own profile"}),
    tool("slack_read_canvas", "files.info", "Read a canvas: its title, where it is attached, and its markdown content",
         args={"canvas_id": "file"}, docs={"canvas_id": "The canvas ID ('F…')"}),
    tool("slack_create_canvas", "canvases.create",
         "Create a canvas (a markdown document); give channel_id to attach it to a channel, where its members can read it",
         args={"title": "title", "content": "document_content", "channel_id": "channel_id"}, required=("title", "content"),
         docs={"title": "The canvas title", "content": "The canvas content, in markdown",
               "channel_id": "Optional: the channel to attach the canvas to"}),
    tool("slack_update_canvas", "canvases.edit", "Change a canvas: replace its content, add to its start or end, and/or rename it",
         args={"canvas_id": "canvas_id", "content": "document_content", "operation": "operation", "title": "title_content"},
         required=("canvas_id",), hint="destructive",
         docs={"canvas_id": "The canvas ID ('F…')", "content": "Markdown; leave out when only renaming",
               "operation": "What content does: 'replace' (default, the whole document), 'insert_at_end' or 'insert_at_start'",
               "title": "A new title (optional)"}),
    tool("slack_send_message", "chat.postMessage", "Send a message to a channel, a person (their user ID) or a thread; others see it at once",
         args={"channel_id": "channel", "text": "text", "thread_ts": "thread_ts", "reply_broadcast": "reply_broadcast", "blocks": "blocks"},
         required=("channel_id",), docs=MESSAGE_DOCS),
    tool("slack_send_message_draft", "drafts.create",
         "Save a message as a draft for you to review and send later; nobody else sees it. One draft per channel or thread",
         args={"channel_id": "channel", "text": "text", "thread_ts": "thread_ts"}, required=("channel_id", "text"),
         docs={k: MESSAGE_DOCS[k] for k in ("channel_id", "text", "thread_ts")}),
    tool("slack_schedule_message", "chat.scheduleMessage",
         "Schedule a message to be sent later, at post_at (Unix seconds, in the future, at most 120 days ahead); it is not sent now",
         args={"channel_id": "channel", "post_at": "post_at", "text": "text", "thread_ts": "thread_ts",
               "reply_broadcast": "reply_broadcast", "blocks": "blocks"},
         required=("channel_id", "post_at"),
         docs={**MESSAGE_DOCS, "post_at": "When to send it: Unix seconds (UTC), later than now"}),
), instructions=(
    "Slack, as Slack's own MCP server offers it: search messages, channels and people; read channels, threads, profiles "
    "and canvases; send, draft and schedule messages; create and update canvases. Find IDs with slack_search_channels and "
    "slack_search_users; a user ID as channel_id means your DM with that person."
))

TOOLSETS = (REFERENCE, OFFICIAL)

# What `officegym bench` times for chat: reading #general's seeded history, and posting there.
BENCH_PROBE = Probe(
    mcp_read=Call("slack_get_channel_history", {"channel_id": "#general", "limit": 10}),
    mcp_write=Call("slack_post_message", {"channel_id": "#general", "text": "bench message {i}"}),
    rest_read=Call("conversations.history", {"channel": "#general", "limit": 10}, method="GET"),
    rest_write=Call("chat.postMessage", {"channel": "#general", "text": "bench message {i}"}),
)
