"""Word banks for `seed_data.company`: kept apart so the generator reads as logic, not lists.

Everything here is a module-level tuple (or a dict of tuples), so the banks are immutable and
their order is part of the generator's output: reordering or editing an entry changes every
company, so bump `GENERATOR_VERSION` when you touch this file.
"""

from __future__ import annotations

# --- the company's own name -------------------------------------------------------------
# Brand = one head + one tail ("Lum" + "ora" -> "Lumora"): invented words, so a brand never
# collides with a customer name that Faker builds from surnames.
BRAND_HEADS = (
    "Lum", "Vex", "Nor", "Cal", "Tes", "Ori", "Zen", "Kai", "Sol", "Ver", "Quil", "Bri",
    "Hal", "Mer", "Aur", "Cor", "Dex", "Fen", "Ily", "Jun", "Lyr", "Nov", "Pell", "Riv",
    "Sev", "Tal", "Ul", "Vol", "Wyn", "Xan",
)
BRAND_TAILS = ("ora", "ix", "ent", "ova", "era", "yn", "ara", "io", "eon", "ium", "ly", "ano", "is", "ari")
COMPANY_SUFFIXES = ("Systems", "Labs", "Software", "Technologies", "Cloud", "Inc.")
COMPANY_TLDS = (".io", ".io", ".com", ".co", ".ai")

# --- teams --------------------------------------------------------------------------------
# slug -> (display name, description)
TEAM_INFO = {
    "exec": ("Executive", "The leadership team: company strategy, board and investors, and the operating plan."),
    "engineering": ("Engineering", "Builds and runs the platform: product engineering, infrastructure, SRE and QA."),
    "product": ("Product", "Owns the roadmap, discovery and requirements for every product line."),
    "design": ("Design", "Product design, UX research and the design system."),
    "data": ("Data", "Analytics, data engineering and data science for the business and the product."),
    "it": ("IT", "Laptops, SaaS access, identity and internal security."),
    "sales": ("Sales", "New business and expansion: account executives, SDRs and sales engineers."),
    "customer-success": ("Customer Success", "Onboarding, adoption and renewals for every customer account."),
    "support": ("Support", "Front-line and escalation technical support for customers, around the clock."),
    "marketing": ("Marketing", "Demand generation, product marketing, content, brand and events."),
    "finance": ("Finance", "Accounting, billing, FP&A and payroll."),
    "people-ops": ("People Operations", "Recruiting, onboarding, benefits and learning for every employee."),
    "legal": ("Legal", "Contracts, privacy, compliance and corporate matters."),
}

# Executives of a small and of a large company: (title, key that team leads report through).
EXECS_SMALL = (("CEO", "ceo"), ("CTO", "cto"), ("Chief Revenue Officer", "cro"))
EXECS_LARGE = (
    ("CEO", "ceo"), ("CTO", "cto"), ("Chief Product Officer", "cpo"), ("Chief Revenue Officer", "cro"),
    ("Chief Marketing Officer", "cmo"), ("CFO", "cfo"), ("COO", "coo"), ("Chief of Staff", "cos"),
)
# Which executive each team lead reports to; a missing executive means the CEO.
TEAM_EXEC = {
    "engineering": "cto", "data": "cto", "it": "cto", "product": "cpo", "design": "cpo",
    "sales": "cro", "customer-success": "cro", "support": "cro", "marketing": "cmo",
    "finance": "cfo", "legal": "cfo", "people-ops": "coo",
}

