"""The ``@action`` decorator: one method becomes one validated, described tool."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar, get_type_hints, overload

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PydanticSchemaGenerationError,
    PydanticUserError,
    TypeAdapter,
    ValidationError,
    create_model,
)

FREE_TEXT_KEY = "x-free-text"
# A free-text argument (a note body, a reason): recorded, but never matched against paths.
FreeText = Annotated[str, Field(min_length=1, max_length=2000, json_schema_extra={FREE_TEXT_KEY: True})]


@dataclass(frozen=True, kw_only=True)
class ActionSpec:
    """What the agent sees of one action, plus the model that validates its arguments."""

    name: str
    description: str
    writes: bool
    arguments_model: type[BaseModel]
    function: Callable[..., Any] = field(repr=False)
    # The JSON Schema of the arguments (an object schema), derived once; treat as read-only.
    parameters: dict[str, Any] = field(default_factory=dict)
    # Free-text arguments, never matched against acceptable paths.
    free_text: frozenset[str] = frozenset()
    argument_names: tuple[str, ...] = ()
    # The JSON Schema of a successful call's ``result``, from the return type hint ({}: not declared).
    returns: dict[str, Any] = field(default_factory=dict)
    # Some argument, at any depth, may be left out (it has a default): see ``applied``.
    optional: bool = False

    def tool(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "parameters": self.parameters,
            "read_only": not self.writes,
        }

    def validate(self, arguments: object) -> tuple[dict[str, Any] | None, str | None]:
        """Return (validated arguments, None) or (None, one-line reason naming the field).
        A null for an optional argument means "not given" (see ``given``)."""
        if not isinstance(arguments, dict):
            return None, f"arguments must be a JSON object, got {type(arguments).__name__}"
        if any(v is None or isinstance(v, (dict, list)) for v in arguments.values()):  # else nothing to drop
            arguments = given(arguments, self.parameters)
        try:
            model = self.arguments_model.model_validate(arguments)
        except ValidationError as exc:
            parts = []
            for err in exc.errors(include_url=False):
                loc = ".".join(str(p) for p in err["loc"]) or "arguments"
                parts.append(f"{loc}: {err['msg']}")
            return None, "; ".join(parts)
        dumped = model.model_dump()
        odd = _unstorable(dumped, "")
        if odd is not None:
            return None, odd
        return dumped, None

    def applied(self, arguments: Any) -> Any:
        """``arguments`` as the action received them, written as sent: an optional argument left
        out or sent as null is the default the action was given, at any depth; every value sent
        is kept as sent (``5`` stays ``5``). What the graders judge a call by: the log keeps what
        was sent, and a rule or path must not miss what a default did (red team 18)."""
        if not self.optional:
            return arguments
        args, _ = self.validate(arguments)
        return arguments if args is None else _filled(arguments, args)


INTEGERS = (-(2**63), 2**63 - 1)  # what SQLite stores as an INTEGER


def _unstorable(value: Any, where: str) -> str | None:
    """Why a validated argument is no number JSON and SQLite hold, if one is: NaN and the
    infinities are not JSON (Python's parsers let them through, and SQLite stored NaN as NULL:
    a write logged with NaN applied NULL), and an integer past 64 bits raised OverflowError in
    the action, which was taken for the environment's bug and left the episode ungraded."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{where or 'arguments'}: {value} is not a JSON number; send a finite number"
    if isinstance(value, int) and not isinstance(value, bool) and not INTEGERS[0] <= value <= INTEGERS[1]:
        return f"{where or 'arguments'}: a whole number past 64 bits (-2**63 to 2**63-1) cannot be stored"
    if isinstance(value, dict):
        return next((r for k, v in value.items() if (r := _unstorable(v, f"{where}.{k}" if where else str(k)))), None)
    if isinstance(value, (list, tuple)):
        return next((r for i, v in enumerate(value) if (r := _unstorable(v, f"{where}.{i}" if where else str(i)))),
                    None)
    return None


def _filled(sent: Any, applied: Any) -> Any:
    if isinstance(sent, dict) and isinstance(applied, dict):
        return {k: _filled(sent[k], v) if sent.get(k) is not None else v for k, v in applied.items()}
    if isinstance(sent, list) and isinstance(applied, list) and len(sent) == len(applied):
        return [_filled(s, a) for s, a in zip(sent, applied, strict=True)]
    return sent


