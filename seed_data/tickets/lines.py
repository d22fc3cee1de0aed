"""Word banks of the tickets seeder: epics, IT requests, comments, components and labels."""

from __future__ import annotations

import re

# (epic summary, keywords of the ENG work it groups)
EPICS = (
    ("Enterprise identity: SSO, SCIM and 2FA", ("sso", "scim", "two-factor", "2fa", "totp", "signing keys", "auth")),
    ("Integrations reliability", ("sync", "connector", "webhook", "integration", "events", "retry")),
    ("Reporting and exports", ("report", "export", "dashboard", "csv", "widget", "chart")),
    ("Platform hardening", ("postgresql", "queue", "failover", "alerting", "rate limit", "load", "runbook", "memory", "pagination")),
    ("Data residency and compliance", ("residency", "region", "audit", "siem", "deprecated")),
)

# Subtasks a story in flight is split into: (summary prefix, share of its points)
SUBTASKS = ("Design the API and data model", "Implement the backend", "Build the UI", "Write tests", "Update the docs")

# (summary, description) of employee IT requests
IT_REQUESTS = (
    ("New laptop for {name}", "{name} starts soon and needs a laptop with the standard engineering image."),
    ("VPN access for {name}", "{name} cannot connect to the VPN from home; the client says 'certificate expired'."),
    ("Reset MFA device for {name}", "{name} replaced their phone and can no longer approve sign-ins."),
    ("Add {name} to the finance shared drive", "{name} needs read access to the finance shared drive for month-end."),
    ("Replace broken monitor at desk of {name}", "The second monitor flickers and then goes black after a few minutes."),
    ("Office Wi-Fi drops in the meeting rooms", "Calls in the meeting rooms drop every 10–15 minutes since the weekend."),
    ("Printer on the 3rd floor jams on double-sided jobs", "Every double-sided print jams on page two."),
    ("Provision a GitHub seat for {name}", "{name} needs access to the engineering organisation on GitHub."),
    ("Laptop battery swelling for {name}", "The trackpad is lifting; the battery looks swollen and should be replaced."),
    ("Offboard {name}: revoke access and collect hardware", "{name} leaves at the end of the month; revoke SaaS access and collect the laptop."),
    ("Install the design suite for {name}", "{name} needs the design suite licence activated on their laptop."),
    ("Conference room display does not detect USB-C", "The display in the big conference room shows 'no signal' for USB-C laptops."),
    ("Rotate the shared admin password", "Quarterly rotation of the shared admin password in the password manager."),
    ("Email forwarding for {name} while on leave", "{name} is on leave for four weeks; forward their email to their manager."),
    ("Upgrade the office firewall firmware", "The firewall vendor published a security advisory; upgrade before the end of the month."),
)

COMMENTS_TRIAGE = (
    "Thanks for the report. I can reproduce this on our side and I'm looking into it now.",
    "Picking this up. {customer} confirmed it still happens this morning.",
    "Could you share the exact time it last happened and a screenshot of the error?",
    "Triaged: priority {priority}, assigning to {assignee}.",
    "Linked to the related engineering ticket so we can track the fix.",
    "Checked the logs: the errors line up with the times in the description.",
)
COMMENTS_PROGRESS = (
    "Root cause found: it is a timing issue in the retry path. Working on a fix.",
    "Fix is in review, should go out with the next deploy.",
    "Workaround shared with {customer}: a manual resync unblocks them for now.",
    "Paired with {other} on this; we have a plan and an estimate of two days.",
    "Still waiting on the customer for the export they mentioned.",
    "Deployed to staging; verifying before we roll it out.",
    "Added a regression test that reproduces the failure.",
    "This touches more than expected; splitting out a follow-up for the cleanup.",
)
COMMENTS_DONE = (
    "Fixed and deployed. {customer} confirmed everything works again.",
    "Resolved: the fix shipped in this week's release.",
    "Closing this out; the customer is happy with the workaround and the fix is live.",
    "Done. Monitoring for a few days to make sure it doesn't come back.",
    "Verified in production. Thanks everyone!",
)
COMMENTS_ENG = (
    "Estimated at {points} points after grooming.",
    "PR is up: please review when you have a moment.",
    "Blocked on a dependency upgrade; will pick up again once it lands.",
    "Load-tested on staging, numbers look good.",
    "Added metrics and an alert for this path.",
)