# slug -> ladder. lead = (small-company title, large-company title); ics = weighted titles;
# must = titles the first ICs get, so every company has the roles other apps rely on
# (account executives own deals, CSMs own accounts, support/software engineers take tickets).
TEAM_LADDERS = {
    "engineering": {
        "lead": ("Head of Engineering", "VP of Engineering"),
        "director": "Director of Engineering", "manager": "Engineering Manager",
        "must": ("Senior Software Engineer", "Software Engineer", "Software Engineer"),
        "ics": (("Software Engineer", 25), ("Senior Software Engineer", 28), ("Staff Software Engineer", 7),
                ("Principal Engineer", 2), ("Site Reliability Engineer", 8), ("QA Engineer", 5),
                ("Frontend Engineer", 8), ("Backend Engineer", 8), ("Security Engineer", 3)),
    },
    "product": {
        "lead": ("Head of Product", "VP of Product"),
        "director": "Director of Product", "manager": "Group Product Manager",
        "must": ("Senior Product Manager",),
        "ics": (("Product Manager", 40), ("Senior Product Manager", 30), ("Associate Product Manager", 10),
                ("Technical Product Manager", 15), ("Product Operations Manager", 5)),
    },
    "design": {
        "lead": ("Head of Design", "Head of Design"),
        "director": "Director of Design", "manager": "Design Manager",
        "must": (),
        "ics": (("Product Designer", 45), ("Senior Product Designer", 30), ("UX Researcher", 15), ("Content Designer", 10)),
    },
    "data": {
        "lead": ("Head of Data", "Head of Data"),
        "director": "Director of Data", "manager": "Analytics Manager",
        "must": (),
        "ics": (("Data Analyst", 30), ("Senior Data Analyst", 15), ("Data Engineer", 25), ("Data Scientist", 15),
                ("Analytics Engineer", 15)),
    },
    "it": {
        "lead": ("IT Manager", "Director of IT"),
        "director": "Senior IT Manager", "manager": "IT Manager",
        "must": (),
        "ics": (("IT Support Specialist", 45), ("Systems Administrator", 25), ("IT Engineer", 20), ("Security Analyst", 10)),
    },
    "sales": {
        "lead": ("Head of Sales", "VP of Sales"),
        "director": "Regional Sales Director", "manager": "Sales Manager",
        "must": ("Account Executive", "Senior Account Executive", "Account Executive"),
        "ics": (("Account Executive", 30), ("Senior Account Executive", 15), ("Enterprise Account Executive", 10),
                ("Sales Development Representative", 25), ("Sales Engineer", 12), ("Sales Operations Analyst", 4)),
    },
    "customer-success": {
        "lead": ("Head of Customer Success", "VP of Customer Success"),
        "director": "Director of Customer Success", "manager": "Manager, Customer Success",
        "must": ("Customer Success Manager", "Senior Customer Success Manager", "Customer Success Manager"),
        "ics": (("Customer Success Manager", 45), ("Senior Customer Success Manager", 20), ("Onboarding Specialist", 15),
                ("Renewals Manager", 12), ("Customer Success Operations Analyst", 5)),
    },
    "support": {
        "lead": ("Head of Support", "VP of Support"),
        "director": "Director of Support", "manager": "Support Manager",
        "must": ("Support Engineer", "Senior Support Engineer", "Support Engineer"),
        "ics": (("Support Engineer", 40), ("Senior Support Engineer", 20), ("Technical Support Specialist", 25),
                ("Escalation Engineer", 8), ("Support Operations Analyst", 4)),
    },
    "marketing": {
        "lead": ("Head of Marketing", "VP of Marketing"),
        "director": "Director of Marketing", "manager": "Senior Manager, Marketing",
        "must": ("Product Marketing Manager",),
        "ics": (("Product Marketing Manager", 20), ("Content Marketing Manager", 15), ("Demand Generation Manager", 20),
                ("Marketing Operations Specialist", 12), ("Growth Marketing Manager", 12), ("Events Manager", 8),
                ("Brand Designer", 7), ("Copywriter", 6)),
    },
    "finance": {
        "lead": ("Head of Finance", "VP of Finance"),
        "director": "Controller", "manager": "Finance Manager",
        "must": (),
        "ics": (("Financial Analyst", 25), ("Senior Accountant", 15), ("Accountant", 20), ("FP&A Analyst", 15),
                ("Billing Specialist", 15), ("Payroll Specialist", 10)),
    },
    "people-ops": {
        "lead": ("Head of People", "VP of People"),
        "director": "Director of Talent", "manager": "Recruiting Manager",
        "must": ("Recruiter",),
        "ics": (("Recruiter", 30), ("Senior Recruiter", 15), ("People Partner", 20), ("Talent Sourcer", 12),
                ("People Operations Specialist", 15), ("Learning & Development Manager", 8)),
    },
    "legal": {
        "lead": ("General Counsel", "General Counsel"),
        "director": "Deputy General Counsel", "manager": "Associate General Counsel",
        "must": (),
        "ics": (("Corporate Counsel", 30), ("Senior Corporate Counsel", 15), ("Paralegal", 20), ("Contracts Manager", 20),
                ("Privacy Counsel", 10), ("Legal Operations Specialist", 5)),
    },
}

