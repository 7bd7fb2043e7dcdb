"""Tests for turnwire.canonical: RFC 8785 examples, the rfc8785 package as an oracle, rejections."""

from __future__ import annotations

import datetime
import enum
import math
import struct
from collections import OrderedDict
from typing import Any

import orjson
import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from turnwire import canonical
from turnwire.canonical import CanonicalError, dumps, equal, file_bytes, loads

SAFE = 2**53 - 1

# --------------------------------------------------------------------------------------
# RFC 8785's own examples
# --------------------------------------------------------------------------------------

# RFC 8785 section 3.2.2 (input) and 3.2.4 (output).
RFC_SAMPLE_INPUT = r"""{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}"""
RFC_SAMPLE_OUTPUT = (
    r"""{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"""
    r""""string":"€$\u000f\nA'B\"\\\\\"/"}"""
).encode()


def test_rfc_sample_object_from_json_text() -> None:
    assert dumps(loads(RFC_SAMPLE_INPUT)) == RFC_SAMPLE_OUTPUT


def test_rfc_sample_object_from_python_values() -> None:
    value = {
        "numbers": [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": '\u20ac$\x0f\nA\'B"\\\\"/',
        "literals": [None, True, False],
    }
    assert dumps(value) == RFC_SAMPLE_OUTPUT


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (333333333.33333329, b"333333333.3333333"),
        (1e30, b"1e+30"),
        (4.50, b"4.5"),
        (2e-3, b"0.002"),
        (0.000000000000000000000000001, b"1e-27"),
        # ECMAScript Number::toString corner cases named in the design brief
        (-0.0, b"0"),
        (0.0, b"0"),
        (1.0, b"1"),
        (120.0, b"120"),
        (1e20, b"100000000000000000000"),
        (1e21, b"1e+21"),
        (1e-6, b"0.000001"),
        (1e-7, b"1e-7"),
        (-1e-7, b"-1e-7"),
        (1e16, b"10000000000000000"),
        (2.0**60, b"1152921504606847000"),
        (0.1 + 0.2, b"0.30000000000000004"),
        (1.5e300, b"1.5e+300"),
        (123e-20, b"1.23e-18"),
        (1e-5, b"0.00001"),
        (1.5e-5, b"0.000015"),
        (-2.5e-6, b"-0.0000025"),
    ],
)
def test_number_formatting(value: float, expected: bytes) -> None:
    assert dumps(value) == expected
    assert dumps([value]) == b"[" + expected + b"]"
    assert dumps(value) == rfc8785.dumps(value)


# RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text.
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


def _double(hex_bits: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(hex_bits))[0]
    return value


@pytest.mark.parametrize(("hex_bits", "expected"), APPENDIX_B)
def test_rfc_appendix_b_numbers(hex_bits: str, expected: str) -> None:
    value = _double(hex_bits)
    assert dumps(value) == expected.encode()
    assert dumps({"n": value}) == b'{"n":' + expected.encode() + b"}"


@pytest.mark.parametrize(("hex_bits", "name"), [("7fffffffffffffff", "NaN"), ("7ff0000000000000", "Infinity")])
def test_rfc_appendix_b_non_finite_is_an_error(hex_bits: str, name: str) -> None:
    with pytest.raises(CanonicalError, match=name):
        dumps(_double(hex_bits))


# RFC 8785 section 3.2.3: property sorting by UTF-16 code units.
RFC_SORT_EXPECTED = (
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control",'
    '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",'
    '"\U0001f600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}'
).encode()


def test_rfc_sort_example_python_dict() -> None:
    value = {
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\U0001f600": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis",
    }
    assert dumps(value) == RFC_SORT_EXPECTED


def test_rfc_sort_example_json_text_with_surrogate_pair_escape() -> None:
    text = r"""{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }"""
    assert dumps(loads(text)) == RFC_SORT_EXPECTED


