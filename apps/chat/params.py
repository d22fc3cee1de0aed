"""The typed arguments of chat operations: one definition of what each face accepts.

The descriptions are the ones agents read in tool schemas; the limits are Slack's own.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

MAX_REF_CHARS = 256  # longer than any id, name, handle or email Slack accepts

ChannelRef = Annotated[str, Field(max_length=MAX_REF_CHARS, description="A channel ID ('C0123ABCDEF' or a DM 'D…'); '#name' and '@user' (your DM with them) also work")]
UserRef = Annotated[str, Field(max_length=MAX_REF_CHARS, description="A user ID ('U0123ABCDEF'); '@handle' and an email also work")]
UserRefs = Annotated[str | list[str], Field(description="User IDs: a comma-separated string ('U0123ABCDEF,U0456GHIJKL') or a list")]
Ts = Annotated[str, Field(max_length=64, description="A message timestamp, in the format '1234567890.123456'")]
Text = Annotated[str, Field(description="The message text (Slack mrkdwn); at most 40,000 characters")]
Cursor = Annotated[str, Field(max_length=512, description="Pagination cursor: response_metadata.next_cursor of the previous page")]
Limit = Annotated[int, Field(ge=1, description="Maximum number of items to return")]
Types = Annotated[str, Field(max_length=128, description="Comma-separated conversation types: public_channel, private_channel, mpim, im")]
Emoji = Annotated[str, Field(max_length=128, description="The emoji name, without colons (e.g. 'thumbsup')")]
Name = Annotated[str, Field(max_length=MAX_REF_CHARS, description="Channel name: lowercase letters, digits, hyphens, underscores; at most 80 characters")]
Topic = Annotated[str, Field(description="The new value; at most 250 characters")]
Query = Annotated[str, Field(max_length=1000, description="Search query with Slack's modifiers: in:#channel, from:@user, before:/after:/on:YYYY-MM-DD, during:YYYY-MM, has:reaction, has:pin, is:thread")]
Email = Annotated[str, Field(max_length=MAX_REF_CHARS, description="An email address")]
Blocks = Annotated[list[Any] | str, Field(description="Block Kit blocks: a JSON array of block objects (or that array as a JSON string), at most 50; text then becomes the fallback, rendered from the blocks when not given")]
Attachments = Annotated[list[Any] | str, Field(description="Legacy secondary attachments: a JSON array (or that array as a JSON string) of at most 100 objects like {\"text\", \"fallback\", \"pretext\", \"title\", \"fields\": [{\"title\", \"value\", \"short\"}], \"color\"}, shown under the message")]
ChannelQuery = Annotated[str, Field(max_length=MAX_REF_CHARS, description="Words to find in channel names, topics and purposes (case-insensitive)")]
PeopleQuery = Annotated[str, Field(max_length=MAX_REF_CHARS, description="Words to find in people's names, handles, emails and titles (case-insensitive)")]
PostAt = Annotated[int, Field(description="When to post, as Unix seconds (UTC); must be in the future, at most 120 days ahead")]
TimeBound = Annotated[int, Field(ge=0, le=2**31 - 1, description="Unix seconds: only messages scheduled for this time or later (oldest) / earlier (latest)")]
ScheduledId = Annotated[str, Field(max_length=64, description="A scheduled message ID ('Q…') from chat.scheduleMessage or chat.scheduledMessages.list")]
CanvasId = Annotated[str, Field(max_length=64, description="A canvas ID ('F…') from canvases.create")]
Title = Annotated[str, Field(max_length=MAX_REF_CHARS, description="The canvas title")]
DocumentContent = Annotated[dict[str, Any] | str, Field(description="The canvas content: {\"type\": \"markdown\", \"markdown\": \"…\"} (or it as a JSON string), or the markdown itself")]
Changes = Annotated[list[Any] | str, Field(description="Canvas changes: a JSON array of {operation: insert_at_start | insert_at_end | replace | rename, document_content?, title_content?}")]
CanvasOperation = Annotated[str, Field(max_length=32, description="How content changes the canvas: 'replace' (the whole document), 'insert_at_end', 'insert_at_start', or 'rename' (title only)")]
DraftId = Annotated[str, Field(max_length=64, description="A draft ID ('Dr…') from drafts.create or drafts.list")]
