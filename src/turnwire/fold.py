"""Fold a UI message stream into the message the AI SDK client would hold, and report how it got there.

Why this module exists: a target's stream can pass chunk-schema validation chunk by chunk and still be
wrong as a sequence (a delta for a part that was never opened, an output for an unknown tool call, a
finish that never comes). The client that matters, the Vercel AI SDK, turns the chunks into a
`UIMessage` with `processUIMessageStream` (what `readUIMessageStream`, `useChat` and the server's
`onFinish` all use); what a user sees, and what gets persisted, is that fold. So turnwire reproduces it
here, rule for rule and per profile (ai-sdk-v5, v6 and v7 differ), and reports every sequencing problem
as a `Finding`: a fatal one where the SDK client throws (the fold stops there, as the client does), a
tolerated one where the SDK carries on (the fold carries on exactly as the SDK does).

The result is the SDK's *last yielded snapshot* after `JSON.parse(JSON.stringify(...))`: keys the SDK
leaves `undefined` are absent, and a chunk that writes nothing (`start-step`, `finish-step`, a bare
`start`, `error`, `abort`, a transient data chunk) yields no snapshot. Every rule was checked against
ai@5.0.277, ai@6.0.326 and ai@7.0.173 (`dist/index.mjs` / `dist/index.js`); see tests/test_fold.py.

The chunks are expected to have passed the profile's chunk schema already (another stage checks that);
for chunks that did not, `fold` still never raises, but its result is only best effort.
"""

from __future__ import annotations

import json
import math
import re
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from turnwire.findings import Finding, json_path
from turnwire.profiles import DEFAULT_PROFILE, Profile

__all__ = [
    "FoldResult",
    "Folder",
    "PartialJson",
    "fix_json",
    "fold",
    "parse_partial_json",
]


class _Undefined:
    """JavaScript's `undefined` (one instance, `UNDEF`): a value whose key vanishes from JSON."""

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEF: Final = _Undefined()


# ---------------------------------------------------------------------------------------------------
# JavaScript value helpers
# ---------------------------------------------------------------------------------------------------


def _get(obj: Any, key: str) -> Any:
    """`obj[key]` with JavaScript's `undefined` for a missing key or a non-object."""
    if isinstance(obj, dict):
        return obj.get(key, UNDEF)
    return UNDEF


def _nn(value: Any) -> bool:
    """JavaScript `value != null`."""
    return value is not UNDEF and value is not None


def _truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value."""
    if value is UNDEF or value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0 and not (isinstance(value, float) and math.isnan(value))
    if isinstance(value, str):
        return value != ""
    return True


def _set(obj: dict[str, Any], key: str, value: Any) -> None:
    """`obj[key] = value`, where assigning `undefined` makes the key vanish from JSON."""
    if value is UNDEF:
        obj.pop(key, None)
    else:
        obj[key] = value


def _strict_eq(a: Any, b: Any) -> bool:
    """JavaScript `a === b` for JSON values (objects and arrays compare by identity)."""
    if a is UNDEF or b is UNDEF:
        return a is b
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and bool(a == b)


def _js_number(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return repr(value)


def _js_string(value: Any) -> str:
    """JavaScript `String(value)` for JSON values (used where the SDK coerces, e.g. `+=`)."""
    if isinstance(value, str):
        return value
    if value is UNDEF:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _js_number(value)
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEF else _js_string(v) for v in value)
    return "[object Object]"


def _key(value: Any) -> str:
    """The property key JavaScript uses for `obj[value]`."""
    return value if isinstance(value, str) else _js_string(value)


def _ptype(part: Any) -> str:
    """A part's `type`, or "" when it has none (never a tool, text or step-start part then)."""
    t = _get(part, "type")
    return t if isinstance(t, str) else ""


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def _clone(value: Any) -> Any:
    """A deep copy of a JSON-like value (mappings become dicts, sequences lists)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {k if type(k) is str else str(k): _clone(v) for k, v in value.items()}
    if kind is list:
        return [_clone(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k) if not isinstance(k, str) else k: _clone(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clone(v) for v in value]
    return value


_UTF16: Final = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"


def _utf16_units(text: str) -> array[int]:
    """The UTF-16 code units of `text` (JavaScript strings index by these)."""
    units: array[int] = array("H")
    units.frombytes(text.encode(_UTF16, "surrogatepass"))
    return units


def _from_units(units: array[int]) -> str:
    return units.tobytes().decode(_UTF16, "surrogatepass")


def _unit_chars(text: str) -> list[str]:
    """`text` split into one-code-unit strings (lone surrogates kept), like JavaScript's `{...text}`."""
    return [chr(u) for u in _utf16_units(text)]


# ---------------------------------------------------------------------------------------------------
# JSON.parse as the SDK calls it (secureJsonParse of @ai-sdk/provider-utils)
# ---------------------------------------------------------------------------------------------------


class _JsonRejected(ValueError):
    """The text is not JSON the SDK's secure parser accepts."""


def _reject_constant(name: str) -> Any:
    raise _JsonRejected(f"JSON.parse does not accept {name}")


# secureJsonParse's own pre-checks: only a text that may hold such a key is walked.
_PROTO_RX: Final = re.compile(
    r'"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)'
    r'(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:'
)
_CONSTRUCTOR_RX: Final = re.compile(
    r'"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)'
    r'(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:'
)
# Only a text with an exponent or a 16+ digit run can hold a number that differs as a JavaScript double.
_NUMBER_RX: Final = re.compile(r"[0-9][eE]|[0-9]{16}")


