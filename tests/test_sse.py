"""Tests for turnwire.sse: the incremental SSE decoder, the JSON layer, the encoder and header checks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from turnwire import sse
from turnwire.findings import Finding, Level
from turnwire.requirements import requirement
from turnwire.sse import (
    UI_MESSAGE_STREAM_HEADERS,
    ChunkEvent,
    Decoded,
    SSEDecoder,
    SSEEvent,
    check_headers,
    decode,
    encode_done,
    encode_event,
    encode_stream,
    parse_json_events,
)


def ids(findings: list[Finding]) -> list[str]:
    return [f.requirement for f in findings]


def feed_pieces(pieces: list[bytes], **caps: int) -> Decoded:
    """Decode by feeding `pieces` one by one, as a network would deliver them."""
    dec = SSEDecoder(**caps)
    events: list[SSEEvent] = []
    for piece in pieces:
        events += dec.feed(piece)
    events += dec.close()
    return Decoded(events=events, findings=dec.findings, dropped=dec.dropped, size=dec.bytes_received)


def bytewise(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


# ------------------------------------------------------------------------------------------------
# line endings
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings(eol: bytes) -> None:
    raw = eol.join([b"data: one", b"", b"data: two", b"data: three", b"", b""])
    d = decode(raw)
    assert [e.data for e in d.events] == ["one", "two\nthree"]
    assert [e.index for e in d.events] == [0, 1]
    assert d.events[1].byte_offset == len(b"data: one") + 2 * len(eol)
    assert d.findings == []
    assert d.dropped is None
    assert d.size == len(raw)


def test_mixed_line_endings() -> None:
    raw = b"data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r: x\ndata: e\n\n"
    d = decode(raw)
    assert [e.data for e in d.events] == ["a\nb\nc", "d", "e"]
    assert [e.byte_offset for e in d.events] == [0, raw.index(b"data: d"), raw.index(b"data: e")]
    assert d.findings == []


def test_cr_then_lf_in_next_feed_is_one_line_ending() -> None:
    dec = SSEDecoder()
    assert dec.feed(b"data: a\r") == []
    # this LF completes the CRLF above: it is not a blank line, so nothing is dispatched yet
    assert dec.feed(b"\n") == []
    assert dec.feed(b"data: b\r") == []
    assert dec.feed(b"\n\r") == [SSEEvent(data="a\nb", byte_offset=0, index=0)]
    assert dec.feed(b"\ndata: c\r\n\r\n") == [SSEEvent(data="c", byte_offset=20, index=1)]
    assert dec.close() == []
    assert dec.findings == []
    assert dec.dropped is None


def test_cr_dispatches_without_waiting_for_next_byte() -> None:
    dec = SSEDecoder()
    assert dec.feed(b"data: a\r\r") == [SSEEvent(data="a", byte_offset=0, index=0)]
    # a following CR (not LF) is a new line ending: a blank line, with nothing to dispatch
    assert dec.feed(b"\rdata: b\n\n") == [SSEEvent(data="b", byte_offset=10, index=1)]


def test_lf_after_cr_only_skipped_once() -> None:
    # "\r" | "\n" | "\n": the first LF belongs to the CR, the second is a blank line
    d = feed_pieces([b"data: a\r", b"\n", b"\n"])
    assert [e.data for e in d.events] == ["a"]


# ------------------------------------------------------------------------------------------------
# BOM, comments, field syntax
# ------------------------------------------------------------------------------------------------


def test_bom_stripped_once_and_offsets_count_it() -> None:
    raw = b"\xef\xbb\xbfdata: x\n\n"
    for pieces in ([raw], bytewise(raw), [raw[:1], raw[1:2], raw[2:]], [raw[:2], raw[2:]]):
        d = feed_pieces(pieces)
        assert d.events == [SSEEvent(data="x", byte_offset=3, index=0)]
        assert d.findings == []


def test_second_bom_is_content() -> None:
    # only a BOM at the very start of the stream is stripped; later it is part of the field name
    d = decode(b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n")
    assert d.events == []
    assert ids(d.findings) == ["SSE-UNKNOWN-FIELD"]
    assert d.findings[0].received == "\ufeffdata"
    assert d.findings[0].byte_offset == 3


def test_bom_prefix_cut_short_at_end_of_stream() -> None:
    d = decode(b"\xef\xbb")
    assert d.events == []
    # the two bytes are an (invalid) field name "\ufffd" of an unterminated event
    assert ids(d.findings) == ["SSE-UTF8", "SSE-UNKNOWN-FIELD", "SSE-UNTERMINATED-EVENT"]
    assert d.findings[0].byte_offset == 0
    assert d.dropped is None


def test_comments_ignored() -> None:
    raw = b": stream-open\n\n: keep-alive\n\ndata: x\n: inside\ndata: y\n\n:\n\n"
    d = decode(raw)
    assert d.events == [SSEEvent(data="x\ny", byte_offset=raw.index(b"data: x"), index=0)]
    assert d.findings == []


def test_trailing_comment_without_newline_is_not_an_unterminated_event() -> None:
    d = decode(b"data: x\n\n: keep-alive")
    assert [e.data for e in d.events] == ["x"]
    assert d.findings == []
    assert d.dropped is None


def test_field_without_colon() -> None:
    assert decode(b"data\n\n").events == [SSEEvent(data="", byte_offset=0, index=0)]
    assert decode(b"data\ndata\n\n").events[0].data == "\n"
    # "id" alone sets the last event id to the empty string
    assert decode(b"id: 5\n\nid\ndata: x\n\n").events[0].id == ""


def test_space_after_colon() -> None:
    d = decode(b"data:no-space\n\ndata: one\n\ndata:  two\n\ndata:\n\n")
    assert [e.data for e in d.events] == ["no-space", "one", " two", ""]
    # field value may contain further colons
    assert decode(b"data: a:b: c\n\n").events[0].data == "a:b: c"


def test_multiline_data() -> None:
    d = decode(b"data: a\ndata:\ndata: b\ndata: \n\n")
    assert d.events[0].data == "a\n\nb\n"


# ------------------------------------------------------------------------------------------------
# id / event / retry
# ------------------------------------------------------------------------------------------------


def test_id_persists_across_events() -> None:
    raw = b"data: a\n\nid: 1\ndata: b\n\ndata: c\n\nid: 2\n\ndata: d\n\ndata: e\nid: 3\n\n"
    d = decode(raw)
    assert [(e.data, e.id) for e in d.events] == [("a", None), ("b", "1"), ("c", "1"), ("d", "2"), ("e", "3")]


def test_id_with_nul_ignored() -> None:
    d = decode(b"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n")
    assert [e.id for e in d.events] == ["1", "1"]


def test_event_name_per_event() -> None:
    d = decode(b"event: message\ndata: a\n\ndata: b\n\nevent:\ndata: c\n\n")
    assert [e.event for e in d.events] == ["message", None, ""]
    assert d.findings == []


def test_event_fields_and_data_in_different_feeds() -> None:
    d = feed_pieces([b"event: delta\nretry: 10\n", b"data: x\n", b"\n"])
    assert d.events == [SSEEvent(data="x", event="delta", retry=10, byte_offset=0, index=0)]


def test_retry() -> None:
    raw = b"retry: 1500\ndata: a\n\ndata: b\n\nretry: 15x\ndata: c\n\nretry:\ndata: d\n\n"
    raw += b"retry: \xd9\xa3\ndata: e\n\n"
    d = decode(raw)
    # retry belongs to the block that sets it; non-digits (including non-ASCII digits) are ignored
    assert [e.retry for e in d.events] == [1500, None, None, None, None]
    huge = decode(b"retry: " + b"9" * 5000 + b"\ndata: x\n\n")
    assert huge.events[0].retry is None
    assert huge.findings == []


def test_empty_data_no_dispatch_but_id_updates() -> None:
    d = decode(b"event: foo\n\nid: 9\n\nretry: 5\n\ndata: x\n\n")
    assert d.events == [SSEEvent(data="x", id="9", byte_offset=d.events[0].byte_offset, index=0)]
    assert d.events[0].byte_offset == len(b"event: foo\n\nid: 9\n\nretry: 5\n\n")
    assert ids(d.findings) == ["SSE-EVENT-NAME"]


# ------------------------------------------------------------------------------------------------
# findings
# ------------------------------------------------------------------------------------------------


def test_unterminated_last_event() -> None:
    raw = b'data: {"type":"start"}\n\nid: 4\ndata: {"type":"finish"}\n'
    d = decode(raw)
    assert [e.data for e in d.events] == ['{"type":"start"}']
    assert ids(d.findings) == ["SSE-UNTERMINATED-EVENT"]
    f = d.findings[0]
    assert f.level is Level.MUST
    assert f.byte_offset == raw.index(b"id: 4")
    assert d.dropped == SSEEvent(data='{"type":"finish"}', id="4", byte_offset=f.byte_offset, index=1)


def test_unterminated_partial_line() -> None:
    raw = b"data: a\n\ndata: b\ndata: partial"
    for pieces in ([raw], bytewise(raw)):
        d = feed_pieces(pieces)
        assert [e.data for e in d.events] == ["a"]
        assert ids(d.findings) == ["SSE-UNTERMINATED-EVENT"]
        assert d.findings[0].byte_offset == 9
        assert d.dropped is not None
        assert d.dropped.data == "b\npartial"


def test_unterminated_without_data_has_no_dropped_event() -> None:
    d = decode(b"data: a\n\nid: 7\n")
    assert ids(d.findings) == ["SSE-UNTERMINATED-EVENT"]
    assert d.findings[0].byte_offset == 9
    assert d.dropped is None


def test_invalid_utf8_exact_offset() -> None:
    raw = b"data: ok\n\ndata: ab\xffcd\n\n"
    d = decode(raw)
    assert [e.data for e in d.events] == ["ok", "ab\ufffdcd"]
    assert ids(d.findings) == ["SSE-UTF8"]
    assert d.findings[0].byte_offset == raw.index(b"\xff")
    assert d.findings[0].received == "bytes ff"


@pytest.mark.parametrize(
    ("raw", "bad_at"),
    [
        (b"data: \xe2\x82\n\n", 6),  # truncated 3-byte sequence before the line ending
        (b"data: x\xc3\n\n", 7),  # truncated 2-byte sequence
        (b"id: \xc0\xaf\ndata: x\n\n", 4),  # overlong encoding in an id
        (b"\xf0\x9f\x98: bad name\n\n", 0),  # truncated 4-byte sequence in a field name
        (b": comment \xfe\ndata: x\n\n", 10),  # comments count too: the whole body must be UTF-8
        (b"data: \xed\xa0\x80\n\n", 6),  # UTF-8-encoded surrogate
    ],
)
def test_invalid_utf8_positions(raw: bytes, bad_at: int) -> None:
    for pieces in ([raw], bytewise(raw)):
        d = feed_pieces(pieces)
        utf8 = [f for f in d.findings if f.requirement == "SSE-UTF8"]
        assert len(utf8) == 1
        assert utf8[0].byte_offset == bad_at


def test_valid_utf8_split_anywhere() -> None:
    raw = "data: é€😀\n\n".encode()
    for i in range(len(raw) + 1):
        d = feed_pieces([raw[:i], raw[i:]])
        assert d.events == [SSEEvent(data="é€😀", byte_offset=0, index=0)]
        assert d.findings == []


def test_unknown_field_once_per_name() -> None:
    raw = b"foo: 1\ndata: a\n\nfoo: 2\nbar\ndata: b\n\n"
    d = decode(raw)
    assert [e.data for e in d.events] == ["a", "b"]
    assert ids(d.findings) == ["SSE-UNKNOWN-FIELD", "SSE-UNKNOWN-FIELD"]
    assert [(f.received, f.byte_offset) for f in d.findings] == [("foo", 0), ("bar", raw.index(b"bar"))]
    assert all(f.level is Level.SHOULD for f in d.findings)
    # field names are case-sensitive
    assert ids(decode(b"Data: x\n\n").findings) == ["SSE-UNKNOWN-FIELD"]


def test_event_name_finding_still_dispatches() -> None:
    raw = b"data: a\n\nevent: delta\ndata: b\n\nevent: delta\ndata: c\n\n"
    d = decode(raw)
    assert [(e.data, e.event) for e in d.events] == [("a", None), ("b", "delta"), ("c", "delta")]
    assert ids(d.findings) == ["SSE-EVENT-NAME"]
    assert d.findings[0].byte_offset == raw.index(b"event: delta")
    assert d.findings[0].received == "delta"


def test_large_body_crossing_internal_windows() -> None:
    # feed() works through big buffers in windows; events cross the window boundaries
    chunks = [{"type": "text-delta", "id": "t", "delta": f"{i} é😀 " * (i % 40)} for i in range(3000)]
    body = encode_stream(chunks)
    assert len(body) > 4 * 64 * 1024
    whole = decode(body)
    assert whole == decode(body, chunk_sizes=1000)
    values, findings = parse_json_events(whole.events, end_offset=whole.size)
    assert (whole.findings, findings) == ([], [])
    assert [c.value for c in values] == chunks
    assert whole.events[-1].byte_offset == len(body) - len(b"data: [DONE]\n\n")


def test_feed_accepts_bytes_like_and_tracks_last_id() -> None:
    dec = SSEDecoder()
    assert dec.feed(bytearray(b"id: a\ndata: x\n")) == []
    assert dec.feed(memoryview(b"\n")) == [SSEEvent(data="x", id="a", byte_offset=0, index=0)]  # type: ignore[arg-type]
    assert dec.last_event_id == "a"
    assert dec.bytes_received == 15


def test_feed_after_close_is_a_caller_error() -> None:
    dec = SSEDecoder()
    dec.close()
    with pytest.raises(ValueError, match="after close"):
        dec.feed(b"data: x\n\n")
    assert dec.close() == []


def test_decode_chunk_sizes() -> None:
    raw = b"data: hello\n\ndata: world\r\n\r\n"
    whole = decode(raw)
    for sizes in (1, 3, 4096, [0, 1, 0, 5], [len(raw)]):
        assert decode(raw, chunk_sizes=sizes) == whole
    with pytest.raises(ValueError, match="positive"):
        decode(raw, chunk_sizes=0)


# ------------------------------------------------------------------------------------------------
# size caps
# ------------------------------------------------------------------------------------------------


def test_size_caps() -> None:
    assert requirement("SSE-SIZE").id == "SSE-SIZE"
    caps = {"max_line_bytes": 16, "max_event_bytes": 24}
    long_line = b"data: " + b"x" * 20 + b"\n\n"  # one 26-byte line
    raw = b"data: ok\n\n" + long_line + b": " + b"c" * 30 + b"\ndata: a\n\n"
    raw += b"data: 0123456789\ndata: 0123456789\n\ndata: end\n\n"  # two 16-byte lines: event > 24
    for pieces in ([raw], bytewise(raw), [raw[:13], raw[13:40], raw[40:]]):
        d = feed_pieces(pieces, **caps)
        assert [e.data for e in d.events] == ["ok", "a", "end"]
        assert [e.index for e in d.events] == [0, 1, 2]
        assert ids(d.findings) == ["SSE-SIZE"] * 3
        assert [f.byte_offset for f in d.findings] == [
            10,  # the long data line (and its event)
            10 + len(long_line),  # the long comment (only the comment is dropped)
            raw.index(b"data: 0123456789"),  # the event over the event cap
        ]
    # an oversized line at the end of the stream, never terminated
    d = feed_pieces(bytewise(b"data: ok\n\ndata: " + b"y" * 40), **caps)
    assert [e.data for e in d.events] == ["ok"]
    assert ids(d.findings) == ["SSE-SIZE", "SSE-UNTERMINATED-EVENT"]
    assert d.dropped is None
    # an oversized line ended by a CR split from its LF
    d = feed_pieces([b"data: " + b"z" * 30, b"\r", b"\n\ndata: b\n\n"], **caps)
    assert [e.data for e in d.events] == ["b"]


# ------------------------------------------------------------------------------------------------
# split invariance (properties)
# ------------------------------------------------------------------------------------------------

_text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\0"), max_size=12)
_astral = st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF, exclude_categories=["Cs"])
_line = st.one_of(_text, st.builds(lambda a, b, c: a + b + c, _text, _astral, _text))
_event_spec = st.fixed_dictionaries(
    {"data": st.lists(_line, min_size=1, max_size=4).map("\n".join)},
    optional={"id": _text, "event": _text, "retry": st.integers(0, 10**9), "comment": _text},
)
_EOLS = ("\n", "\r\n", "\r")


@st.composite
def _encoded(draw: st.DrawFn) -> tuple[bytes, list[SSEEvent]]:
    """Encode random events with a random line-ending style; return the bytes and expected events."""
    specs = draw(st.lists(_event_spec, max_size=8))
    style = draw(st.sampled_from(["\n", "\r\n", "\r", "mixed"]))
    bom = draw(st.booleans())
    out = bytearray(sse.BOM if bom else b"")
    expected: list[SSEEvent] = []
    last_id: str | None = None
    prev_eol = ""
    for index, spec in enumerate(specs):
        # id / event / retry lines in any order around the data lines (whose order is kept)
        fields = [f"{name}: {spec[name]}" for name in ("id", "event", "retry") if name in spec]
        data_lines = ["data: " + part for part in spec["data"].split("\n")]
        cut = draw(st.integers(0, len(fields)))
        lines = [*fields[:cut], *data_lines, *fields[cut:]]
        if "comment" in spec:
            lines.insert(draw(st.integers(0, len(lines))), ": " + spec["comment"])
        lines.append("")
        start = None
        for line in lines:
            if start is None and not line.startswith(":"):
                start = len(out)
            if style != "mixed":
                eol = style
            else:
                # a bare LF right after a CR would merge into one CRLF: avoid it for the blank line
                choices = _EOLS[1:] if prev_eol == "\r" and line == "" else _EOLS
                eol = draw(st.sampled_from(choices))
            out += (line + eol).encode()
            prev_eol = eol
        if "id" in spec:
            last_id = spec["id"]
        assert start is not None
        expected.append(
            SSEEvent(
                data=spec["data"],
                event=spec.get("event"),
                id=last_id,
                retry=spec.get("retry"),
                byte_offset=start,
                index=index,
            )
        )
    return bytes(out), expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_encoded(), st.data())
def test_split_anywhere_gives_identical_events(encoded: tuple[bytes, list[SSEEvent]], data: st.DataObject) -> None:
    raw, expected = encoded
    whole = decode(raw)
    assert whole.events == expected
    names = {e.event for e in expected} - {None, "", "message"}
    assert ids(whole.findings) == ["SSE-EVENT-NAME"] * len(names)
    assert whole.dropped is None
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=12)))
    pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    assert feed_pieces(pieces) == whole
    if len(raw) <= 120:
        assert feed_pieces(bytewise(raw)) == whole
        for i in range(len(raw) + 1):
            assert feed_pieces([raw[:i], raw[i:]]) == whole


# bytes rich in what matters to the parser: line endings, colons, spaces, field names, bad UTF-8
_atoms = st.sampled_from(
    [b"\n", b"\r", b"\r\n", b":", b" ", b"data", b"id", b"event", b"retry", b"x", b"7", b"\x00",
     b"\xef\xbb\xbf", b"\xc3", b"\xa9", b"\xff", b"\xf0\x9f\x98\x80", b"[DONE]", b"{}"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_atoms, max_size=40).map(b"".join), st.data())
def test_arbitrary_bytes_never_raise_and_split_invariant(raw: bytes, data: st.DataObject) -> None:
    whole = decode(raw)
    assert whole.size == len(raw)
    assert all(f.byte_offset is not None and 0 <= f.byte_offset <= len(raw) for f in whole.findings)
    assert all(0 <= e.byte_offset < len(raw) for e in whole.events)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    assert feed_pieces(pieces) == whole
    assert feed_pieces(bytewise(raw)) == whole
    chunks, findings = parse_json_events(whole.events, end_offset=whole.size)
    assert len(chunks) <= len(whole.events)
    assert all(f.requirement.startswith("SSE-") for f in findings)


@settings(max_examples=300, deadline=None)
@given(st.lists(_atoms, max_size=40).map(b"".join), st.data(), st.integers(1, 12), st.integers(1, 20))
def test_size_caps_split_invariant(raw: bytes, data: st.DataObject, max_line: int, max_event: int) -> None:
    requirement("SSE-SIZE")  # fails fast (KeyError) while the id is not registered
    caps = {"max_line_bytes": max_line, "max_event_bytes": max_event}
    whole = decode(raw, **caps)
    assert all(len(e.data) <= max_event for e in whole.events)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    assert feed_pieces(pieces, **caps) == whole
    assert feed_pieces(bytewise(raw), **caps) == whole


# ------------------------------------------------------------------------------------------------
# JSON layer
# ------------------------------------------------------------------------------------------------


def test_json_events_and_done() -> None:
    raw = b'data: {"type":"start"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n'
    d = decode(raw)
    chunks, findings = parse_json_events(d.events, end_offset=d.size)
    assert findings == []
    assert [c.value for c in chunks] == [{"type": "start"}, {"type": "finish"}]
    assert [c.index for c in chunks] == [0, 1]
    assert chunks[1] == ChunkEvent(index=1, value={"type": "finish"}, event=d.events[1])


def test_done_must_be_exact() -> None:
    d = decode(b"data: [DONE] \n\ndata:  [DONE]\n\n")
    chunks, findings = parse_json_events(d.events, end_offset=d.size)
    assert chunks == []
    assert ids(findings) == ["SSE-DATA-JSON", "SSE-DATA-JSON", "SSE-DONE"]


def test_event_after_done() -> None:
    raw = b"data: 1\n\ndata: [DONE]\n\ndata: 2\n\ndata: 3\n\ndata: [DONE]\n\n"
    d = decode(raw)
    chunks, findings = parse_json_events(d.events, end_offset=d.size)
    # like the AI SDK client, chunks after [DONE] are still parsed; reported once
    assert [c.value for c in chunks] == [1, 2, 3]
    assert [c.index for c in chunks] == [0, 1, 2]
    assert ids(findings) == ["SSE-AFTER-DONE"]
    assert findings[0].byte_offset == raw.index(b"data: 2")


def test_missing_done() -> None:
    raw = b'data: {"type":"start"}\n\n'
    d = decode(raw)
    chunks, findings = parse_json_events(d.events, end_offset=d.size)
    assert len(chunks) == 1
    assert ids(findings) == ["SSE-DONE"]
    assert findings[0].byte_offset == len(raw)
    assert findings[0].level is Level.SHOULD


def test_unterminated_done_is_missing_done() -> None:
    d = decode(b"data: 1\n\ndata: [DONE]\n")
    _, findings = parse_json_events(d.events, end_offset=d.size)
    assert ids(d.findings) == ["SSE-UNTERMINATED-EVENT"]
    assert ids(findings) == ["SSE-DONE"]


def test_invalid_json() -> None:
    raw = b'data: {"type":"start"}\n\ndata: {type:start}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n'
    d = decode(raw)
    chunks, findings = parse_json_events(d.events, end_offset=d.size)
    assert ids(findings) == ["SSE-DATA-JSON"]
    f = findings[0]
    assert f.level is Level.MUST
    assert f.byte_offset == raw.index(b"data: {type")
    assert f.chunk_index == 1
    assert f.received == "{type:start}"
    # the bad event keeps its index, so indices name stream positions; the AI SDK would stop at it
    assert [c.index for c in chunks] == [0, 2]
    assert [c.index for c in chunks if c.index < f.chunk_index] == [0]


def test_invalid_json_excerpt_is_bounded() -> None:
    d = decode(b"data: " + b"x" * 10_000 + b"\n\n")
    _, findings = parse_json_events(d.events)
    assert findings[0].received is not None
    assert len(findings[0].received) < 200
    assert findings[1].requirement == "SSE-DONE"
    assert findings[1].byte_offset is None  # no end_offset given


@pytest.mark.parametrize(
    ("data", "ok"),
    [
        ('"\\ud800"', True),  # lone surrogate escape: JSON.parse accepts it, orjson does not
        ("123456789012345678901234567890", True),
        ("NaN", False),
        ('{"a": Infinity}', False),
        ("[1,]", False),
        ("", False),
        ("1 2", False),
        (" \n 1 \n ", True),
    ],
)
def test_json_edge_cases(data: str, ok: bool) -> None:
    ev = SSEEvent(data=data)
    chunks, findings = parse_json_events([ev, SSEEvent(data="[DONE]")])
    assert len(chunks) == int(ok)
    assert ids(findings) == ([] if ok else ["SSE-DATA-JSON"])


# ------------------------------------------------------------------------------------------------
# encoder and headers
# ------------------------------------------------------------------------------------------------


def test_encode_event_exact_bytes() -> None:
    assert encode_event({"type": "text-start", "id": "t1"}) == b'data: {"id":"t1","type":"text-start"}\n\n'
    assert encode_event({"type": "text-delta", "id": "t1", "delta": 'Hello "q"\nline2'}) == (
        b'data: {"delta":"Hello \\"q\\"\\nline2","id":"t1","type":"text-delta"}\n\n'
    )
    assert encode_event({"type": "finish"}, event_id="42") == b'id: 42\ndata: {"type":"finish"}\n\n'
    with pytest.raises(ValueError, match="CR, LF or NUL"):
        encode_event({"type": "finish"}, event_id="4\n2")


def test_encode_done_and_stream() -> None:
    assert encode_done() == b"data: [DONE]\n\n"
    chunks = [{"type": "start", "messageId": "m1"}, {"type": "finish"}]
    body = encode_stream(chunks)
    assert body == (b'data: {"messageId":"m1","type":"start"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n')
    assert encode_stream(chunks, done=False) == body[: -len(b"data: [DONE]\n\n")]
    d = decode(body)
    values, findings = parse_json_events(d.events, end_offset=d.size)
    assert d.findings == []
    assert findings == []
    assert [c.value for c in values] == chunks


def test_round_trip_unicode_payload() -> None:
    chunk = {"type": "text-delta", "id": "t", "delta": "a\u2028b😀\r\n\u0000"}
    d = decode(encode_stream([chunk]))
    values, findings = parse_json_events(d.events, end_offset=d.size)
    assert (d.findings, findings) == ([], [])
    assert values[0].value == chunk


def test_headers_constant() -> None:
    assert dict(UI_MESSAGE_STREAM_HEADERS) == {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "connection": "keep-alive",
        "x-vercel-ai-ui-message-stream": "v1",
        "x-accel-buffering": "no",
    }
    assert check_headers(UI_MESSAGE_STREAM_HEADERS) == []


def test_check_headers_tolerant_forms() -> None:
    headers = {
        "Content-Type": "Text/Event-Stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        "X-Vercel-AI-UI-Message-Stream": " v1 ",
    }
    assert check_headers(headers) == []


@pytest.mark.parametrize(
    ("name", "value", "req_id"),
    [
        ("content-type", "application/json", "SSE-HEADER-CONTENT-TYPE"),
        ("content-type", "text/event-streams", "SSE-HEADER-CONTENT-TYPE"),
        ("content-type", None, "SSE-HEADER-CONTENT-TYPE"),
        ("x-vercel-ai-ui-message-stream", "v2", "SSE-HEADER-STREAM-MARKER"),
        ("x-vercel-ai-ui-message-stream", None, "SSE-HEADER-STREAM-MARKER"),
        ("cache-control", "no-store", "SSE-HEADER-CACHE"),
        ("cache-control", "max-age=60", "SSE-HEADER-CACHE"),
        ("cache-control", None, "SSE-HEADER-CACHE"),
    ],
)
def test_check_headers_findings(name: str, value: str | None, req_id: str) -> None:
    headers = dict(UI_MESSAGE_STREAM_HEADERS)
    if value is None:
        del headers[name]
    else:
        headers[name] = value
    findings = check_headers(headers)
    assert ids(findings) == [req_id]
    assert findings[0].level is Level.SHOULD
    assert findings[0].expected
    assert findings[0].received == ("(absent)" if value is None else value)


# ------------------------------------------------------------------------------------------------
# registry
# ------------------------------------------------------------------------------------------------


def test_every_emitted_requirement_is_registered() -> None:
    source = Path(sse.__file__).read_text(encoding="utf-8")
    used = set(re.findall(r'"(SSE-[A-Z0-9-]+)"', source))
    assert {
        "SSE-UTF8",
        "SSE-UNTERMINATED-EVENT",
        "SSE-DATA-JSON",
        "SSE-UNKNOWN-FIELD",
        "SSE-EVENT-NAME",
        "SSE-AFTER-DONE",
        "SSE-DONE",
        "SSE-HEADER-CONTENT-TYPE",
        "SSE-HEADER-STREAM-MARKER",
        "SSE-HEADER-CACHE",
        "SSE-SIZE",
    } == used
    # SSE-SIZE is checked in test_size_caps (proposed id, may not be registered yet)
    for req_id in sorted(used - {"SSE-SIZE"}):
        assert requirement(req_id).id == req_id
    # and the findings a bad stream actually produces carry registered ids with the registry's level
    raw = b"\xef\xbb\xbfevent: x\nfoo: 1\ndata: \xff\n\ndata: [DONE]\n\ndata: {\n\ndata: 1"
    d = decode(raw)
    _, json_findings = parse_json_events(d.events, end_offset=d.size)
    emitted = d.findings + json_findings + check_headers({})
    assert set(ids(emitted)) == used - {"SSE-SIZE", "SSE-DONE"}
    for f in emitted:
        assert f.level is requirement(f.requirement).level
