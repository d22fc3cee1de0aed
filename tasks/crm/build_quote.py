"""crm/build-quote-v1: add products to a deal: N seats of a product from the standard price
book, at list price or with a discount, as an opportunity line item; the amount rolls up.

Either way of pricing counts (Discount %, or a discounted sales price, or a total price); the
item may name the price book entry or the product. Exactly one new line item is asked for.
The deal's Amount changes only as its products roll it up: a figure typed over it is
collateral. A note or an activity logged on the deal is what reps add, so it is allowed."""

from __future__ import annotations

import random

from graders.checks import Check, CheckResult, failed, passed
from seed_data._words import PRODUCTS
from tasks.base import Moves, SampleContext, TaskInstance, Tools
from tasks.common.variants import cached, choose, count, shuffled
from tasks.crm._common import (allow, allow_notes_and_activities, allow_rolled_up_amount, around, dml, me, quoted, rows,
                               say_as_task, snapshot, soql, try_dml, wreck)

SEATS = (5, 12, 25, 40)
DISCOUNTS = (0, 10, 15)


class BuildQuote:
    id = "crm/build-quote-v1"
    apps = ("crm",)
    difficulty = "medium"
    summary = "Add a product line (seats, discount) to an opportunity from the standard price book."

    def _pool(self, ctx: SampleContext) -> tuple[tuple, ...]:
        def build_opps() -> tuple[dict, ...]:
            every = [o["Name"] for o in snapshot(ctx, "Opportunity")]
            return shuffled(self.id, ctx, [{"Id": o["Id"], "Name": o["Name"]} for o in snapshot(ctx, "Opportunity")
                                           if not o["IsClosed"] and every.count(o["Name"]) == 1])

        def build_products() -> tuple[dict, ...]:
            entries = snapshot(ctx, "PricebookEntry")
            return shuffled(self.id, ctx, [{"Id": e["Product2Id"], "Name": e["Name"], "Price": e["UnitPrice"], "Entry": e["Id"]} for e in entries], "product")

        def build_pairs() -> tuple[tuple[dict, dict], ...]:
            """(deal, product) pairs that make sense as a new line: an add-on or service on a platform deal,
            a service on an add-on deal; never a second platform tier, nor the deal's own product again."""
            family = {short: kind for _sku, short, kind, _price in PRODUCTS}
            pairs = []
            for opp in cached(ctx, self.id, build_opps):
                deal_short = next((short for short in family if f"— {short} " in f"{opp['Name']} "), None)
                for product in cached(ctx, f"{self.id}|products", build_products):
                    short = next((x for x in family if product["Name"].endswith(x)), None)
                    if deal_short is None or short is None or short == deal_short:
                        continue
                    if family[short] == "Services" or (family[short] == "Add-on" and family[deal_short] == "Platform"):
                        pairs.append((opp, product))
            return shuffled(self.id, ctx, pairs, "pairs")

        return (cached(ctx, f"{self.id}|pairs", build_pairs), shuffled(self.id, ctx, SEATS, "seats"),
                shuffled(self.id, ctx, DISCOUNTS, "discount"))

    def count_instances(self, ctx: SampleContext) -> int:
        return count(*self._pool(ctx))

    def sample(self, ctx: SampleContext, rng: random.Random) -> TaskInstance:
        (opp, product), seats, discount = choose(self.id, ctx.variant, *self._pool(ctx))
        before = {i["Id"] for i in snapshot(ctx, "OpportunityLineItem")}
        total = round(seats * product["Price"] * (1 - discount / 100), 2)
        others = [o["Id"] for o in snapshot(ctx, "Opportunity") if not o["IsClosed"] and o["Id"] != opp["Id"]][:3]

        def quoted_line(db) -> CheckResult:
            added = [i for i in rows(db, "OpportunityLineItem") if i["Id"] not in before]
            if len(added) != 1:
                return failed(f"{len(added)} new line items; exactly one was asked for")
            (item,) = added
            problems = [what for what, ok in (
                (f"it is on {item['OpportunityId']}, not {opp['Name']}", item["OpportunityId"] == opp["Id"]),
                (f"its product is {item['Product2Id']}, not {product['Name']}", item["Product2Id"] == product["Id"]),
                (f"quantity {item['Quantity']}, not {seats}", item["Quantity"] == seats),
                (f"total {item['TotalPrice']}, not {total} ({discount}% off list)", abs((item["TotalPrice"] or 0) - total) < 0.02),
            ) if not ok]
            return failed("; ".join(problems)) if problems else passed(f"{seats} × {product['Name']} at {discount}% off: {total}")

        async def oracle(tools: Tools) -> None:
            (found,) = await soql(tools, f"SELECT Id FROM Opportunity WHERE Name = '{quoted(opp['Name'])}'")
            (entry,) = await soql(tools, f"SELECT Id FROM PricebookEntry WHERE Name = '{quoted(product['Name'])}' AND Pricebook2.IsStandard = true")
            await dml(tools, "insert", "OpportunityLineItem", [{"OpportunityId": found["Id"], "PricebookEntryId": entry["Id"], "Quantity": seats, "Discount": discount}])

        async def by_sales_price(tools: Tools) -> None:
            """Another path: name the product, not the entry, and put the discount in the sales price."""
            (found,) = await soql(tools, f"SELECT Id FROM Opportunity WHERE Name = '{quoted(opp['Name'])}'")
            (item,) = await soql(tools, f"SELECT Id, (SELECT UnitPrice FROM PricebookEntries) FROM Product2 WHERE Name = '{quoted(product['Name'])}'")
            price = item["PricebookEntries"]["records"][0]["UnitPrice"] * (1 - discount / 100)
            await dml(tools, "insert", "OpportunityLineItem", [{"OpportunityId": found["Id"], "Product2Id": item["Id"], "Quantity": seats, "UnitPrice": round(price, 2)}])

        async def add(tools: Tools, ids: list[str], quantity: int) -> None:
            for opp_id in ids:
                await try_dml(tools, "insert", "OpportunityLineItem", [{"OpportunityId": opp_id, "PricebookEntryId": product["Entry"], "Quantity": quantity, "Discount": discount}])

        pricing = "at list price" if discount == 0 else f"with a {discount}% discount"
        return TaskInstance(
            prompt=(f"You are {ctx.actor.name}. Build the quote on the opportunity \"{opp['Name']}\": add {seats} seats of "
                    f"{product['Name']} from the standard price book, {pricing}, as a product line item."),
            checks=[Check(f"one line of {seats} × {product['Name']} on {opp['Name']}", quoted_line)],
            expected=[allow("OpportunityLineItem", "insert", OpportunityId=opp["Id"]), allow_rolled_up_amount(opp["Id"]),
                      *allow_notes_and_activities(me(ctx), around(ctx, "Opportunity", {opp["Id"]}))],
            oracle=oracle,
            alternatives=(by_sales_price,),
            moves=Moves(
                say=say_as_task,
                wrong=lambda tools: add(tools, [opp["Id"]], seats + 10),
                everything=lambda tools: add(tools, [opp["Id"], *others], seats),
                wrong_record=lambda tools: add(tools, others[:1], seats),
                shotgun=lambda tools: add(tools, [opp["Id"], *others[:2]], seats),
                wreck=wreck,
            ),
            facts={"opportunity": opp["Id"], "product": product["Id"], "seats": seats, "discount": discount},
        )
