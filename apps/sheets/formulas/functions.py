"""Every spreadsheet function, registered by importing the modules that declare them."""

from __future__ import annotations

from apps.sheets.formulas import (
    functions_date, functions_lambda, functions_logic, functions_lookup, functions_math, functions_more, functions_query,
    functions_ref, functions_text,
)
from apps.sheets.formulas.evaluator import FUNCTIONS

MODULES = (functions_date, functions_lambda, functions_logic, functions_lookup, functions_math, functions_more, functions_query,
           functions_ref, functions_text)
NAMES = tuple(sorted(FUNCTIONS))
