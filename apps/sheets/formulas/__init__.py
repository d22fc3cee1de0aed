"""The formula engine: a lark grammar (parser.py), spreadsheet values and errors (values.py),
the functions office work uses (functions_*.py), number formats (formats.py) and the
in-memory workbook with its dependency graph and recalculation (engine.py).

Why our own engine on lark rather than `formulas` or `pycel`: both evaluate an openpyxl
workbook as a whole (pycel compiles one cell at a time from a file, `formulas` builds a
`schedula` dispatch graph of the entire book, seconds for thousands of cells, and pulls in
numpy/scipy), neither keeps a reverse-dependency index to recalculate only a changed cell's
dependants, neither has Google's FILTER/SORT/UNIQUE/XLOOKUP semantics with spilled arrays
across the lists we need, and neither lets the clock be the env's (TODAY/NOW). A lark LALR
grammar gives a well-tested tokenizer and parser in a few dozen lines; what stays ours is
evaluation, which is where the spreadsheet semantics live anyway.
"""