# Headcount per team, exec included (before a little seeded jitter): small sums to 50, large to 2,000.
HEADCOUNT_SMALL = {
    "exec": 3, "engineering": 14, "product": 3, "sales": 9, "customer-success": 6, "support": 8,
    "marketing": 4, "people-ops": 3,
}
HEADCOUNT_LARGE = {
    "exec": 8, "engineering": 600, "product": 80, "design": 50, "data": 80, "it": 50, "sales": 400,
    "customer-success": 180, "support": 300, "marketing": 120, "finance": 60, "people-ops": 50, "legal": 22,
}

# --- places -------------------------------------------------------------------------------
# (city, country, IANA timezone, phone pattern: each # becomes a digit)
OFFICES = {
    "San Francisco": ("San Francisco", "United States", "America/Los_Angeles", "+1 415-###-####"),
    "New York": ("New York", "United States", "America/New_York", "+1 212-###-####"),
    "Austin": ("Austin", "United States", "America/Chicago", "+1 512-###-####"),
    "Boston": ("Boston", "United States", "America/New_York", "+1 617-###-####"),
    "Seattle": ("Seattle", "United States", "America/Los_Angeles", "+1 206-###-####"),
    "Denver": ("Denver", "United States", "America/Denver", "+1 303-###-####"),
    "Toronto": ("Toronto", "Canada", "America/Toronto", "+1 416-###-####"),
    "London": ("London", "United Kingdom", "Europe/London", "+44 20 #### ####"),
    "Dublin": ("Dublin", "Ireland", "Europe/Dublin", "+353 1 ### ####"),
    "Berlin": ("Berlin", "Germany", "Europe/Berlin", "+49 30 ########"),
    "Bengaluru": ("Bengaluru", "India", "Asia/Kolkata", "+91 80 #### ####"),
    "Singapore": ("Singapore", "Singapore", "Asia/Singapore", "+65 6### ####"),
    "Sydney": ("Sydney", "Australia", "Australia/Sydney", "+61 2 #### ####"),
}
HQ_CITIES = ("San Francisco", "New York", "Austin", "Boston", "Seattle")
# Weights of the non-HQ offices; the HQ always gets HQ_WEIGHT.
HQ_WEIGHT = 10
SMALL_OFFICES = (("New York", 2), ("Denver", 1), ("London", 2))
LARGE_OFFICES = (("New York", 3), ("Denver", 1), ("Toronto", 2), ("London", 4), ("Dublin", 2), ("Berlin", 2),
                 ("Bengaluru", 4), ("Singapore", 1), ("Sydney", 1))
# Teams that concentrate in some offices: follow-the-sun support, regional sales, offshore engineering.
TEAM_OFFICE_BIAS = {
    "support": ("London", "Bengaluru", "Sydney"),
    "sales": ("London", "Dublin", "Singapore", "Sydney"),
    "engineering": ("Bengaluru", "Berlin", "Toronto"),
}
# Faker en_US names read wrong for the Bengaluru office, so it draws from these instead.
INDIAN_FIRST_NAMES = (
    "Priya", "Arjun", "Ananya", "Rahul", "Kavya", "Vikram", "Neha", "Rohan", "Aditi", "Karthik", "Sneha",
    "Aditya", "Meera", "Siddharth", "Pooja", "Nikhil", "Divya", "Varun", "Shreya", "Amit", "Lakshmi",
    "Rajesh", "Deepa", "Sanjay", "Ishaan", "Nandini", "Harsha", "Tanvi",
)
INDIAN_LAST_NAMES = (
    "Sharma", "Patel", "Iyer", "Reddy", "Nair", "Gupta", "Rao", "Menon", "Kumar", "Singh", "Desai", "Joshi",
    "Krishnan", "Mehta", "Bhat", "Agarwal", "Chatterjee", "Pillai", "Kulkarni", "Banerjee",
)

