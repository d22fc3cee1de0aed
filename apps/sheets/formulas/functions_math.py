"""Math and statistics: SUM, AVERAGE, COUNT, COUNTA, MIN, MAX, ROUND and friends, and the
conditional aggregates SUMIF(S), COUNTIF(S), AVERAGEIF(S) with spreadsheet criteria; LARGE, SMALL,
RANK, STDEV, VAR, COUNTUNIQUE, CEILING, FLOOR, SEQUENCE."""

from __future__ import annotations

import functools
import math
import re
import statistics
from collections.abc import Callable, Iterator
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal
from typing import Any

from apps.sheets import regex
from apps.sheets.formulas.evaluator import function
from apps.sheets.formulas.values import (
    CellError, Matrix, check, compare, fail, number_text, parse_date_text, parse_number_text, to_number,
)


def numbers(args: tuple[Any, ...]) -> Iterator[float]:
    """The numbers of arguments as SUM reads them: in ranges only numbers count; a value
    given directly counts when it reads as a number (TRUE, "3")."""
    for arg in args:
        if isinstance(arg, Matrix):
            cells = arg.cells()
            found = [v for v in cells if type(v) is float]  # the engine keeps every number a float
            if len(found) != len(cells):
                for value in cells:
                    if type(value) is CellError:
                        check(value)
                found += [float(v) for v in cells if type(v) is int]
            yield from found
        elif arg is not None:
            yield to_number(arg)


@function("SUM", 1)
def _sum(*args: Any) -> float:
    return math.fsum(numbers(args))


@function("AVERAGE", 1)
def _average(*args: Any) -> float:
    found = list(numbers(args))
    if not found:
        raise fail("#DIV/0!", "Evaluation of function AVERAGE caused a divide by zero error.")
    return math.fsum(found) / len(found)


@function("COUNT", 1)
def _count(*args: Any) -> float:
    total = 0
    for arg in args:
        if isinstance(arg, Matrix):
            total += sum(1 for v in arg.flat() if isinstance(v, (int, float)) and not isinstance(v, bool))
        elif isinstance(arg, (int, float)) and not isinstance(arg, bool) or (isinstance(arg, str) and parse_number_text(arg) is not None):
            total += 1
    return float(total)


@function("COUNTA", 1)
def _counta(*args: Any) -> float:
    total = 0
    for arg in args:
        if isinstance(arg, Matrix):
            total += sum(1 for v in arg.flat() if v is not None)
        else:
            total += 1
    return float(total)


@function("COUNTBLANK", 1, 1)
def _countblank(area: Any) -> float:
    values = area.flat() if isinstance(area, Matrix) else [area]
    return float(sum(1 for v in values if v is None or v == ""))


@function("MIN", 1)
def _min(*args: Any) -> float:
    return min(numbers(args), default=0.0)


@function("MAX", 1)
def _max(*args: Any) -> float:
    return max(numbers(args), default=0.0)


@function("MEDIAN", 1)
def _median(*args: Any) -> float:
    found = list(numbers(args))
    if not found:
        raise fail("#NUM!", "MEDIAN has no numbers to work on")
    return float(statistics.median(found))


@function("PRODUCT", 1)
def _product(*args: Any) -> float:
    return math.prod(numbers(args))


def _rounder(mode: str) -> Callable[..., float]:
    def run(value: Any, places: Any = 0.0) -> float:
        number, digits = to_number(value), int(to_number(places))
        exponent = Decimal(1).scaleb(-digits)
        return float(Decimal(repr(number)).quantize(exponent, rounding=mode)) if digits >= 0 else float(
            (Decimal(repr(number)) / exponent).quantize(Decimal(1), rounding=mode) * exponent)

    return run


function("ROUND", 1, 2, elementwise=True)(_rounder(ROUND_HALF_UP))
function("ROUNDUP", 1, 2, elementwise=True)(_rounder(ROUND_UP))
function("ROUNDDOWN", 1, 2, elementwise=True)(_rounder(ROUND_DOWN))