def test_utf16_order_differs_from_code_point_order() -> None:
    value = {"\ue000": 1, "\U0001f600": 2, "a": 3}
    assert dumps(value) == '{"a":3,"\U0001f600":2,"\ue000":1}'.encode()
    # orjson alone gets this wrong, which is why canonical.py special-cases it
    assert orjson.dumps(value, option=orjson.OPT_SORT_KEYS) != dumps(value)


def test_utf16_ordered_object_still_canonicalizes_its_children() -> None:
    inner: Any = {"\ue000": {"b": 1.0, "a": [2.5, -0.0, {"z": 1, "y": 1e-7}]}, "\U0001f600": 1e21}
    value: Any = {"outer": [inner], "a": 120.0}
    expected = '{"a":120,"outer":[{"\U0001f600":1e+21,"\ue000":{"a":[2.5,0,{"y":1e-7,"z":1}],"b":1}}]}'
    assert dumps(value) == expected.encode()
    assert dumps(value) == rfc8785.dumps(value)


# --------------------------------------------------------------------------------------
# String escaping (orjson's escaping must be exactly JCS's)
# --------------------------------------------------------------------------------------
_SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _jcs_string(s: str) -> bytes:
    """RFC 8785 3.2.2.2, written out independently of canonical.py."""
    out = []
    for ch in s:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return ('"' + "".join(out) + '"').encode("utf-8")


def test_every_ascii_and_special_character_escapes_like_jcs() -> None:
    chars = [chr(i) for i in range(0x80)] + ["\u2028", "\u2029", "\ufeff", "\ufffe", "\U0001f600", "\u00e9"]
    for ch in chars:
        assert dumps(ch) == _jcs_string(ch), repr(ch)
        assert orjson.dumps(ch) == _jcs_string(ch), repr(ch)
    assert dumps("\x00\x1f\x7f") == b'"\\u0000\\u001f\x7f"'
    assert dumps("/") == b'"/"'


@given(st.text())
def test_orjson_string_escaping_equals_jcs(s: str) -> None:
    assert orjson.dumps(s) == _jcs_string(s)
    assert dumps(s) == _jcs_string(s)
    assert dumps({s: s}) == b"{" + _jcs_string(s) + b":" + _jcs_string(s) + b"}"


# --------------------------------------------------------------------------------------
# Property tests against the rfc8785 package
# --------------------------------------------------------------------------------------
_astral_or_private = st.characters(min_codepoint=0xE000, max_codepoint=0xFFFF) | st.characters(
    min_codepoint=0x10000, max_codepoint=0x10FFFF
)
_text = st.text() | st.text(alphabet=st.characters(max_codepoint=0x1F) | _astral_or_private, max_size=6)
_keys = _text | st.text(alphabet=_astral_or_private, min_size=1, max_size=3)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-SAFE, max_value=SAFE)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text
)
json_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(_keys, children, max_size=6),
    max_leaves=40,
)


@settings(max_examples=400)
@given(json_values)
def test_dumps_matches_rfc8785(value: Any) -> None:
    assert dumps(value) == rfc8785.dumps(value)


@settings(max_examples=400)
@given(json_values)
def test_dumps_loads_round_trip(value: Any) -> None:
    once = dumps(value)
    assert dumps(loads(once)) == once
    assert dumps(loads(once.decode("utf-8"))) == once
    assert equal(loads(once), value)


@given(json_values)
def test_fast_path_agrees_with_reference_path(value: Any) -> None:
    # _fast_dumps raises instead of falling back, so this also proves valid data takes the fast path
    assert canonical._fast_dumps(value) == canonical._ref_dumps(value)


@given(json_values)
def test_canonical_bytes_never_contain_a_raw_newline(value: Any) -> None:
    assert b"\n" not in dumps(value)
    assert file_bytes(value).count(b"\n") == 1


@settings(max_examples=3000)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_fuzz_matches_rfc8785(f: float) -> None:
    expected = rfc8785.dumps(f)
    assert dumps(f) == expected
    assert dumps({"f": [f]}) == b'{"f":[' + expected + b"]}"
    assert loads(expected) == f


