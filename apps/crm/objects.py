"""The standard objects of the org, as Salesforce defines them (the fields agents expect,
with Salesforce's names, picklist values and key prefixes), plus the custom fields the org
has added: on Account Tier__c, Customer_Success_Manager__c and Product_Families__c (a
multi-select picklist of the product families it has bought), on Case Jira_Issue_Key__c
(the linked tracker issue) and Resolution__c (how it was resolved).
"""

from __future__ import annotations

from apps.crm.schema import (
    Child,
    Field,
    SObject,
    area,
    day,
    flag,
    moment,
    money,
    number,
    pick,
    ref,
    system,
    text,
)

# Opportunity stages with their default probability and forecast category (Salesforce's
# standard sales process).
STAGES: dict[str, tuple[int, str]] = {
    "Prospecting": (10, "Pipeline"),
    "Qualification": (10, "Pipeline"),
    "Needs Analysis": (20, "Pipeline"),
    "Value Proposition": (50, "Pipeline"),
    "Id. Decision Makers": (60, "Pipeline"),
    "Perception Analysis": (70, "Pipeline"),
    "Proposal/Price Quote": (75, "Best Case"),
    "Negotiation/Review": (90, "Commit"),
    "Closed Won": (100, "Closed"),
    "Closed Lost": (0, "Omitted"),
}
LEAD_STATUSES = ("Open - Not Contacted", "Working - Contacted", "Closed - Converted", "Closed - Not Converted")
CASE_STATUSES = ("New", "Working", "Escalated", "Closed")
CLOSED_CASE_STATUSES = frozenset({"Closed"})
TASK_STATUSES = ("Not Started", "In Progress", "Completed", "Waiting on someone else", "Deferred")
CLOSED_TASK_STATUSES = frozenset({"Completed"})
INDUSTRIES = (
    "Agriculture", "Apparel", "Banking", "Biotechnology", "Chemicals", "Communications", "Construction", "Consulting",
    "Education", "Electronics", "Energy", "Engineering", "Entertainment", "Environmental", "Finance", "Financial Services",
    "Food & Beverage", "Government", "Healthcare", "Hospitality", "Insurance", "Logistics", "Machinery", "Manufacturing",
    "Media", "Nonprofit", "Not For Profit", "Other", "Real Estate", "Recreation", "Retail", "Shipping", "Technology",
    "Telecommunications", "Transportation", "Utilities",
)
LEAD_SOURCES = ("Web", "Phone Inquiry", "Partner Referral", "Purchased List", "Other", "Advertisement",
                "Employee Referral", "External Referral", "Trade Show", "Word of mouth")
ACCOUNT_TYPES = ("Prospect", "Customer - Direct", "Customer - Channel", "Channel Partner / Reseller",
                 "Installation Partner", "Technology Partner", "Other")
OPPORTUNITY_TYPES = ("New Business", "Existing Customer - Upgrade", "Existing Customer - Replacement",
                     "Existing Customer - Downgrade")
FORECAST_CATEGORIES = ("Omitted", "Pipeline", "Best Case", "Commit", "Closed")
RATINGS = ("Hot", "Warm", "Cold")
ACTIVITY_TYPES = ("Call", "Email", "Meeting", "Other")
SHOW_AS = ("Busy", "OutOfOffice", "Free")
WHO = ("Contact", "Lead")
WHAT = ("Account", "Opportunity", "Case")


def _person_name() -> tuple[Field, ...]:
    return (text("FirstName", 40), text("LastName", 80, required=True),
            text("Name", 121, createable=False, updateable=False, label="Full Name"))


USER = SObject("User", "User", "Users", "005", "crm_user", (
    *system(owner=False),
    text("Username", 80, required=True), *_person_name(), Field("Email", "email", length=128, required=True),
    text("Alias", 8), text("Title", 80), text("Department", 80), Field("Phone", "phone", length=40),
    flag("IsActive", True, label="Active"), ref("ManagerId", "User"), text("TimeZoneSidKey", 40, label="Time Zone"),
    text("City", 40), text("Country", 80), text("EmployeeNumber", 20, label="Employee Number"),
), children=(Child("ManagedUsers", "User", "ManagerId"),), searchable=("Name", "Username", "Email", "Title"))