@function("ABS", 1, 1, elementwise=True)
def _abs(value: Any) -> float:
    return abs(to_number(value))


@function("INT", 1, 1, elementwise=True)
def _int(value: Any) -> float:
    return float(math.floor(to_number(value)))


@function("MOD", 2, 2, elementwise=True)
def _mod(value: Any, divisor: Any) -> float:
    d = to_number(divisor)
    if d == 0:
        raise fail("#DIV/0!", "Function MOD parameter 2 cannot be zero.")
    return to_number(value) - d * math.floor(to_number(value) / d)


@function("QUOTIENT", 2, 2, elementwise=True)
def _quotient(value: Any, divisor: Any) -> float:
    """The integer part of a division (toward zero: QUOTIENT(-7, 2) is -3)."""
    d = to_number(divisor)
    if d == 0:
        raise fail("#DIV/0!", "Function QUOTIENT parameter 2 cannot be zero.")
    return float(math.trunc(to_number(value) / d))


# Google Sheets' operators as functions (=DIVIDE(A2,B2) is =A2/B2).
@function("ADD", 2, 2, elementwise=True)
def _add(a: Any, b: Any) -> float:
    return to_number(a) + to_number(b)


@function("MINUS", 2, 2, elementwise=True)
def _minus(a: Any, b: Any) -> float:
    return to_number(a) - to_number(b)


@function("MULTIPLY", 2, 2, elementwise=True)
def _multiply(a: Any, b: Any) -> float:
    return to_number(a) * to_number(b)


@function("DIVIDE", 2, 2, elementwise=True)
def _divide(a: Any, b: Any) -> float:
    d = to_number(b)
    if d == 0:
        raise fail("#DIV/0!", "Function DIVIDE parameter 2 cannot be zero.")
    return to_number(a) / d


@function("SQRT", 1, 1, elementwise=True)
def _sqrt(value: Any) -> float:
    number = to_number(value)
    if number < 0:
        raise fail("#NUM!", "Function SQRT parameter 1 value is negative. It should be positive or zero.")
    return math.sqrt(number)


@function("POWER", 2, 2, elementwise=True)
def _power(base: Any, exponent: Any) -> float:
    return math.pow(to_number(base), to_number(exponent))


@function("SUMPRODUCT", 1)
def _sumproduct(*arrays: Any) -> float:
    grids = [a if isinstance(a, Matrix) else Matrix([[a]]) for a in arrays]
    if any((g.height, g.width) != (grids[0].height, grids[0].width) for g in grids):
        raise fail("#VALUE!", "SUMPRODUCT has mismatched range sizes.")
    total = 0.0
    for cells in zip(*(list(g.flat()) for g in grids)):
        product = 1.0
        for v in cells:
            check(v)
            product *= float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0
        total += product
    return total


# -- criteria ------------------------------------------------------------------------------
_OPERATOR = re.compile(r"^(<=|>=|<>|<|>|=)?(.*)$", re.S)


def criterion(spec: Any) -> Callable[[Any], bool]:
    """A test from a SUMIF/COUNTIF criterion: 5, ">=10", "<>closed", "Won*", "" (blank)."""
    if isinstance(spec, CellError):
        check(spec)
    return _criterion(type(spec).__name__, spec)


