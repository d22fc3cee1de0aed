"""The chat tool server: the Slack reference MCP server's 8 tools, with their exact names,
arguments and result shapes (one text item holding the Slack API response JSON), plus the
tools agents need beyond them, in the same naming style. Thin over `apps.chat.service`."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from apps.chat.errors import error_body, ok_body
from apps.chat.service import ChatService
from mcp_servers._base import ADDITIVE, DESTRUCTIVE, IDEMPOTENT, READ_ONLY, run_tool

ChannelId = Annotated[str, Field(description="The ID of the channel (e.g. 'C0123ABCDEF'); '#name' also works")]
Ts = Annotated[str, Field(description="The timestamp of the message, in the format '1234567890.123456'")]
Text = Annotated[str, Field(description="The message text to post")]


def _call(ctx: Context, tool: str, args: dict[str, Any], method: str, **kwargs: Any) -> CallToolResult:
    return run_tool(
        ctx, app="chat", tool=tool, args=args,
        operation=lambda db: getattr(ChatService(db), method)(**kwargs),
        error_body=error_body, ok_body=ok_body,
    )


def register(server: MCPServer) -> None:
    """Add the chat tools to `server` (the chat server, or the all-apps server).

    Tools are `async def` although they block on SQLite: a call is a few hundred µs of local
    I/O, far cheaper than the SDK's hop to a worker thread for a sync tool (~1.5 ms).
    """

    # -- the reference server's 8 tools ------------------------------------------------
    @server.tool(description="List public channels in the workspace with pagination", annotations=READ_ONLY)
    async def slack_list_channels(
        ctx: Context,
        limit: Annotated[int, Field(description="Maximum number of channels to return (default 100, max 200)")] = 100,
        cursor: Annotated[str | None, Field(description="Pagination cursor for next page of results")] = None,
    ) -> CallToolResult:
        args = {"limit": limit, "cursor": cursor}
        return _call(ctx, "slack_list_channels", args, "conversations_list",
                     types="public_channel", exclude_archived=True, limit=min(max(limit, 1), 200), cursor=cursor)

    @server.tool(description="Post a new message to a Slack channel", annotations=ADDITIVE)
    async def slack_post_message(ctx: Context, channel_id: ChannelId, text: Text) -> CallToolResult:
        return _call(ctx, "slack_post_message", {"channel_id": channel_id, "text": text},
                     "chat_post_message", channel=channel_id, text=text)

    @server.tool(description="Reply to a specific message thread in Slack", annotations=ADDITIVE)
    async def slack_reply_to_thread(
        ctx: Context,
        channel_id: ChannelId,
        thread_ts: Annotated[str, Field(description="The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.")],
        text: Annotated[str, Field(description="The reply text")],
    ) -> CallToolResult:
        args = {"channel_id": channel_id, "thread_ts": thread_ts, "text": text}
        return _call(ctx, "slack_reply_to_thread", args, "chat_post_message", channel=channel_id, text=text, thread_ts=thread_ts)

    @server.tool(description="Add a reaction emoji to a message", annotations=ADDITIVE)
    async def slack_add_reaction(
        ctx: Context, channel_id: ChannelId, timestamp: Ts,
        reaction: Annotated[str, Field(description="The name of the emoji reaction (without ::)")],
    ) -> CallToolResult:
        args = {"channel_id": channel_id, "timestamp": timestamp, "reaction": reaction}
        return _call(ctx, "slack_add_reaction", args, "reactions_add", channel=channel_id, timestamp=timestamp, name=reaction)

    @server.tool(description="Get recent messages from a channel", annotations=READ_ONLY)
    async def slack_get_channel_history(
        ctx: Context, channel_id: ChannelId,
        limit: Annotated[int, Field(description="Number of messages to retrieve (default 10)")] = 10,
    ) -> CallToolResult:
        return _call(ctx, "slack_get_channel_history", {"channel_id": channel_id, "limit": limit},
                     "conversations_history", channel=channel_id, limit=limit)

    @server.tool(description="Get all replies in a message thread", annotations=READ_ONLY)
    async def slack_get_thread_replies(
        ctx: Context, channel_id: ChannelId,
        thread_ts: Annotated[str, Field(description="The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.")],
    ) -> CallToolResult:
        return _call(ctx, "slack_get_thread_replies", {"channel_id": channel_id, "thread_ts": thread_ts},
                     "conversations_replies", channel=channel_id, ts=thread_ts)

    @server.tool(description="Get a list of all users in the workspace with their basic profile information", annotations=READ_ONLY)
    async def slack_get_users(
        ctx: Context,
        cursor: Annotated[str | None, Field(description="Pagination cursor for next page of results")] = None,
        limit: Annotated[int, Field(description="Maximum number of users to return (default 100, max 200)")] = 100,
    ) -> CallToolResult:
        return _call(ctx, "slack_get_users", {"cursor": cursor, "limit": limit},
                     "users_list", limit=min(max(limit, 1), 200), cursor=cursor)

    @server.tool(description="Get detailed profile information for a specific user", annotations=READ_ONLY)
    async def slack_get_user_profile(
        ctx: Context, user_id: Annotated[str, Field(description="The ID of the user")],
    ) -> CallToolResult:
        return _call(ctx, "slack_get_user_profile", {"user_id": user_id}, "users_profile_get", user=user_id)

    # -- beyond the reference server ---------------------------------------------------
    @server.tool(description="Search messages you can see. Supports Slack search syntax: words, \"phrases\", -exclude, in:#channel, from:@user, from:me, before:/after:/on:YYYY-MM-DD, during:YYYY-MM, has:reaction, has:pin, is:thread", annotations=READ_ONLY)
    async def slack_search_messages(
        ctx: Context,
        query: Annotated[str, Field(description="Search query, e.g. 'renewal in:#cs-renewals from:@priya.sharma'")],
        count: Annotated[int, Field(description="Results per page (default 20, max 100)")] = 20,
        page: Annotated[int, Field(description="Page number, starting at 1")] = 1,
        sort: Annotated[str, Field(description="'score' (default) or 'timestamp'")] = "score",
        sort_dir: Annotated[str, Field(description="'desc' (default) or 'asc'")] = "desc",
    ) -> CallToolResult:
        args = {"query": query, "count": count, "page": page, "sort": sort, "sort_dir": sort_dir}
        return _call(ctx, "slack_search_messages", args, "search_messages", **args)

    @server.tool(description="List the conversations you are a member of: public and private channels, group DMs and DMs", annotations=READ_ONLY)
    async def slack_list_conversations(
        ctx: Context,
        types: Annotated[str, Field(description="Comma-separated: public_channel, private_channel, mpim, im")] = "public_channel,private_channel,mpim,im",
        limit: Annotated[int, Field(description="Maximum number to return (default 100, max 200)")] = 100,
        cursor: Annotated[str | None, Field(description="Pagination cursor for next page of results")] = None,
    ) -> CallToolResult:
        args = {"types": types, "limit": limit, "cursor": cursor}
        return _call(ctx, "slack_list_conversations", args, "users_conversations",
                     types=types, limit=min(max(limit, 1), 200), cursor=cursor)

    @server.tool(description="Get information about a channel: name, topic, purpose, privacy, member count", annotations=READ_ONLY)
    async def slack_get_channel_info(ctx: Context, channel_id: ChannelId) -> CallToolResult:
        return _call(ctx, "slack_get_channel_info", {"channel_id": channel_id}, "conversations_info", channel=channel_id)

    @server.tool(description="List the user IDs of a channel's members", annotations=READ_ONLY)
    async def slack_get_channel_members(
        ctx: Context, channel_id: ChannelId,
        limit: Annotated[int, Field(description="Maximum number of members (default 100, max 1000)")] = 100,
        cursor: Annotated[str | None, Field(description="Pagination cursor for next page of results")] = None,
    ) -> CallToolResult:
        args = {"channel_id": channel_id, "limit": limit, "cursor": cursor}
        return _call(ctx, "slack_get_channel_members", args, "conversations_members", channel=channel_id, limit=limit, cursor=cursor)

    @server.tool(description="Find a user by email address", annotations=READ_ONLY)
    async def slack_lookup_user_by_email(ctx: Context, email: Annotated[str, Field(description="The user's email address")]) -> CallToolResult:
        return _call(ctx, "slack_lookup_user_by_email", {"email": email}, "users_lookup_by_email", email=email)

    @server.tool(description="Create a public or private channel; you become its first member", annotations=ADDITIVE)
    async def slack_create_channel(
        ctx: Context,
        name: Annotated[str, Field(description="Channel name: lowercase letters, digits, hyphens, underscores; max 80 characters")],
        is_private: Annotated[bool, Field(description="Create a private channel (default false)")] = False,
    ) -> CallToolResult:
        return _call(ctx, "slack_create_channel", {"name": name, "is_private": is_private}, "conversations_create", name=name, is_private=is_private)

    @server.tool(description="Join a public channel", annotations=IDEMPOTENT)
    async def slack_join_channel(ctx: Context, channel_id: ChannelId) -> CallToolResult:
        return _call(ctx, "slack_join_channel", {"channel_id": channel_id}, "conversations_join", channel=channel_id)

    @server.tool(description="Invite users to a channel you are a member of", annotations=ADDITIVE)
    async def slack_invite_to_channel(
        ctx: Context, channel_id: ChannelId,
        users: Annotated[str, Field(description="Comma-separated user IDs, e.g. 'U0123ABCDEF,U0456GHIJKL'")],
    ) -> CallToolResult:
        return _call(ctx, "slack_invite_to_channel", {"channel_id": channel_id, "users": users}, "conversations_invite", channel=channel_id, users=users)

    @server.tool(description="Open (or find) a direct message with one user, or a group DM with several; returns the channel ID to post to", annotations=IDEMPOTENT)
    async def slack_open_dm(
        ctx: Context,
        users: Annotated[str, Field(description="One user ID for a DM, or up to 8 comma-separated for a group DM")],
    ) -> CallToolResult:
        return _call(ctx, "slack_open_dm", {"users": users}, "conversations_open", users=users)

    @server.tool(description="Edit the text of one of your messages", annotations=DESTRUCTIVE)
    async def slack_update_message(ctx: Context, channel_id: ChannelId, ts: Ts, text: Annotated[str, Field(description="The new message text")]) -> CallToolResult:
        return _call(ctx, "slack_update_message", {"channel_id": channel_id, "ts": ts, "text": text}, "chat_update", channel=channel_id, ts=ts, text=text)

    @server.tool(description="Delete one of your messages", annotations=DESTRUCTIVE)
    async def slack_delete_message(ctx: Context, channel_id: ChannelId, ts: Ts) -> CallToolResult:
        return _call(ctx, "slack_delete_message", {"channel_id": channel_id, "ts": ts}, "chat_delete", channel=channel_id, ts=ts)

    @server.tool(description="Remove one of your reactions from a message", annotations=DESTRUCTIVE)
    async def slack_remove_reaction(
        ctx: Context, channel_id: ChannelId, timestamp: Ts,
        reaction: Annotated[str, Field(description="The name of the emoji reaction (without ::)")],
    ) -> CallToolResult:
        args = {"channel_id": channel_id, "timestamp": timestamp, "reaction": reaction}
        return _call(ctx, "slack_remove_reaction", args, "reactions_remove", channel=channel_id, timestamp=timestamp, name=reaction)

    @server.tool(description="Pin a message to its channel", annotations=IDEMPOTENT)
    async def slack_pin_message(ctx: Context, channel_id: ChannelId, timestamp: Ts) -> CallToolResult:
        return _call(ctx, "slack_pin_message", {"channel_id": channel_id, "timestamp": timestamp}, "pins_add", channel=channel_id, timestamp=timestamp)

    @server.tool(description="Unpin a message from its channel", annotations=DESTRUCTIVE)
    async def slack_unpin_message(ctx: Context, channel_id: ChannelId, timestamp: Ts) -> CallToolResult:
        return _call(ctx, "slack_unpin_message", {"channel_id": channel_id, "timestamp": timestamp}, "pins_remove", channel=channel_id, timestamp=timestamp)

    @server.tool(description="Set a channel's topic", annotations=IDEMPOTENT)
    async def slack_set_channel_topic(ctx: Context, channel_id: ChannelId, topic: Annotated[str, Field(description="The new topic (max 250 characters)")]) -> CallToolResult:
        return _call(ctx, "slack_set_channel_topic", {"channel_id": channel_id, "topic": topic}, "conversations_set_topic", channel=channel_id, topic=topic)

    @server.tool(description="Archive a channel", annotations=DESTRUCTIVE)
    async def slack_archive_channel(ctx: Context, channel_id: ChannelId) -> CallToolResult:
        return _call(ctx, "slack_archive_channel", {"channel_id": channel_id}, "conversations_archive", channel=channel_id)