# (component, words in a summary that place an issue in it), first match wins
COMPONENTS = {
    "SUP": (
        ("Authentication", ("sso", "login", "password", "two-factor", "scim", "saml")),
        ("Integrations", ("sync", "connector", "webhook", "integration", "salesforce", "hubspot", "zendesk", "slack")),
        ("Reporting", ("export", "report", "dashboard", "chart", "csv", "audit")),
        ("Billing", ("invoice", "billing", "seats", "tax")),
        ("Mobile", ("mobile", "ios", "android")),
        ("API", ("api", "rate limit", "filter")),
    ),
    "ENG": (
        ("Auth", ("sso", "scim", "two-factor", "2fa", "signing keys", "auth")),
        ("Integrations", ("sync", "connector", "webhook", "integration", "events")),
        ("Reporting", ("report", "export", "dashboard", "widget", "csv")),
        ("Infrastructure", ("postgresql", "queue", "failover", "alerting", "region", "load", "runbook", "memory")),
        ("API", ("api", "endpoints", "rate limit", "pagination")),
        ("Web App", ("drag and drop", "board view", "dark mode", "workflow builder", "bulk edit")),
    ),
    "IT": (
        ("Hardware", ("laptop", "monitor", "printer", "battery", "display")),
        ("Access", ("vpn", "mfa", "drive", "github", "offboard", "password", "email")),
        ("Network", ("wi-fi", "firewall")),
        ("Software", ("install", "suite")),
    ),
}

# (label, words in a summary that earn it)
LABELS = (
    ("sso", ("sso", "saml", "scim", "idp")),
    ("integration", ("sync", "connector", "webhook", "integration")),
    ("export", ("export", "csv")),
    ("performance", ("latency", "slow", "times out", "timeout", "load", "memory")),
    ("security", ("two-factor", "2fa", "audit", "signing keys", "soc 2", "security", "password")),
    ("tech-debt", ("upgrade", "migrate", "remove deprecated", "bump", "flaky")),
)

# The groomed ENG backlog: estimated work in no sprint yet, what sprint planning chooses from.
# (issue type, summary, description)
BACKLOG = (
    ("Story", "Bulk edit for issue labels", "Let admins add or remove a label on many records at once from the list view."),
    ("Story", "Dark mode for the web app", "Customers keep asking for a dark theme; follow the system setting by default."),
    ("Task", "Upgrade the PDF rendering library", "The library we use for exported PDFs is two major versions behind."),
    ("Story", "Saved filters on the dashboard", "Let users save a dashboard filter and share it with their team."),
    ("Bug", "Timezone shown wrong in scheduled report emails", "Scheduled report emails show UTC instead of the recipient's timezone."),
    ("Task", "Remove the deprecated v1 webhook payloads", "Customers were given a year's notice; the v1 payload format can go."),
    ("Story", "Audit log export to CSV", "Compliance teams want to download the audit log for a date range as CSV."),
    ("Bug", "Search results skip archived workspaces inconsistently", "Some searches include archived workspaces and others do not."),
    ("Task", "Add retry with backoff to the outbound email queue", "A provider hiccup currently drops the whole batch."),
    ("Story", "Keyboard shortcuts for the board view", "Power users want to move cards and open issues without the mouse."),
    ("Task", "Flaky integration tests in the sync suite", "The connector sync tests fail about one run in ten on CI."),
    ("Story", "Per-workspace API rate limit settings", "Let enterprise admins raise or lower the API rate limit per workspace."),
    ("Bug", "Mobile app logs users out after an update", "After each app store update the mobile app forgets the session."),
    ("Story", "Workflow builder: conditional transitions", "Allow a transition only when a field has a given value."),
    ("Task", "Document the on-call runbook for the search cluster", "The search cluster has no runbook; write one from the last two incidents."),
)
BACKLOG_SIZE = {"small": (9, 12), "large": (12, 15)}  # how many of them a company's backlog holds (inclusive range)
BACKLOG_PRIORITIES = ("Highest", "High", "High", "Medium", "Medium", "Medium", "Low", "Lowest")

# What a ticket is about, read from its summary: the first topic any of whose words the summary
# has. SUP and ENG tickets share these, so a bug and the support ticket it came from (or a case
# and its fix) can be told to belong together; None for internal chores no customer reports.
TOPICS = (
    (None, ("flaky", "integration tests")),
    ("memory", ("memory leak",)),
    ("api fields", ("returned by the api",)),
    ("sign-in", ("sso", "saml", "scim", "login", "password", "two-factor", "2fa", "auth-service", "signing keys")),
    ("sync", ("sync", "connector", "webhook", "drops events", "retry logic")),
    ("errors under load", ("under load", "latency", "errors on")),
    ("scheduled reports", ("scheduled report",)),
    ("exports", ("export", "csv")),
    ("dashboards", ("dashboard", "chart", "reports", "memory leak")),
    ("api", ("filter", "pagination", "rate limit")),
    ("search", ("search",)),
    ("mobile", ("mobile", "ios", "android", "ipados")),
    ("billing", ("invoice", "billing", "seats", "tax")),
    ("board", ("drag and drop", "board view", "workflow builder")),
)


def internal_work(summary: str) -> bool:
    """Engineering's own chores (flaky tests): no customer reports them or asks about them."""
    text = summary.lower()
    return any(w in text for w in TOPICS[0][1])


def topic_of(summary: str) -> str | None:
    text = summary.lower()
    return next((topic for topic, words in TOPICS if any(w in text for w in words)), None)


