"""Domain operations, declared once: name, read or write, typed arguments, the app's errors.

An app marks the methods of its domain service with `@operation("chat.postMessage",
writes=True)`. The method's signature is the declaration: its annotations (with
`Annotated[..., Field(...)]` for limits and docs) become one pydantic model per operation,
built once, so every face (MCP tools, REST methods, UI handlers) parses its raw arguments
through the same model and gets the same values, the same limits and the same errors. A face
never re-validates or re-parses on its own; it maps its own argument names onto these.

Arguments come in two dialects, and one parser serves both: JSON values (MCP, a JSON body)
and strings (query strings, form fields). Pydantic's lax mode reads "10" as 10 and
"true"/"1"/"on" as True; an empty string given for a non-text argument means "not given"
(an HTML form sends every field, filled or not).
"""

from __future__ import annotations

import copy
import inspect
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic.fields import FieldInfo

from officegym.core.errors import AppError

_MARK = "__officegym_operation__"
MAX_SHOWN_INPUT = 80  # characters of a bad value quoted back in an error message


@dataclass(frozen=True, slots=True)
class _Mark:
    name: str
    writes: bool


def operation(name: str, *, writes: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a service method as the domain operation `name` ("<app>.<method>")."""

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        setattr(method, _MARK, _Mark(name, writes))
        return method

    return mark


@dataclass(frozen=True, slots=True)
class Param:
    """One typed argument of an operation."""

    name: str
    annotation: Any
    required: bool
    default: Any
    description: str
    text: bool  # a string-typed argument: "" is a value, not an absence


def _is_text(annotation: Any) -> bool:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    options = typing.get_args(annotation) if typing.get_origin(annotation) in (typing.Union, types.UnionType) else (annotation,)
    return str in options


def _description(annotation: Any) -> str:
    for extra in getattr(annotation, "__metadata__", ()):
        if isinstance(extra, FieldInfo) and extra.description:
            return extra.description
    return ""


@dataclass(frozen=True, eq=False)
class Operation:
    name: str
    app: str
    writes: bool
    method: str  # the service method that implements it
    summary: str
    params: dict[str, Param]
    model: type[BaseModel] = field(repr=False)
    error: type[AppError] = field(repr=False)

    def parse(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Typed arguments from raw ones (JSON values or strings); unknown names are ignored,
        as the products ignore them. Raises the app's error `invalid_arguments` naming every
        bad argument, what it got and what is accepted."""
        given = {}
        for name, param in self.params.items():
            if name in raw:
                value = raw[name]
                if value is None or (value == "" and not param.text):
                    continue
                given[name] = value
        try:
            parsed = self.model.model_validate(given)
        except ValidationError as invalid:
            raise self.error("invalid_arguments", _explain(invalid)) from None
        args = {name: getattr(parsed, name) for name in self.params}
        for name, value in args.items():
            bad = _unstorable(value)
            if bad:
                raise self.error("invalid_arguments", f"argument {name!r} {bad}; send valid UTF-8 text")
        return args

    def json_schema(self) -> dict[str, Any]:
        # Generated once per operation: pydantic's schema generation costs ~2 ms, and every MCP
        # server that offers the operation (its app's, `all`, each toolset) asks for it.
        schema = _SCHEMAS.get(self.model)
        if schema is None:
            schema = _SCHEMAS[self.model] = self.model.model_json_schema()
        return copy.deepcopy(schema)


_SCHEMAS: dict[type[BaseModel], dict[str, Any]] = {}


def _unstorable(value: Any) -> str | None:
    """Why a parsed value cannot be stored as text (lone surrogates have no UTF-8 form; NUL
    is refused by PostgreSQL's text type), or None. Checked here so no backend ever sees it."""
    if isinstance(value, str):
        if "\x00" in value:
            return "contains a NUL character"
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "contains a lone surrogate (not valid Unicode)"
        return None
    if isinstance(value, (list, tuple)):
        return next((bad for item in value if (bad := _unstorable(item))), None)
    if isinstance(value, dict):
        return next((bad for item in (*value.keys(), *value.values()) if (bad := _unstorable(item))), None)
    return None


def _explain(invalid: ValidationError) -> str:
    problems = []
    for error in invalid.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        if error["type"] == "missing":
            problems.append(f"argument {where!r} is required")
            continue
        shown = repr(error.get("input"))
        if len(shown) > MAX_SHOWN_INPUT:
            shown = shown[: MAX_SHOWN_INPUT - 1] + "…"
        problems.append(f"argument {where!r}: {error['msg']} (got {shown})")
    return "; ".join(problems)


_CONFIG = ConfigDict(extra="ignore", arbitrary_types_allowed=True, hide_input_in_errors=False)


def _declare(app: str, error: type[AppError], method: Callable[..., Any], mark: _Mark) -> Operation:
    hints = typing.get_type_hints(method, include_extras=True)
    fields: dict[str, Any] = {}
    params: dict[str, Param] = {}
    for name, sig in inspect.signature(method).parameters.items():
        if name == "self":
            continue
        annotation = hints.get(name, Any)
        required = sig.default is inspect.Parameter.empty
        default = ... if required else sig.default
        fields[name] = (annotation, default)
        params[name] = Param(name, annotation, required, None if required else sig.default, _description(annotation), _is_text(annotation))
    model = create_model(f"{mark.name.replace('.', '_')}_args", __config__=_CONFIG, **fields)
    summary = (inspect.getdoc(method) or "").split("\n\n")[0].replace("\n", " ")
    return Operation(mark.name, app, mark.writes, method.__name__, summary, params, model, error)


@dataclass(frozen=True, eq=False)
class OperationSet:
    """Every operation of one app, with what it takes to run one and to shape its answer.

    `service(db)` builds the app's domain service over a session (acting as the env's actor);
    `ok_body`/`error_body` give the product's own response shapes, which the REST face returns
    as is and the MCP face wraps in one text item, as the products' MCP servers do.
    """

    app: str
    service: Callable[[Any], Any]
    error: type[AppError]
    ok_body: Callable[[dict[str, Any]], dict[str, Any]]
    error_body: Callable[[AppError], dict[str, Any]]
    operations: dict[str, Operation]

    def __getitem__(self, name: str) -> Operation:
        try:
            return self.operations[name]
        except KeyError:
            raise KeyError(f"{self.app} has no operation {name!r}") from None

    def __iter__(self) -> Iterator[Operation]:
        return iter(self.operations.values())

    def get(self, name: str) -> Operation | None:
        return self.operations.get(name)


def collect(
    app: str,
    service_class: type,
    *,
    error: type[AppError],
    ok_body: Callable[[dict[str, Any]], dict[str, Any]],
    error_body: Callable[[AppError], dict[str, Any]],
    service: Callable[[Any], Any] | None = None,
) -> OperationSet:
    """The operations declared on `service_class` (methods marked with `@operation`)."""
    found: dict[str, Operation] = {}
    for attribute in vars(service_class).values():
        mark = getattr(attribute, _MARK, None)
        if mark is None:
            continue
        if mark.name in found:
            raise ValueError(f"operation {mark.name!r} is declared twice")
        found[mark.name] = _declare(app, error, attribute, mark)
    return OperationSet(app, service or service_class, error, ok_body, error_body, found)
