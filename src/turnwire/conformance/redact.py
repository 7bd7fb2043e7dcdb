"""Secrets never reach a report: every finding and reproducer is masked before it is written.

Two sources of secrets: values the caller names (`options["secrets"]`, e.g. the API key it passed to
the target) and the values of credential-bearing headers seen in any recorded exchange (an
`authorization` header sent to the target, a `set-cookie` it answered with). Known values are masked
everywhere with `turnwire.tools.secrets.Redactor`; credential header lines are masked by name as a
second line of defence, whatever their value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import CheckResult, ConformanceReport, ReportedFinding, Reproducer
from turnwire.tools.secrets import REDACTED, Redactor

__all__ = ["SENSITIVE_HEADERS", "context_secrets", "redact_report"]

SENSITIVE_HEADERS: frozenset[str] = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token"}
)
"""Header names whose values are credentials (compared case-insensitively)."""

_HEADER_LINE = re.compile(
    r"(?im)^(" + "|".join(re.escape(h) for h in sorted(SENSITIVE_HEADERS)) + r")[ \t]*:[ \t]*\S.*$"
)


def _header_values(headers: Mapping[str, str] | None) -> Iterable[str]:
    for name, value in (headers or {}).items():
        if name.lower() in SENSITIVE_HEADERS and value:
            yield value
            scheme, _, token = value.partition(" ")
            if token and scheme.isalpha():
                yield token.strip()


def context_secrets(context: CheckContext) -> list[str]:
    """Every secret value the context knows of: named in the options or carried by a credential header."""
    found: list[str] = []
    named = context.options.get("secrets")
    if isinstance(named, str):
        found.append(named)
    elif isinstance(named, Iterable):
        found.extend(str(v) for v in named)
    for rec in context.recordings:
        found.extend(_header_values(rec.headers))
        for exchange in (rec.exchange, rec.at_rest_exchange):
            if exchange is not None:
                found.extend(_header_values(exchange.request_headers))
                found.extend(_header_values(exchange.headers))
    return [v for v in found if v]


def _text(redactor: Redactor, text: str | None) -> str | None:
    if text is None:
        return None
    return _HEADER_LINE.sub(lambda m: f"{m.group(1)}: {REDACTED}", redactor.text(text))


def _finding(redactor: Redactor, rf: ReportedFinding) -> ReportedFinding:
    rep = rf.reproducer
    if rep is not None:
        rep = Reproducer(
            request=_text(redactor, rep.request),
            response=_text(redactor, rep.response),
            excerpt=_text(redactor, rep.excerpt),
        )
    return ReportedFinding(finding=redactor.finding(rf.finding), reproducer=rep, baselined=rf.baselined)


def redact_report(report: ConformanceReport, secrets: Iterable[str] = ()) -> ConformanceReport:
    """A copy of `report` with every known secret value and every credential header value masked."""
    redactor = Redactor(secrets)
    results: list[CheckResult] = [
        r.model_copy(
            update={"findings": [_finding(redactor, rf) for rf in r.findings], "reason": _text(redactor, r.reason)}
        )
        for r in report.results
    ]
    return report.model_copy(update={"results": results, "target": _text(redactor, report.target) or ""})