@functools.lru_cache(maxsize=4096)
def _criterion(_kind: str, spec: Any) -> Callable[[Any], bool]:
    """Built once per distinct criterion (a summary tab asks the same few hundreds of times);
    the kind is part of the key so TRUE and 1 stay different criteria."""
    if isinstance(spec, bool):
        return lambda v: isinstance(v, bool) and v == spec
    if spec is None:
        spec = ""
    if isinstance(spec, (int, float)):
        spec = "=" + number_text(float(spec))
    match = _OPERATOR.match(spec)
    op, operand = (match.group(1) or "="), match.group(2)
    number = parse_number_text(operand) if operand else None
    if number is None and operand:
        dated = parse_date_text(operand)
        number = dated[0] if dated else None
    if number is not None:
        def numeric(v: Any) -> bool:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                if isinstance(v, str) and parse_number_text(v) == number and op == "=":
                    return True
                return op == "<>"
            c = (v > number) - (v < number)
            return _test(op, c)
        return numeric
    if operand.upper() in ("TRUE", "FALSE"):
        flag = operand.upper() == "TRUE"
        return lambda v: _test(op, 0 if (isinstance(v, bool) and v == flag) else 1) if op in ("=", "<>") else False
    if operand == "":
        return (lambda v: v is None or v == "") if op == "=" else (lambda v: not (v is None or v == ""))
    pattern = _wildcard(operand)

    matches = pattern.fullmatch
    if op == "=":  # the common case, run once per cell of the range: kept to one test
        return lambda v: isinstance(v, str) and matches(v) is not None
    if op == "<>":
        return lambda v: not isinstance(v, CellError) and not (isinstance(v, str) and matches(v) is not None)

    def textual(v: Any) -> bool:
        if isinstance(v, CellError) or not isinstance(v, str):
            return False
        return _test(op, compare(v, operand))

    return textual


def _test(op: str, c: int) -> bool:
    return {"=": c == 0, "<>": c != 0, "<": c < 0, ">": c > 0, "<=": c <= 0, ">=": c >= 0}[op]


def _wildcard(text: str) -> Any:
    """The criterion's pattern (* any run, ? any one character, ~ escapes), case-blind. One
    with wildcards runs on RE2 (regex.py): "*a*a*a*…b" backtracks on Python's re for seconds
    a cell. One without, a literal, stays on re, a third as dear a test (a SUMIF's criterion,
    tried on every row of its range on every recalculation)."""
    out = []
    wild = False
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "~" and i + 1 < len(text):
            out.append(re.escape(text[i + 1]))
            i += 2
            continue
        wild = wild or ch in "*?"
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    if wild:
        return regex.compiled("(?s)" + "".join(out), ignore_case=True)
    return re.compile("".join(out), re.I | re.S)


def _cells(area: Any) -> list[Any]:
    return area.cells() if isinstance(area, Matrix) else [area]


# A summary tab asks the same criterion of the same range once per row (SUMIFS(Amount, Stage,
# "Won", Owner, A2), SUMIFS(…, A3), …); a range read is one shared Matrix until its cells change,
# so each (range, criterion) is tested once, and each combination of tests is turned once into
# the positions that match. Entries hold the objects their ids come from, so an id is never
# reused while its entry lives; the memos are bounded by the cells they hold.
_TESTED: dict[tuple[int, int], tuple[Matrix, Callable[[Any], bool], list[bool]]] = {}
_MATCHED: dict[tuple[int, ...], tuple[tuple[list[bool], ...], list[int]]] = {}
_TESTED_CELLS = [0]
MAX_TESTED_CELLS = 200_000
MAX_MATCHED = 4096


def _tested(area: Any, test: Callable[[Any], bool]) -> list[bool]:
    if not isinstance(area, Matrix):
        return [test(area)]
    key = (id(area), id(test))
    found = _TESTED.get(key)
    if found is not None and found[0] is area and found[1] is test:
        return found[2]
    hits = [test(c) for c in area.cells()]
    if _TESTED_CELLS[0] + len(hits) > MAX_TESTED_CELLS:
        _TESTED.clear()
        _MATCHED.clear()
        _TESTED_CELLS[0] = 0
    _TESTED[key] = (area, test, hits)
    _TESTED_CELLS[0] += len(hits)
    return hits


