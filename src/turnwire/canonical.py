"""Canonical JSON bytes (RFC 8785, JCS): the one definition of "byte-equal" in turnwire.

Why this module exists: a conformance kit compares what a runtime produced with what it
expected, and stores golden files that must not churn. Comparing parsed Python objects is
too loose (``1 == 1.0 == True``) and comparing raw wire bytes is too strict (key order,
whitespace, ``1.0`` vs ``1``). RFC 8785 fixes exactly one byte string per JSON value, the
same one any JCS implementation (JavaScript, Go, Java, ...) produces, so "equal" here means
what it would mean to a JavaScript consumer. Every other module calls :func:`dumps`,
:func:`file_bytes`, :func:`loads` or :func:`equal` and never needs to know how it works.

How: pure-Python JCS is slow (the ``rfc8785`` package takes 7-25x as long as an ``orjson``
parse of the same document), so the common case runs through orjson. A single walk over the tree replaces
floats by their ECMAScript rendering (``orjson.Fragment``; integral floats below 2**53
become ints) and checks dict keys; ``orjson.dumps`` then sorts keys, escapes strings exactly
as JCS does, and rejects unsafe integers (``OPT_STRICT_INTEGER``) and lone surrogates.
orjson sorts keys by code point while JCS sorts by UTF-16 code unit; the two orders only
differ when keys of one object mix U+E000..U+FFFF with astral characters, and such an
object is written out by hand in UTF-16 order. Anything the fast path does not handle
(bad values, subclasses of the JSON types, nesting deeper than orjson allows) falls back to
a small, obviously-correct pure-Python writer that either produces the same bytes or raises
:class:`CanonicalError` naming the JSON path.
"""

from __future__ import annotations

import json
from typing import Any, TypeAlias, cast

import orjson

__all__ = ["CanonicalError", "JSONValue", "dumps", "equal", "file_bytes", "loads"]

JSONValue: TypeAlias = bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"] | None
"""A JSON value as Python objects. Tuples are also accepted as arrays by :func:`dumps`."""

_SAFE_INT = 2**53 - 1  # I-JSON / RFC 8785: beyond this an integer is not exact as a double
_INT_FLOAT_LIMIT = 2.0**53  # integral floats strictly inside this print as plain integers
_OPTS = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER
_Fragment = orjson.Fragment


class CanonicalError(ValueError):
    """A value that RFC 8785 cannot represent, or input that is not valid JSON.

    ``path`` is a JSONPath-like location (``$.parts[2].text``) or ``None`` for parse errors;
    ``reason`` is the message without the path.
    """

    def __init__(self, reason: str, path: str | None = None) -> None:
        self.reason = reason
        self.path = path
        super().__init__(reason if path is None else f"{path}: {reason}")


# --------------------------------------------------------------------------------------
# Numbers: ECMAScript Number::toString (ECMA-262 7.1.12.1), as RFC 8785 3.2.2.3 requires.
# --------------------------------------------------------------------------------------
def _es_number(f: float) -> str:
    """ECMAScript rendering of a finite float.

    Python's ``repr`` already gives the shortest round-tripping digits (the same digits
    ECMAScript picks); only the choice between fixed and exponent notation differs.
    """
    if f == 0:
        return "0"  # also -0.0
    r = repr(f)
    if "e" not in r:  # repr uses fixed notation for 1e-4 <= |f| < 1e16: same as ES
        return r[:-2] if r.endswith(".0") else r
    mant, _, exp_s = r.partition("e")
    exp = int(exp_s)
    sign = ""
    if mant[0] == "-":
        sign, mant = "-", mant[1:]
    digits = mant.replace(".", "")  # mant is "d" or "d.ddd": the significant digits
    if 0 <= exp < 21:  # ES keeps integers below 1e21 in full
        return sign + digits + "0" * (exp + 1 - len(digits))
    if -7 < exp < 0:  # ES writes 1e-6 <= |f| < 1 as 0.000ddd
        return sign + "0." + "0" * (-exp - 1) + digits
    return f"{sign}{mant}e{'+' if exp > 0 else '-'}{abs(exp)}"


# --------------------------------------------------------------------------------------
# Fast path: walk once, then orjson.
# --------------------------------------------------------------------------------------
class _Slow(Exception):
    """The fast path met something it does not handle; use the reference writer."""


