"""What people say in the seeded Slack workspace: template banks per kind of channel.

A `Script` is one kind of message: a few wordings of the parent line, what the first reply
in its thread says (an answer to the parent, not a generic "+1"), what later replies say,
who plausibly writes it, who answers, and which emoji people react with. Fields in braces
are filled from the company's data by `seed_data.chat` (see `SUBJECT_FIELDS`), so a line
about a deal names that deal's real customer, amount, stage, owner and close date.

Field names, by the `subject` a script is about:
- every script: someone, someone2 (mentions of other channel members), day (a weekday
  after the message), time ("2pm"), n (a small number), pct, version (release of that
  week), service, incident, pr, ch_<name> (a link to a channel such as ch_escalations)
- deal / won / lost / renewal: customer, deal, amount, stage, close, owner, csm, product, seats
- ticket / urgent / solved: key, summary, priority, status, issue, customer, assignee,
  reporter, csm, owner
- customer: customer, tier, industry, city, country, owner, csm, contact, contact_title
- hire / person: person, first, title, team, manager
- product: product, family, price
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Script:
    subject: str  # what the message is about: none, deal, won, lost, renewal, ticket, urgent, solved, customer, hire, person, product
    lines: tuple[str, ...]  # wordings of the top-level message
    answers: tuple[str, ...] = ()  # the first reply in its thread: answers the parent
    more: tuple[str, ...] = ()  # later replies, before generic acknowledgements
    author: str = "any"  # role of the poster: any, owner, csm, assignee, reporter, lead, person, manager, exec, bot:<name>
    repliers: tuple[str, ...] = ("any",)  # roles of who answers, first one answers first
    emoji: tuple[str, ...] = ("thumbsup", "eyes")
    weight: int = 2  # relative frequency within its bank
    thread: float | None = None  # chance of a thread; None = the channel's default
    when: str = "any"  # any | close (the deal's close date) | created / updated (the ticket's) | start (a hire's first day)


# Short replies anyone might add at the end of any thread.
ACKS: tuple[str, ...] = (
    "Thanks!", "Sounds good.", "+1", "On it.", "Got it, thanks {someone}", "Perfect, thank you 🙏",
    "Makes sense.", "Agreed.", "👍", "Thanks for flagging.", "Will do.", "Appreciate it!",
    "Ok, I'll keep an eye on it.", "Great, that unblocks me.", "Nice.", "Let's sync tomorrow if needed.",
)

BANKS: dict[str, tuple[Script, ...]] = {}

BANKS["general"] = (
    Script("hire", (
        "Please welcome {person} to the {team} team! {first} joins us as {title} :wave: Say hi!",
        "Big welcome to {person}, our new {title} on {team} :tada: {first} is starting this week, reporting to {manager}.",
    ), answers=("Welcome {first}! :wave:", "Welcome aboard {person}!", "So glad to have you {first}!"),
        more=("Welcome! Ping me if you need anything.", "Hi {first}! :wave:", "Welcome to the team 🎉"),
        author="manager", emoji=("wave", "tada", "raised_hands", "heart"), weight=3, thread=0.9, when="start"),
    Script("none", (
        "Reminder: the office is closed on {day} for maintenance. Remote work as usual.",
        "Heads up: Wi-Fi on the 3rd floor will be down {day} morning from 8 to 9.",
        "The coffee machine on 2 is fixed :coffee: thanks facilities!",
        "Who left a blue water bottle in the big conference room? It's at the front desk.",
        "Friendly reminder to submit your expense reports by the end of the month.",
        "Fire drill {day} at 11am. Please follow the wardens to the assembly point.",
    ), answers=("Thanks for the heads up!", "Noted, thanks", "Mine! Thank you :pray:"),
        emoji=("thumbsup", "pray", "eyes"), weight=3),
    Script("none", (
        "Does anyone know who owns the shared Zoom account? I need to schedule a webinar.",
        "Where do we keep the brand templates for slides these days?",
        "Is there a guide for setting up the VPN on a new laptop?",
        "What's the process to get access to the BI dashboards?",
    ), answers=("{someone} manages it, ask in {ch_general} or DM them.", "It's in the wiki under Onboarding > Tools.",
                "File an IT request and tag {someone}, they'll sort it."),
        more=("That worked, thanks!", "Found it, thank you.", "Would be great to pin this somewhere."),
        thread=0.7),
    Script("product", (
        "Quick reminder that {product} is now part of the standard demo environment. Reach out to {someone} for access.",
        "New one-pager for {product} ({family}) is up in the sales drive.",
    ), answers=("Nice, this is much clearer than the old deck.", "Does the pricing page reflect {price} list already?"),
        emoji=("fire", "thumbsup", "rocket")),
)

BANKS["random"] = (
    Script("none", (
        "Anyone up for lunch at the Thai place around 12:30?",
        "Tacos on {day}? I'm organising a group order :taco:",
        "Who wants to try the new ramen spot down the street?",
        "Pizza in the kitchen, first come first served :pizza:",
    ), answers=("I'm in!", "Count me in", "Can't today, next time!", "Save me a slice please 🙏"),
        more=("Meet at the lobby?", "12:30 works", "I'll book a table for {n}."),
        emoji=("yum", "raised_hands", "pizza", "joy"), weight=3, thread=0.5),
    Script("none", (
        "Any good weekend plans? I'm finally doing that hike everyone keeps talking about.",
        "What's everyone watching these days? Need new recommendations.",
        "Book recommendations for a long flight? Fiction preferred.",
        "Happy Friday everyone! Any fun plans for the weekend?",
        "Is it just me or is the office freezing today? :cold_face:",
        "My dog discovered the sprinkler this morning. Zero regrets from him :dog:",
        "Who else is doing the 10k charity run next month? We should make a team.",
    ), answers=("Trying to finally finish my garden.", "Just resting, it's been a week!", "Camping if the weather holds.",
                "Highly recommend the new season of that detective show.", "Signed up! Let's do a team shirt."),
        more=("Sounds lovely.", "Pics or it didn't happen :joy:", "Jealous!"),
        emoji=("joy", "heart", "100", "sunny"), weight=3, thread=0.45),
    Script("none", (
        "PSA: someone brought homemade cookies to the kitchen :cookie:",
        "Coffee run in 10, who wants something?",
        "The plant in the lobby is thriving, whoever waters it deserves a raise :seedling:",
    ), answers=("Oat flat white please!", "You're the best", "Already had two, they're great"),
        emoji=("cookie", "heart", "joy")),
)

BANKS["announcements"] = (
    Script("none", (
        "*All-hands this {day} at 10am PT.* Agenda: quarterly results, product roadmap, and Q&A. Questions in the form by Wednesday.",
        "*Open enrollment* for benefits starts next week. Details in the People portal; office hours with {someone} on {day}.",
        "*New travel policy* is live: book through the portal, economy for flights under 6h. FAQ pinned in {ch_general}.",
        "Reminder: company holiday on {day}, see you all the day after :palm_tree:",
        "*Security training* is due by the end of the month. It takes about 25 minutes, link in your inbox.",
        "We've moved to a new expense tool. Please submit anything older than 30 days by {day}.",
    ), author="exec", emoji=("thumbsup", "white_check_mark", "eyes", "pray"), weight=3, thread=0.15,
        answers=("Will the recording be shared for other time zones?", "Thanks for the clear summary!"),
        more=("Yes, recording goes out the same day.",)),
    Script("won", (
        "Congratulations to {owner} and the team for closing *{customer}* — {amount} for {product}! :tada:",
    ), author="exec", emoji=("tada", "raised_hands", "rocket", "fire"), when="close", thread=0.3,
        answers=("Amazing work {owner}!", "Huge win :rocket:", "Well deserved!")),
    Script("hire", (
        "Please join me in welcoming {person}, who joins {team} as {title}.",
    ), author="exec", emoji=("wave", "tada", "heart"), when="start", thread=0.2,
        answers=("Welcome {first}!",)),
)

BANKS["sales"] = (
    Script("deal", (
        "Pipeline update: *{deal}* is in {stage}, {amount}, expected close {close}.",
        "Moved *{deal}* to {stage}. {amount} for {seats} seats of {product}, targeting {close}.",
        "{customer} asked for a revised quote on {product}: {seats} seats, {amount} total. Sending it today.",
    ), answers=("Nice! Do you need legal on the MSA?", "What's the competitor in this one?", "Is {close} realistic given their procurement?"),
        more=("Procurement says {close} is doable if we get the order form out this week.", "Legal is looped in.",
              "They're also looking at a cheaper option but we're ahead on features."),
        author="owner", repliers=("lead", "any"), emoji=("eyes", "fire", "thumbsup"), weight=4),
    Script("deal", (
        "Can someone help me with a custom quote for {customer}? {seats} seats of {product}, they want annual billing.",
        "Who's done a security questionnaire for a {product} deal recently? {customer} just sent theirs.",
    ), answers=("{someone} did one last month, I'll send you the doc.", "Happy to help, send it over."),
        more=("Thanks! Saved me a day.", "Got it, working through it now."),
        author="owner", emoji=("eyes", "pray"), thread=0.7),
    Script("won", (
        "*Closed Won* :tada: {customer} signed! {amount}, {seats} seats of {product}.",
        "We got it! {deal} is Closed Won — {amount}. Thanks {csm} for the help on the references.",
    ), answers=("Let's go {owner}! :rocket:", "Massive, congrats!", "Great job on this one"),
        more=("Who's handling onboarding?", "{csm} will run the kickoff next week."),
        author="owner", repliers=("lead", "any"), emoji=("tada", "raised_hands", "fire", "rocket", "100"), when="close", thread=0.5),
    Script("lost", (
        "Bad news: {customer} went with a competitor on {deal}. Marked Closed Lost. Notes in the opportunity.",
    ), answers=("Ugh, sorry. Was it price?", "Thanks for the write-up, let's review in the pipeline call."),
        more=("Mostly price, and they wanted an on-prem option.",),
        author="owner", repliers=("lead", "any"), emoji=("disappointed", "pray"), when="close"),
    Script("none", (
        "Pipeline review moved to {day} {time}. Please update next steps on your open opps before then.",
        "Reminder: forecast calls are due by EOD {day}.",
    ), author="lead", emoji=("white_check_mark", "thumbsup"), thread=0.2,
        answers=("Updated mine.", "Will do."),),
)

BANKS["deals"] = (
    Script("deal", (
        "Opportunity *{deal}* moved to *{stage}* — Amount: {amount} · Close date: {close} · Owner: {owner}",
    ), author="bot:salesforce", emoji=("eyes", "fire"), weight=4, thread=0.15,
        answers=("Nice progress {owner}!", "What's left before we can send paper?"), repliers=("lead", "any")),
    Script("deal", (
        "{deal} update: champion confirmed budget, {amount}, legal review next. Aiming for {close}.",
        "Any tips for multi-year terms? {customer} wants a 3-year deal on {product}.",
        "{customer} is asking for a discount beyond 15% on {deal}. Who needs to approve?",
    ), answers=("Anything over 15% needs {someone} to sign off.", "Offer a 3-year with a price lock instead of a bigger discount."),
        more=("Makes sense, I'll propose that.", "Approved, go ahead."),
        author="owner", repliers=("lead", "any"), emoji=("eyes", "thumbsup"), weight=3, thread=0.5),
    Script("won", (
        "Opportunity *{deal}* is *Closed Won* :trophy: — Amount: {amount} · Owner: {owner}",
    ), author="bot:salesforce", emoji=("tada", "trophy", "rocket"), when="close", thread=0.3,
        answers=("Congrats {owner}! :tada:",), repliers=("lead", "any")),
)

BANKS["sales-wins"] = (
    Script("won", (
        ":trophy: *{customer}* — {amount} — {product} ({seats} seats). Closed by {owner}!",
        "Another one! {owner} closed *{deal}* for {amount} :tada:",
    ), answers=("Huge!", "Let's gooo :rocket:", "Congrats {owner}!"),
        more=("What was the deciding factor?", "The security review went really smoothly."),
        author="lead", emoji=("tada", "trophy", "raised_hands", "fire", "100"), weight=4, when="close", thread=0.4),
)

BANKS["support"] = (
    Script("ticket", (
        "*{key}* created: {summary}\nPriority: {priority} · Type: {issue} · Reporter: {reporter} · Assignee: {assignee}",
    ), author="bot:jira", emoji=("eyes",), weight=4, when="created", thread=0.2,
        answers=("Taking a look.", "I've seen this before with {customer}, will check the logs."), repliers=("assignee", "any")),
    Script("ticket", (
        "Who owns {key} for {customer}? \"{summary}\"",
        "Can someone pick up {key} ({customer})? {summary}",
        "{key} from {customer} needs an owner: {summary} — {priority} priority.",
    ), answers=("{assignee} is on it, ETA {day}.", "Assigned to {assignee}, they'll update the customer today."),
        more=("Thanks! I'll let the account team know.", "Customer was just asking, perfect timing."),
        author="reporter", repliers=("lead", "assignee", "any"), emoji=("eyes", "white_check_mark"), weight=4, when="created", thread=0.6),
    Script("ticket", (
        "Update on {key} ({customer}): reproduced it, looks like a config issue on their side. Writing up steps.",
        "{key} — waiting on logs from {customer}. Set to Waiting for customer.",
        "Anyone seen this before? {customer} reports: {summary} ({key})",
    ), answers=("Yes, check the known issues page, there's a workaround.", "I had one like that last month, it was an expired token."),
        more=("That was it, thanks!", "Sending the workaround now."),
        author="assignee", repliers=("any",), emoji=("eyes", "pray", "bulb"), weight=3, when="created", thread=0.5),
    Script("solved", (
        "{key} resolved :white_check_mark: {customer} confirmed the fix for \"{summary}\".",
        "Closed out {key} for {customer}. Root cause documented in the ticket.",
    ), answers=("Nice work {assignee}!", "Great, I'll let {csm} know."),
        author="assignee", emoji=("white_check_mark", "raised_hands", "100"), weight=2, when="updated"),
    Script("none", (
        "Queue check: {n} tickets unassigned this morning. Please grab one before standup.",
        "Reminder to set tickets to Waiting for customer when you're blocked on them, it keeps SLAs honest.",
    ), author="lead", emoji=("white_check_mark", "thumbsup"), thread=0.2, answers=("Grabbed two.", "On it.")),
)

BANKS["escalations"] = (
    Script("urgent", (
        ":rotating_light: Escalation: {customer} — {key} \"{summary}\" ({priority}). {csm} please loop in the account team.",
        "Escalating {key} for {customer}: {summary}. They're a {tier} customer and this is blocking them.",
        "Who owns the {key} escalation for {customer}?",
    ), answers=("{assignee} is on it, ETA {day}.", "{assignee} owns it. Next update to the customer by {time}.",
                "On it — joining the call with their admin at {time}."),
        more=("Thanks. I'll tell {customer}'s team.", "Can we get engineering eyes on it too?", "Engineering is looped in, see {ch_incidents}."),
        author="csm", repliers=("assignee", "lead", "any"), emoji=("eyes", "rotating_light", "white_check_mark"), weight=5, when="created", thread=0.8),
    Script("urgent", (
        "*{key}* priority changed to *{priority}* · {customer} · {summary} · Assignee: {assignee}",
    ), author="bot:jira", emoji=("eyes",), weight=2, when="created", thread=0.3,
        answers=("Acknowledged.",), repliers=("assignee",)),
    Script("solved", (
        "Closing the loop on {key} ({customer}): fixed and confirmed by the customer. Thanks everyone.",
    ), answers=("Great outcome. Can we do a quick retro?", "Thanks {assignee}!"),
        author="csm", emoji=("white_check_mark", "pray", "raised_hands"), when="updated"),
)

BANKS["customer-success"] = (
    Script("customer", (
        "QBR with {customer} went well. They want to expand to another team next quarter. Notes in the account.",
        "Health check: {customer} usage is down {pct}% this month. Reaching out to {contact} ({contact_title}).",
        "{customer} onboarding kickoff is {day} at {time}. {owner}, can you join for the first 10 min?",
        "Heads up: {contact} is leaving {customer}. Need a new champion there.",
    ), answers=("Nice, let me know if you need help with the expansion deck.", "Their admin changed recently, worth checking adoption.",
                "I can join.", "Do we know who's replacing them?"),
        more=("Good call, I'll set up a session.", "I'll ask on our next call."),
        author="csm", repliers=("owner", "lead", "any"), emoji=("eyes", "thumbsup", "chart_with_upwards_trend"), weight=5, thread=0.4),
    Script("renewal", (
        "{customer} renewal ({deal}) is {stage}, {amount}, closes {close}. Any risks I should know about?",
        "Prepping the {customer} renewal: {amount}, {seats} seats of {product}, due {close}.",
    ), answers=("They had a rough month with support, check {ch_escalations}.", "Looks healthy from my side."),
        more=("Noted, I'll address that on the call.", "Thanks, I'll loop in {owner}."),
        author="csm", repliers=("owner", "any"), emoji=("eyes", "thumbsup"), weight=3, thread=0.5),
    Script("ticket", (
        "Anyone have context on {key}? {customer} brought it up on our call: \"{summary}\".",
    ), answers=("{assignee} is working it, last update was this morning.",), author="csm", repliers=("assignee", "any"),
        emoji=("eyes",), when="created", thread=0.7),
    Script("none", (
        "Reminder: customer health scores are due {day}. Please update red accounts first.",
        "Team sync moved to {time} {day}.",
    ), author="lead", emoji=("white_check_mark", "thumbsup"), thread=0.15, answers=("Done for mine.",)),
)

BANKS["cs-renewals"] = (
    Script("renewal", (
        "Renewal: *{customer}* — {amount} — {stage} — closes {close}. Owner {owner}, CSM {csm}.",
        "{customer} renewal due {close} ({amount}). Risk: medium, their usage dipped last month.",
        "{customer} verbally agreed to renew at {amount}. Paperwork with {owner}.",
    ), answers=("Do we have exec sponsorship on their side?", "I'll prep the usage report for the call.", "Any pricing change this year?"),
        more=("Yes, their VP joined the last QBR.", "Flat pricing, multi-year discount if they sign by {close}."),
        author="csm", repliers=("owner", "lead", "any"), emoji=("eyes", "white_check_mark", "moneybag"), weight=5, thread=0.45),
    Script("won", (
        "{customer} renewed! {amount} for {product}, closed {close} :tada:",
    ), answers=("Nice work {csm} and {owner}!",), author="csm", emoji=("tada", "raised_hands"), when="close", thread=0.3),
)

BANKS["engineering"] = (
    Script("none", (
        "Deploying {service} to production in 10 min. Shout if you have anything in flight.",
        "Can someone review PR #{pr}? Small fix in {service}, should take 5 min.",
        "Heads up: the staging database will be reset {day} at {time}.",
        "CI is flaky on the integration suite again. Looking into it.",
        "{service} deploy done :white_check_mark: no errors so far.",
        "RFC for splitting {service} is up for comments until {day}.",
    ), answers=("Looking at it now.", "Approved with one nit.", "Go ahead, nothing in flight from me.", "Thanks, I'll re-run."),
        more=("Merged.", "Looks stable in the dashboards.", "Rolled back and re-deployed, all good now."),
        emoji=("eyes", "white_check_mark", "rocket", "ship"), weight=5, thread=0.35),
    Script("ticket", (
        "Support escalated {key} ({customer}): {summary}. Can someone from the team take a look?",
        "Bug from {key}: {summary}. Reproduced on staging, fixing in PR #{pr}.",
    ), answers=("I'll take it.", "Probably related to the last {service} change, checking.", "PR #{pr} is up with a fix."),
        more=("Fix is on staging, can support verify?", "Verified, shipping with {version}."),
        repliers=("any",), emoji=("eyes", "bug", "white_check_mark"), weight=3, when="created", thread=0.6),
    Script("none", (
        "Sprint planning {day} at {time}. Please groom your tickets beforehand.",
        "On-call handoff: quiet week, two pages, both {service}. Notes in the doc.",
    ), author="lead", emoji=("thumbsup", "white_check_mark"), thread=0.2, answers=("Thanks for the notes!",)),
)

BANKS["incidents"] = (
    Script("none", (
        "[Triggered] Incident #{incident}: {service} error rate above 5% · Urgency: High · Assigned to {someone}",
        "[Triggered] Incident #{incident}: {service} p95 latency > 2s · Urgency: High · Assigned to {someone}",
    ), answers=("Ack, looking.", "Acknowledged. Opening a channel bridge."),
        more=("Rolled back the last {service} deploy, error rate recovering.", "Resolved. Postmortem doc to follow.",
              "Customer impact was limited to a few accounts, support is informed."),
        author="bot:pagerduty", repliers=("any",), emoji=("eyes", "rotating_light", "white_check_mark"), weight=4, thread=0.8),
    Script("urgent", (
        ":rotating_light: {customer} reports {summary} ({key}). Possibly related to the {service} incident?",
    ), answers=("Checking, the timelines match.", "Unrelated I think, but adding to the incident doc."),
        more=("Confirmed related, fix is rolling out.",), repliers=("any", "assignee"), emoji=("eyes", "rotating_light"), when="created", thread=0.8),
    Script("none", (
        "Postmortem for incident #{incident} ({service}) is published. Action items assigned, please review.",
    ), author="lead", emoji=("pray", "white_check_mark", "eyes"), thread=0.3, answers=("Great write-up, thanks.",)),
)

BANKS["releases"] = (
    Script("product", (
        "*Release {version}* is out :rocket: Highlights: faster {product} sync, new admin audit log, and bug fixes.",
        "*{version}* shipped. {product}: improved exports and SSO fixes. Full notes in the changelog.",
    ), answers=("Is the audit log on by default?", "Nice, {customer} has been waiting for the export fix."),
        more=("Off by default, admins can enable it in settings.", "Telling them now :tada:"),
        author="lead", emoji=("rocket", "tada", "fire"), weight=4, thread=0.3),
)

BANKS["product"] = (
    Script("product", (
        "Roadmap review for {product} {day} at {time}. Bring your top customer asks.",
        "Draft PRD for the next {product} milestone is up, comments welcome by {day}.",
        "Usage of {product} is up {pct}% this month, mostly from the new onboarding flow.",
    ), answers=("Will the SSO work make this quarter?", "Added my comments.", "Great numbers!"),
        more=("Yes, it's in the plan.",), emoji=("eyes", "chart_with_upwards_trend", "thumbsup"), weight=4, thread=0.35),
)

BANKS["product-feedback"] = (
    Script("customer", (
        "Feedback from {customer} ({tier}): they love the dashboards but want scheduled exports.",
        "{contact} at {customer} asked for SAML group sync. Third request this month.",
        "{customer} finds the permissions model confusing for large teams.",
    ), answers=("Adding to the board, thanks.", "This is on the roadmap for next quarter.", "Can you get me 15 min with them?"),
        more=("Sure, I'll set it up.", "Thanks, that helps the prioritisation."),
        author="csm", repliers=("any",), emoji=("eyes", "bulb", "thumbsup"), weight=4, thread=0.4),
    Script("product", (
        "Customers keep asking for bulk edit in {product}. Anyone tracking this?",
    ), answers=("Yes, it's in discovery.",), emoji=("eyes", "100")),
)

BANKS["hiring"] = (
    Script("hire", (
        "{person} accepted our offer and starts as {title}! :tada:",
    ), author="manager", emoji=("tada", "raised_hands"), when="start", thread=0.3, answers=("Great hire!",)),
    Script("none", (
        "We're hiring: Senior Backend Engineer and Customer Success Manager. Referrals welcome, bonus applies.",
        "Interview loop for the {team_any} role on {day}, need one more panelist. Anyone free at {time}?",
        "Reminder to submit interview feedback within 24h of the interview please.",
    ), answers=("I can do it.", "Sent a referral!", "I'm free at {time}."),
        emoji=("eyes", "raised_hands", "thumbsup"), weight=3, thread=0.4),
)

BANKS["kudos"] = (
    Script("solved", (
        "Shoutout to {assignee} for jumping on {key} for {customer} and turning it around fast :raised_hands:",
    ), emoji=("raised_hands", "heart", "100", "clap"), when="updated", weight=3, thread=0.2, answers=("So deserved!",)),
    Script("won", (
        "Kudos to {owner} for landing {customer}! And to {csm} for the great reference call.",
    ), emoji=("tada", "raised_hands", "heart"), when="close", thread=0.2, answers=("Team effort!",)),
    Script("person", (
        "Thank you {person} for helping me prep the board deck this week, you're a star :star:",
        "Huge thanks to {person} for covering my on-call shift :pray:",
    ), emoji=("heart", "pray", "star"), weight=2),
)

BANKS["leadership"] = (
    Script("deal", (
        "Forecast check: {deal} ({amount}) still committed for {close}? It's one of our biggest this quarter.",
    ), answers=("Yes, {owner} says legal is the last step.", "Slipping risk, their CFO wants another review."),
        more=("Let's discuss in staff.",), author="exec", repliers=("lead", "any"), emoji=("eyes",), weight=3, thread=0.6),
    Script("none", (
        "Draft agenda for the offsite is in the doc, please add topics by {day}.",
        "Board prep: please send your slides by {day} EOD.",
        "Headcount plan for next quarter needs to be final by {day}.",
    ), author="exec", emoji=("white_check_mark", "eyes"), weight=3, thread=0.3, answers=("Added mine.", "Will do.")),
    Script("urgent", (
        "FYI: {customer} escalation ({key}) — {summary}. {csm} is on point, I'd like daily updates.",
    ), answers=("Will post here every morning.",), author="exec", repliers=("csm", "lead"), emoji=("eyes",), when="created", thread=0.6),
)

BANKS["cs-leads"] = (
    Script("renewal", (
        "At-risk list: {customer} renewal ({amount}, closes {close}). Low adoption, need an exec sponsor call.",
        "{customer} renewal ({deal}) — {stage}. Should we offer a multi-year to lock it in?",
    ), answers=("I'll reach out to their VP.", "Multi-year makes sense if they commit by {close}."),
        author="lead", repliers=("any",), emoji=("eyes", "thinking_face"), weight=3, thread=0.5),
    Script("none", (
        "Let's review CSM book sizes {day}; a few people are above 30 accounts.",
    ), author="lead", emoji=("thumbsup",), answers=("Agreed, I'm at capacity.",)),
)

BANKS["customer"] = (
    Script("ticket", (
        "New ticket from {customer}: {key} — {summary} ({priority}).",
        "{key}: {summary}. {assignee} is investigating.",
    ), answers=("Thanks, I'll mention it on our weekly call.", "Customer confirmed they can work around it for now."),
        author="csm", repliers=("assignee", "owner", "any"), emoji=("eyes", "white_check_mark"), weight=4, when="created", thread=0.5),
    Script("customer", (
        "Weekly sync with {contact} ({contact_title}) done. Main topics: adoption in the {city} office and SSO.",
        "{customer} wants a roadmap session next month. {owner} can you join?",
        "{contact} asked for an updated invoice with their new PO number.",
    ), answers=("Yes, send me a time.", "I'll ask finance.", "Nice progress."),
        author="csm", repliers=("owner", "any"), emoji=("thumbsup", "eyes"), weight=3, thread=0.4),
    Script("deal", (
        "{deal}: {stage}, {amount}, close {close}. Next step: order form to {contact}.",
    ), answers=("Let me know if they need references.",), author="owner", repliers=("csm", "any"), emoji=("eyes", "fire"), weight=2),
)

BANKS["team"] = (
    Script("none", (
        "Standup notes are in the doc. Blockers: waiting on access to the new tool.",
        "Team lunch {day}? Thinking about the Italian place.",
        "I'm out {day} afternoon, {someone} is covering.",
        "Planning for next quarter {day} at {time}. Please bring your top 3 priorities.",
        "Does anyone have the template for the monthly report?",
    ), answers=("Thanks for the notes.", "I'm in!", "Sent you the link.", "Works for me."),
        emoji=("thumbsup", "eyes", "white_check_mark"), weight=5, thread=0.3),
    Script("customer", (
        "Quick question on {customer}: are they still on the {tier} tier? Need it for a report.",
    ), answers=("Yes, {tier}. {csm} can confirm.",), emoji=("eyes",), thread=0.6),
)

BANKS["marketing"] = (
    Script("customer", (
        "{customer} agreed to be a case study! {csm} is setting up the interview with {contact}.",
        "Webinar next {day} with {contact} from {customer}. Please share with your accounts.",
    ), answers=("Amazing! Logo on the website too?", "Sharing now."), author="any", emoji=("tada", "raised_hands"), weight=3, thread=0.35),
    Script("product", (
        "Launch plan for the next {product} release is in the drive. Blog draft due {day}.",
    ), answers=("I'll review the blog draft.",), emoji=("eyes", "rocket")),
)

BANKS["finance"] = (
    Script("won", (
        "Invoice sent for {deal}: {amount}. Net 30.",
    ), answers=("Thanks, I'll let {csm} know.",), author="any", emoji=("white_check_mark",), when="close", weight=3),
    Script("none", (
        "Month-end close starts {day}. Please get your accruals in.",
        "Reminder: expense reports older than 60 days will be rejected.",
    ), author="lead", emoji=("white_check_mark", "thumbsup"), weight=3, answers=("Done.",)),
)

BANKS["dm"] = (
    Script("customer", (
        "hey, do you have 10 min to go over {customer}?",
        "quick one: who's the main contact at {customer} now?",
        "did {customer} ever get back to you about the QBR date?",
    ), answers=("sure, after {time}?", "It's {contact}, {contact_title}.", "not yet, I'll nudge them"),
        more=("works", "thanks!", "perfect :pray:"), emoji=("thumbsup",), weight=4, thread=0.9),
    Script("ticket", (
        "any update on {key}? {customer} is asking",
        "do you know who has {key}? it's the \"{summary}\" one from {customer}",
    ), answers=("{assignee} has it, should be fixed by {day}", "checking now, will get back to you"),
        more=("thanks!", "ok, I'll tell them"), emoji=("eyes",), weight=3, thread=0.9),
    Script("deal", (
        "are we still on track for {deal} by {close}?",
        "can you send me the latest quote for {customer}? {amount} right?",
    ), answers=("yes, legal is reviewing", "yep {amount}, sending it over"), more=("great", "thx"),
        emoji=("thumbsup",), weight=2, thread=0.9),
    Script("none", (
        "are you joining the team sync today?",
        "can we move our 1:1 to {day}?",
        "lunch?",
        "thanks for the help earlier!",
        "do you have the link to the deck from yesterday?",
    ), answers=("yes, 2 min", "sure, {day} works", "in 10?", "anytime!", "here you go"),
        more=("great, thanks", "👍"), emoji=("thumbsup", "pray"), weight=4, thread=0.9),
)

# Extra channels of a large company: social, help and location channels reuse these.
BANKS["help"] = (
    Script("none", (
        "My laptop won't connect to the VPN after the update. Anyone else?",
        "How do I get added to the shared calendar for on-call?",
        "Is there a way to recover a deleted file from the shared drive?",
        "Need a license for the design tool, who approves?",
    ), answers=("Restart the client and re-enter your token, that fixed it for me.", "File an IT request and tag {someone}.",
                "Yes, trash keeps files for 30 days."),
        more=("That worked, thanks!",), emoji=("eyes", "white_check_mark", "pray"), weight=4, thread=0.7),
)

BANKS["social"] = BANKS["random"]

# Pinned reference messages: (channel name, text). Posted early in the channel's life.
PINNED: dict[str, tuple[str, ...]] = {
    "general": (
        ":pushpin: *New here?* Start with the onboarding guide in the wiki (Onboarding > First week), then say hi in {ch_random}.",
        ":pushpin: Who to ask: IT → {ch_help}, customer escalations → {ch_escalations}, incidents → {ch_incidents}.",
    ),
    "incidents": (
        ":pushpin: *Incident runbook*: 1) ack the page 2) open a bridge 3) post updates here every 30 min 4) postmortem within 5 days.",
    ),
    "support": (
        ":pushpin: *Triage process*: Highest = respond in 1h, High = 4h, Medium = 1 business day. Escalate {tier_top} customers in {ch_escalations}.",
    ),
    "escalations": (
        ":pushpin: Post escalations as: customer — ticket key — summary — impact. The account CSM owns customer comms.",
    ),
    "cs-renewals": (
        ":pushpin: *Renewal playbook*: start 120 days out, health review at 90, quote at 60, signed by 30.",
    ),
    "engineering": (
        ":pushpin: On-call rota and deploy checklist are in the eng handbook. Deploy freeze Fridays after 3pm.",
    ),
}

# Channel topics and purposes by channel name (fallback: the team's description).
TOPICS: dict[str, tuple[str, str]] = {
    "general": ("Company-wide news and questions", "This channel is for workspace-wide communication and announcements."),
    "random": ("Non-work banter and water cooler conversation", "A place for non-work chatter, lunch plans and pet photos."),
    "announcements": ("Official company announcements — read only for most", "Important updates from leadership and People team."),
    "deals": ("Pipeline updates and deal help", "Salesforce notifications and deal strategy."),
    "escalations": ("Customer escalations: customer — key — impact", "Get the right people on urgent customer issues fast."),
    "incidents": ("Production incidents. Runbook pinned.", "PagerDuty alerts and incident coordination."),
    "product-feedback": ("What customers are asking for", "Share customer feedback with product."),
    "releases": ("Release notes and changelogs", "What shipped, when."),
    "hiring": ("Open roles, referrals and new starters", "Recruiting coordination."),
    "sales-wins": (":trophy: Closed Won!", "Celebrate every new customer."),
    "cs-renewals": ("Upcoming renewals and risks", "Renewal tracking for customer success and sales."),
    "kudos": ("Say thank you :heart:", "Recognise your colleagues."),
    "leadership": ("Leadership team — confidential", "Exec staff and team leads."),
    "cs-leads": ("CS management", "Customer success leads: book sizes, risk, process."),
    "help-it": ("IT help: laptops, access, VPN", "Ask IT anything."),
    "oncall": ("Who's on call this week", "On-call coordination."),
}

STATUSES: tuple[tuple[str, str], ...] = (
    (":palm_tree:", "OOO until Monday"),
    (":spiral_calendar_pad:", "In meetings"),
    (":house_with_garden:", "Working remotely"),
    (":face_with_thermometer:", "Out sick"),
    (":airplane:", "Travelling"),
    (":headphones:", "Focus time"),
    (":coffee:", "Back in 15"),
)

REACTIONS: tuple[str, ...] = (
    "thumbsup", "white_check_mark", "eyes", "tada", "raised_hands", "fire", "heart", "joy", "pray", "rocket", "100",
)

SERVICES: tuple[str, ...] = (
    "api-gateway", "billing-worker", "auth-service", "search-indexer", "notifications", "sync-engine", "web-app", "exports",
)

TIMES: tuple[str, ...] = ("9:30", "10am", "11am", "noon", "1pm", "2pm", "2:30", "3pm", "4pm")