def _matching(pairs: tuple[Any, ...], size: int, each: bool = False) -> list[int]:
    """The positions (row by row) where every criterion range meets its criterion (`each`: one
    cell of an array of criteria, see `_matching_each`)."""
    if each:
        return _matching_each(pairs, size)
    if not pairs or len(pairs) % 2:
        raise fail("#N/A", "Criteria come in pairs: a criteria range, then its criterion.")
    tested = []
    for i in range(0, len(pairs), 2):
        test = criterion(pairs[i + 1] if not isinstance(pairs[i + 1], Matrix) else pairs[i + 1].rows[0][0])
        hits = _tested(pairs[i], test)
        if len(hits) != size:
            raise fail("#VALUE!", "Array arguments to the IFS function are of different size.")
        tested.append(hits)
    key = tuple(map(id, tested))
    found = _MATCHED.get(key)
    if found is not None and all(a is b for a, b in zip(found[0], tested, strict=True)):
        return found[1]
    positions = [i for i, hit in enumerate(tested[0]) if hit] if len(tested) == 1 else [
        i for i, hit in enumerate(zip(*tested)) if all(hit)]
    if len(_MATCHED) >= MAX_MATCHED:
        _MATCHED.clear()
    _MATCHED[key] = (tuple(tested), positions)
    return positions


# A criteria range asked one value per row of a summary (`SUMIF(Data!B:B, A2:A, …)`, hundreds
# of names against thousands of rows) is filed once by the value each cell equals; each plain
# "equal to this" criterion is then a lookup, not a pass over the range. A criterion with an
# operator or a wildcard, or a range cell whose case folding is not plain ASCII, is tested as
# `criterion` tests it, so both ways answer alike.
_BLANK = ("blank",)
_NOWHERE: list[int] = []  # the positions of a value no cell equals (never changed)
_INDEXED: dict[int, tuple[Matrix, dict[tuple[Any, ...], list[int]], list[int], dict[int, set[int]]]] = {}
_INDEXED_CELLS = [0]


def equality_key(spec: Any) -> tuple[Any, ...] | None:
    """What a criterion that asks for cells equal to one value looks up in a range's index (as
    `_index` files cells); None for any other criterion (an operator, a wildcard, an error)."""
    if isinstance(spec, bool):
        return ("b", spec)
    if spec is None or spec == "":
        return _BLANK
    if isinstance(spec, (int, float)):
        number = parse_number_text(number_text(float(spec)))  # as `criterion` reads it: 15 digits
        return None if number is None else ("n", number)
    if not isinstance(spec, str) or not spec.isascii() or spec[0] in "<>=" or any(ch in spec for ch in "*?~"):
        return None
    number = parse_number_text(spec)
    if number is None:
        dated = parse_date_text(spec)
        number = dated[0] if dated else None
    if number is not None:
        return ("n", number)
    if spec.upper() in ("TRUE", "FALSE"):
        return ("b", spec.upper() == "TRUE")
    return ("t", spec.lower())


def _index(area: Matrix) -> tuple[Matrix, dict[tuple[Any, ...], list[int]], list[int], dict[int, set[int]]]:
    """(area, positions by the value their cell equals, positions to test one by one, sets made)."""
    found = _INDEXED.get(id(area))
    if found is not None and found[0] is area:
        return found
    groups: dict[tuple[Any, ...], list[int]] = {}
    odd: list[int] = []
    for i, v in enumerate(area.cells()):
        kind = type(v)
        if kind is float:
            key: tuple[Any, ...] = ("n", v)
        elif kind is str:
            if not v:
                key = _BLANK
            elif v.isascii():
                key = ("t", v.lower())
                number = parse_number_text(v)  # numeric text equals its number as well
                if number is not None:
                    groups.setdefault(("n", number), []).append(i)
            else:
                odd.append(i)
                continue
        elif v is None:
            key = _BLANK
        elif kind is bool:
            key = ("b", v)
        elif kind is int:
            key = ("n", float(v))
        elif kind is CellError:
            continue  # equal to nothing
        else:
            odd.append(i)
            continue
        groups.setdefault(key, []).append(i)
    if _INDEXED_CELLS[0] + len(area.cells()) > MAX_TESTED_CELLS:
        _INDEXED.clear()
        _INDEXED_CELLS[0] = 0
    found = _INDEXED[id(area)] = (area, groups, odd, {})
    _INDEXED_CELLS[0] += len(area.cells())
    return found


