"""What people say in the seeded Slack workspace: template banks per kind of channel.

A `Script` is one kind of message: a few wordings of the top-level line, what the first
reply in its thread says (an answer to that line, not a generic "+1"), what later replies
say, who plausibly writes it, who answers, and which emoji people react with. A line may
carry its own answers, `("line", "answer", ...)`, when the script's answers would not fit it.

Fields in braces are filled from the company's data by `seed_data.chat`, so a line about a
deal names that deal's real customer, amount, stage, owner and close date. A line whose
field has no value for its subject (a customer without a CSM, an unassigned ticket) is not
used for that subject: nothing in chat says "the CSM" where the CRM has nobody.

Field names, by the `subject` a script is about:
- every script: someone, someone2 (mentions of other channel members), day (a weekday
  after the message), time ("2pm"), n (a small number), pct, version (release of that
  week), service, incident, pr, place, activity, health, team_any, tier_top,
  ch_<name> (a link to a channel such as ch_escalations); and, in a line whose subject is
  not a customer, customer fields of a customer the conversation cares about
- deal / won / lost / renewal: customer fields, deal, amount, stage, close, owner, product, seats
- ticket / urgent / solved (customer tickets): customer fields, key, summary, priority,
  status, issue, assignee, reporter, unassigned (empty, and present only if the ticket is)
- bug (engineering tickets, maybe without a customer): key, summary, priority, status, issue,
  assignee, reporter
- customer: customer, tier, industry, city, country, owner, csm, contact, contact_title
- hire / person: person, first, title, team, manager
- product: product, family, price
"""

from __future__ import annotations

from dataclasses import dataclass

Line = str | tuple[str, ...]  # a wording, or (wording, its own answers...)


@dataclass(frozen=True, slots=True)
class Script:
    subject: str  # none, deal, won, lost, renewal, ticket, urgent, solved, bug, customer, hire, person, product
    lines: tuple[Line, ...]  # wordings of the top-level message
    answers: tuple[str, ...] = ()  # the first reply in its thread, for lines without their own
    more: tuple[str, ...] = ()  # later replies, in any order
    author: str = "any"  # role of the poster: any, owner, csm, assignee, reporter, lead, person, manager, exec, bot:<name>
    repliers: tuple[str, ...] = ("any",)  # roles of who answers, first one answers first
    emoji: tuple[str, ...] = ("thumbsup", "eyes")
    weight: int = 2  # relative frequency within its bank
    thread: float | None = None  # relative chance of a thread; None = the seeder's default
    when: str = "any"  # any | close (the deal's close date) | created / updated (the ticket's) | start (a hire's first day)


# What anyone can add at the end of any thread without it reading oddly.
ACKS: tuple[str, ...] = ("+1", "👍", "Thanks!", ":raised_hands:", "Thanks all.")

BANKS: dict[str, tuple[Script, ...]] = {}

BANKS["general"] = (
    Script("hire", (
        "Please welcome {person} to the {team} team! {first} joins us as {title} :wave: Say hi!",
        "Big welcome to {person}, our new {title} on {team} :tada: {first} is starting this week, reporting to {manager}.",
    ), answers=("Welcome {first}! :wave:", "Welcome aboard {person}!", "So glad to have you {first}!"),
        more=("Welcome! Ping me if you need anything.", "Hi {first}! :wave:", "Welcome to the team 🎉", "Welcome {first}!",
              "Great to have you here!", "Thanks everyone, happy to be here! :blush:"),
        author="manager", emoji=("wave", "tada", "raised_hands", "heart"), weight=3, thread=1.6, when="start"),
    Script("none", (
        "Reminder: the office is closed on {day} for maintenance. Remote work as usual.",
        "Heads up: Wi-Fi on the 3rd floor will be down {day} morning from 8 to 9.",
        ("The coffee machine on 2 is fixed :coffee: thanks facilities!", "Finally :pray:", "Best news this week"),
        ("Who left a blue water bottle in the big conference room? It's at the front desk.", "Mine! Thank you :pray:"),
        "Friendly reminder to submit your expense reports by the end of the month.",
        "Fire drill {day} at 11am. Please follow the wardens to the assembly point.",
        ("Lunch & learn {day} at {time}: {someone} walks us through how customers use {product}.", "Will it be recorded?", "Looking forward to it!"),
        "The kitchen on floor {n} is being repainted {day}, please use the one downstairs.",
        "Parking garage access cards are being replaced {day}, pick yours up at reception.",
    ), answers=("Thanks for the heads up!", "Noted, thanks"), emoji=("thumbsup", "pray", "eyes"), weight=3),
    Script("none", (
        ("Does anyone know who owns the shared Zoom account? I need to schedule a webinar.",
         "{someone} manages it, DM them.", "Marketing owns it, ask {someone}."),
        ("Where do we keep the brand templates for slides these days?", "In the shared drive under Brand > Templates."),
        ("Is there a guide for setting up the VPN on a new laptop?", "It's in the wiki under Onboarding > Tools.",
         "Ask in {ch_help}, there's a pinned guide."),
        ("What's the process to get access to the BI dashboards?", "File an IT request and tag {someone}, they'll sort it."),
    ), more=("That worked, thanks!", "Found it, thank you.", "Would be great to pin this somewhere."), thread=1.4),
    Script("product", (
        ("Quick reminder that {product} is now part of the standard demo environment. Reach out to {someone} for access.",
         "Nice, does it include sample data?", "Finally! Customers keep asking to see it."),
        ("New one-pager for {product} ({family}) is up in the sales drive.", "Nice, this is much clearer than the old deck.",
         "Does it reflect the {price} list price already?"),
    ), more=("Yes, updated last week.",), emoji=("fire", "thumbsup", "rocket")),
)