def _has_optional(node: Any) -> bool:
    """An object schema in ``node`` (its ``$defs`` too) with a property it does not require."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict) and set(props) - set(node.get("required", ())):
            return True
        return any(_has_optional(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_optional(v) for v in node)
    return False


_ARGS_CONFIG = ConfigDict(extra="forbid", strict=True)


def given(arguments: Any, schema: dict[str, Any]) -> Any:
    """The arguments without nulls sent for optional properties, at any depth.

    Strict tool formats (OpenAI's strict mode, the Agents SDK, structured outputs) make every
    property required and the optional ones nullable, so a model "omits" an optional argument
    by sending null. Here a null for an optional property always means "not given" (its
    default applies), whichever format or client sent it; a null for a required one is still
    refused. Done where arguments are validated, so every caller gets it without asking.
    """
    return _given(arguments, schema, schema.get("$defs", {}))


def _given(value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    schema = _resolve(schema, defs)
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        props, required = schema["properties"], set(schema.get("required", ()))
        return {k: _given(v, props.get(k, {}), defs) for k, v in value.items()
                if v is not None or k in required or k not in props}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_given(v, schema["items"], defs) for v in value]
    return value


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Follow local ``$ref``s, and an ``anyOf`` with one non-null branch (``Model | None``)."""
    for _ in range(32):  # a cycle of bare references would otherwise never end
        if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/$defs/"):
            schema = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
            continue
        branches = [b for b in schema.get("anyOf", ()) if isinstance(b, dict) and b.get("type") != "null"]
        if "anyOf" in schema and len(branches) == 1:
            schema = branches[0]
            continue
        break
    return schema


Method = TypeVar("Method", bound=Callable[..., Any])


@overload
def action(function: Method, /) -> Method: ...
@overload
def action(*, writes: bool = True, name: str | None = None,
           description: str | None = None) -> Callable[[Method], Method]: ...


def action(
    function: Method | None = None,
    /,
    *,
    writes: bool = True,
    name: str | None = None,
    description: str | None = None,
) -> Method | Callable[[Method], Method]:
    """Mark an environment method as an action.

    The argument schema comes from the type hints (use ``Annotated[T, Field(...)]`` for
    descriptions and bounds); the description from the first docstring paragraph.
    ``writes=False`` marks a look-up: it may not change state, and it never breaks a path.
    """

    def mark(fn: Method) -> Method:
        # The method keeps its own signature (typed callers, mypy); collect_actions reads this.
        fn.__agenteval_action__ = {  # type: ignore[attr-defined]
            "writes": writes,
            "name": name or fn.__name__,
            "description": description,
        }
        return fn

    return mark(function) if function is not None else mark


def collect_actions(cls: type) -> dict[str, ActionSpec]:
    """Build the specs of every ``@action`` method of an environment class."""
    specs: dict[str, ActionSpec] = {}
    for attr in dir(cls):
        fn = getattr(cls, attr, None)
        meta = getattr(fn, "__agenteval_action__", None)
        if meta is None or fn is None:
            continue
        model = _arguments_model(fn, meta["name"])
        schema = _schema(model)
        specs[meta["name"]] = ActionSpec(
            name=meta["name"],
            description=meta["description"] or _first_paragraph(fn),
            writes=meta["writes"],
            arguments_model=model,
            function=fn,
            parameters=schema,
            returns=_result_schema(fn, meta["name"]),
            argument_names=tuple(schema.get("properties", {})),
            free_text=frozenset(n for n, p in schema.get("properties", {}).items() if p.get(FREE_TEXT_KEY)),
            optional=_has_optional(schema),
        )
    return dict(sorted(specs.items()))


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return schema


def _result_schema(fn: Callable[..., Any], action_name: str) -> dict[str, Any]:
    """What the return hint says of the result; a bare ``dict``/``Any`` says only that much."""
    hint = get_type_hints(fn, include_extras=True).get("return", Any)
    if hint is Any:
        return {}
    try:
        schema: dict[str, Any] = TypeAdapter(hint).json_schema()
    except PydanticSchemaGenerationError:  # a class pydantic cannot describe: the result is undeclared
        return {}
    except PydanticUserError as exc:  # a hint written wrongly (typing.TypedDict before 3.12)
        raise TypeError(f"action {action_name}: its return type hint cannot be described: {exc.message}") from None
    untitled: dict[str, Any] = _untitled(schema)
    return untitled


def _untitled(node: Any) -> Any:
    """The schema without pydantic's ``title`` keywords (noise for an agent, as in ``parameters``)."""
    if isinstance(node, dict):
        return {k: _untitled(v) for k, v in node.items()
                if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_untitled(v) for v in node]
    return node


def _first_paragraph(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn) or ""
    return " ".join(doc.split("\n\n")[0].split())


def _arguments_model(fn: Callable[..., Any], action_name: str) -> type[BaseModel]:
    hints = get_type_hints(fn, include_extras=True)
    fields: dict[str, Any] = {}
    for param in list(inspect.signature(fn).parameters.values())[1:]:  # skip self
        if param.name not in hints:
            raise TypeError(f"action {action_name}: parameter {param.name!r} needs a type hint")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (hints[param.name], default)
    model: type[BaseModel] = create_model(
        f"{action_name}_arguments", __config__=_ARGS_CONFIG, **fields
    )
    return model
