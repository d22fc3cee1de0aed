"""The typed arguments of chat operations: one definition of what each face accepts.

The descriptions are the ones agents read in tool schemas; the limits are Slack's own.
"""

from __future__ import annotations

from typing import Annotated

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