# Customer headquarters: (city, country, phone pattern). US cities repeat so ~60% are American.
CUSTOMER_CITIES = (
    ("Chicago", "United States", "+1 312-###-####"), ("New York", "United States", "+1 212-###-####"),
    ("Atlanta", "United States", "+1 404-###-####"), ("Dallas", "United States", "+1 214-###-####"),
    ("Boston", "United States", "+1 617-###-####"), ("Seattle", "United States", "+1 206-###-####"),
    ("Minneapolis", "United States", "+1 612-###-####"), ("Phoenix", "United States", "+1 602-###-####"),
    ("San Diego", "United States", "+1 619-###-####"), ("Philadelphia", "United States", "+1 215-###-####"),
    ("Nashville", "United States", "+1 615-###-####"), ("Columbus", "United States", "+1 614-###-####"),
    ("Charlotte", "United States", "+1 704-###-####"), ("Salt Lake City", "United States", "+1 801-###-####"),
    ("Pittsburgh", "United States", "+1 412-###-####"), ("Portland", "United States", "+1 503-###-####"),
    ("Houston", "United States", "+1 713-###-####"), ("Miami", "United States", "+1 305-###-####"),
    ("Toronto", "Canada", "+1 416-###-####"), ("Vancouver", "Canada", "+1 604-###-####"),
    ("London", "United Kingdom", "+44 20 #### ####"), ("Manchester", "United Kingdom", "+44 161 ### ####"),
    ("Dublin", "Ireland", "+353 1 ### ####"), ("Amsterdam", "Netherlands", "+31 20 ### ####"),
    ("Munich", "Germany", "+49 89 ########"), ("Paris", "France", "+33 1 ## ## ## ##"),
    ("Stockholm", "Sweden", "+46 8 ### ### ##"), ("Sydney", "Australia", "+61 2 #### ####"),
    ("Melbourne", "Australia", "+61 3 #### ####"), ("Singapore", "Singapore", "+65 6### ####"),
)

# --- customers ----------------------------------------------------------------------------
INDUSTRIES = (
    "Technology", "Healthcare", "Retail", "Financial Services", "Manufacturing", "Education", "Media",
    "Logistics", "Insurance", "Energy", "Telecommunications", "Hospitality", "Real Estate", "Nonprofit",
)
TIERS = (("Enterprise", 2), ("Mid-Market", 3), ("SMB", 5))
# tier -> (employees low, high, seats low, high)
TIER_SCALE = {"Enterprise": (2_000, 60_000, 250, 3_000), "Mid-Market": (200, 2_000, 50, 400), "SMB": (12, 200, 5, 60)}
CONTACT_TITLES = (
    "VP of Operations", "IT Director", "Head of Procurement", "CTO", "Director of Customer Experience",
    "Operations Manager", "Systems Administrator", "Head of Analytics", "VP of Engineering", "CFO",
    "Director of IT", "Business Systems Analyst", "Chief Information Officer", "Program Manager",
    "Head of Revenue Operations", "Security Lead", "Office Manager", "Data Engineering Manager",
)

# --- products -----------------------------------------------------------------------------
# (sku tail, name after the brand, family, price per seat per year); small uses the first six.
PRODUCTS = (
    ("PLAT-STR", "Platform Starter", "Platform", 180),
    ("PLAT-PRO", "Platform Professional", "Platform", 360),
    ("PLAT-ENT", "Platform Enterprise", "Platform", 600),
    ("ADD-ANL", "Analytics Add-on", "Add-on", 120),
    ("ADD-SEC", "Security & Compliance Add-on", "Add-on", 90),
    ("SVC-PSUP", "Premium Support", "Services", 60),
    ("ADD-AUTO", "Automation Add-on", "Add-on", 96),
    ("ADD-INT", "Integrations Hub", "Add-on", 72),
    ("ADD-AI", "AI Assistant Add-on", "Add-on", 150),
    ("ADD-RES", "Data Residency Add-on", "Add-on", 48),
    ("ADD-SBX", "Sandbox Environments", "Add-on", 30),
    ("SVC-ONB", "Onboarding Package", "Services", 40),
)
PLATFORM_FOR_TIER = {"Enterprise": "PLAT-ENT", "Mid-Market": "PLAT-PRO", "SMB": "PLAT-STR"}

