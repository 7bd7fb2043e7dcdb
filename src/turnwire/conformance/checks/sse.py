"""SSE framing and response headers of every recorded stream (`turnwire.sse`)."""

from __future__ import annotations

from collections.abc import Iterator

from turnwire.conformance.catalogue import check
from turnwire.conformance.checks._recorded import report, streams, with_ids
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import ReportedFinding
from turnwire.sse import check_headers

FRAMING = (
    "SSE-UTF8",
    "SSE-UNTERMINATED-EVENT",
    "SSE-DATA-JSON",
    "SSE-UNKNOWN-FIELD",
    "SSE-EVENT-NAME",
    "SSE-AFTER-DONE",
    "SSE-DONE",
    "SSE-SIZE",
)
HEADERS = ("SSE-HEADER-CONTENT-TYPE", "SSE-HEADER-STREAM-MARKER", "SSE-HEADER-CACHE")


@check("sse.framing", requirements=FRAMING, needs_recording=True)
def framing(context: CheckContext) -> Iterator[ReportedFinding]:
    """Every stream is UTF-8 SSE whose events end with a blank line, carry JSON data and end with [DONE]."""
    for rec, read in streams(context):
        yield from report(with_ids(read.findings, FRAMING), rec, context, "stream")


def _headers_known(context: CheckContext) -> str | None:
    if any(r.stream is not None and r.headers is not None for r in context.recordings):
        return None
    return "no recorded stream has its response headers (give --headers FILE.json)"


@check("sse.headers", requirements=HEADERS, needs_recording=True, applies=_headers_known)
def headers(context: CheckContext) -> Iterator[ReportedFinding]:
    """The stream's response headers: text/event-stream, the UI message stream marker, no-cache."""
    for rec in context.recordings:
        if rec.stream is not None and rec.headers is not None:
            yield from report(check_headers(rec.headers), rec, context, "headers")