@settings(max_examples=3000)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_float_bit_pattern_fuzz_matches_rfc8785(bits: int) -> None:
    f = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
    if math.isfinite(f):
        assert dumps(f) == rfc8785.dumps(f)
        assert loads(dumps(f)) == f  # canonical text reads back to the same double
    else:
        with pytest.raises(CanonicalError):
            dumps(f)


@given(st.integers(min_value=-SAFE, max_value=SAFE))
def test_safe_integers_match_rfc8785(n: int) -> None:
    assert dumps(n) == rfc8785.dumps(n) == str(n).encode()


@given(
    st.integers(min_value=SAFE + 1) | st.integers(max_value=-SAFE - 1) | st.integers(-(2**70), 2**70),
)
def test_unsafe_integers_are_rejected(n: int) -> None:
    if abs(n) <= SAFE:
        n += (SAFE + 1) if n >= 0 else -(SAFE + 1)
    with pytest.raises(CanonicalError, match=r"^\$\.x\[0\]: integer .* outside the safe range"):
        dumps({"x": [n]})
    with pytest.raises(rfc8785.IntegerDomainError):
        rfc8785.dumps(n)


# --------------------------------------------------------------------------------------
# Rejections: each names the JSON path and the reason
# --------------------------------------------------------------------------------------
class _Cyclic:
    pass


def _cycle() -> dict[str, Any]:
    d: dict[str, Any] = {"a": []}
    d["a"].append(d)
    return d


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, "$: NaN is not representable"),
        ({"a": [0, 1, math.nan]}, "$.a[2]: NaN is not representable"),
        ({"a": [0, 1, math.inf]}, "$.a[2]: Infinity is not representable"),
        ({"a": [0, 1, -math.inf]}, "$.a[2]: -Infinity is not representable"),
        ({"n": 2**53}, "$.n: integer 9007199254740992 is outside the safe range"),
        ({"n": -(2**53)}, "$.n: integer -9007199254740992 is outside the safe range"),
        ({"n": 2**64}, "$.n: integer 18446744073709551616 is outside the safe range"),
        ({"a": ["ok", "x\ud800y"]}, "$.a[1]: string contains lone surrogate U+D800"),
        ({"a": {"k\udc00": 1}}, '$.a["k\\udc00"]: object key contains lone surrogate U+DC00'),
        ({"a": "\ud83d\ude00"}, "$.a: string contains lone surrogate U+D83D"),  # two code units, not one char
        ({"a": {1: "x"}}, "$.a: object key 1 is not a string (int)"),
        ({"a": {("t",): "x"}}, "$.a: object key ('t',) is not a string (tuple)"),
        ([object()], "$[0]: unsupported type object"),
        ({"when": datetime.date(2026, 1, 1)}, "$.when: unsupported type date"),
        ({"s": {1, 2}}, "$.s: unsupported type set"),
        ({"b": b"bytes"}, "$.b: unsupported type bytes"),
        ({"a b": [0.5, math.nan]}, '$["a b"][1]: NaN'),
        (_cycle(), "$.a[0]: circular reference"),
    ],
)
def test_rejections_name_path_and_reason(value: Any, message: str) -> None:
    with pytest.raises(CanonicalError) as info:
        dumps(value)
    assert str(info.value).startswith(message)
    assert info.value.path == message.split(":")[0]
    assert "\n" not in str(info.value)
    with pytest.raises(CanonicalError):
        equal(value, value)
    with pytest.raises(CanonicalError):
        file_bytes(value)


def test_canonical_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="NaN"):
        dumps(math.nan)


# --------------------------------------------------------------------------------------
# Accepted Python shapes
# --------------------------------------------------------------------------------------
class Color(enum.IntEnum):
    RED = 1


class Mode(enum.StrEnum):
    FAST = "fast"


def test_tuples_are_arrays_and_bool_is_not_int() -> None:
    assert dumps((1, (2.0, "x"))) == b'[1,[2,"x"]]'
    assert dumps({"t": (True, False, None)}) == b'{"t":[true,false,null]}'
    assert dumps([True, 1, 1.0]) == b"[true,1,1]"
    assert not equal(True, 1)
    assert equal(1, 1.0)
    assert equal({"b": 1, "a": [0.5]}, {"a": (0.5,), "b": 1.0})