# --- deals --------------------------------------------------------------------------------
# Salesforce's standard opportunity stages with how often each shows up in a pipeline.
STAGES = (
    ("Prospecting", 8), ("Qualification", 10), ("Needs Analysis", 8), ("Value Proposition", 7),
    ("Id. Decision Makers", 5), ("Perception Analysis", 4), ("Proposal/Price Quote", 8),
    ("Negotiation/Review", 6), ("Closed Won", 26), ("Closed Lost", 14),
)
# kind -> name pattern; {short} is the product name without the brand.
DEAL_KINDS = (
    ("new", "{customer} — {short} New Business"),
    ("renewal", "{customer} — {short} Renewal {year}"),
    ("expansion", "{customer} — {short} Expansion Q{quarter} {year}"),
    ("addon", "{customer} — {short} {year}"),
)

# --- tickets ------------------------------------------------------------------------------
# Slot values shared by ticket templates ({slot} in a summary or detail).
TICKET_SLOTS = {
    "rows": ("25", "50", "100", "250", "500"),
    "code": ("429", "500", "502", "503", "504"),
    "integration": ("Salesforce", "HubSpot", "Slack", "Jira", "Zendesk", "NetSuite", "Snowflake", "Google Drive",
                    "Microsoft Teams", "BigQuery"),
    "browser": ("Safari 17", "Firefox", "Edge", "Chrome 124"),
    "os": ("iOS 17", "Android 14", "iPadOS"),
    "idp": ("Okta", "Azure AD", "Google Workspace", "OneLogin", "Ping Identity"),
    "region": ("EU", "US-East", "US-West", "APAC"),
    "mb": ("25", "50", "100"),
    "country": ("Germany", "Canada", "Australia", "the UK", "France", "Ireland"),
    "tzr": ("Pacific", "Australian", "Indian", "Central European"),
    "minutes": ("15", "30", "45", "90"),
    "lib": ("React", "Django", "SQLAlchemy", "OpenSSL", "Node.js", "Celery"),
    "steps": ("20", "50", "100"),
    "widget": ("pipeline", "funnel", "cohort", "pivot table", "heatmap"),
    "field": ("picklist", "date", "currency", "multi-select", "formula"),
    "service": ("api-gateway", "billing-service", "export-worker", "web-app", "sync-service", "notifier",
                "auth-service", "search-indexer", "report-renderer", "webhook-dispatcher"),
}

