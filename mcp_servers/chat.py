"""The chat toolsets, as tables of tool → operation bindings.

`REFERENCE` (the default) is the Slack reference MCP server (modelcontextprotocol/servers,
src/slack): its 8 tools with their exact names, arguments and descriptions, plus the tools
agents need beyond them in the same naming style. Results are one text item holding the
Slack API response JSON, as that server returns them.
"""

from __future__ import annotations

from officegym.faces.mcp import Toolset, tool

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
         args={"channel_id": "channel", "ts": "ts", "text": "text"}, hint="destructive",
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

TOOLSETS = (REFERENCE,)