# The shared calendar's reminders, where the meeting's people read.
CALENDAR = Script("none", (
    ":calendar: *All-hands* starts in 10 minutes · Zoom link in the invite",
    ":calendar: *Lunch & learn* starts in 15 minutes · Big conference room and Zoom",
    ":calendar: *Team sync* starts in 10 minutes · Join with Google Meet",
    ":calendar: *Sprint planning* starts in 10 minutes · Join with Google Meet",
    ":calendar: *Quarterly business review prep* starts in 15 minutes",
), author="bot:google-calendar", emoji=("eyes",), weight=1, thread=0)

BANKS["general"] += (CALENDAR,)

BANKS["random"] = (
    Script("none", (
        "Anyone up for lunch at {place} around 12:30?",
        "Group order from {place} on {day}, who's in? :taco:",
        "Who wants to try {place}? Heard great things.",
        "Lunch at {place} {day}? Booking a table for {n}.",
    ), answers=("I'm in!", "Count me in", "Can't today, next time!"),
        more=("Meet at the lobby?", "12:30 works", "Me too!", "Save me a seat"),
        emoji=("yum", "raised_hands", "joy"), weight=3, thread=1.0),
    Script("none", (
        ("Pizza in the kitchen, first come first served :pizza:", "Save me a slice please 🙏", "Already had two, they're great"),
        ("PSA: someone brought homemade cookies to the kitchen :cookie:", "You're the best", "Already had two, they're great"),
        ("Coffee run in 10, who wants something?", "Oat flat white please!", "Iced americano if you don't mind 🙏"),
        ("The plant in the lobby is thriving, whoever waters it deserves a raise :seedling:", "That's {someone}, they're a legend"),
    ), emoji=("yum", "heart", "joy")),
    Script("none", (
        ("Any good weekend plans? I'm finally doing that hike everyone keeps talking about.", "Trying to finally finish my garden.",
         "Just resting, it's been a week!"),
        ("What's everyone watching these days? Need new recommendations.", "Highly recommend the new season of that detective show.",
         "Anything with dragons, obviously"),
        ("Book recommendations for a long flight? Fiction preferred.", "Anything by Ursula K. Le Guin."),
        ("Happy Friday everyone! Any fun plans for the weekend?", "Camping if the weather holds.", "Sleeping in :sleeping:"),
        ("Is it just me or is the office freezing today? :cold_face:", "Not just you. Hoodie weather.", "I brought a blanket"),
        ("My dog discovered the sprinkler this morning. Zero regrets from him :dog:", "Pics or it didn't happen :joy:"),
        ("Who else is doing the 10k charity run next month? We should make a team.", "Signed up! Let's do a team shirt."),
        ("Anyone else doing {activity} this weekend?", "Me! Saturday morning.", "Next weekend for me"),
        ("Trying {activity} for the first time on {day}. Wish me luck.", "You'll love it!", "Good luck! Report back"),
        ("Recommendations for {activity} near the office?", "There's a good spot ten minutes from here, I'll DM you."),
    ), more=("Sounds lovely.", "Jealous!", "Same here :joy:"), emoji=("joy", "heart", "100", "sunny"), weight=3, thread=0.9),
)

BANKS["announcements"] = (
    Script("none", (
        ("*All-hands this {day} at 10am PT.* Agenda: quarterly results, product roadmap, and Q&A. Questions in the form by Wednesday.",
         "Will the recording be shared for other time zones?"),
        ("*Open enrollment* for benefits starts next week. Details in the People portal; office hours with {someone} on {day}.",
         "Is the dental plan changing this year?"),
        ("*New travel policy* is live: book through the portal, economy for flights under 6h. FAQ pinned in {ch_general}.",
         "Does this apply to trips already booked?"),
        ("Reminder: company holiday on {day}, see you all the day after :palm_tree:", "Enjoy everyone!"),
        ("*Security training* is due by the end of the month. It takes about 25 minutes, link in your inbox.", "Done ✅"),
        ("We've moved to a new expense tool. Please submit anything older than 30 days by {day}.", "Thanks for the clear summary!"),
    ), more=("Yes, it goes out the same day.", "Good question, answered in the FAQ."),
        author="exec", emoji=("thumbsup", "white_check_mark", "eyes", "pray"), weight=3, thread=0.3),
    Script("won", (
        "Congratulations to {owner} and the team for closing *{customer}* — {amount} for {product}! :tada:",
    ), answers=("Amazing work {owner}!", "Huge win :rocket:"), more=("Well deserved!", "Let's go!"),
        author="exec", emoji=("tada", "raised_hands", "rocket", "fire"), when="close", thread=0.6),
    Script("hire", (
        "Please join me in welcoming {person}, who joins {team} as {title}.",
    ), answers=("Welcome {first}!",), more=("Welcome aboard!",), author="exec", emoji=("wave", "tada", "heart"), when="start", thread=0.4),
)