def test_subclasses_of_json_types_match_rfc8785() -> None:
    value: Any = OrderedDict([("z", Color.RED), ("a", Mode.FAST), ("m", [Mode.FAST])])
    assert dumps(value) == rfc8785.dumps(value) == b'{"a":"fast","m":["fast"],"z":1}'


def test_nesting_deeper_than_orjson_allows() -> None:
    value: Any = 0.5
    for i in range(400):
        value = [value] if i % 2 else {"k": value}
    assert dumps(value) == rfc8785.dumps(value)
    assert dumps(value).count(b"0.5") == 1


def test_scalars_at_top_level() -> None:
    assert [dumps(v) for v in (None, True, False, 0, -SAFE, "é")] == [
        b"null",
        b"true",
        b"false",
        b"0",
        b"-9007199254740991",
        '"é"'.encode(),
    ]


def test_dumps_does_not_mutate_its_input() -> None:
    value = {"a": [1.0, {"b": 2.5}], "\ue000": 1, "\U0001f600": (0.0,)}
    before = repr(value)
    dumps(value)
    assert repr(value) == before


# --------------------------------------------------------------------------------------
# file_bytes
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [{"a": 1}, [], "text\n", None, {"x": ["\n", 1.5]}])
def test_file_bytes_ends_with_exactly_one_newline(value: Any) -> None:
    data = file_bytes(value)
    assert data.endswith(b"\n")
    assert not data.endswith(b"\n\n")
    assert data[:-1] == dumps(value)


# --------------------------------------------------------------------------------------
# loads
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data",
    [
        b'{"a" 1}',
        b"[1,]",
        b"",
        b"NaN",
        b"[Infinity]",
        b"\xef\xbb\xbf{}",  # byte-order mark
        b'"\\ud800"',  # lone surrogate escape
        b'"\xff"',  # invalid UTF-8
        b'{"a": 1}\n\n{"b": 2}',
        "'single'",
    ],
)
def test_loads_rejects_invalid_json_with_one_line_message(data: bytes | str) -> None:
    with pytest.raises(CanonicalError, match=r"^invalid JSON: ") as info:
        loads(data)
    assert "\n" not in str(info.value)
    assert info.value.path is None


def test_loads_numbers() -> None:
    assert loads(b"[1, 1.0, -0, 9007199254740991]") == [1, 1.0, 0, 9007199254740991]
    assert type(loads(b"9007199254740991")) is int
    assert type(loads(b"1.0")) is float


def test_loads_unsafe_integer_comes_back_exact_and_dumps_rejects_it() -> None:
    for text in (b"9007199254740993", b"-9007199254740993", b"9223372036854775808", b"12345678901234567"):
        value = loads(text)
        assert value == int(text)
        assert type(value) is int
        with pytest.raises(CanonicalError, match="outside the safe range"):
            dumps(value)


def test_loads_large_integer_in_canonical_double_form_round_trips() -> None:
    # dumps(1e18) is b"1000000000000000000"; reading a canonical file back must not break it
    for f in (1e18, 2.0**53, -(2.0**60), 1e20, 9.999999999999997e20):
        text = dumps(f)
        assert b"." not in text
        assert b"e" not in text
        assert loads(text) == f
        assert dumps(loads(text)) == text
    assert loads(b'{"a":[1000000000000000000]}') == {"a": [1e18]}


def test_loads_beyond_64_bit_follows_orjson_as_a_double() -> None:
    # documented limitation: orjson reads these as floats, so they are not rejected
    assert loads(b"18446744073709551616") == 2.0**64
    assert dumps(loads(b"18446744073709551616")) == b"18446744073709552000"


def test_loads_accepts_str_and_deep_nesting() -> None:
    assert loads('{"é": ["\\u00e9"]}') == {"é": ["é"]}
    deep = "[" * 500 + "]" * 500
    assert dumps(loads(deep)) == deep.encode()