def _forbidden_key(value: Any) -> bool:
    """secureJsonParse's filter: an own `__proto__` key, or a `constructor` object with a `prototype` key."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "__proto__" in node:
                return True
            ctor = node.get("constructor")
            if isinstance(ctor, dict) and "prototype" in ctor:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _as_double(value: Any) -> Any:
    """A parsed number as JSON.parse + JSON.stringify leave it: integers beyond 2**53 become doubles,
    and a double overflow (Infinity) becomes null."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) <= 2**53:
            return value
        try:
            return float(value)
        except OverflowError:
            return None
    if isinstance(value, float):
        return None if math.isinf(value) else value
    if isinstance(value, dict):
        return {k: _as_double(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_double(v) for v in value]
    return value


def _js_json_parse(text: str) -> tuple[bool, Any]:
    """`safeParseJSON({text})` of @ai-sdk/provider-utils: (success, value as JSON would carry it)."""
    try:
        try:
            value = json.loads(text, parse_constant=_reject_constant)
        except ValueError as exc:
            if "integer string conversion" not in str(exc):
                return False, None
            value = json.loads(text, parse_constant=_reject_constant, parse_int=float)  # > 4300 digits
    except (ValueError, RecursionError):
        return False, None
    suspect = isinstance(value, (dict, list)) and (_PROTO_RX.search(text) or _CONSTRUCTOR_RX.search(text))
    if suspect and _forbidden_key(value):
        return False, None
    if _NUMBER_RX.search(text):
        value = _as_double(value)
    return True, value


# ---------------------------------------------------------------------------------------------------
# fixJson / parsePartialJson
# ---------------------------------------------------------------------------------------------------

_Q, _BS, _COLON, _COMMA = ord('"'), ord("\\"), ord(":"), ord(",")
_LBRACE, _RBRACE, _LBRACK, _RBRACK = ord("{"), ord("}"), ord("["), ord("]")
_MINUS, _DOT, _LE, _UE, _LU = ord("-"), ord("."), ord("e"), ord("E"), ord("u")
_DIGITS: Final = frozenset(range(ord("0"), ord("9") + 1))
_HEX: Final = _DIGITS | frozenset(range(ord("a"), ord("f") + 1)) | frozenset(range(ord("A"), ord("F") + 1))
_LITERAL_START: Final = frozenset({ord("f"), ord("t"), ord("n")})
_LITERALS: Final = ("true", "false", "null")

_ROOT, _FINISH = "ROOT", "FINISH"
_OBJ_START, _OBJ_KEY, _OBJ_AFTER_KEY = "INSIDE_OBJECT_START", "INSIDE_OBJECT_KEY", "INSIDE_OBJECT_AFTER_KEY"
_OBJ_AFTER_COMMA, _OBJ_BEFORE_VALUE = "INSIDE_OBJECT_AFTER_COMMA", "INSIDE_OBJECT_BEFORE_VALUE"
_OBJ_AFTER_VALUE = "INSIDE_OBJECT_AFTER_VALUE"
_STRING, _ESCAPE, _UNICODE = "INSIDE_STRING", "INSIDE_STRING_ESCAPE", "INSIDE_STRING_UNICODE_ESCAPE"
_ARR_START, _ARR_AFTER_VALUE, _ARR_AFTER_COMMA = (
    "INSIDE_ARRAY_START",
    "INSIDE_ARRAY_AFTER_VALUE",
    "INSIDE_ARRAY_AFTER_COMMA",
)
_NUMBER, _LITERAL = "INSIDE_NUMBER", "INSIDE_LITERAL"
_CLOSE_OBJECT: Final = frozenset(
    {_OBJ_KEY, _OBJ_AFTER_KEY, _OBJ_AFTER_COMMA, _OBJ_START, _OBJ_BEFORE_VALUE, _OBJ_AFTER_VALUE}
)
_CLOSE_ARRAY: Final = frozenset({_ARR_START, _ARR_AFTER_COMMA, _ARR_AFTER_VALUE})


class _FixJson:
    """The SDK's `fixJson` state machine, fed incrementally.

    It walks the text by UTF-16 code units, like the JavaScript original, and keeps its state between
    `feed` calls, so a tool input streamed in many deltas costs linear time overall. Per major:
    v6 and v7 know `\\uXXXX` escapes (v5 treats `u` as a one-character escape), and v7 no longer counts
    the first character after `[` as valid by itself.
    """

    def __init__(self, major: int) -> None:
        self._major = major
        self._units: array[int] = array("H")
        self._stack: list[str] = [_ROOT]
        self._last_valid = -1
        self._literal_start = 0
        self._unicode_digits = 0

    def feed(self, text: str) -> None:
        start = len(self._units)
        self._units.extend(_utf16_units(text))
        for i in range(start, len(self._units)):
            self._step(self._units[i], i)

    def _value_start(self, c: int, i: int, swap: str) -> None:
        st = self._stack
        if c == _Q:
            self._last_valid = i
            st[-1] = swap
            st.append(_STRING)
        elif c in _LITERAL_START:
            self._last_valid = i
            self._literal_start = i
            st[-1] = swap
            st.append(_LITERAL)
        elif c == _MINUS:
            st[-1] = swap
            st.append(_NUMBER)
        elif c in _DIGITS:
            self._last_valid = i
            st[-1] = swap
            st.append(_NUMBER)
        elif c == _LBRACE:
            self._last_valid = i
            st[-1] = swap
            st.append(_OBJ_START)
        elif c == _LBRACK:
            self._last_valid = i
            st[-1] = swap
            st.append(_ARR_START)

    def _after_object_value(self, c: int, i: int) -> None:
        if c == _COMMA:
            self._stack[-1] = _OBJ_AFTER_COMMA
        elif c == _RBRACE:
            self._last_valid = i
            self._stack.pop()

    def _after_array_value(self, c: int, i: int) -> None:
        if c == _COMMA:
            self._stack[-1] = _ARR_AFTER_COMMA
        elif c == _RBRACK:
            self._last_valid = i
            self._stack.pop()

    def _literal_text(self, end: int) -> str:
        return _from_units(self._units[self._literal_start : end])

    def _step(self, c: int, i: int) -> None:
        st = self._stack
        state = st[-1] if st else ""
        if state == _ROOT:
            self._value_start(c, i, _FINISH)
        elif state == _OBJ_START:
            if c == _Q:
                st[-1] = _OBJ_KEY
            elif c == _RBRACE:
                self._last_valid = i
                st.pop()
        elif state == _OBJ_AFTER_COMMA:
            if c == _Q:
                st[-1] = _OBJ_KEY
        elif state == _OBJ_KEY:
            if c == _Q:
                st[-1] = _OBJ_AFTER_KEY
        elif state == _OBJ_AFTER_KEY:
            if c == _COLON:
                st[-1] = _OBJ_BEFORE_VALUE
        elif state == _OBJ_BEFORE_VALUE:
            self._value_start(c, i, _OBJ_AFTER_VALUE)
        elif state == _OBJ_AFTER_VALUE:
            self._after_object_value(c, i)
        elif state == _STRING:
            if c == _Q:
                st.pop()
                self._last_valid = i
            elif c == _BS:
                st.append(_ESCAPE)
            else:
                self._last_valid = i
        elif state == _ARR_START:
            if c == _RBRACK:
                self._last_valid = i
                st.pop()
            else:
                if self._major < 7:
                    self._last_valid = i
                self._value_start(c, i, _ARR_AFTER_VALUE)
        elif state == _ARR_AFTER_VALUE:
            if c == _COMMA:
                st[-1] = _ARR_AFTER_COMMA
            elif c == _RBRACK:
                self._last_valid = i
                st.pop()
            else:
                self._last_valid = i
        elif state == _ARR_AFTER_COMMA:
            self._value_start(c, i, _ARR_AFTER_VALUE)
        elif state == _ESCAPE:
            st.pop()
            if self._major >= 6 and c == _LU:
                self._unicode_digits = 0
                st.append(_UNICODE)
            else:
                self._last_valid = i
        elif state == _UNICODE:
            if c in _HEX:
                self._unicode_digits += 1
                if self._unicode_digits == 4:
                    st.pop()
                    self._last_valid = i
        elif state == _NUMBER:
            if c in _DIGITS:
                self._last_valid = i
            elif c in (_LE, _UE, _MINUS, _DOT):
                pass
            elif c == _COMMA:
                st.pop()
                if st and st[-1] == _ARR_AFTER_VALUE:
                    self._after_array_value(c, i)
                if st and st[-1] == _OBJ_AFTER_VALUE:
                    self._after_object_value(c, i)
            elif c == _RBRACE:
                st.pop()
                if st and st[-1] == _OBJ_AFTER_VALUE:
                    self._after_object_value(c, i)
            elif c == _RBRACK:
                st.pop()
                if st and st[-1] == _ARR_AFTER_VALUE:
                    self._after_array_value(c, i)
            else:
                st.pop()
        elif state == _LITERAL:
            partial = self._literal_text(i + 1)
            if not any(lit.startswith(partial) for lit in ("false", "true", "null")):
                st.pop()
                if st and st[-1] == _OBJ_AFTER_VALUE:
                    self._after_object_value(c, i)
                elif st and st[-1] == _ARR_AFTER_VALUE:
                    self._after_array_value(c, i)
            else:
                self._last_valid = i

    def result(self) -> str:
        out = [_from_units(self._units[: self._last_valid + 1])]
        for state in reversed(self._stack):
            if state == _STRING:
                out.append('"')
            elif state in _CLOSE_OBJECT:
                out.append("}")
            elif state in _CLOSE_ARRAY:
                out.append("]")
            elif state == _LITERAL:
                partial = self._literal_text(len(self._units))
                for lit in _LITERALS:
                    if lit.startswith(partial):
                        out.append(lit[len(partial) :])
                        break
        return "".join(out)


def fix_json(text: str, profile: Profile = DEFAULT_PROFILE) -> str:
    """The SDK's `fixJson`: close what an incomplete JSON text left open and drop a trailing partial token."""
    fixer = _FixJson(profile.major)
    fixer.feed(text)
    return fixer.result()


PartialState = Literal["successful-parse", "repaired-parse", "failed-parse"]


@dataclass(frozen=True)
class PartialJson:
    """What the SDK's `parsePartialJson` returns. `value` is meaningful unless `state` is "failed-parse"
    (the SDK's value is then `undefined`, and a tool part's `input` key vanishes)."""

    value: Any
    state: PartialState


def _parse_partial(text: str, fixer: Callable[[], str]) -> PartialJson:
    ok, value = _js_json_parse(text)
    if ok:
        return PartialJson(value, "successful-parse")
    ok, value = _js_json_parse(fixer())
    if ok:
        return PartialJson(value, "repaired-parse")
    return PartialJson(None, "failed-parse")


def parse_partial_json(text: str, profile: Profile = DEFAULT_PROFILE) -> PartialJson:
    """The SDK's `parsePartialJson`: parse `text`, else parse `fix_json(text)`, else fail."""
    return _parse_partial(text, lambda: fix_json(text, profile))


# ---------------------------------------------------------------------------------------------------
# mergeObjects (message metadata)
# ---------------------------------------------------------------------------------------------------


class _MergeTypeError(Exception):
    """JavaScript's TypeError from `key in <primitive>` inside the SDK's `mergeObjects`."""


def _is_plain_object(value: Any) -> bool:
    return isinstance(value, dict)


def _spread(value: Any) -> dict[str, Any]:
    """JavaScript `{...value}` for a JSON value."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, str):
        return {str(i): ch for i, ch in enumerate(_unit_chars(value))}
    return {}


def _for_in(value: Any) -> list[tuple[str, Any]]:
    """(key, value) of JavaScript `for (key in value)` over own enumerable properties of a JSON value."""
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list):
        return [(str(i), v) for i, v in enumerate(value)]
    if isinstance(value, str):
        return [(str(i), ch) for i, ch in enumerate(_unit_chars(value))]
    return []


def _own(value: Any, key: str) -> Any:
    """`value[key]` for an object or array base (a key only on the prototype counts as not an object)."""
    if isinstance(value, dict):
        return value.get(key, UNDEF)
    if isinstance(value, list) and key.isascii() and key.isdigit() and (key == "0" or not key.startswith("0")):
        idx = int(key)
        return value[idx] if idx < len(value) else UNDEF
    return UNDEF


def _merge_objects(base: Any, overrides: Any) -> Any:
    """The SDK's `mergeObjects(base, overrides)`; raises `_MergeTypeError` where JavaScript throws."""
    result = _spread(base)
    for key, over in _for_in(overrides):
        if key in ("__proto__", "constructor", "prototype"):
            continue
        if not isinstance(base, (dict, list)):
            raise _MergeTypeError(f"Cannot use 'in' operator to search for '{key}' in {_js_string(base)}")
        base_value = _own(base, key)
        if _is_plain_object(over) and _is_plain_object(base_value):
            result[key] = _merge_objects(base_value, over)
        else:
            result[key] = over
    return result


# ---------------------------------------------------------------------------------------------------
# The fold
# ---------------------------------------------------------------------------------------------------

_TERMINAL: Final = frozenset({"output-error", "output-denied"})


@dataclass
class FoldResult:
    """The outcome of folding one stream."""

    message: dict[str, Any] | None
    """The SDK's last yielded snapshot, as JSON (None when the SDK would yield none)."""
    findings: list[Finding]
    finish_reason: str | None
    """`finishReason` of the finish chunk, kept in stream state (not in the message)."""
    errors: list[str] = field(default_factory=list)
    """`errorText` of each `error` chunk, in order (an error chunk is legal; no finding)."""
    aborted: bool = False
    """An abort chunk was seen."""
    finished: bool = False
    """A finish chunk was seen."""
    stopped_at: int | None = None
    """Index of the chunk at which the SDK client would have failed (fatal), else None."""


@dataclass
class _PartialCall:
    """One entry of the SDK's `partialToolCalls`."""

    text: str
    tool_name: Any
    dynamic: bool
    input_encoding: Any = UNDEF
    title: Any = UNDEF
    tool_metadata: Any = UNDEF
    fixer: _FixJson | None = None
    pending: dict[str, Any] | None = None
    """The part whose `input` is still to be parsed from `text` (parsing is deferred, see `_materialize`)."""


@dataclass
class _Open:
    """A text or reasoning part opened by a start chunk and not ended yet."""

    kind: str
    id: str
    index: int | None
    part: dict[str, Any]


class _Fatal(Exception):
    """The SDK client throws at this chunk; the fold stops."""


class Folder:
    """Incremental fold: feed the chunks one by one, read the result at any time.

    `fold()` is a loop over this class. The caller's chunks and `prior` are never mutated.
    """

    def __init__(self, profile: Profile = DEFAULT_PROFILE, prior: Mapping[str, Any] | None = None) -> None:
        self.profile = profile
        self._major = profile.major
        self._findings: list[Finding] = []
        self._errors: list[str] = []
        self._error_indices: list[int] = []
        self._finish_reason: Any = UNDEF
        self._aborted = False
        self._finished = False
        self._stopped_at: int | None = None
        self._dead = False  # the SDK would not even start (bad prior); stop at the first chunk
        self._count = 0
        # snapshot bookkeeping: the last yielded snapshot is the live message when `_live`, else `_snap`
        self._live = False
        self._snap: dict[str, Any] | None = None
        # protocol bookkeeping (not SDK state)
        self._seen_start = False
        self._finish_index: int | None = None
        self._after_finish_reported = False
        self._in_step = False
        self._abandoned: list[_Open] = []
        self._closed: dict[tuple[str, str], str] = {}
        self._streamed_calls: dict[str, tuple[Any, int]] = {}
        self._holding_prior = False

        self._active_text: dict[str, dict[str, Any]] = {}
        self._active_reasoning: dict[str, dict[str, Any]] = {}
        self._open: dict[tuple[str, str], _Open] = {}
        self._partial: dict[str, _PartialCall] = {}
        self._pending: dict[int, _PartialCall] = {}  # id(part) -> the call whose partial input it awaits
        self._msg: dict[str, Any] = self._fresh_message("")

        if prior is not None:
            self._start_from(prior)

    # ------------------------------------------------------------------ state setup

    @staticmethod
    def _fresh_message(message_id: Any) -> dict[str, Any]:
        msg: dict[str, Any] = {"role": "assistant", "parts": []}
        _set(msg, "id", message_id)
        return msg

    def _start_from(self, prior: Mapping[str, Any]) -> None:
        """`createStreamingUIMessageState({lastMessage: prior, messageId: prior.id ?? ""})`."""
        if not isinstance(prior, Mapping):  # `prior.role` is undefined: a fresh message, as in the SDK
            return
        msg = _clone(prior)
        if msg.get("role") != "assistant":
            message_id = msg.get("id", UNDEF)
            self._msg = self._fresh_message("" if message_id is None or message_id is UNDEF else message_id)
            return
        parts = msg.get("parts")
        if not isinstance(parts, list) or not all(
            isinstance(p, dict) and isinstance(p.get("type"), str) for p in parts
        ):
            self._bad_prior(
                "the prior assistant message needs a parts array of objects with a string type",
                json.dumps(parts)[:200] if _is_jsonable(parts) else type(parts).__name__,
            )
            return
        self._msg = msg
        self._holding_prior = True
        for p in parts[self._step_start_index() :]:
            if not self._is_tool(p) or p.get("state") != "input-streaming":
                continue
            raw = p.get("rawInput", UNDEF)
            dynamic = p["type"] == "dynamic-tool"
            call = _PartialCall(
                text=_js_string(raw) if _nn(raw) else "",
                tool_name=p.get("toolName", UNDEF) if dynamic else self._static_name(p),
                dynamic=dynamic,
            )
            if self._major >= 6:
                call.input_encoding = p.get("inputEncoding", UNDEF)
                call.title = p.get("title", UNDEF)
                call.tool_metadata = p.get("toolMetadata", UNDEF)
            self._partial[_key(p.get("toolCallId", UNDEF))] = call

    def _bad_prior(self, message: str, received: str) -> None:
        self._dead = True
        self._report(
            "MESSAGE-SCHEMA",
            f"{message}; the AI SDK's readUIMessageStream throws before reading any chunk",
            expected="an assistant UIMessage with a parts array",
            received=received,
            chunk_index=None,
            path=("parts",),
        )

    # ------------------------------------------------------------------ reporting

    def _report(
        self,
        req: str,
        message: str,
        *,
        expected: str | None = None,
        received: str | None = None,
        chunk_index: int | None,
        path: tuple[str | int, ...] | None = None,
        into: list[Finding] | None = None,
    ) -> None:
        (self._findings if into is None else into).append(
            Finding.of(
                req,
                message,
                expected=expected,
                received=received,
                chunk_index=chunk_index,
                json_path=json_path(path) if path is not None else None,
            )
        )

    def _fatal(
        self,
        req: str,
        message: str,
        *,
        expected: str,
        received: str,
        index: int | None,
        path: tuple[str | int, ...] | None = None,
    ) -> _Fatal:
        self._report(
            req,
            message + " (the AI SDK client fails here and applies no further chunk)",
            expected=expected,
            received=received,
            chunk_index=index,
            path=path,
        )
        return _Fatal()

    # ------------------------------------------------------------------ snapshots

    def _write(self) -> None:
        self._live = True

    def _before_silent_change(self) -> None:
        """Freeze the last yielded snapshot before a change the SDK does not yield (start-step)."""
        if self._live:
            self._materialize_all()
            self._snap = _clone(self._msg)
            self._live = False

    # ------------------------------------------------------------------ part helpers

    @property
    def _parts(self) -> list[Any]:
        parts = self._msg.get("parts")
        if not isinstance(parts, list):  # only a hostile prior could do this; the check above forbids it
            parts = []
            self._msg["parts"] = parts
        return parts

    def _step_start_index(self) -> int:
        """Index of the first part of the current step (after the last step-start)."""
        parts = self._msg.get("parts")
        if not isinstance(parts, list):
            return 0
        i = len(parts) - 1
        while i >= 0 and _ptype(parts[i]) != "step-start":
            i -= 1
        return i + 1

    def _is_static(self, part: Any) -> bool:
        return _ptype(part).startswith("tool-")

    def _is_tool(self, part: Any) -> bool:
        """A static `tool-*` or a `dynamic-tool` part."""
        t = _ptype(part)
        return t.startswith("tool-") or t == "dynamic-tool"

    @staticmethod
    def _static_name(part: Any) -> str:
        return "-".join(_ptype(part).split("-")[1:])

    def _index_of(self, part: Any) -> int | None:
        for i, p in enumerate(self._parts):
            if p is part:
                return i
        return None

    def _path(self, part: Any) -> tuple[str | int, ...] | None:
        i = self._index_of(part)
        return None if i is None else ("parts", i)

    def _find_current(self, pred: Callable[[Any], bool]) -> dict[str, Any] | None:
        parts = self._parts
        for p in parts[self._step_start_index() :]:
            if pred(p):
                return p if isinstance(p, dict) else None
        return None

    def _find_last(self, pred: Callable[[Any], bool]) -> dict[str, Any] | None:
        for p in reversed(self._parts):
            if pred(p):
                return p if isinstance(p, dict) else None
        return None

    def _any_call(self, call_id: Any) -> dict[str, Any] | None:
        """Any tool part (static or dynamic, any step) for this toolCallId, latest first."""
        return self._find_last(
            lambda p: (self._is_static(p) or _ptype(p) == "dynamic-tool") and _strict_eq(_get(p, "toolCallId"), call_id)
        )

    def _lookup(self, call_id: Any, kind: str) -> dict[str, Any] | None:
        """`getToolInvocation` (kind "any", v6/v7) or v5's static/dynamic variant (kind "static"/"dynamic")."""

        def pred(p: Any) -> bool:
            if kind == "static":
                ok = self._is_static(p)
            elif kind == "dynamic":
                ok = _ptype(p) == "dynamic-tool"
            else:
                ok = self._is_static(p) or _ptype(p) == "dynamic-tool"
            return ok and _strict_eq(_get(p, "toolCallId"), call_id)

        found = self._find_current(pred)
        return found if found is not None else self._find_last(pred)

    # ------------------------------------------------------------------ SDK: tool part updates

    def _update_tool(self, opts: dict[str, Any], existing: dict[str, Any] | None, dynamic: bool) -> dict[str, Any]:
        """`updateToolPart` / `updateDynamicToolPart` of the profile's SDK; returns the part it wrote."""
        v = self._major
        call_id = opts.get("toolCallId", UNDEF)
        part = existing
        if part is None:
            if dynamic:
                part = self._find_current(
                    lambda p: _ptype(p) == "dynamic-tool" and _strict_eq(_get(p, "toolCallId"), call_id)
                )
            else:
                part = self._find_current(lambda p: self._is_static(p) and _strict_eq(_get(p, "toolCallId"), call_id))
        state = opts["state"]
        pm = opts.get("providerMetadata", UNDEF)
        is_result = state in ("output-available", "output-error")
        if part is not None:
            self._drop_pending(part)  # every update sets `input`
            part["state"] = state
            if dynamic:
                _set(part, "toolName", opts.get("toolName", UNDEF))
            elif v >= 6:
                part["type"] = "tool-" + _js_string(opts.get("toolName", UNDEF))
            for k in ("input", "output", "errorText", "rawInput"):
                _set(part, k, opts.get(k, UNDEF))
            if v >= 6:
                enc = opts.get("inputEncoding", UNDEF)
                _set(part, "inputEncoding", enc if _nn(enc) else UNDEF)
            _set(part, "preliminary", opts.get("preliminary", UNDEF))
            if v >= 6:
                for k in ("title", "toolMetadata"):
                    if opts.get(k, UNDEF) is not UNDEF:
                        part[k] = opts[k]
            pe = opts.get("providerExecuted", UNDEF)
            if _nn(pe):
                part["providerExecuted"] = pe
            if _nn(pm):
                if v == 5:
                    if state == "input-available":
                        part["callProviderMetadata"] = pm
                elif is_result:
                    part["resultProviderMetadata"] = pm
                else:
                    part["callProviderMetadata"] = pm
            return part
        new: dict[str, Any] = {}
        if dynamic:
            new["type"] = "dynamic-tool"
            _set(new, "toolName", opts.get("toolName", UNDEF))
        else:
            new["type"] = "tool-" + _js_string(opts.get("toolName", UNDEF))
        _set(new, "toolCallId", call_id)
        new["state"] = state
        keys: tuple[str, ...]
        if v == 5:
            keys = ("input", "output", "errorText", "providerExecuted", "preliminary")
            if not dynamic:
                keys += ("rawInput",)
        else:
            keys = ("input", "output", "errorText", "providerExecuted", "preliminary", "title")
            if not dynamic:
                keys += ("rawInput",)
            if opts.get("toolMetadata", UNDEF) is not UNDEF:
                new["toolMetadata"] = opts["toolMetadata"]
            enc = opts.get("inputEncoding", UNDEF)
            if _nn(enc):
                new["inputEncoding"] = enc
        for k in keys:
            _set(new, k, opts.get(k, UNDEF))
        if _nn(pm):
            new["resultProviderMetadata" if v >= 6 and is_result else "callProviderMetadata"] = pm
        self._parts.append(new)
        return new

    # ------------------------------------------------------------------ deferred partial JSON

    # A tool-input-delta sets the part's `input` to parsePartialJson(all text so far); each delta overwrites
    # the previous value, so only the last one before anything reads the part matters. Parsing is therefore
    # deferred until then (a read of the part, a snapshot copy, or the text changing under it), which keeps
    # a long input streamed in many deltas linear instead of quadratic.

    def _drop_pending(self, part: dict[str, Any]) -> None:
        call = self._pending.pop(id(part), None)
        if call is not None:
            call.pending = None

    def _materialize(self, call: _PartialCall) -> None:
        part = call.pending
        if part is None:
            return
        call.pending = None
        self._pending.pop(id(part), None)
        fixer = call.fixer
        if fixer is None:
            fixer = call.fixer = _FixJson(self._major)
            fixer.feed(call.text)
        parsed = _parse_partial(call.text, fixer.result)
        _set(part, "input", UNDEF if parsed.state == "failed-parse" else parsed.value)

    def _materialize_part(self, part: dict[str, Any]) -> None:
        call = self._pending.get(id(part))
        if call is not None:
            self._materialize(call)

    def _materialize_all(self) -> None:
        for call in list(self._pending.values()):
            self._materialize(call)

    # ------------------------------------------------------------------ feeding

    def feed(self, chunk: Mapping[str, Any], index: int | None = None) -> None:
        """Apply one chunk (`index` is its position in the stream; defaults to the count fed so far)."""
        if index is None:
            index = self._count
        self._count += 1
        if self._stopped_at is not None:
            return
        if self._dead:
            self._stopped_at = index
            return
        try:
            self._feed(chunk, index)
        except _Fatal:
            self._stopped_at = index

    def _feed(self, raw: Mapping[str, Any], index: int) -> None:
        if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
            received = type(raw).__name__ if not isinstance(raw, Mapping) else repr(raw.get("type"))[:80]
            raise self._fatal(
                "CHUNK-SCHEMA",
                "a chunk without a string type",
                expected="a JSON object with a string `type`",
                received=received,
                index=index,
            )
        chunk: dict[str, Any] = _clone(raw)
        ctype: str = chunk["type"]
        self._sequence_checks(ctype, index)
        handler = _HANDLERS.get(ctype)
        if handler is not None and self._major >= _HANDLER_SINCE.get(ctype, 5):
            handler(self, chunk, index)
        elif ctype.startswith("data-"):
            self._on_data(chunk, index)
        # any other type: the SDK's switch ignores it (the chunk schema check reports unknown types)

    def _sequence_checks(self, ctype: str, index: int) -> None:
        """Stream-level order rules that do not depend on SDK state."""
        if ctype != "start" and self._count == 1:
            self._report(
                "FOLD-START-FIRST",
                "the stream does not open with a start chunk",
                expected="start",
                received=ctype,
                chunk_index=index,
            )
        if self._finish_index is not None and not self._after_finish_reported:
            self._after_finish_reported = True
            self._report(
                "FOLD-AFTER-FINISH",
                f"a {ctype} chunk after the finish chunk at index {self._finish_index} "
                "(the AI SDK client still applies it; further ones are not reported)",
                expected="no chunk after finish",
                received=ctype,
                chunk_index=index,
            )
        if ctype == "start-step":
            if self._in_step:
                self._report(
                    "FOLD-STEP-BALANCE",
                    "start-step while the previous step is still open",
                    expected="finish-step",
                    received="start-step",
                    chunk_index=index,
                )
            self._in_step = True
        elif ctype == "finish-step":
            if not self._in_step:
                self._report(
                    "FOLD-STEP-BALANCE",
                    "finish-step without an open step",
                    expected="start-step before finish-step",
                    received="finish-step",
                    chunk_index=index,
                )
            self._in_step = False
        elif ctype == "finish":
            if self._in_step:
                self._report(
                    "FOLD-STEP-BALANCE",
                    "finish while a step is still open",
                    expected="finish-step before finish",
                    received="finish",
                    chunk_index=index,
                )
                self._in_step = False
            if self._finish_index is None:
                self._finish_index = index

    # ------------------------------------------------------------------ message-level chunks

    def _merge_metadata(self, metadata: Any, index: int) -> None:
        """`updateMessageMetadata`: deep-merge into the held metadata (raises _Fatal where the SDK throws)."""
        if not _nn(metadata):
            return
        held = self._msg.get("metadata", UNDEF)
        if not _nn(held):
            self._msg["metadata"] = metadata
            return
        plain = isinstance(held, dict) and isinstance(metadata, dict)
        try:
            merged = _merge_objects(held, metadata)
        except _MergeTypeError as exc:
            raise self._fatal(
                "FOLD-METADATA-MERGE",
                f"messageMetadata cannot be merged into the held metadata: JavaScript TypeError: {exc}",
                expected="a JSON object merged into JSON object metadata",
                received=f"{_kind(metadata)} merged into {_kind(held)}",
                index=index,
                path=("metadata",),
            ) from None
        if not plain:
            self._report(
                "FOLD-METADATA-MERGE",
                "messageMetadata that is not a JSON object merged with the held metadata: the AI SDK "
                "client spreads arrays and strings into index-keyed objects",
                expected="a JSON object merged into JSON object metadata",
                received=f"{_kind(metadata)} merged into {_kind(held)}",
                chunk_index=index,
                path=("metadata",),
            )
        self._msg["metadata"] = merged

    def _on_start(self, chunk: dict[str, Any], index: int) -> None:
        message_id = chunk.get("messageId", UNDEF)
        held_id = self._msg.get("id", UNDEF)
        reset = _nn(message_id) and not _strict_eq(message_id, held_id)
        if self._count > 1:
            drops = reset and (self._parts or _nn(self._msg.get("metadata", UNDEF)))
            self._report(
                "FOLD-START-FIRST",
                ("a second start chunk" if self._seen_start else "a start chunk after other chunks")
                + (
                    f" with a new messageId: the AI SDK client drops everything folded into {_short(held_id)}"
                    if drops
                    else ""
                ),
                expected="exactly one start chunk, at index 0",
                received=f"start at index {index}",
                chunk_index=index,
            )
        self._seen_start = True
        if reset and self._holding_prior:
            self._report(
                "FOLD-CONTINUATION-ID",
                "the start chunk of a continuation carries another messageId: the AI SDK client "
                "drops the message it holds and starts an empty one",
                expected=f"no messageId, or {_short(held_id)}",
                received=_short(message_id),
                chunk_index=index,
            )
        if reset:
            self._msg = self._fresh_message(message_id)
            self._active_text = {}
            self._active_reasoning = {}
            self._partial = {}
            self._pending = {}
            self._finish_reason = UNDEF
            self._holding_prior = False
            for op in self._open.values():
                self._closed[(op.kind, op.id)] = f"dropped by the start chunk at index {index}"
            self._open = {}
            self._abandoned = []
            self._streamed_calls = {}
        if _nn(message_id):
            self._msg["id"] = message_id
        self._merge_metadata(chunk.get("messageMetadata", UNDEF), index)
        if reset or _nn(message_id) or _nn(chunk.get("messageMetadata", UNDEF)):
            self._write()

    def _on_finish(self, chunk: dict[str, Any], index: int) -> None:
        self._finished = True
        reason = chunk.get("finishReason", UNDEF)
        if _nn(reason):
            self._finish_reason = reason
        self._merge_metadata(chunk.get("messageMetadata", UNDEF), index)
        if _nn(chunk.get("messageMetadata", UNDEF)):
            self._write()

    def _on_message_metadata(self, chunk: dict[str, Any], index: int) -> None:
        self._merge_metadata(chunk.get("messageMetadata", UNDEF), index)
        if _nn(chunk.get("messageMetadata", UNDEF)):
            self._write()

    def _on_error(self, chunk: dict[str, Any], index: int) -> None:
        self._errors.append(_js_string(chunk.get("errorText", UNDEF)))
        self._error_indices.append(index)

    def _on_abort(self, chunk: dict[str, Any], index: int) -> None:
        self._aborted = True

    def _on_start_step(self, chunk: dict[str, Any], index: int) -> None:
        self._before_silent_change()
        self._parts.append({"type": "step-start"})

    def _on_finish_step(self, chunk: dict[str, Any], index: int) -> None:
        if self._major >= 7:
            return
        for op in self._open.values():
            self._abandoned.append(op)
            self._closed[(op.kind, op.id)] = (
                f"forgotten by the finish-step at index {index} (ai-sdk-v5/v6 forget open text "
                "and reasoning parts at finish-step)"
            )
        self._open = {}
        self._active_text = {}
        self._active_reasoning = {}

    def _on_reset_step(self, chunk: dict[str, Any], index: int) -> None:
        start = self._step_start_index()
        dropped = len(self._parts) - start
        self._materialize_all()  # a pending part may sit in an earlier step; its call's text goes now
        self._active_text = {}
        self._active_reasoning = {}
        self._partial = {}
        for op in self._open.values():
            self._closed[(op.kind, op.id)] = f"dropped by the reset-step at index {index}"
        self._open = {}
        if dropped > 0:
            del self._parts[start:]
            self._write()

    # ------------------------------------------------------------------ text and reasoning

    def _on_part_start(self, chunk: dict[str, Any], index: int) -> None:
        kind = "text" if chunk["type"] == "text-start" else "reasoning"
        pid = _key(chunk.get("id", UNDEF))
        active = self._active_text if kind == "text" else self._active_reasoning
        if pid in active:
            prev = self._open.get((kind, pid))
            self._report(
                "FOLD-DUPLICATE-START",
                f"{chunk['type']} reuses the id {_short(pid)} of a {kind} part that is still open"
                + (f" (opened at index {prev.index})" if prev else "")
                + "; the AI SDK client starts a new part and leaves the old one streaming",
                expected=f"{kind}-end for {_short(pid)} first, or a fresh id",
                received=f"{chunk['type']} {_short(pid)}",
                chunk_index=index,
            )
            if prev is not None:
                self._abandoned.append(prev)
        part: dict[str, Any] = {"type": kind}
        if kind == "reasoning":
            _set(part, "id", chunk.get("id", UNDEF))
        part["text"] = ""
        _set(part, "providerMetadata", chunk.get("providerMetadata", UNDEF))
        part["state"] = "streaming"
        active[pid] = part
        self._open[(kind, pid)] = _Open(kind, pid, index, part)
        self._closed.pop((kind, pid), None)
        self._parts.append(part)
        self._write()

    def _missing_part(self, chunk: dict[str, Any], kind: str, pid: str, index: int) -> _Fatal:
        why = self._closed.get((kind, pid), f"no {kind}-start with this id")
        return self._fatal(
            "FOLD-DELTA-WITHOUT-START",
            f"{chunk['type']} for {kind} part {_short(pid)}, which is not open: {why}",
            expected=f"{kind}-start {_short(pid)} before {chunk['type']}",
            received=f"{chunk['type']} {_short(pid)}",
            index=index,
        )

    def _on_part_delta(self, chunk: dict[str, Any], index: int) -> None:
        kind = "text" if chunk["type"] == "text-delta" else "reasoning"
        pid = _key(chunk.get("id", UNDEF))
        part = (self._active_text if kind == "text" else self._active_reasoning).get(pid)
        if part is None:
            raise self._missing_part(chunk, kind, pid, index)
        part["text"] = _js_string(part.get("text", UNDEF)) + _js_string(chunk.get("delta", UNDEF))
        pm = chunk.get("providerMetadata", UNDEF)
        if _nn(pm):
            part["providerMetadata"] = pm
        self._write()

    def _on_part_end(self, chunk: dict[str, Any], index: int) -> None:
        kind = "text" if chunk["type"] == "text-end" else "reasoning"
        pid = _key(chunk.get("id", UNDEF))
        active = self._active_text if kind == "text" else self._active_reasoning
        part = active.get(pid)
        if part is None:
            raise self._missing_part(chunk, kind, pid, index)
        part["state"] = "done"
        if kind == "text" and self._major >= 7 and _nn(chunk.get("citations", UNDEF)):
            part["citations"] = chunk["citations"]
        pm = chunk.get("providerMetadata", UNDEF)
        if _nn(pm):
            part["providerMetadata"] = pm
        del active[pid]
        self._open.pop((kind, pid), None)
        self._closed[(kind, pid)] = f"already ended at index {index}"
        self._write()

    # ------------------------------------------------------------------ simple parts

    def _on_file(self, chunk: dict[str, Any], index: int) -> None:
        part: dict[str, Any] = {"type": chunk["type"]}
        _set(part, "mediaType", chunk.get("mediaType", UNDEF))
        _set(part, "url", chunk.get("url", UNDEF))
        if self._major >= 6 and _nn(chunk.get("providerMetadata", UNDEF)):
            part["providerMetadata"] = chunk["providerMetadata"]
        self._parts.append(part)
        self._write()

    def _push_fields(self, ptype: str, chunk: dict[str, Any], keys: tuple[str, ...]) -> None:
        part: dict[str, Any] = {"type": ptype}
        for k in keys:
            _set(part, k, chunk.get(k, UNDEF))
        self._parts.append(part)
        self._write()

    def _on_source_url(self, chunk: dict[str, Any], index: int) -> None:
        self._push_fields("source-url", chunk, ("sourceId", "url", "title", "providerMetadata"))

    def _on_source_document(self, chunk: dict[str, Any], index: int) -> None:
        self._push_fields("source-document", chunk, ("sourceId", "mediaType", "title", "filename", "providerMetadata"))

    def _on_custom(self, chunk: dict[str, Any], index: int) -> None:
        self._push_fields("custom", chunk, ("kind", "providerMetadata"))

    def _on_steering(self, chunk: dict[str, Any], index: int) -> None:
        self._push_fields("steering-message", chunk, ("id", "parts"))

    def _on_data(self, chunk: dict[str, Any], index: int) -> None:
        if _truthy(chunk.get("transient", UNDEF)):
            return
        data_id = chunk.get("id", UNDEF)
        existing = None
        if _nn(data_id):
            for p in self._parts:
                if _strict_eq(chunk["type"], _get(p, "type")) and _strict_eq(data_id, _get(p, "id")):
                    existing = p
                    break
        if isinstance(existing, dict):
            _set(existing, "data", chunk.get("data", UNDEF))
        else:
            self._parts.append(chunk)
        self._write()

    # ------------------------------------------------------------------ tools: input

    def _tool_order(self, message: str, chunk: dict[str, Any], index: int, part: Any, expected: str) -> None:
        state = _get(part, "state")
        self._report(
            "FOLD-TOOL-STATE-ORDER",
            message,
            expected=expected,
            received=f"{chunk['type']} while the part is {_state_label(part)}" if state is not UNDEF else chunk["type"],
            chunk_index=index,
            path=self._path(part),
        )

    def _check_input_target(self, chunk: dict[str, Any], index: int, dynamic: bool) -> None:
        """Order checks for tool-input-start/-available/-error before the SDK applies them."""
        call_id = chunk.get("toolCallId", UNDEF)
        ctype = chunk["type"]
        target = self._find_current(
            lambda p: (
                (_ptype(p) == "dynamic-tool" if dynamic else self._is_static(p))
                and _strict_eq(_get(p, "toolCallId"), call_id)
            )
        )
        other = self._find_current(
            lambda p: (
                (self._is_static(p) if dynamic else _ptype(p) == "dynamic-tool")
                and _strict_eq(_get(p, "toolCallId"), call_id)
            )
        )
        anywhere = self._any_call(call_id)
        if target is None and other is not None:
            self._report(
                "FOLD-DYNAMIC-FLAG",
                f"{ctype} for call {_short(call_id)} "
                + ("says dynamic: true" if dynamic else "lacks dynamic: true")
                + f" but the call's part is {_ptype(other)}: the AI SDK client adds a second "
                f"{'dynamic-tool' if dynamic else 'tool-*'} part for the same call",
                expected=f"dynamic: {'true' if _ptype(other) == 'dynamic-tool' else 'absent or false'}",
                received=f"dynamic: {'true' if dynamic else 'absent or false'}",
                chunk_index=index,
                path=self._path(other),
            )
            return
        if ctype == "tool-input-start":
            if anywhere is not None:
                where = "resets it" if target is not None else "adds a second part for it"
                self._tool_order(
                    f"tool-input-start for call {_short(call_id)}, which already has a part: the AI SDK client {where}",
                    chunk,
                    index,
                    anywhere,
                    "a new toolCallId",
                )
            return
        if target is None:
            if anywhere is not None:
                self._tool_order(
                    f"{ctype} for call {_short(call_id)}, whose part is in an earlier step: the AI SDK "
                    "client adds a second part for it",
                    chunk,
                    index,
                    anywhere,
                    "the call's input chunks within one step",
                )
            return
        if target.get("state") != "input-streaming":
            self._tool_order(
                f"{ctype} for call {_short(call_id)}, which is already past input streaming: the AI SDK "
                f"client moves it back to {'input-available' if ctype == 'tool-input-available' else 'output-error'}",
                chunk,
                index,
                target,
                "no input chunk after the input is complete",
            )

    def _on_tool_input_start(self, chunk: dict[str, Any], index: int) -> None:
        v = self._major
        call_id = chunk.get("toolCallId", UNDEF)
        dynamic = _truthy(chunk.get("dynamic", UNDEF))
        self._check_input_target(chunk, index, dynamic)
        call = _PartialCall(text="", tool_name=chunk.get("toolName", UNDEF), dynamic=dynamic)
        opts: dict[str, Any] = {
            "toolCallId": call_id,
            "toolName": chunk.get("toolName", UNDEF),
            "state": "input-streaming",
            "providerExecuted": chunk.get("providerExecuted", UNDEF),
        }
        if v >= 6:
            call.input_encoding = chunk.get("inputEncoding", UNDEF)
            call.title = chunk.get("title", UNDEF)
            call.tool_metadata = chunk.get("toolMetadata", UNDEF)
            opts["inputEncoding"] = call.input_encoding
            opts["title"] = call.title
            opts["toolMetadata"] = call.tool_metadata
            opts["providerMetadata"] = chunk.get("providerMetadata", UNDEF)
        old = self._partial.get(_key(call_id))
        if old is not None:
            self._materialize(old)  # its text restarts; a part left in an earlier step keeps its input
        self._partial[_key(call_id)] = call
        self._streamed_calls[_key(call_id)] = (call_id, index)
        self._update_tool(opts, None, dynamic)
        self._write()

    def _on_tool_input_delta(self, chunk: dict[str, Any], index: int) -> None:
        call_id = chunk.get("toolCallId", UNDEF)
        call = self._partial.get(_key(call_id))
        if call is None:
            part = self._any_call(call_id)
            why = (
                "the call has a part but no tool-input-start in this stream"
                if part is not None
                else "no tool-input-start for this toolCallId"
            )
            raise self._fatal(
                "FOLD-TOOL-UNKNOWN-CALL",
                f"tool-input-delta for call {_short(call_id)}: {why}",
                expected=f"tool-input-start {_short(call_id)} before tool-input-delta",
                received=f"tool-input-delta {_short(call_id)}",
                index=index,
            )
        target = self._find_current(
            lambda p: (
                (_ptype(p) == "dynamic-tool" if call.dynamic else self._is_static(p))
                and _strict_eq(_get(p, "toolCallId"), call_id)
            )
        )
        if target is None:
            self._tool_order(
                f"tool-input-delta for call {_short(call_id)}, whose part is not in the current step: the "
                "AI SDK client adds a second part for it",
                chunk,
                index,
                self._any_call(call_id),
                "the call's input chunks within one step",
            )
        elif target.get("state") != "input-streaming":
            self._tool_order(
                f"tool-input-delta for call {_short(call_id)}, which is already past input streaming: the "
                "AI SDK client moves it back to input-streaming",
                chunk,
                index,
                target,
                "no input delta after the input is complete",
            )
        if call.pending is not None and call.pending is not target:
            self._materialize(call)  # that part keeps the parse of the text before this delta
        delta = _js_string(chunk.get("inputTextDelta", UNDEF))
        call.text += delta
        as_text = self._major >= 6 and _strict_eq(call.input_encoding, "text")
        if not as_text:
            if call.fixer is None:
                call.fixer = _FixJson(self._major)
                call.fixer.feed(call.text)
            else:
                call.fixer.feed(delta)
        opts: dict[str, Any] = {
            "toolCallId": call_id,
            "toolName": call.tool_name,
            "state": "input-streaming",
            "input": call.text if as_text else UNDEF,
            "rawInput": call.text,
        }
        if self._major >= 6:
            opts["inputEncoding"] = call.input_encoding
            opts["title"] = call.title
            opts["toolMetadata"] = call.tool_metadata
        part = self._update_tool(opts, None, call.dynamic)
        if not as_text:
            call.pending = part
            self._pending[id(part)] = call
        self._write()

    def _on_tool_input_available(self, chunk: dict[str, Any], index: int) -> None:
        dynamic = _truthy(chunk.get("dynamic", UNDEF))
        self._check_input_target(chunk, index, dynamic)
        opts: dict[str, Any] = {
            "toolCallId": chunk.get("toolCallId", UNDEF),
            "toolName": chunk.get("toolName", UNDEF),
            "state": "input-available",
            "input": chunk.get("input", UNDEF),
            "providerExecuted": chunk.get("providerExecuted", UNDEF),
            "providerMetadata": chunk.get("providerMetadata", UNDEF),
        }
        if self._major >= 6:
            opts["title"] = chunk.get("title", UNDEF)
            opts["toolMetadata"] = chunk.get("toolMetadata", UNDEF)
        self._streamed_calls.pop(_key(opts["toolCallId"]), None)
        self._update_tool(opts, None, dynamic)
        self._write()

    def _on_tool_input_error(self, chunk: dict[str, Any], index: int) -> None:
        v = self._major
        call_id = chunk.get("toolCallId", UNDEF)
        if v == 5:
            dynamic = _truthy(chunk.get("dynamic", UNDEF))
        else:
            existing = self._find_current(
                lambda p: (
                    (self._is_static(p) or _ptype(p) == "dynamic-tool") and _strict_eq(_get(p, "toolCallId"), call_id)
                )
            )
            dynamic = (
                _ptype(existing) == "dynamic-tool" if existing is not None else _truthy(chunk.get("dynamic", UNDEF))
            )
        self._check_input_target(chunk, index, dynamic)
        opts: dict[str, Any] = {
            "toolCallId": call_id,
            "toolName": chunk.get("toolName", UNDEF),
            "state": "output-error",
            "errorText": chunk.get("errorText", UNDEF),
            "providerExecuted": chunk.get("providerExecuted", UNDEF),
            "providerMetadata": chunk.get("providerMetadata", UNDEF),
        }
        if v >= 6:
            opts["toolMetadata"] = chunk.get("toolMetadata", UNDEF)
        if dynamic or v >= 7:
            opts["input"] = chunk.get("input", UNDEF)
        else:
            opts["rawInput"] = chunk.get("input", UNDEF)
        self._streamed_calls.pop(_key(call_id), None)
        self._update_tool(opts, None, dynamic)
        self._write()

    # ------------------------------------------------------------------ tools: approval and output

    def _unknown_call(self, chunk: dict[str, Any], index: int) -> _Fatal:
        call_id = chunk.get("toolCallId", UNDEF)
        return self._fatal(
            "FOLD-TOOL-UNKNOWN-CALL",
            f"{chunk['type']} for call {_short(call_id)}, which the message does not hold",
            expected=f"a tool part for {_short(call_id)} (tool-input-start or tool-input-available first)",
            received=f"{chunk['type']} {_short(call_id)}",
            index=index,
        )

    def _invocation(self, chunk: dict[str, Any], index: int) -> dict[str, Any]:
        """`getToolInvocation` of v6/v7 (raises _Fatal where it throws)."""
        part = self._lookup(chunk.get("toolCallId", UNDEF), "any")
        if part is None:
            raise self._unknown_call(chunk, index)
        return part

    def _on_approval_request(self, chunk: dict[str, Any], index: int) -> None:
        part = self._invocation(chunk, index)
        if part.get("state") != "input-available":
            self._tool_order(
                f"tool-approval-request for call {_short(chunk.get('toolCallId', UNDEF))}, which is not "
                "waiting with a complete input",
                chunk,
                index,
                part,
                "tool-approval-request right after the input is available",
            )
        part["state"] = "approval-requested"
        approval: dict[str, Any] = {}
        _set(approval, "id", chunk.get("approvalId", UNDEF))
        if _nn(chunk.get("approvalDescriptor", UNDEF)):
            approval["descriptor"] = chunk["approvalDescriptor"]
        if "inputSchemaInput" in chunk:
            approval["inputSchemaInput"] = chunk["inputSchemaInput"]
        if self._major >= 7:
            if _nn(chunk.get("reason", UNDEF)):
                approval["requestReason"] = chunk["reason"]
            if chunk.get("isAutomatic", UNDEF) is True:
                approval["isAutomatic"] = True
        if _nn(chunk.get("signature", UNDEF)):
            approval["signature"] = chunk["signature"]
        part["approval"] = approval
        self._write()

    def _on_approval_response(self, chunk: dict[str, Any], index: int) -> None:
        approval_id = chunk.get("approvalId", UNDEF)
        part = None
        for p in self._parts:
            if (self._is_static(p) or _ptype(p) == "dynamic-tool") and _strict_eq(
                _get(_get(p, "approval"), "id"), approval_id
            ):
                part = p
                break
        if not isinstance(part, dict):
            raise self._fatal(
                "FOLD-APPROVAL-UNKNOWN",
                f"tool-approval-response for approval {_short(approval_id)}, which no tool part holds",
                expected=f"a tool-approval-request with approvalId {_short(approval_id)} first",
                received=f"tool-approval-response {_short(approval_id)}",
                index=index,
            )
        if part.get("state") != "approval-requested":
            self._tool_order(
                f"tool-approval-response for approval {_short(approval_id)}, which is not pending",
                chunk,
                index,
                part,
                "one tool-approval-response per approval-requested part",
            )
        held = part.get("approval", UNDEF)
        approval = _spread(held) if _nn(held) else {"id": approval_id}
        _set(approval, "id", approval_id)
        _set(approval, "approved", chunk.get("approved", UNDEF))
        if _nn(chunk.get("reason", UNDEF)):
            approval["reason"] = chunk["reason"]
        part["state"] = "approval-responded"
        part["approval"] = approval
        if _nn(chunk.get("providerExecuted", UNDEF)):
            part["providerExecuted"] = chunk["providerExecuted"]
        if _nn(chunk.get("providerMetadata", UNDEF)):
            part["callProviderMetadata"] = chunk["providerMetadata"]
        self._write()

    def _on_output_denied(self, chunk: dict[str, Any], index: int) -> None:
        part = self._invocation(chunk, index)
        approved = _get(part.get("approval", UNDEF), "approved")
        if part.get("state") != "approval-responded" or approved is not False:
            self._tool_order(
                f"tool-output-denied for call {_short(chunk.get('toolCallId', UNDEF))} without a "
                "denied approval response (the part keeps its approval object as it is)",
                chunk,
                index,
                part,
                "approval-responded with approved: false, then tool-output-denied",
            )
        part["state"] = "output-denied"
        self._write()

    def _check_output_target(self, chunk: dict[str, Any], index: int, part: dict[str, Any]) -> None:
        state = part.get("state")
        call = _short(chunk.get("toolCallId", UNDEF))
        expected = "input-available, approval-responded (approved) or a preliminary output before it"
        if state in _TERMINAL or (state == "output-available" and part.get("preliminary") is not True):
            self._tool_order(
                f"{chunk['type']} for call {call}, which already has its final result: the AI SDK client overwrites it",
                chunk,
                index,
                part,
                expected,
            )
        elif state == "approval-responded" and _get(part.get("approval", UNDEF), "approved") is not True:
            self._tool_order(
                f"{chunk['type']} for call {call}, whose approval was denied",
                chunk,
                index,
                part,
                "tool-output-denied after a denied approval",
            )
        elif state in ("input-streaming", "approval-requested"):
            self._tool_order(
                f"{chunk['type']} for call {call} before "
                + ("its input is complete" if state == "input-streaming" else "its approval is answered"),
                chunk,
                index,
                part,
                expected,
            )

    def _output_part(self, chunk: dict[str, Any], index: int) -> tuple[dict[str, Any], bool]:
        """The part an output chunk updates, and whether it is dynamic (raises _Fatal like the SDK)."""
        call_id = chunk.get("toolCallId", UNDEF)
        if self._major >= 6:
            found = self._invocation(chunk, index)
            return found, _ptype(found) == "dynamic-tool"
        flag = _truthy(chunk.get("dynamic", UNDEF))
        part = self._lookup(call_id, "dynamic" if flag else "static")
        if part is not None:
            return part, flag
        other = self._lookup(call_id, "static" if flag else "dynamic")
        if other is not None:
            raise self._fatal(
                "FOLD-DYNAMIC-FLAG",
                f"{chunk['type']} for call {_short(call_id)} "
                + ("says dynamic: true but the call's part is static" if flag else "lacks dynamic: true")
                + f" ({_ptype(other)}); ai-sdk-v5 looks the call up by this flag and fails with "
                "'tool-output-error must be preceded by a tool-input-available'",
                expected=f"dynamic: {'absent or false' if flag else 'true'}",
                received=f"dynamic: {'true' if flag else 'absent or false'}",
                index=index,
                path=self._path(other),
            )
        raise self._unknown_call(chunk, index)

    def _on_output_available(self, chunk: dict[str, Any], index: int) -> None:
        part, dynamic = self._output_part(chunk, index)
        self._materialize_part(part)
        self._check_output_target(chunk, index, part)
        v = self._major
        opts: dict[str, Any] = {
            "toolCallId": chunk.get("toolCallId", UNDEF),
            "toolName": part.get("toolName", UNDEF) if dynamic else self._static_name(part),
            "state": "output-available",
            "input": part.get("input", UNDEF),
            "output": chunk.get("output", UNDEF),
            "preliminary": chunk.get("preliminary", UNDEF),
        }
        if v >= 6 or not dynamic:
            opts["providerExecuted"] = chunk.get("providerExecuted", UNDEF)
        if v >= 6:
            opts["providerMetadata"] = chunk.get("providerMetadata", UNDEF)
            opts["title"] = part.get("title", UNDEF)
            tm = chunk.get("toolMetadata", UNDEF)
            opts["toolMetadata"] = tm if _nn(tm) else part.get("toolMetadata", UNDEF)
        self._update_tool(opts, part, dynamic)
        self._write()

    def _on_output_error(self, chunk: dict[str, Any], index: int) -> None:
        part, dynamic = self._output_part(chunk, index)
        self._materialize_part(part)
        self._check_output_target(chunk, index, part)
        v = self._major
        opts: dict[str, Any] = {
            "toolCallId": chunk.get("toolCallId", UNDEF),
            "toolName": part.get("toolName", UNDEF) if dynamic else self._static_name(part),
            "state": "output-error",
            "input": part.get("input", UNDEF),
            "errorText": chunk.get("errorText", UNDEF),
            "providerExecuted": chunk.get("providerExecuted", UNDEF),
        }
        if not dynamic:
            opts["rawInput"] = part.get("rawInput", UNDEF)
        if v >= 6:
            opts["providerMetadata"] = chunk.get("providerMetadata", UNDEF)
            opts["title"] = part.get("title", UNDEF)
            tm = chunk.get("toolMetadata", UNDEF)
            opts["toolMetadata"] = tm if _nn(tm) else part.get("toolMetadata", UNDEF)
        self._update_tool(opts, part, dynamic)
        self._write()

    # ------------------------------------------------------------------ result

    def _end_findings(self) -> list[Finding]:
        """Findings that only the end of the stream can tell (computed on demand, not stored)."""
        out: list[Finding] = []
        if self._stopped_at is not None or self._dead:
            return out
        if self._count == 0:
            self._report(
                "FOLD-START-FIRST",
                "the stream has no chunk at all",
                expected="start",
                received="end of stream",
                chunk_index=None,
                into=out,
            )
        for op in [*self._abandoned, *self._open.values()]:
            path = self._path(op.part)
            if path is None:  # the part itself is gone (reset-step)
                continue
            if self._aborted or any(op.index is None or i > op.index for i in self._error_indices):
                continue  # cut off by an abort or an error chunk: what a real server sends then
            self._report(
                "FOLD-PART-NOT-ENDED",
                f"{op.kind} part {_short(op.id)} opened at index {op.index} is never ended: the "
                "message keeps it in state streaming",
                expected=f"{op.kind}-end {_short(op.id)}",
                received="no end chunk",
                chunk_index=op.index,
                path=path,
                into=out,
            )
        if self._finished and not self._aborted:
            for call_id, start_index in self._streamed_calls.values():
                part = self._any_call(call_id)
                if part is None or part.get("state") != "input-streaming":
                    continue
                self._report(
                    "FOLD-TOOL-INPUT-NOT-ENDED",
                    f"tool call {_short(call_id)} started streaming its input at index {start_index} "
                    "but never got tool-input-available or tool-input-error",
                    expected="tool-input-available or tool-input-error",
                    received="no input end",
                    chunk_index=start_index,
                    path=self._path(part),
                    into=out,
                )
        if not self._finished and not self._aborted:
            self._report(
                "FOLD-FINISH",
                f"the stream ended after {self._count} chunk(s) without a finish or abort chunk",
                expected="finish (or abort)",
                received="end of stream",
                chunk_index=None,
                into=out,
            )
        return out

    def result(self, *, ended: bool = True) -> FoldResult:
        """The fold so far. With `ended` (the default), end-of-stream findings are included as if the
        stream ended now; pass `ended=False` when the stream was cut off before its end (e.g. the
        transport rejected a chunk), so that what was never sent is not reported as missing."""
        self._materialize_all()
        if self._live:
            message: dict[str, Any] | None = _clone(self._msg)
        elif self._snap is not None:
            message = _clone(self._snap)
        else:
            message = None
        reason = self._finish_reason
        return FoldResult(
            message=message,
            findings=[*self._findings, *(self._end_findings() if ended else [])],
            finish_reason=None if not _nn(reason) else _js_string(reason),
            errors=list(self._errors),
            aborted=self._aborted,
            finished=self._finished,
            stopped_at=self._stopped_at,
        )


_Handler = Callable[[Folder, dict[str, Any], int], None]

_HANDLERS: Final[dict[str, _Handler]] = {
    "start": Folder._on_start,
    "finish": Folder._on_finish,
    "message-metadata": Folder._on_message_metadata,
    "error": Folder._on_error,
    "abort": Folder._on_abort,
    "start-step": Folder._on_start_step,
    "finish-step": Folder._on_finish_step,
    "reset-step": Folder._on_reset_step,
    "text-start": Folder._on_part_start,
    "text-delta": Folder._on_part_delta,
    "text-end": Folder._on_part_end,
    "reasoning-start": Folder._on_part_start,
    "reasoning-delta": Folder._on_part_delta,
    "reasoning-end": Folder._on_part_end,
    "file": Folder._on_file,
    "reasoning-file": Folder._on_file,
    "source-url": Folder._on_source_url,
    "source-document": Folder._on_source_document,
    "custom": Folder._on_custom,
    "steering-message": Folder._on_steering,
    "tool-input-start": Folder._on_tool_input_start,
    "tool-input-delta": Folder._on_tool_input_delta,
    "tool-input-available": Folder._on_tool_input_available,
    "tool-input-error": Folder._on_tool_input_error,
    "tool-approval-request": Folder._on_approval_request,
    "tool-approval-response": Folder._on_approval_response,
    "tool-output-denied": Folder._on_output_denied,
    "tool-output-available": Folder._on_output_available,
    "tool-output-error": Folder._on_output_error,
}

# The first major whose processUIMessageStream handles the type; older majors ignore the chunk.
_HANDLER_SINCE: Final[dict[str, int]] = {
    "tool-approval-request": 6,
    "tool-output-denied": 6,
    "tool-approval-response": 7,
    "reset-step": 7,
    "reasoning-file": 7,
    "custom": 7,
    "steering-message": 7,
}


def _is_jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "null"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if _is_jsonable(value) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _state_label(part: Any) -> str:
    state = _get(part, "state")
    if state == "output-available" and _get(part, "preliminary") is True:
        return "output-available (preliminary)"
    return _js_string(state)


def fold(
    chunks: Iterable[Mapping[str, Any]],
    profile: Profile = DEFAULT_PROFILE,
    *,
    prior: Mapping[str, Any] | None = None,
) -> FoldResult:
    """Fold `chunks` (schema-valid chunk dicts, in stream order) like the AI SDK client of `profile`.

    `prior` is the message the client already holds (a continuation or resume): the assistant message
    the stream continues. Never raises on bad input; problems come back as findings.
    """
    folder = Folder(profile, prior)
    for index, chunk in enumerate(chunks):
        folder.feed(chunk, index)
    return folder.result()