def _fast_float(f: float) -> object:
    if f.is_integer() and -_INT_FLOAT_LIMIT < f < _INT_FLOAT_LIMIT:
        return int(f)  # 120.0 -> 120, -0.0 -> 0
    r = repr(f)
    if "e" not in r:
        if "n" in r:  # nan, inf, -inf
            raise _Slow
        return _Fragment(r[:-2] if r.endswith(".0") else r)
    return _Fragment(_es_number(f))


def _utf16_key(k: str) -> bytes:
    return k.encode("utf-16-be")


def _fast_dict(d: dict[Any, Any]) -> object:
    new: dict[Any, Any] | None = None
    ascii_keys = True
    for k, v in d.items():
        if not k.isascii():  # AttributeError for non-str keys -> slow path
            ascii_keys = False
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            continue  # orjson checks ints (strict) and strings (surrogates) itself
        if t is dict:
            nv = _fast_dict(v)
        elif t is list:
            nv = _fast_list(v)
        elif t is float:
            nv = _fast_float(v)
        elif t is tuple:
            nv = _fast_list(list(v))
        else:
            raise _Slow
        if nv is not v:
            if new is None:
                new = d.copy()
            new[k] = nv
    out = d if new is None else new
    if ascii_keys:
        return out
    keys = list(out)
    utf16 = sorted(keys, key=_utf16_key)
    if utf16 == sorted(keys):
        return out
    # Keys mix U+E000..U+FFFF with astral characters: orjson's code-point sort would be
    # wrong, so write this object in UTF-16 order (children are already prepared).
    body = b",".join(orjson.dumps(k) + b":" + orjson.dumps(out[k], option=_OPTS) for k in utf16)
    return _Fragment(b"{" + body + b"}")


def _fast_list(a: list[Any]) -> object:
    new: list[Any] | None = None
    for i, v in enumerate(a):
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            continue
        if t is dict:
            nv = _fast_dict(v)
        elif t is list:
            nv = _fast_list(v)
        elif t is float:
            nv = _fast_float(v)
        elif t is tuple:
            nv = _fast_list(list(v))
        else:
            raise _Slow
        if nv is not v:
            if new is None:
                new = a.copy()
            new[i] = nv
    return a if new is None else new


def _fast_dumps(value: object) -> bytes:
    t = type(value)
    if t is dict:
        value = _fast_dict(cast("dict[Any, Any]", value))
    elif t is list:
        value = _fast_list(cast("list[Any]", value))
    elif t is tuple:
        value = _fast_list(list(cast("tuple[Any, ...]", value)))
    elif t is float:
        value = _fast_float(cast(float, value))
    elif not (t is str or t is int or t is bool or value is None):
        raise _Slow
    return orjson.dumps(value, option=_OPTS)