BANKS["sales"] = (
    Script("deal", (
        "Pipeline update: *{deal}* is in {stage}, {amount}, expected close {close}.",
        "Moved *{deal}* to {stage}. {amount} for {seats} seats of {product}, targeting {close}.",
        "{customer} asked for a revised quote on {product}: {seats} seats, {amount} total. Sending it today.",
        "{deal} slipped a week, {contact} is out until {day}. Still {stage}, {amount}.",
        "Great discovery call with {contact} at {customer}. {deal} looks real: {amount}, close {close}.",
    ), answers=("Nice! Do you need legal on the MSA?", "What's the competitor in this one?", "Is {close} realistic given their procurement?"),
        more=("Procurement says {close} is doable if we get the order form out this week.", "Legal is looped in.",
              "They're also looking at a cheaper option but we're ahead on features."),
        author="owner", repliers=("lead", "any"), emoji=("eyes", "fire", "thumbsup"), weight=5),
    Script("deal", (
        ("Can someone help me with a custom quote for {customer}? {seats} seats of {product}, they want annual billing.",
         "Happy to help, send it over.", "Use the annual template in the deal desk folder, {someone} can approve."),
        ("Who's done a security questionnaire for a {product} deal recently? {customer} just sent theirs.",
         "{someone} did one last month, I'll send you the doc."),
    ), more=("Thanks! Saved me a day.", "Got it, working through it now."), author="owner", emoji=("eyes", "pray"), thread=1.4),
    Script("won", (
        "*Closed Won* :tada: {customer} signed! {amount}, {seats} seats of {product}.",
        "We got it! {deal} is Closed Won — {amount}. Thanks {csm} for the help on the references.",
    ), answers=("Let's go {owner}! :rocket:", "Massive, congrats!", "Great job on this one"),
        more=("Who's handling onboarding?", "{csm} will run the kickoff next week.", "What was the deciding factor?"),
        author="owner", repliers=("lead", "any"), emoji=("tada", "raised_hands", "fire", "rocket", "100"), when="close", thread=1.0),
    Script("lost", (
        "Bad news: {customer} went with a competitor on {deal}. Marked Closed Lost. Notes in the opportunity.",
    ), answers=("Ugh, sorry. Was it price?", "Thanks for the write-up, let's review in the pipeline call."),
        more=("Mostly price, and they wanted an on-prem option.",),
        author="owner", repliers=("lead", "any"), emoji=("disappointed", "pray"), when="close"),
    Script("none", (
        "Pipeline review moved to {day} {time}. Please update next steps on your open opps before then.",
        "Reminder: forecast calls are due by EOD {day}.",
    ), answers=("Updated mine.", "Will do."), author="lead", emoji=("white_check_mark", "thumbsup"), thread=0.4),
)

BANKS["deals"] = (
    Script("deal", (
        "Opportunity *{deal}* moved to *{stage}* — Amount: {amount} · Close date: {close} · Owner: {owner}",
    ), answers=("Nice progress {owner}!", "What's left before we can send paper?"), more=("Order form goes out {day}.",),
        author="bot:salesforce", repliers=("lead", "owner"), emoji=("eyes", "fire"), weight=4, thread=0.3),
    Script("deal", (
        ("{deal} update: champion confirmed budget, {amount}, legal review next. Aiming for {close}.", "Great, who's their legal contact?"),
        ("Any tips for multi-year terms? {customer} wants a 3-year deal on {product}.",
         "Offer a price lock instead of a bigger discount, it worked for me last quarter."),
        ("{customer} is asking for a discount beyond 15% on {deal}. Who needs to approve?", "Anything over 15% needs {someone} to sign off."),
        ("{deal}: demo with {contact} ({contact_title}) went well, they want a proposal by {day}.", "Nice! Want me to review the proposal?"),
        ("{customer} procurement wants net 60 on {deal} ({amount}). OK to accept?", "Net 60 is fine above $20k, go ahead."),
        ("Need a hand with pricing for {deal}: {seats} seats at {amount}, closing {close}.", "Happy to look, ping me after {time}."),
    ), more=("Makes sense, I'll propose that.", "Thanks, that helps.", "Approved, go ahead."),
        author="owner", repliers=("lead", "any"), emoji=("eyes", "thumbsup"), weight=4, thread=1.0),
    Script("won", (
        "Opportunity *{deal}* is *Closed Won* :trophy: — Amount: {amount} · Owner: {owner}",
    ), answers=("Congrats {owner}! :tada:",), more=("Huge!",), author="bot:salesforce", repliers=("lead", "any"),
        emoji=("tada", "trophy", "rocket"), when="close", thread=0.6),
)

BANKS["sales-wins"] = (
    Script("won", (
        ":trophy: *{customer}* — {amount} — {product} ({seats} seats). Closed by {owner}!",
        "Another one! {owner} closed *{deal}* for {amount} :tada:",
    ), answers=("Huge!", "Let's gooo :rocket:", "Congrats {owner}!"),
        more=("What was the deciding factor?", "The security review went really smoothly.", "Team effort!"),
        author="lead", emoji=("tada", "trophy", "raised_hands", "fire", "100"), weight=4, when="close", thread=0.8),
)

BANKS["support"] = (
    Script("ticket", (
        "*{key}* created: {summary}\nPriority: {priority} · Type: {issue} · Reporter: {reporter} · Assignee: {assignee}",
    ), answers=("Taking a look.", "I've seen this before with another customer, will check the logs."),
        author="bot:jira", repliers=("assignee", "any"), emoji=("eyes",), weight=4, when="created", thread=0.4),
    Script("ticket", (
        "Who owns {key} for {customer}? \"{summary}\"",
        "Can someone pick up {key} ({customer})? {summary}",
        "{key} from {customer} needs an owner: {summary} — {priority} priority.",
    ), answers=("{assignee} is on it, ETA {day}.", "Assigned to {assignee}, they'll update the customer today.",
                "It's unassigned{unassigned}, I'll take it."),
        more=("Thanks! I'll let the account team know.", "Customer was just asking, perfect timing."),
        author="reporter", repliers=("lead", "assignee", "any"), emoji=("eyes", "white_check_mark"), weight=4, when="created", thread=1.2),
    Script("ticket", (
        ("Update on {key} ({customer}): reproduced it, looks like a config issue on their side. Writing up steps.",
         "Nice, can you add the steps to the KB too?"),
        ("{key} — waiting on logs from {customer}. Set to Waiting for customer.", "I'll nudge their admin on my call {day}."),
        ("Anyone seen this before? {customer} reports: {summary} ({key})", "Yes, check the known issues page, there's a workaround.",
         "I had one like that last month, it was an expired token."),
    ), more=("That was it, thanks!", "Sending the workaround now."),
        author="assignee", emoji=("eyes", "pray", "bulb"), weight=3, when="created", thread=1.0),
    Script("solved", (
        "{key} resolved :white_check_mark: {customer} confirmed the fix for \"{summary}\".",
        "Closed out {key} for {customer}. Root cause documented in the ticket.",
    ), answers=("Nice work {assignee}!",), more=("I'll let {csm} know.",),
        author="assignee", emoji=("white_check_mark", "raised_hands", "100"), weight=2, when="updated"),
    Script("none", (
        ("Queue check: {n} tickets unassigned this morning. Please grab one before standup.", "Grabbed two.", "On it."),
        ("Reminder to set tickets to Waiting for customer when you're blocked on them, it keeps SLAs honest.", "Good reminder, thanks."),
    ), author="lead", emoji=("white_check_mark", "thumbsup"), thread=0.4),
)