ACCOUNT = SObject("Account", "Account", "Accounts", "001", "crm_account", (
    *system(),
    text("Name", 255, required=True, label="Account Name"), pick("Type", ACCOUNT_TYPES, label="Account Type"),
    pick("Industry", INDUSTRIES), money("AnnualRevenue"), number("NumberOfEmployees", "int", label="Employees"),
    Field("Phone", "phone", length=40), Field("Website", "url", length=255), text("AccountNumber", 40),
    area("BillingStreet", 255), text("BillingCity", 40), text("BillingState", 80), text("BillingPostalCode", 20),
    text("BillingCountry", 80), area("ShippingStreet", 255), text("ShippingCity", 40), text("ShippingState", 80),
    text("ShippingPostalCode", 20), text("ShippingCountry", 80), ref("ParentId", "Account", label="Parent Account ID"), pick("Rating", RATINGS),
    area("Description"), pick("Tier__c", ("Enterprise", "Mid-Market", "SMB"), label="Tier"),
    ref("Customer_Success_Manager__c", "User", label="Customer Success Manager"),
    Field("Product_Families__c", "multipicklist", length=4099, picklist=("Platform", "Add-on", "Services"), restricted=True,
          label="Product Families"),
), children=(
    Child("Contacts", "Contact", "AccountId"), Child("Opportunities", "Opportunity", "AccountId"),
    Child("Cases", "Case", "AccountId"), Child("ChildAccounts", "Account", "ParentId"),
    Child("Tasks", "Task", "WhatId"), Child("Events", "Event", "WhatId"), Child("Notes", "Note", "ParentId"),
), searchable=("Name", "Phone", "Website", "BillingCity", "Description"))

CONTACT = SObject("Contact", "Contact", "Contacts", "003", "crm_contact", (
    *system(), *_person_name(), ref("AccountId", "Account", label="Account ID"),
    Field("Email", "email", length=80), Field("Phone", "phone", length=40),
    Field("MobilePhone", "phone", length=40, label="Mobile Phone"), text("Title", 128),
    text("Department", 80), pick("LeadSource", LEAD_SOURCES), day("Birthdate"), area("MailingStreet", 255),
    text("MailingCity", 40), text("MailingState", 80), text("MailingPostalCode", 20, label="Mailing Zip/Postal Code"),
    text("MailingCountry", 80), area("Description"),
), children=(
    Child("Cases", "Case", "ContactId"), Child("Tasks", "Task", "WhoId"), Child("Events", "Event", "WhoId"),
    Child("Notes", "Note", "ParentId"),
), searchable=("Name", "Email", "Phone", "Title"))

LEAD = SObject("Lead", "Lead", "Leads", "00Q", "crm_lead", (
    *system(), *_person_name(), text("Company", 255, required=True), text("Title", 128),
    Field("Email", "email", length=80), Field("Phone", "phone", length=40),
    Field("MobilePhone", "phone", length=40, label="Mobile Phone"), Field("Website", "url", length=255),
    pick("Status", LEAD_STATUSES, restricted=True, default="Open - Not Contacted", label="Lead Status"),
    pick("LeadSource", LEAD_SOURCES), pick("Industry", INDUSTRIES), pick("Rating", RATINGS),
    area("Street", 255), text("City", 40), text("State", 80), text("PostalCode", 20, label="Zip/Postal Code"),
    text("Country", 80), number("NumberOfEmployees", "int"), money("AnnualRevenue"),
    area("Description"),
    flag("IsConverted", createable=False, updateable=False, label="Converted"),
    day("ConvertedDate", createable=False, updateable=False),
    ref("ConvertedAccountId", "Account", createable=False, updateable=False),
    ref("ConvertedContactId", "Contact", createable=False, updateable=False),
    ref("ConvertedOpportunityId", "Opportunity", createable=False, updateable=False),
), children=(Child("Tasks", "Task", "WhoId"), Child("Events", "Event", "WhoId"), Child("Notes", "Note", "ParentId")),
    searchable=("Name", "Company", "Email", "Phone", "Title"))