# --------------------------------------------------------------------------------------
# Reference path: plain recursive JCS writer with precise errors.
# --------------------------------------------------------------------------------------
_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)}
_ESCAPES.update({0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"})
_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\"})


def _key_path(path: str, key: str) -> str:
    if key.isascii() and key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"  # ensure_ascii: keeps messages printable


def _check_str(s: str, path: str, what: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        raise CanonicalError(
            f"{what} contains lone surrogate U+{ord(s[e.start]):04X} (not encodable as UTF-8)", path
        ) from None


def _ref_write(o: object, path: str, out: list[str], active: set[int]) -> None:
    if o is None:
        out.append("null")
    elif isinstance(o, bool):
        out.append("true" if o else "false")
    elif isinstance(o, int):
        n = int(o)
        if not -_SAFE_INT <= n <= _SAFE_INT:
            raise CanonicalError(f"integer {n} is outside the safe range ±(2**53-1)", path)
        out.append(str(n))
    elif isinstance(o, float):
        f = float(o)
        if f != f:
            raise CanonicalError("NaN is not representable in JSON", path)
        if f in (float("inf"), float("-inf")):
            raise CanonicalError(f"{'-' if f < 0 else ''}Infinity is not representable in JSON", path)
        out.append(_es_number(f))
    elif isinstance(o, str):
        _check_str(o, path, "string")
        out.append('"' + o.translate(_ESCAPES) + '"')
    elif isinstance(o, (list, tuple, dict)):
        if id(o) in active:
            raise CanonicalError("circular reference", path)
        active.add(id(o))
        if isinstance(o, dict):
            for k in o:
                if not isinstance(k, str):
                    raise CanonicalError(f"object key {k!r} is not a string ({type(k).__qualname__})", path)
                _check_str(k, _key_path(path, k), "object key")
            out.append("{")
            for i, k in enumerate(sorted(o, key=_utf16_key)):
                if i:
                    out.append(",")
                out.append('"' + k.translate(_ESCAPES) + '":')
                _ref_write(o[k], _key_path(path, k), out, active)
            out.append("}")
        else:
            out.append("[")
            for i, v in enumerate(o):
                if i:
                    out.append(",")
                _ref_write(v, f"{path}[{i}]", out, active)
            out.append("]")
        active.discard(id(o))
    else:
        raise CanonicalError(f"unsupported type {type(o).__qualname__}", path)


def _ref_dumps(value: object) -> bytes:
    out: list[str] = []
    try:
        _ref_write(value, "$", out, set())
    except RecursionError:
        raise CanonicalError("nesting too deep", "$") from None
    return "".join(out).encode("utf-8")


# --------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------
def dumps(value: object) -> bytes:
    """The RFC 8785 canonical bytes of ``value`` (UTF-8, no trailing newline).

    Accepts dict (str keys), list, tuple, str, int, float, bool and None, and subclasses of
    those (as the ``rfc8785`` package does). Raises :class:`CanonicalError` for NaN,
    ±Infinity, integers outside ±(2**53-1), lone surrogates in strings or keys, non-str
    keys, circular references and any other type.
    """
    try:
        return _fast_dumps(value)
    except (_Slow, TypeError, AttributeError, ValueError, RecursionError):
        # orjson.JSONEncodeError is a TypeError; UnicodeError is a ValueError.
        return _ref_dumps(value)


def file_bytes(value: object) -> bytes:
    """``dumps(value)`` plus one ``\\n``: the exact bytes of every JSON file turnwire stores."""
    return dumps(value) + b"\n"


def equal(a: object, b: object) -> bool:
    """True when ``a`` and ``b`` have the same canonical bytes (so ``1 == 1.0`` but ``1 != True``)."""
    return dumps(a) == dumps(b)


def loads(data: bytes | str) -> JSONValue:
    """Parse JSON text (UTF-8 bytes or str) with orjson.

    Raises :class:`CanonicalError` for invalid JSON, including NaN/Infinity literals, a
    byte-order mark, invalid UTF-8 and lone surrogate escapes. Duplicate keys are not
    detected (the last one wins).

    Numbers: an integer literal within ±(2**53-1) is an ``int``; one outside it is returned
    as a ``float`` if it is exactly how RFC 8785 writes that double (``1000000000000000000``
    is what :func:`dumps` emits for ``1e18``, so canonical files read back unchanged) and as
    an exact ``int`` otherwise, which :func:`dumps` then rejects. Limitation: orjson itself
    reads integer literals outside the 64-bit range as floats (``18446744073709551616`` ->
    ``1.8446744073709552e19``).
    """
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise CanonicalError("invalid JSON: " + " ".join(str(e).split())) from None
    try:
        # C-speed scan for unsafe ints (about 0.4x of the parse); the Python walk below only
        # runs when one exists (or when nesting exceeds orjson's writer limit of 254).
        orjson.dumps(value, option=orjson.OPT_STRICT_INTEGER)
    except orjson.JSONEncodeError:
        value = _widen_ints(value)
    return cast(JSONValue, value)


def _widen_ints(value: Any) -> Any:
    """Replace unsafe ints that are spelled exactly like a canonical double by that double.

    Works in place (the tree was just parsed) and without recursion (orjson parses deeper
    trees than Python's recursion limit allows).
    """
    if type(value) is int:
        return _widened(value)
    stack = [value]
    while stack:
        node = stack.pop()
        items = node.items() if type(node) is dict else enumerate(node)
        for k, v in items:
            t = type(v)
            if t is int:
                if not -_SAFE_INT <= v <= _SAFE_INT:
                    node[k] = _widened(v)
            elif t is dict or t is list:
                stack.append(v)
    return value


def _widened(n: int) -> int | float:
    if -_SAFE_INT <= n <= _SAFE_INT:
        return n
    f = float(n)
    return f if _es_number(f) == str(n) else n