BANKS["escalations"] = (
    Script("urgent", (
        ":rotating_light: Escalation: {customer} — {key} \"{summary}\" ({priority}). {csm} please loop in the account team.",
        "Escalating {key} for {customer}: {summary}. They're a {tier} customer and this is blocking them.",
        "Who owns the {key} escalation for {customer}?",
    ), answers=("{assignee} is on it, ETA {day}.", "{assignee} owns it. Next update to the customer by {time}.",
                "Nobody yet{unassigned}. I'll grab it and update the customer by {time}."),
        more=("Thanks. I'll tell {customer}'s team.", "Can we get engineering eyes on it too?", "Engineering is looped in, see {ch_incidents}.",
              "Workaround sent to the customer.", "Customer confirmed the workaround helps for now.", "Fix is scheduled for {version}."),
        author="reporter", repliers=("assignee", "lead", "any"), emoji=("eyes", "rotating_light", "white_check_mark"), weight=5,
        when="created", thread=1.5),
    Script("urgent", (
        "*{key}* priority changed to *{priority}* · {customer} · {summary} · Assignee: {assignee}",
    ), answers=("Acknowledged.",), author="bot:jira", repliers=("assignee",), emoji=("eyes",), weight=2, when="created", thread=0.5),
    Script("solved", (
        "Closing the loop on {key} ({customer}): fixed and confirmed by the customer. Thanks everyone.",
    ), answers=("Great outcome. Can we do a quick retro?", "Thanks {assignee}!"),
        author="csm", emoji=("white_check_mark", "pray", "raised_hands"), when="updated"),
)

BANKS["customer-success"] = (
    Script("customer", (
        ("QBR with {customer} went well. They want to expand to another team next quarter. Notes in the account.",
         "Nice, let me know if you need help with the expansion deck."),
        ("Health check: {customer} usage is down {pct}% this month. Reaching out to {contact} ({contact_title}).",
         "Their admin changed recently, worth checking adoption."),
        ("{customer} onboarding kickoff is {day} at {time}. {owner}, can you join for the first 10 min?", "I can join."),
        ("Heads up: {contact} is leaving {customer}. Need a new champion there.", "Do we know who's replacing them?"),
        ("{customer} ({tier}) health is {health} this week. Main topic: SSO rollout.", "Want me to join the next call?"),
        ("Adoption workshop with {customer} on {day} at {time}, {n} admins signed up.", "Nice turnout!"),
        ("{contact} from {customer} asked for a training session for their {city} team.", "I can run it, send me a few dates."),
    ), more=("Good call, I'll set up a session.", "I'll ask on our next call.", "Thanks!"),
        author="csm", repliers=("owner", "lead", "any"), emoji=("eyes", "thumbsup", "chart_with_upwards_trend"), weight=5, thread=0.8),
    Script("renewal", (
        "{customer} renewal ({deal}) is {stage}, {amount}, closes {close}. Any risks I should know about?",
        "Prepping the {customer} renewal: {amount}, {seats} seats of {product}, due {close}.",
    ), answers=("They had a rough month with support, check {ch_escalations}.", "Looks healthy from my side."),
        more=("Noted, I'll address that on the call.", "Thanks, I'll loop in {owner}."),
        author="csm", repliers=("owner", "any"), emoji=("eyes", "thumbsup"), weight=3, thread=1.0),
    Script("ticket", (
        "Anyone have context on {key}? {customer} brought it up on our call: \"{summary}\".",
    ), answers=("{assignee} is working it, last update was this morning.", "Nobody has picked it up yet{unassigned}, I'll raise it in standup."),
        author="csm", repliers=("assignee", "any"),
        emoji=("eyes",), when="created", thread=1.4),
    Script("none", (
        ("Reminder: customer health scores are due {day}. Please update red accounts first.", "Done for mine."),
        ("Team sync moved to {time} {day}.", "Thanks, updated my calendar."),
    ), author="lead", emoji=("white_check_mark", "thumbsup"), thread=0.3),
)

BANKS["cs-renewals"] = (
    Script("renewal", (
        "Renewal: *{customer}* — {amount} — {stage} — closes {close}. Owner {owner}, CSM {csm}.",
        "{customer} renewal due {close} ({amount}). Risk: medium, their usage dipped last month.",
        "{customer} verbally agreed to renew at {amount}. Paperwork with {owner}.",
        "Renewal forecast for {customer}: {amount}, {stage}. Next call with {contact} on {day}.",
        "{customer} wants to add {n}0 seats at renewal ({deal}). {owner} can you requote?",
        "Sent the renewal quote for {deal}: {amount}. Waiting on {contact} ({contact_title}).",
        "{customer} renewal health is {health}. Closes {close}, {amount}.",
    ), answers=("Do we have exec sponsorship on their side?", "I'll prep the usage report for the call.", "Any pricing change this year?"),
        more=("Yes, their VP joined the last QBR.", "Flat pricing, multi-year discount if they sign by {close}.", "Thanks!"),
        author="csm", repliers=("owner", "lead", "any"), emoji=("eyes", "white_check_mark", "moneybag"), weight=5, thread=0.9),
    Script("won", (
        "{customer} renewed! {amount} for {product}, closed {close} :tada:",
    ), answers=("Nice work {csm} and {owner}!",), author="csm", emoji=("tada", "raised_hands"), when="close", thread=0.6),
)

