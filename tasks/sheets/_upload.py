"""An Excel file someone uploaded to Drive: a customer's invoice export, made with openpyxl
from the company's facts (the customer, our products and their prices) and a seeded draw of
quantities, dates and payment states, so no seeded sheet or CRM record holds its numbers.

Why this shape: people pass Excel files around by uploading them to Drive and pasting the
link in chat; Drive keeps an uploaded .xlsx as it is (mimeType
application/vnd.openxmlformats-officedocument.spreadsheetml.sheet) until someone opens it
with Google Sheets, which converts it into a new spreadsheet (Drive v3 files.copy with
mimeType application/vnd.google-apps.spreadsheet). Here the upload is a `sheets_drive_files`
row and the conversion is `import_xlsx(file_id=…)`.

The file's amounts are formulas (Seats × Unit price) with no cached values, as a generator
writes them: only a reader that computes them (the converter does) sees the numbers.
"""

from __future__ import annotations

import base64
import io
import random
import re
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from apps.sheets.xlsx import XLSX_MIME
from seed_data.company import Company, Customer

STATUSES = ("Paid", "Paid", "Paid", "Open", "Open")  # open ones become Unpaid or Overdue by age
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # zip entry times: the same bytes on every build
_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


@dataclass(frozen=True, slots=True)
class Invoice:
    number: str
    day: date
    product: str
    seats: int
    unit_price: int
    status: str

    @property
    def amount(self) -> int:
        return self.seats * self.unit_price


@dataclass(frozen=True, slots=True)
class Upload:
    name: str  # the file's name in Drive
    invoices: tuple[Invoice, ...]
    content: str  # the .xlsx, base64
    mime_type: str = XLSX_MIME


def invoices_of(company: Company, customer: Customer, draw: int) -> tuple[Invoice, ...]:
    rng = random.Random(f"{company.seed}|{company.size}|upload|{customer.id}|{draw}")
    products = sorted(company.products, key=lambda p: p.sku)
    offered = rng.sample(products, k=min(4, len(products)))
    today = company.now.date()
    found = []
    for n in range(rng.randint(12, 18)):
        product = rng.choice(offered)
        day = today - timedelta(days=rng.randint(5, 170))
        found.append(Invoice("", day, product.name, rng.choice((5, 10, 12, 20, 25, 40, 50, 75)), product.unit_price, rng.choice(STATUSES)))
    found.sort(key=lambda i: i.day)
    prefix = "".join(ch for ch in customer.name.upper() if ch.isalpha())[:3] or "INV"

    def status(invoice: Invoice) -> str:  # an unpaid invoice past its 30 days is overdue
        return invoice.status if invoice.status == "Paid" else ("Overdue" if invoice.day < today - timedelta(days=30) else "Unpaid")

    return tuple(Invoice(f"INV-{prefix}-{1001 + n}", i.day, i.product, i.seats, i.unit_price, status(i)) for n, i in enumerate(found))


def workbook_bytes(customer: Customer, invoices: tuple[Invoice, ...], when: datetime) -> bytes:
    from openpyxl import Workbook  # imported on use: it adds ~0.3 s to every start that imports the tasks
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.title = "Invoices"
    sheet.append(["Invoice #", "Date", "Product", "Seats", "Unit price", "Amount", "Status"])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for n, invoice in enumerate(invoices, start=2):
        sheet.append([invoice.number, invoice.day, invoice.product, invoice.seats, invoice.unit_price, f"=D{n}*E{n}", invoice.status])
        sheet.cell(row=n, column=2).number_format = "yyyy-mm-dd"
        for col in (5, 6):
            sheet.cell(row=n, column=col).number_format = "$#,##0"
    total = len(invoices) + 2
    sheet.cell(row=total, column=1, value="Total").font = Font(bold=True)
    sheet.cell(row=total, column=6, value=f"=SUM(F2:F{total - 1})").number_format = "$#,##0"
    sheet.freeze_panes = "A2"
    notes = book.create_sheet("Notes")
    notes.append([f"Invoice export for {customer.name}"])
    notes.append(["Amounts in USD, before tax."])
    book.properties.creator = customer.name
    book.properties.created = book.properties.modified = when.replace(tzinfo=None, microsecond=0)
    raw = io.BytesIO()
    book.save(raw)
    return _fixed_times(raw.getvalue(), when)


def _fixed_times(data: bytes, when: datetime) -> bytes:
    """The same archive with the wall clock taken out: openpyxl stamps the document's modified
    time and zip stamps each entry when saving. Both become fixed, so the same company always
    uploads the same bytes."""
    stamp = when.replace(tzinfo=None, microsecond=0).isoformat() + "Z"
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "docProps/core.xml":
                content = _MODIFIED.sub(lambda m: m.group(1) + stamp.encode() + m.group(2), content)
            info = zipfile.ZipInfo(item.filename, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, content)
    return out.getvalue()


def upload(company: Company, customer: Customer, draw: int) -> Upload:
    invoices = invoices_of(company, customer, draw)
    data = workbook_bytes(customer, invoices, company.now)
    return Upload(f"{customer.name} - invoices.xlsx", invoices, base64.b64encode(data).decode())