# (issue type, summary, detail). SUP = customer-facing support desk; ENG = engineering backlog.
SUP_TEMPLATES = (
    ("Bug", "SSO login fails for users with plus-addressed emails", "Users whose email contains a '+' get 'Invalid SAML response' right after the {idp} redirect."),
    ("Bug", "CSV export times out above {rows}k rows", "Exports of larger reports spin for several minutes and then fail with a gateway timeout."),
    ("Bug", "Dashboard filters reset after page refresh", "Saved filters on shared dashboards revert to defaults whenever the page is reloaded."),
    ("Bug", "Webhook deliveries retried twice on HTTP {code} responses", "Their endpoint receives duplicate events whenever it answers with {code}."),
    ("Bug", "{integration} sync skips records updated in the same minute", "Records edited twice within a minute never reach {integration}; a manual resync picks them up."),
    ("Bug", "Scheduled report emails arrive with empty attachments", "The weekly scheduled report arrives on time but the attached file is 0 bytes."),
    ("Bug", "SCIM deprovisioning leaves users active in workspace", "Users removed in {idp} keep access to the workspace until an admin removes them by hand."),
    ("Bug", "Audit log missing entries for bulk permission changes", "Role changes made through bulk edit do not show up in the audit log."),
    ("Bug", "Mobile app crashes when opening notifications on {os}", "Tapping a push notification closes the app immediately on {os}."),
    ("Bug", "Date picker shows the wrong day for users in {tzr} timezones", "Due dates entered by users in {tzr} timezones are saved one day earlier."),
    ("Bug", "API returns {code} when a filter contains non-ASCII characters", "Filtering by names with accents (e.g. 'Müller') makes the list endpoint fail."),
    ("Bug", "Bulk import rejects CSV files with a UTF-8 BOM", "Files exported from Excel fail validation with 'unknown column' on the first header."),
    ("Bug", "{widget} chart tooltips overlap the legend in {browser}", "Hovering a data point in a {widget} chart hides the legend in {browser}."),
    ("Bug", "Search does not find records created in the last hour", "New records only show up in search results after roughly an hour."),
    ("Bug", "Invoice PDF shows the wrong tax rate for customers in {country}", "Invoices for their {country} entity show the standard rate instead of their local VAT rate."),
    ("Bug", "Password reset link expires immediately for some users", "The reset link says 'expired' even when clicked within a minute of the email arriving."),
    ("Bug", "Custom {field} fields blank after workspace migration", "Values of custom {field} fields disappeared after the move to the new region."),
    ("Bug", "Attachments over {mb} MB fail to upload without an error", "Large uploads reach 100% and then silently vanish."),
    ("Bug", "Duplicate notifications sent when a record is reassigned", "The new owner receives the same assignment email two or three times."),
    ("Bug", "Guest users get a permission error on shared dashboards", "External guests invited to a dashboard see 'You do not have access' despite the share."),
    ("Bug", "Exported timestamps shifted by the timezone offset twice", "Times in exports are off by twice the user's UTC offset."),
    ("Incident", "Intermittent {code} errors on dashboard load in {region}", "Several users in {region} report dashboards failing to load every few minutes."),
    ("Incident", "Elevated API latency in {region} region", "API calls from their integration take 5–10 s instead of the usual few hundred ms."),
    ("Incident", "Webhook deliveries delayed by up to {minutes} minutes", "Events arrive in their system {minutes} minutes late, breaking downstream automations."),
    ("Incident", "SSO login outage for {idp} customers", "No one can sign in through {idp}; password login still works for admins."),
    ("Incident", "Scheduled reports not sent overnight", "None of last night's scheduled reports were delivered."),
    ("Incident", "{integration} connector sync backlog", "The {integration} connector has not synced since this morning."),
    ("Task", "Enable SSO with {idp} for the workspace", "They are rolling out {idp} company-wide and want SSO enforced by the end of the month."),
    ("Task", "Raise API rate limit for their {integration} integration", "Their nightly {integration} sync hits {code} responses; they ask for a higher limit."),
    ("Task", "Restore a deleted dashboard from backup", "An admin deleted a shared dashboard by mistake; they need it restored with its filters."),
    ("Task", "Update billing contact and add seats", "Finance changed owners; they need the billing contact updated and seats added before renewal."),
    ("Task", "Export full audit log for compliance review", "Their auditors need the last 12 months of audit log entries as CSV."),
    ("Task", "Transfer workspace ownership to a new admin", "The current owner is leaving the company; ownership should move to their IT director."),
    ("Task", "Set up a sandbox environment for UAT", "They want a sandbox with a copy of production configuration for user acceptance testing."),
    ("Task", "Configure data residency in {region}", "Legal requires their data to be stored in {region} before the next contract term."),
    ("Task", "Merge duplicate user accounts", "Several users have two accounts after an email domain change; they want them merged."),
    ("Task", "Send SOC 2 report and security questionnaire answers", "Procurement asks for the latest SOC 2 Type II report and a completed questionnaire."),
)
ENG_TEMPLATES = (
    ("Bug", "Pagination skips records in {service} when sorting by last modified", "Cursor pagination drops rows when several records share the same modified timestamp."),
    ("Bug", "Rate limit headers missing from {service} responses", "X-RateLimit-* headers are absent on the v2 list endpoints served by {service}, so clients cannot back off."),
    ("Bug", "Workflow builder slow with more than {steps} steps", "Opening a workflow with more than {steps} steps takes over 10 s to render."),
    ("Bug", "Two-factor codes rejected after device clock drift on {os}", "TOTP validation allows no clock skew; users with drifting phones are locked out."),
    ("Bug", "Memory leak in {service} on large {widget} reports", "{service} pods grow past 2 GB and get OOM-killed while rendering {widget} reports."),
    ("Bug", "Race condition in {integration} connector retry logic", "Concurrent retries can write the same record twice to {integration}."),
    ("Bug", "{browser}: drag and drop broken in board view", "Cards snap back to their column in {browser} after being dropped."),
    ("Bug", "Deleted custom {field} fields still returned by the API", "Soft-deleted custom {field} fields appear in API responses for 24 hours."),
    ("Bug", "{service} returns {code} under load in {region}", "Error rate of {service} in {region} climbs above 1% at peak traffic, all {code}s."),
    ("Bug", "{service} drops events when {integration} is slow", "Events are acknowledged before {integration} accepts them and are lost on timeout."),
    ("Bug", "Flaky integration tests in {service}", "The {service} suite fails about one run in ten on CI, always in the same async tests."),
    ("Story", "Support SCIM group push from {idp}", "As an admin, I want groups from {idp} to map to roles so access stays in sync."),
    ("Story", "Bulk edit for custom {field} fields", "As an ops manager, I want to edit a {field} field on many records at once."),
    ("Story", "Schedule {widget} report exports to S3", "As a data engineer, I want recurring {widget} exports delivered to our S3 bucket."),
    ("Story", "Show last sync time on the {integration} connector page", "As an admin, I want to see when {integration} last synced and whether it failed."),
    ("Story", "Stream audit log events to a SIEM", "As a security lead, I want audit events forwarded to our SIEM in near real time."),
    ("Story", "Let admins enforce two-factor authentication", "As a workspace admin, I want to require 2FA for every member."),
    ("Story", "Retry button for failed {integration} webhook deliveries", "As a developer, I want to replay a failed {integration} delivery from the webhook log."),
    ("Story", "Multi-currency amounts in {widget} reports", "As a finance user, I want {widget} reports to convert amounts to a reporting currency."),
    ("Story", "Dark mode for {widget} dashboards", "As a user working late, I want a dark theme for {widget} dashboards."),
    ("Story", "AI summary of {widget} dashboard changes", "As a manager, I want a weekly plain-language summary of what changed on a {widget} dashboard."),
    ("Story", "Two-way sync of {field} fields with {integration}", "As an admin, I want {field} fields edited in {integration} to flow back to us."),
    ("Task", "Upgrade PostgreSQL for {service}", "Move the {service} database to the current major version before end of support."),
    ("Task", "Migrate {service} background jobs to the new queue", "Move the remaining cron-style jobs of {service} onto the new job queue and delete the old runner."),
    ("Task", "Remove deprecated v1 endpoints from {service}", "Usage of the v1 endpoints is below 1%; remove them after notifying the remaining customers."),
    ("Task", "Add alerting on {service} queue depth", "Page on-call when the {service} queue stays above its threshold for {minutes} minutes."),
    ("Task", "Rotate API signing keys for {service}", "Quarterly rotation of signing keys, with overlap so no client breaks."),
    ("Task", "Load-test CSV export with {rows}k rows", "Measure export time and memory at {rows}k rows and record the results."),
    ("Task", "Bump {lib} to the latest minor version in {service}", "Security advisories are open against the {lib} version pinned by {service}."),
    ("Task", "Document rate limiting for {service} endpoints", "Describe the limits, the headers and the retry guidance in the developer docs."),
    ("Task", "Add {region} to the data residency regions", "Provision storage and processing in {region} and wire it into tenant placement."),
    ("Task", "Write runbook for {service} failover in {region}", "On-call needs step-by-step failover instructions for {service} in {region}."),
)
CHANNELS = ("email", "chat", "a phone call", "the support portal")
IMPACTS = (
    "about {n} users affected", "blocking their month-end reporting", "a workaround exists but is manual",
    "their admin is escalating through the account team", "affects their whole {n}-seat workspace",
    "raised again after last week's fix",
)