BANKS["engineering"] = (
    Script("none", (
        ("Deploying {service} to production in 10 min. Shout if you have anything in flight.", "Go ahead, nothing in flight from me."),
        ("Can someone review PR #{pr}? Small fix in {service}, should take 5 min.", "Looking at it now.", "Approved with one nit."),
        ("Heads up: the staging database will be reset {day} at {time}.", "Thanks, I'll snapshot my test data."),
        ("CI is flaky on the integration suite again. Looking into it.", "Thanks, I'll re-run mine."),
        ("{service} deploy done :white_check_mark: no errors so far.", "Looks stable in the dashboards."),
        ("RFC for splitting {service} is up for comments until {day}.", "Left a few comments on the data migration part."),
        ("Heads up: {service} dependency upgrade going out {day}. Ping me if you see weirdness.", "Thanks for the heads up."),
        ("Flaky test in {service} quarantined, ticket to fix it is in the backlog.", "Thank you, it was driving me nuts."),
        ("Load test results for {service}: p95 down {pct}% after the caching change.", "Nice work!"),
        ("Who understands the retry logic in {service}? Need a second pair of eyes.", "{someone} wrote most of it, but I can help."),
    ), more=("Merged.", "Rolled back and re-deployed, all good now.", "Thanks!"),
        emoji=("eyes", "white_check_mark", "rocket", "ship"), weight=5, thread=0.7),
    Script("ticket", (
        "Support escalated {key} ({customer}): {summary}. Can someone from the team take a look?",
    ), answers=("I'll take it.", "Probably related to the last {service} change, checking."),
        more=("PR #{pr} is up with a fix.", "Fix is on staging, can support verify?", "Verified, shipping with {version}."),
        emoji=("eyes", "bug", "white_check_mark"), weight=3, when="created", thread=1.2),
    Script("bug", (
        ("Picking up {key}: {summary}. Should have a PR up by {day}.", "Thanks! Ping me for review."),
        ("Can someone review PR #{pr}? It fixes {key} ({summary}).", "I'll review after lunch.", "Approved, nice fix."),
        ("{key} ({priority}) needs an owner: {summary}", "I can take it, I touched that code last sprint."),
    ), more=("Merged, going out with {version}.", "Added a test for the edge case too."),
        emoji=("eyes", "white_check_mark", "ship"), weight=4, when="created", thread=1.0),
    Script("none", (
        ("Sprint planning {day} at {time}. Please groom your tickets beforehand.", "Will do."),
        ("On-call handoff: quiet week, two pages, both {service}. Notes in the doc.", "Thanks for the notes!"),
    ), author="lead", emoji=("thumbsup", "white_check_mark"), thread=0.4),
)

BANKS["incidents"] = (
    Script("none", (
        "[Triggered] Incident #{incident}: {service} error rate above 5% · Urgency: High · Assigned to {someone}",
        "[Triggered] Incident #{incident}: {service} p95 latency > 2s · Urgency: High · Assigned to {someone}",
    ), answers=("Ack, looking.", "Acknowledged. Opening a bridge."),
        more=("Rolled back the last {service} deploy, error rate recovering.", "Resolved. Postmortem doc to follow.",
              "Customer impact was limited to a few accounts, support is informed.", "Dashboards look normal again.",
              "Root cause looks like a bad config push.", "Thanks all, closing the incident."),
        author="bot:pagerduty", emoji=("eyes", "rotating_light", "white_check_mark"), weight=4, thread=1.6),
    Script("urgent", (
        ":rotating_light: {customer} reports {summary} ({key}). Possibly related to the {service} incident?",
    ), answers=("Checking, the timelines match.", "Unrelated I think, but adding to the incident doc."),
        more=("Confirmed related, fix is rolling out.",), repliers=("any", "assignee"), emoji=("eyes", "rotating_light"),
        when="created", thread=1.6),
    Script("bug", (
        "Follow-up from last night's page: {key} — {summary}. Assigned to {assignee}.",
    ), answers=("Thanks, adding it to the postmortem action items.",), author="lead", emoji=("eyes", "white_check_mark"),
        when="created", thread=0.8),
    Script("none", (
        "Postmortem for incident #{incident} ({service}) is published. Action items assigned, please review.",
    ), answers=("Great write-up, thanks.",), author="lead", emoji=("pray", "white_check_mark", "eyes"), thread=0.6),
)

BANKS["releases"] = (
    Script("product", (
        ("*Release {version}* is out :rocket: Highlights: faster {product} sync, new admin audit log, and bug fixes.",
         "Is the audit log on by default?"),
        ("*{version}* shipped. {product}: improved exports and SSO fixes. Full notes in the changelog.",
         "Nice, {customer} has been waiting for the export fix."),
    ), more=("Off by default, admins can enable it in settings.", "Telling them now :tada:"),
        author="lead", emoji=("rocket", "tada", "fire"), weight=4, thread=0.6),
)

BANKS["product"] = (
    Script("product", (
        ("Roadmap review for {product} {day} at {time}. Bring your top customer asks.", "Will the SSO work make this quarter?"),
        ("Draft PRD for the next {product} milestone is up, comments welcome by {day}.", "Added my comments."),
        ("Usage of {product} is up {pct}% this month, mostly from the new onboarding flow.", "Great numbers!"),
    ), more=("Yes, it's in the plan.", "Thanks!"), emoji=("eyes", "chart_with_upwards_trend", "thumbsup"), weight=4, thread=0.7),
)

BANKS["product-feedback"] = (
    Script("customer", (
        "Feedback from {customer} ({tier}): they love the dashboards but want scheduled exports.",
        "{contact} at {customer} asked for SAML group sync. Third request this month.",
        "{customer} finds the permissions model confusing for large teams.",
    ), answers=("Adding to the board, thanks.", "This is on the roadmap for next quarter.", "Can you get me 15 min with them?"),
        more=("Sure, I'll set it up.", "Thanks, that helps the prioritisation."),
        author="csm", emoji=("eyes", "bulb", "thumbsup"), weight=4, thread=0.8),
    Script("product", (
        "Customers keep asking for bulk edit in {product}. Anyone tracking this?",
    ), answers=("Yes, it's in discovery.",), emoji=("eyes", "100")),
)