OPPORTUNITY = SObject("Opportunity", "Opportunity", "Opportunities", "006", "crm_opportunity", (
    *system(), text("Name", 120, required=True, label="Opportunity Name"), ref("AccountId", "Account", label="Account ID"),
    pick("StageName", tuple(STAGES), restricted=True, required=True, label="Stage"), money("Amount"),
    day("CloseDate", required=True), number("Probability", "percent", label="Probability (%)"),
    pick("ForecastCategoryName", FORECAST_CATEGORIES, label="Forecast Category"),
    flag("IsClosed", createable=False, updateable=False, label="Closed"),
    flag("IsWon", createable=False, updateable=False, label="Won"),
    pick("Type", OPPORTUNITY_TYPES, label="Opportunity Type"), pick("LeadSource", LEAD_SOURCES), text("NextStep", 255),
    area("Description"), ref("Pricebook2Id", "Pricebook2", label="Price Book ID"),
), children=(
    Child("OpportunityLineItems", "OpportunityLineItem", "OpportunityId"), Child("Tasks", "Task", "WhatId"),
    Child("Events", "Event", "WhatId"), Child("Notes", "Note", "ParentId"),
), searchable=("Name", "NextStep", "Description"))

PRODUCT = SObject("Product2", "Product", "Products", "01t", "crm_product2", (
    *system(owner=False), text("Name", 255, required=True, label="Product Name"), text("ProductCode", 255),
    pick("Family", ("Platform", "Add-on", "Services"), label="Product Family"), flag("IsActive", True, label="Active"),
    area("Description", 4000),
), children=(Child("PricebookEntries", "PricebookEntry", "Product2Id"),), searchable=("Name", "ProductCode"))

PRICEBOOK = SObject("Pricebook2", "Price Book", "Price Books", "01s", "crm_pricebook2", (
    *system(owner=False), text("Name", 255, required=True, label="Price Book Name"),
    flag("IsStandard", createable=False, updateable=False, label="Is Standard Price Book"),
    flag("IsActive", True, label="Active"), area("Description", 255),
), children=(Child("PricebookEntries", "PricebookEntry", "Pricebook2Id"),))

PRICEBOOK_ENTRY = SObject("PricebookEntry", "Price Book Entry", "Price Book Entries", "01u", "crm_pricebookentry", (
    *system(owner=False), text("Name", 255, createable=False, updateable=False, label="Product Name"),
    ref("Pricebook2Id", "Pricebook2", required=True, updateable=False), ref("Product2Id", "Product2", required=True, updateable=False),
    money("UnitPrice", required=True, label="List Price"), flag("IsActive", True, label="Active"),
    flag("UseStandardPrice"), text("ProductCode", 255, createable=False, updateable=False),
))

LINE_ITEM = SObject("OpportunityLineItem", "Opportunity Product", "Opportunity Product", "00k", "crm_opportunitylineitem", (
    *system(owner=False), text("Name", 376, createable=False, updateable=False, label="Opportunity Product Name"),
    ref("OpportunityId", "Opportunity", required=True, updateable=False),
    ref("PricebookEntryId", "PricebookEntry", updateable=False), ref("Product2Id", "Product2", updateable=False),
    text("ProductCode", 255, createable=False, updateable=False),
    number("Quantity", required=True), money("UnitPrice", label="Sales Price"),
    money("ListPrice", createable=False, updateable=False), money("TotalPrice", label="Total Price"),
    number("Discount", "percent"), area("Description", 255, label="Line Description"),
))

CASE = SObject("Case", "Case", "Cases", "500", "crm_case", (
    *system(), text("CaseNumber", 30, createable=False, updateable=False, label="Case Number"),
    text("Subject", 255), area("Description"),
    pick("Status", CASE_STATUSES, restricted=True, default="New"), pick("Priority", ("High", "Medium", "Low"), default="Medium"),
    pick("Origin", ("Phone", "Email", "Web"), label="Case Origin"),
    pick("Type", ("Problem", "Feature Request", "Question"), label="Case Type"),
    pick("Reason", ("Installation", "Equipment Complexity", "Performance", "Breakdown", "Equipment Design",
                    "Feedback", "Other"), label="Case Reason"),
    ref("AccountId", "Account", label="Account ID"), ref("ContactId", "Contact", label="Contact ID"),
    flag("IsClosed", createable=False, updateable=False, label="Closed"),
    moment("ClosedDate", createable=False, updateable=False),
    flag("IsEscalated", label="Escalated"),
    text("Jira_Issue_Key__c", 32, label="Jira Issue Key"), area("Resolution__c", 4000, label="Resolution"),
), children=(
    Child("CaseComments", "CaseComment", "ParentId"), Child("Tasks", "Task", "WhatId"), Child("Events", "Event", "WhatId"),
    Child("Notes", "Note", "ParentId"),
), name_field="CaseNumber", searchable=("Subject", "CaseNumber", "Description", "Jira_Issue_Key__c"))