def _matching_each(pairs: tuple[Any, ...], size: int) -> list[int]:
    """`_matching` for one cell of an array of criteria: each criterion asking for one value
    looked up in its range's index, the others tested as `_matching` does."""
    if not pairs or len(pairs) % 2:
        raise fail("#N/A", "Criteria come in pairs: a criteria range, then its criterion.")
    looked: list[tuple[list[int], dict[int, set[int]] | None]] = []
    tested: list[list[bool]] = []
    for i in range(0, len(pairs), 2):
        area, spec = pairs[i], pairs[i + 1]
        if isinstance(spec, Matrix):
            spec = spec.rows[0][0]
        key = equality_key(spec) if isinstance(area, Matrix) else None
        if key is None:
            hits = _tested(area, criterion(spec))
            if len(hits) != size:
                raise fail("#VALUE!", "Array arguments to the IFS function are of different size.")
            tested.append(hits)
            continue
        cells = area.cells()
        if len(cells) != size:
            raise fail("#VALUE!", "Array arguments to the IFS function are of different size.")
        _, groups, odd, sets = _index(area)
        found = groups.get(key, _NOWHERE)
        extra: list[int] = []
        if odd:
            test = criterion(spec)
            extra = [p for p in odd if test(cells[p])]
        # a set of a filed list is kept with the index (which keeps the list, so its id)
        looked.append((sorted(found + extra), None) if extra else (found, sets))
    if not looked:
        return _matching(pairs, size)
    looked.sort(key=lambda entry: len(entry[0]))
    positions = looked[0][0]
    for found, sets in looked[1:]:
        if sets is None:
            members = set(found)
        else:
            members = sets.get(id(found))
            if members is None:
                members = sets[id(found)] = set(found)
        positions = [p for p in positions if p in members]
    for hits in tested:
        positions = [p for p in positions if hits[p]]
    return positions


def _values_at(area: Any, positions: list[int]) -> list[float]:
    """The numbers at `positions` of `area` (past its end: nothing), the first error raised."""
    cells = _cells(area)
    size = len(cells)
    out = []
    for i in positions:
        if i >= size:
            break
        v = cells[i]
        if type(v) is float:  # the engine keeps every number a float
            out.append(v)
            continue
        check(v)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(float(v))
    return out


# A criterion given as an array (`SUMIF(Data!B:B, A2:A, Data!C:C)`) answers once per cell of it:
# one total per name of A2:A, spilled, a criterion given as one value applying to every cell.
@function("SUMIF", 2, 3, each=slice(1, None, 2))
def _sumif(area: Any, spec: Any, sum_area: Any = None, *, each: bool = False) -> float:
    cells = _cells(area)
    hits = _matching((area, spec), len(cells), each)
    return math.fsum(_values_at(sum_area if sum_area is not None else area, hits))


@function("SUMIFS", 3, each=slice(2, None, 2))
def _sumifs(sum_area: Any, *pairs: Any, each: bool = False) -> float:
    if len(pairs) % 2:
        raise fail("#N/A", "SUMIFS takes a sum range and then pairs of criteria range and criterion")
    return math.fsum(_values_at(sum_area, _matching(pairs, len(_cells(sum_area)), each)))


@function("COUNTIF", 2, 2, each=slice(1, None, 2))
def _countif(area: Any, spec: Any, *, each: bool = False) -> float:
    return float(len(_matching((area, spec), len(_cells(area)), each)))


@function("COUNTIFS", 2, each=slice(1, None, 2))
def _countifs(*pairs: Any, each: bool = False) -> float:
    if len(pairs) % 2:
        raise fail("#N/A", "COUNTIFS takes pairs of criteria range and criterion")
    return float(len(_matching(pairs, len(_cells(pairs[0])), each)))


def _mean(found: list[float], name: str) -> float:
    if not found:
        raise fail("#DIV/0!", f"Evaluation of function {name} caused a divide by zero error.")
    return math.fsum(found) / len(found)


@function("AVERAGEIF", 2, 3, each=slice(1, None, 2))
def _averageif(area: Any, spec: Any, avg_area: Any = None, *, each: bool = False) -> float:
    hits = _matching((area, spec), len(_cells(area)), each)
    return _mean(_values_at(avg_area if avg_area is not None else area, hits), "AVERAGEIF")