BANKS["hiring"] = (
    Script("hire", (
        "{person} accepted our offer and starts as {title}! :tada:",
    ), answers=("Great hire!",), author="manager", emoji=("tada", "raised_hands"), when="start", thread=0.6),
    Script("none", (
        ("We're hiring: Senior Backend Engineer and Customer Success Manager. Referrals welcome, bonus applies.", "Sent a referral!"),
        ("Interview loop for the {team_any} role on {day}, need one more panelist. Anyone free at {time}?", "I can do it.",
         "I'm free at {time}."),
        ("Reminder to submit interview feedback within 24h of the interview please.", "Done for mine."),
    ), emoji=("eyes", "raised_hands", "thumbsup"), weight=3, thread=0.8),
)

BANKS["kudos"] = (
    Script("solved", (
        "Shoutout to {assignee} for jumping on {key} for {customer} and turning it around fast :raised_hands:",
    ), answers=("So deserved!",), emoji=("raised_hands", "heart", "100", "clap"), when="updated", weight=3, thread=0.4),
    Script("won", (
        "Kudos to {owner} for landing {customer}! And to {csm} for the great reference call.",
    ), answers=("Team effort!",), emoji=("tada", "raised_hands", "heart"), when="close", thread=0.4),
    Script("person", (
        "Thank you {person} for helping me prep the board deck this week, you're a star :star:",
        "Huge thanks to {person} for covering my on-call shift :pray:",
        "Shoutout to {person} for the amazing onboarding docs, saved me hours.",
    ), answers=("Anytime!",), author="any", repliers=("person",), emoji=("heart", "pray", "star"), weight=2, thread=0.4),
)

BANKS["leadership"] = (
    Script("deal", (
        "Forecast check: {deal} ({amount}) still committed for {close}? It's one of our biggest this quarter.",
    ), answers=("Yes, {owner} says legal is the last step.", "Slipping risk, their CFO wants another review."),
        more=("Let's discuss in staff.",), author="exec", repliers=("lead", "any"), emoji=("eyes",), weight=3, thread=1.2),
    Script("none", (
        ("Draft agenda for the offsite is in the doc, please add topics by {day}.", "Added mine."),
        ("Board prep: please send your slides by {day} EOD.", "Will do."),
        ("Headcount plan for next quarter needs to be final by {day}.", "Mine is in the sheet."),
    ), author="exec", emoji=("white_check_mark", "eyes"), weight=3, thread=0.6),
    Script("urgent", (
        "FYI: {customer} escalation ({key}) — {summary}. {csm} is on point, I'd like daily updates.",
    ), answers=("Will post here every morning.",), author="exec", repliers=("csm", "lead"), emoji=("eyes",), when="created", thread=1.2),
)

BANKS["cs-leads"] = (
    Script("renewal", (
        ("At-risk list: {customer} renewal ({amount}, closes {close}). Low adoption, need an exec sponsor call.",
         "I'll reach out to their VP."),
        ("{customer} renewal ({deal}) — {stage}. Should we offer a multi-year to lock it in?",
         "Multi-year makes sense if they commit by {close}."),
    ), author="lead", emoji=("eyes", "thinking_face"), weight=3, thread=1.0),
    Script("none", (
        ("Let's review CSM book sizes {day}; a few people are above 30 accounts.", "Agreed, I'm at capacity."),
    ), author="lead", emoji=("thumbsup",)),
)

BANKS["customer"] = (
    Script("ticket", (
        "New ticket from {customer}: {key} — {summary} ({priority}).",
        "{key}: {summary}. {assignee} is investigating.",
    ), answers=("Thanks, I'll mention it on our weekly call.", "Customer confirmed they can work around it for now."),
        author="csm", repliers=("assignee", "owner", "any"), emoji=("eyes", "white_check_mark"), weight=4, when="created", thread=1.0),
    Script("customer", (
        ("Weekly sync with {contact} ({contact_title}) done. Main topics: adoption in the {city} office and SSO.", "Nice progress."),
        ("{customer} wants a roadmap session next month. {owner} can you join?", "Yes, send me a time."),
        ("{contact} asked for an updated invoice with their new PO number.", "I'll ask finance."),
        ("Sent {contact} last month's usage report: active users up {pct}%.", "Great trend!"),
        ("{contact} is out until {day}, pausing follow-ups until then.", "Thanks for the heads up."),
        ("Reminder: {customer} QBR is {day} at {time}. Deck draft is in the account folder.", "I'll add the support stats."),
        ("{customer} asked about the roadmap for {product}. Can someone from product join a call {day}?", "I'll find someone."),
        ("Their security team sent another questionnaire, {n} new questions. Who can help?", "Send it over, I'll take the SSO ones."),
        ("{contact} ({contact_title}) wants admin training for {n} new team leads.", "I can run it {day}."),
    ), author="csm", repliers=("owner", "any"), emoji=("thumbsup", "eyes"), weight=3, thread=0.8),
    Script("deal", (
        "{deal}: {stage}, {amount}, close {close}. Next step: order form to {contact}.",
        "Call with {contact} on {day} about {deal} ({amount}). Anything I should raise?",
    ), answers=("Let me know if they need references.", "Ask about their rollout plan for the new seats."),
        author="owner", repliers=("csm", "any"), emoji=("eyes", "fire"), weight=2),
    Script("won", (
        "{deal} is signed :tada: {amount} for {product}. Kickoff with {contact} next.",
    ), answers=("Great work {owner}!", "I'll schedule the kickoff."), author="owner", repliers=("csm", "any"),
        emoji=("tada", "raised_hands"), when="close", thread=1.0),
    Script("solved", (
        "{key} is fixed: \"{summary}\". {csm} can you let {contact} know?",
    ), answers=("Done, they're happy.", "Will mention it on our call {day}."), author="assignee", repliers=("csm",),
        emoji=("white_check_mark", "raised_hands"), when="updated"),
)