# The epic each ENG component's work belongs under.
EPIC_OF_COMPONENT = {
    "Auth": "Enterprise identity: SSO, SCIM and 2FA", "Integrations": "Integrations reliability",
    "Reporting": "Reporting and exports", "Infrastructure": "Platform hardening", "API": "Platform hardening",
}


# What support did to resolve a customer ticket of each kind (keyed by its SUP summary template,
# seed_data._words.SUP_TEMPLATES): a case is closed with a fix that fits what it is about.
SUP_FIXES = {
    "SSO login fails for users with plus-addressed emails": ("Corrected the SAML email mapping so plus-addressed users can sign in",),
    "CSV export times out above {rows}k rows": ("Fixed the export timeout in the 2.14 release", "Moved large exports to the background export queue"),
    "Dashboard filters reset after page refresh": ("Fixed saving of dashboard filters in the 2.14 release",),
    "Webhook deliveries retried twice on HTTP {code} responses": ("Deployed the webhook retry fix; duplicate deliveries stopped",),
    "{integration} sync skips records updated in the same minute": ("Fixed the sync cursor and resynced the skipped records",),
    "Scheduled report emails arrive with empty attachments": ("Fixed the report attachment job and re-sent the reports",),
    "SCIM deprovisioning leaves users active in workspace": ("Fixed SCIM deprovisioning and removed the stale users",),
    "Audit log missing entries for bulk permission changes": ("Backfilled the missing audit log entries for bulk edits",),
    "Mobile app crashes when opening notifications on {os}": ("Shipped mobile app 5.3, which stops the notification crash",),
    "Date picker shows the wrong day for users in {tzr} timezones": ("Fixed the date picker timezone offset and corrected the saved dates",),
    "API returns {code} when a filter contains non-ASCII characters": ("Fixed Unicode handling in API filters in the 2.14 release",),
    "Bulk import rejects CSV files with a UTF-8 BOM": ("Bulk import now strips the byte order mark; their file imported",),
    "{widget} chart tooltips overlap the legend in {browser}": ("Fixed the chart tooltip placement in the 2.14 release",),
    "Search does not find records created in the last hour": ("Rebuilt the search index; results are back",),
    "Invoice PDF shows the wrong tax rate for customers in {country}": ("Re-sent the invoice with the corrected VAT number",
                                                                       "Corrected the tax rate on their billing entity and reissued the invoice"),
    "Password reset link expires immediately for some users": ("Fixed the reset token expiry; new links work",),
    "Custom {field} fields blank after workspace migration": ("Restored the custom field values from the pre-migration backup",),
    "Attachments over {mb} MB fail to upload without an error": ("Raised the upload size limit and added an error for oversized files",),
    "Duplicate notifications sent when a record is reassigned": ("Deduplicated reassignment notifications in the 2.14 release",),
    "Guest users get a permission error on shared dashboards": ("Fixed guest access to shared dashboards",),
    "Exported timestamps shifted by the timezone offset twice": ("Fixed the double timezone shift in exports",),
    "Intermittent {code} errors on dashboard load in {region}": ("Replaced the failing load balancer node; dashboards load again",),
    "Elevated API latency in {region} region": ("Scaled out the API cluster; latency is back to normal",),
    "Webhook deliveries delayed by up to {minutes} minutes": ("Drained the webhook queue and added workers; deliveries are on time",),
    "SSO login outage for {idp} customers": ("Reset the SSO certificate; logins work again",),
    "Scheduled reports not sent overnight": ("Restarted the report scheduler and re-sent last night's reports",),
    "{integration} connector sync backlog": ("Cleared the connector backlog; syncs are current again",),
    "Enable SSO with {idp} for the workspace": ("Configured SSO with their identity provider and enforced it",),
    "Raise API rate limit for their {integration} integration": ("Raised the API rate limit for their workspace",),
    "Restore a deleted dashboard from backup": ("Restored the dashboard and its filters from backup",),
    "Update billing contact and add seats": ("Updated the billing contact and added the seats",),
    "Export full audit log for compliance review": ("Sent them the full audit log export as CSV",),
    "Transfer workspace ownership to a new admin": ("Transferred workspace ownership to their IT director",),
    "Set up a sandbox environment for UAT": ("Provisioned the UAT sandbox with their production configuration",),
    "Configure data residency in {region}": ("Moved their data to the requested region and confirmed residency",),
    "Merge duplicate user accounts": ("Merged the duplicate user accounts",),
    "Send SOC 2 report and security questionnaire answers": ("Sent the SOC 2 Type II report and the completed questionnaire",),
}


def sup_template(summary: str) -> str | None:
    """The SUP summary template a ticket's summary was written from (None for others)."""
    text = summary.split(" — ", 1)[0]
    for template in SUP_FIXES:
        pattern = "".join("(.+)" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{\w+\})", template))
        if re.fullmatch(pattern, text):
            return template
    return None