@function("AVERAGEIFS", 3, each=slice(2, None, 2))
def _averageifs(avg_area: Any, *pairs: Any, each: bool = False) -> float:
    if len(pairs) % 2:
        raise fail("#N/A", "AVERAGEIFS takes an average range and then pairs of criteria range and criterion")
    return _mean(_values_at(avg_area, _matching(pairs, len(_cells(avg_area)), each)), "AVERAGEIFS")


@function("MINIFS", 3, each=slice(2, None, 2))
def _minifs(area: Any, *pairs: Any, each: bool = False) -> float:
    return min(_values_at(area, _matching(pairs, len(_cells(area)), each)), default=0.0)


@function("MAXIFS", 3, each=slice(2, None, 2))
def _maxifs(area: Any, *pairs: Any, each: bool = False) -> float:
    return max(_values_at(area, _matching(pairs, len(_cells(area)), each)), default=0.0)


# -- ranking, spread, distinct counts, rounding to a multiple, sequences -------------------------
def _nth(data: Any, n: Any, name: str, largest: bool) -> float:
    found = sorted(numbers((data,)), reverse=largest)
    k = int(to_number(n))
    if not found:
        raise fail("#NUM!", f"{name} has no valid input data.")
    if not 1 <= k <= len(found):
        raise fail("#NUM!", f"Function {name} parameter 2 value {k} is out of range.")
    return found[k - 1]


@function("LARGE", 2, 2, each=slice(1, 2))
def _large(data: Any, n: Any, *, each: bool = False) -> Any:
    """The n-th largest number; `LARGE(B2:B, {1,2,3})` spills the top three."""
    return _nth(data, n, "LARGE", largest=True)


@function("SMALL", 2, 2, each=slice(1, 2))
def _small(data: Any, n: Any, *, each: bool = False) -> Any:
    return _nth(data, n, "SMALL", largest=False)


def _rank(value: Any, data: Any, ascending: Any = 0.0, *, each: bool = False) -> Any:
    """1 for the largest (or, ascending, the smallest); ties share the better rank. Given values
    as an array (`RANK(B2:B, B2:B)`), one rank each; a value not in the data is #N/A."""
    number = to_number(value)
    found = list(numbers((data,)))
    if number not in found:
        raise fail("#N/A", f"RANK's value '{number_text(number)}' was not found in the data.")
    up = ascending is not None and to_number(ascending) != 0
    return float(1 + sum(1 for v in found if (v < number if up else v > number)))


function("RANK", 2, 3, each=slice(0, 1))(_rank)
function("RANK.EQ", 2, 3, each=slice(0, 1))(_rank)


def _spread(args: tuple[Any, ...], name: str, sample: bool, root: bool) -> float:
    found = list(numbers(args))
    if len(found) < (2 if sample else 1):
        raise fail("#DIV/0!", f"Evaluation of function {name} caused a divide by zero error.")
    spread = statistics.variance(found) if sample else statistics.pvariance(found)
    return math.sqrt(spread) if root else float(spread)


for _name, _sample, _root in (("STDEV", True, True), ("STDEV.S", True, True), ("STDEVP", False, True), ("STDEV.P", False, True),
                              ("VAR", True, False), ("VAR.S", True, False), ("VARP", False, False), ("VAR.P", False, False)):
    function(_name, 1)(functools.partial(lambda *args, _n, _s, _r: _spread(args, _n, _s, _r), _n=_name, _s=_sample, _r=_root))


@function("COUNTUNIQUE", 1)
def _countunique(*args: Any) -> float:
    """How many different values (blank cells aside; text ignoring case, TRUE apart from 1)."""
    seen = set()
    for arg in args:
        for v in (arg.cells() if isinstance(arg, Matrix) else [arg]):
            if v is None:
                continue
            seen.add((type(v).__name__, v.lower() if isinstance(v, str) else v))
    return float(len(seen))