BANKS["team"] = (
    Script("none", (
        ("Standup notes are in the doc. Blockers: waiting on access to the new tool.", "I'll chase IT for you."),
        ("Team lunch {day}? Thinking about {place}.", "I'm in!", "Works for me."),
        ("I'm out {day} afternoon, {someone} is covering.", "Thanks for the heads up."),
        ("Planning for next quarter {day} at {time}. Please bring your top 3 priorities.", "Works for me."),
        ("Does anyone have the template for the monthly report?", "Sent you the link."),
        ("Retro {day} at {time}: what went well, what didn't. Add notes to the board.", "Added a few."),
        ("Welcome back {someone}! Hope the time off was great.", "Thanks! It was great."),
        ("Offsite planning: {n} people confirmed so far, please RSVP by {day}.", "Done!"),
        ("Heads up: I'm on support rotation this week, so slower to reply here.", "Good luck!"),
    ), emoji=("thumbsup", "eyes", "white_check_mark"), weight=5, thread=0.6),
    Script("customer", (
        "Quick question on {customer}: are they still on the {tier} tier? Need it for a report.",
    ), answers=("Yes, {tier}. {csm} can confirm.",), emoji=("eyes",), thread=1.2),
)

BANKS["marketing"] = (
    Script("customer", (
        ("{customer} agreed to be a case study! {csm} is setting up the interview with {contact}.", "Amazing! Logo on the website too?"),
        ("Webinar next {day} with {contact} from {customer}. Please share with your accounts.", "Sharing now."),
        ("Booth at the {industry} summit confirmed. {customer} will join us for a panel.", "I can help staff the booth."),
    ), emoji=("tada", "raised_hands"), weight=3, thread=0.7),
    Script("product", (
        ("Launch plan for the next {product} release is in the drive. Blog draft due {day}.", "I'll review the blog draft."),
        ("Campaign results: {pct}% open rate on the {product} launch email. Nice work team.", "Best one this year!"),
    ), emoji=("eyes", "rocket")),
)

BANKS["finance"] = (
    Script("won", (
        "Invoice sent for {deal}: {amount}. Net 30.",
    ), answers=("Thanks, I'll let {owner} know.",), emoji=("white_check_mark",), when="close", weight=3),
    Script("customer", (
        ("{customer} paid their overdue invoice, thanks {owner} for chasing.", "Finally :pray:"),
        ("{customer} needs a new PO number on their invoice, {contact} asked. Who has it?", "I'll reissue it today."),
    ), emoji=("white_check_mark", "pray"), weight=2),
    Script("none", (
        ("Month-end close starts {day}. Please get your accruals in.", "Done."),
        ("Reminder: expense reports older than 60 days will be rejected.", "Noted."),
    ), author="lead", emoji=("white_check_mark", "thumbsup"), weight=3),
)

BANKS["design"] = (
    Script("product", (
        ("New mocks for the {product} settings page are in Figma, feedback welcome by {day}.", "Love the new navigation.",
         "Left a few comments on the empty states."),
        ("Design crit {day} at {time}: onboarding flow for {product}.", "I'll bring the research notes."),
        ("Usability test results for {product}: {n} of 8 participants found the export button without help.", "That's a big improvement!"),
    ), more=("Thanks, updating the file.", "Agreed, let's go with option B."), emoji=("art", "eyes", "heart"), weight=4, thread=0.9),
    Script("customer", (
        ("{contact} at {customer} agreed to a user interview {day}. Who wants to observe?", "Me! Send the invite."),
    ), emoji=("eyes", "raised_hands")),
)

BANKS["data"] = (
    Script("none", (
        ("The revenue dashboard refresh is delayed, upstream job failed. ETA {time}.", "Thanks for the heads up."),
        ("New table in the warehouse: product usage by account, refreshed daily. Docs in the wiki.", "This is great, thank you!"),
        ("Can someone review my SQL for the churn model? PR #{pr}.", "Looking now.", "Approved with a couple of comments."),
        ("Reminder: data requests go through the intake form so we can prioritise.", "Noted."),
    ), more=("Thanks!",), emoji=("bar_chart", "eyes", "white_check_mark"), weight=4, thread=0.8),
    Script("customer", (
        ("Pulled the usage numbers for {customer} for {csm}'s QBR: active users up {pct}%.", "Thanks, exactly what I needed!"),
    ), emoji=("chart_with_upwards_trend", "pray")),
)

BANKS["legal"] = (
    Script("customer", (
        ("{customer} sent redlines on the DPA. Reviewing today, {owner} FYI.", "Thanks! Anything blocking?"),
        ("MSA for {customer} is signed and in the contracts folder.", "Great, thanks!"),
        ("{customer} wants unlimited liability for data breaches. That's a no, proposing 2x fees.", "Makes sense, I'll explain to {contact}."),
    ), more=("Nothing major, should be done by {day}.",), emoji=("eyes", "white_check_mark", "scales"), weight=4, thread=0.9),
    Script("none", (
        ("Reminder: use the new NDA template, the old one is deprecated.", "Where's the new one?"),
    ), more=("Contracts folder, top of the list.",), author="lead", emoji=("white_check_mark",)),
)

BANKS["people-ops"] = (
    Script("hire", (
        ("Onboarding for {person} ({title}, {team}) is all set: laptop shipped, accounts created.", "Thanks, I'll set up their first-week plan."),
    ), author="any", repliers=("manager",), emoji=("white_check_mark", "tada"), when="start", weight=3, thread=0.8),
    Script("none", (
        ("Performance review cycle opens {day}. Calibration sessions are on the calendar.", "Thanks, is the template the same as last year?"),
        ("Reminder: the engagement survey closes {day}. We're at {pct}% participation.", "Sharing with my team again."),
        ("Benefits fair {day} at {time} in the big conference room.", "Will there be a remote option?"),
    ), more=("Yes, with one new question on growth.", "Yes, link in the invite."), emoji=("eyes", "thumbsup"), weight=4, thread=0.8),
)