CASE_COMMENT = SObject("CaseComment", "Case Comment", "Case Comments", "00a", "crm_casecomment", (
    *system(owner=False), ref("ParentId", "Case", required=True, updateable=False, label="Parent Case ID"),
    area("CommentBody", 4000, label="Body"), flag("IsPublished", label="Published"),
), name_field="Id")

TASK = SObject("Task", "Task", "Tasks", "00T", "crm_task", (
    *system(owner_label="Assigned To ID"), text("Subject", 255),
    pick("Status", TASK_STATUSES, restricted=True, required=True, default="Not Started"),
    pick("Priority", ("High", "Normal", "Low"), restricted=True, required=True, default="Normal"),
    day("ActivityDate", label="Due Date Only"), area("Description"),
    ref("WhoId", *WHO, label="Name ID"), ref("WhatId", *WHAT, label="Related To ID"),
    pick("TaskSubtype", ("Task", "Email", "Call"), label="Task Subtype", updateable=False),
    pick("CallType", ("Internal", "Inbound", "Outbound")), number("CallDurationInSeconds", "int"),
    pick("Type", ACTIVITY_TYPES), flag("IsReminderSet", label="Reminder Set"),
    moment("ReminderDateTime", label="Reminder Date/Time"),
    flag("IsClosed", createable=False, updateable=False, label="Closed"),
    flag("IsHighPriority", createable=False, updateable=False, label="High Priority"),
    moment("CompletedDateTime", createable=False, updateable=False, label="Completed Date/Time"),
), name_field="Subject", searchable=("Subject", "Description"))

EVENT = SObject("Event", "Event", "Events", "00U", "crm_event", (
    *system(owner_label="Assigned To ID"), text("Subject", 255), moment("StartDateTime", required=True), moment("EndDateTime"),
    moment("ActivityDateTime", createable=False, updateable=False), day("ActivityDate", createable=False, updateable=False),
    number("DurationInMinutes", "int"), text("Location", 255), area("Description"),
    ref("WhoId", *WHO, label="Name ID"), ref("WhatId", *WHAT, label="Related To ID"),
    pick("Type", ACTIVITY_TYPES), flag("IsAllDayEvent", label="All-Day Event"),
    pick("ShowAs", SHOW_AS, label="Show Time As", default="Busy"), flag("IsPrivate", label="Private"),
    flag("IsReminderSet", label="Reminder Set"), moment("ReminderDateTime", label="Reminder Date/Time"),
), name_field="Subject", searchable=("Subject", "Location", "Description"))

NOTE = SObject("Note", "Note", "Notes", "002", "crm_note", (
    *system(), text("Title", 80, required=True), area("Body"), flag("IsPrivate", label="Private"),
    ref("ParentId", "Account", "Contact", "Lead", "Opportunity", "Case", required=True, updateable=False, label="Parent ID"),
), name_field="Title", searchable=("Title", "Body"))

OBJECTS: tuple[SObject, ...] = (
    ACCOUNT, CONTACT, LEAD, OPPORTUNITY, CASE, CASE_COMMENT, TASK, EVENT, NOTE, USER,
    PRODUCT, PRICEBOOK, PRICEBOOK_ENTRY, LINE_ITEM,
)
BY_NAME = {o.name.lower(): o for o in OBJECTS}
BY_PREFIX = {o.prefix: o for o in OBJECTS}


def sobject(name: str) -> SObject | None:
    return BY_NAME.get((name or "").lower())