def _to_multiple(value: Any, factor: Any, name: str, up: bool) -> float:
    number, step = to_number(value), to_number(factor)
    if step == 0:
        return 0.0
    if number > 0 and step < 0:
        raise fail("#NUM!", f"{name} parameter 2 must be positive when parameter 1 is positive.")
    ratio = number / step
    nearest = round(ratio)
    if abs(ratio - nearest) < 1e-12:  # already a multiple (0.3/0.1 is 2.9999999999999996)
        ratio = nearest
    return float((math.ceil(ratio) if up else math.floor(ratio)) * Decimal(repr(step)))


@function("CEILING", 1, 2, elementwise=True)
def _ceiling(value: Any, factor: Any = 1.0) -> float:
    return _to_multiple(value, factor, "CEILING", up=True)


@function("FLOOR", 1, 2, elementwise=True)
def _floor(value: Any, factor: Any = 1.0) -> float:
    return _to_multiple(value, factor, "FLOOR", up=False)


@function("SEQUENCE", 1, 4)
def _sequence(rows: Any, columns: Any = 1.0, start: Any = 1.0, step: Any = 1.0) -> Matrix:
    height, width = int(to_number(rows)), int(to_number(columns if columns is not None else 1.0))
    first, by = to_number(start if start is not None else 1.0), to_number(step if step is not None else 1.0)
    if height < 1 or width < 1:
        raise fail("#VALUE!", "SEQUENCE needs at least one row and one column.")
    if height * width > 1_000_000:
        raise fail("#VALUE!", "SEQUENCE would be larger than 1,000,000 cells.")
    return Matrix([[first + (r * width + c) * by for c in range(width)] for r in range(height)])


@function("TRUNC", 1, 2, elementwise=True)
def _trunc(value: Any, places: Any = 0.0) -> float:
    """The number cut to `places` decimals (toward zero)."""
    return _rounder(ROUND_DOWN)(value, places)


@function("SUMSQ", 1)
def _sumsq(*args: Any) -> float:
    return math.fsum(v * v for v in numbers(args))


def _percentile_of(found: list[float], k: float, name: str) -> float:
    if not found:
        raise fail("#NUM!", f"{name} has no valid input data.")
    if not 0 <= k <= 1:
        raise fail("#NUM!", f"Function {name} parameter 2 value {number_text(k)} should be between 0 and 1.")
    found = sorted(found)
    at = k * (len(found) - 1)  # inclusive: the k-th fraction of the way from the smallest to the largest
    low = math.floor(at)
    if low + 1 >= len(found):
        return found[-1]
    return found[low] + (at - low) * (found[low + 1] - found[low])


def _percentile(data: Any, k: Any) -> float:
    return _percentile_of(list(numbers((data,))), to_number(k), "PERCENTILE")


def _quartile(data: Any, quart: Any) -> float:
    q = int(to_number(quart))
    if not 0 <= q <= 4:
        raise fail("#NUM!", f"Function QUARTILE parameter 2 value {q} should be between 0 and 4.")
    return _percentile_of(list(numbers((data,))), q / 4, "QUARTILE")


for _name in ("PERCENTILE", "PERCENTILE.INC"):
    function(_name, 2, 2)(_percentile)
for _name in ("QUARTILE", "QUARTILE.INC"):
    function(_name, 2, 2)(_quartile)


@function("MMULT", 2, 2)
def _mmult(left: Any, right: Any) -> Matrix:
    """The matrix product: row sums with `MMULT(A2:C, {1;1;1})`, the usual way to total across."""
    a, b = (v if isinstance(v, Matrix) else Matrix([[v]]) for v in (left, right))
    if a.width != b.height:
        raise fail("#VALUE!", f"MMULT has mismatched dimensions: {a.height}x{a.width} and {b.height}x{b.width}.")
    columns = [b.column(c) for c in range(b.width)]

    def number(v: Any) -> float:
        check(v)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            if v is None:
                return 0.0
            raise fail("#VALUE!", "MMULT takes numbers only.")
        return float(v)

    rows = [[number(v) for v in row] for row in a.rows]
    cols = [[number(v) for v in col] for col in columns]
    return Matrix([[math.fsum(x * y for x, y in zip(row, col)) for col in cols] for row in rows])