# In a DM the "thread" is the rest of the exchange, alternating between the two people.
BANKS["dm"] = (
    Script("customer", (
        ("hey, do you have 10 min to go over {customer}?", "sure, after {time}?", "in a call, ping you in 20"),
        ("quick one: who's the main contact at {customer} now?", "It's {contact}, {contact_title}."),
        ("did {customer} ever get back to you about the QBR date?", "not yet, I'll nudge them", "yes, {day} at {time}"),
    ), more=("works", "thanks!", "perfect :pray:"), emoji=("thumbsup",), weight=4, thread=0.9),
    Script("ticket", (
        ("any update on {key}? {customer} is asking", "{assignee} has it, should be fixed by {day}", "checking now, will get back to you"),
        ("do you know who has {key}? it's the \"{summary}\" one from {customer}", "{assignee} has it", "nobody yet{unassigned}, I'll ask in standup"),
    ), more=("thanks!", "ok, I'll tell them"), emoji=("eyes",), weight=3, thread=0.9),
    Script("deal", (
        ("are we still on track for {deal} by {close}?", "yes, legal is reviewing", "should be, waiting on their PO"),
        ("can you send me the latest quote for {customer}? {amount} right?", "yep {amount}, sending it over"),
    ), more=("great", "thx"), emoji=("thumbsup",), weight=2, thread=0.9),
    Script("none", (
        ("are you joining the team sync today?", "yes, 2 min", "running late, start without me"),
        ("can we move our 1:1 to {day}?", "sure, {day} works"),
        ("lunch?", "in 10?", "already ate, tomorrow?"),
        ("thanks for the help earlier!", "anytime!"),
        ("do you have the link to the deck from yesterday?", "here you go"),
    ), more=("great, thanks", "👍"), emoji=("thumbsup", "pray"), weight=4, thread=0.9),
)

# Extra channels of a large company: help, social and location channels reuse these.
BANKS["help"] = (
    Script("none", (
        ("My laptop won't connect to the VPN after the update. Anyone else?", "Restart the client and re-enter your token, that fixed it for me."),
        ("How do I get added to the shared calendar for on-call?", "File an IT request and tag {someone}."),
        ("Is there a way to recover a deleted file from the shared drive?", "Yes, trash keeps files for 30 days."),
        ("Need a license for the design tool, who approves?", "Your manager, then IT provisions it."),
        ("Printer on {n} is jammed again :printer:", "On my way to fix it."),
        ("My SSO session keeps expiring every hour since {day}. Known issue?", "Known issue, fix is rolling out today."),
        ("How do I request a second monitor?", "Through the IT portal, takes about a week."),
    ), more=("That worked, thanks!", "Thanks!"), emoji=("eyes", "white_check_mark", "pray"), weight=4, thread=1.4),
)

BANKS["team"] += (CALENDAR,)
BANKS["engineering"] += (CALENDAR,)
BANKS["social"] = (  # interest channels (#pets, #running, ...): {hobby} is the channel's
    Script("none", (
        ("Who's up for a {hobby} meetup on {day} after work?", "Count me in!", "I'm in if it's after 6"),
        ("New here! Excited to find fellow {hobby} people :wave:", "Welcome!", "Welcome, you'll like it here"),
        ("Any {hobby} recommendations for a beginner?", "Start small and find a buddy, it helps a lot.", "Following for recommendations"),
        ("Recap of the {hobby} meetup: {n} of us showed up, great time!", "So fun, thanks for organising!",
         "Let's do it again next month."),
        ("Sharing this weekend's {hobby} highlights, thread below", "Love this!", "Amazing :heart_eyes:"),
        ("Anyone going to the {hobby} event downtown on {day}?", "Yes! Let's go together."),
    ), more=("Same here!", "Love this."), emoji=("heart", "raised_hands", "joy"), weight=3, thread=1.2),
)
SOCIAL_HOBBIES: dict[str, str] = {
    "pets": "pet", "running": "running", "book-club": "book club", "music": "music", "parents": "parenting",
    "foodies": "food", "gaming": "gaming", "photography": "photography", "travel": "travel", "gardening": "gardening",
}
BANKS["it"] = BANKS["help"]

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
    "pets": ("Pet photos welcome :dog: :cat:", "Show us your pets."),
    "running": ("Weekend runs and race sign-ups", "For runners of every pace."),
    "book-club": ("This month: vote in the thread", "Monthly book club, fiction and non-fiction."),
    "music": ("What are you listening to?", "Playlists, concerts and recommendations."),
    "parents": ("Tips, support and school-holiday logistics", "For parents and carers."),
    "foodies": ("Recipes and restaurant tips", "Food talk of all kinds."),
    "gaming": ("Game nights every other Thursday", "Video, board and card games."),
    "photography": ("Share your shots", "Photography tips and photo walks."),
    "travel": ("Trip reports and recommendations", "Where have you been lately?"),
    "gardening": ("Seeds, swaps and harvests :seedling:", "For green thumbs."),
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

PLACES: tuple[str, ...] = (
    "the Thai place", "the new ramen spot", "Luigi's", "the taco truck", "the salad bar on 5th", "the dumpling house",
    "the Greek place", "the burger joint", "the food hall", "the sushi place",
)
ACTIVITIES: tuple[str, ...] = (
    "bouldering", "the farmers market", "a trail run", "pottery class", "the jazz festival", "a bike ride",
    "paddleboarding", "the board game cafe", "a cooking class", "the flea market",
)
HEALTH: tuple[str, ...] = ("green", "green", "yellow", "yellow", "red")

TIMES: tuple[str, ...] = ("9:30", "10am", "11am", "noon", "1pm", "2pm", "2:30", "3pm", "4pm")
