"""`--format junit`: one testcase per check, grouped in one testsuite per check family.

CI systems render JUnit natively, so the mapping follows what the exit code means rather than the
raw status: a testcase *fails* only when its check has a MUST finding outside the baseline (what fails
the run); SHOULD/MAY and baselined findings are listed in its `system-out` so they stay visible without
turning the build red; a not-applicable check is `skipped` with its reason; a turnwire bug is `error`.
Names are hierarchical (`classname` = `turnwire.<profile>.<family>`, `name` = the check), so CI can
group and filter them the way Connect conformance's names are.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import groupby

from turnwire.conformance.model import CheckResult, ConformanceReport, ReportedFinding, Status
from turnwire.findings import Level

__all__ = ["render_junit"]

_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    return _INVALID_XML.sub("\ufffd", text)


def _family(result: CheckResult) -> str:
    return result.check.split(".", 1)[0]


def _finding_text(rf: ReportedFinding) -> str:
    f = rf.finding
    lines = [("[baselined] " if rf.baselined else "") + str(f)]
    if f.expected is not None:
        lines.append(f"  expected: {f.expected}")
    if f.received is not None:
        lines.append(f"  received: {f.received}")
    rep = rf.reproducer
    if rep is not None:
        for label, value in (("request", rep.request), ("response", rep.response), ("excerpt", rep.excerpt)):
            if value:
                lines.append(f"  {label}:")
                lines.extend("    " + line for line in value.splitlines())
    return "\n".join(lines)


def _failing(rf: ReportedFinding) -> bool:
    return rf.finding.level is Level.MUST and not rf.baselined


def _testcase(parent: ET.Element, result: CheckResult, profile: str) -> tuple[int, int, int]:
    case = ET.SubElement(
        parent,
        "testcase",
        classname=f"turnwire.{profile}.{_family(result)}",
        name=result.check,
        time=f"{result.duration_s:.6f}",
    )
    failures = errors = skipped = 0
    if result.status is Status.NOT_APPLICABLE:
        ET.SubElement(case, "skipped", message=_clean(f"not applicable: {result.reason or ''}"))
        skipped = 1
    elif result.status is Status.ERROR:
        ET.SubElement(case, "error", message=_clean(result.reason or "error"), type="turnwire-error")
        errors = 1
    failing = [rf for rf in result.findings if _failing(rf)]
    if failing:
        first = failing[0].finding
        node = ET.SubElement(
            case,
            "failure",
            message=_clean(f"{len(failing)} MUST finding(s); first: {first}"),
            type=f"{first.level} {first.requirement}",
        )
        node.text = _clean("\n\n".join(_finding_text(rf) for rf in failing))
        failures = 1
    others = [rf for rf in result.findings if not _failing(rf)]
    if others:
        out = ET.SubElement(case, "system-out")
        out.text = _clean("\n\n".join(_finding_text(rf) for rf in others))
    ET.SubElement(
        ET.SubElement(case, "properties"), "property", name="requirements", value=" ".join(result.requirements)
    )
    return failures, errors, skipped


def render_junit(report: ConformanceReport) -> str:
    """The report as a JUnit XML document (parses with `xml.etree`)."""
    root = ET.Element("testsuites", name=f"turnwire check {report.target}", time=f"{report.duration_s:.6f}")
    totals = [0, 0, 0, 0]
    for family, group in groupby(sorted(report.results, key=_family), key=_family):
        results = list(group)
        suite = ET.SubElement(root, "testsuite", name=f"turnwire.{report.profile}.{family}")
        counts = [0, 0, 0]
        for result in results:
            for i, n in enumerate(_testcase(suite, result, report.profile)):
                counts[i] += n
        suite.set("tests", str(len(results)))
        suite.set("failures", str(counts[0]))
        suite.set("errors", str(counts[1]))
        suite.set("skipped", str(counts[2]))
        suite.set("time", f"{sum(r.duration_s for r in results):.6f}")
        totals = [totals[0] + len(results), totals[1] + counts[0], totals[2] + counts[1], totals[3] + counts[2]]
    if report.summary.stale_baseline:
        # a stale baseline entry fails the run, so it fails a testcase too
        suite = ET.SubElement(root, "testsuite", name="turnwire.baseline", tests="1", failures="1", errors="0")
        suite.set("skipped", "0")
        case = ET.SubElement(suite, "testcase", classname="turnwire.baseline", name="baseline.stale", time="0")
        stale = ", ".join(report.summary.stale_baseline)
        ET.SubElement(
            case, "failure", message=f"stale baseline entries (no finding any more; remove them): {stale}", type="stale"
        )
        totals = [totals[0] + 1, totals[1] + 1, totals[2], totals[3]]
    for key, value in zip(("tests", "failures", "errors", "skipped"), totals, strict=True):
        root.set(key, str(value))
    root.set("name", _clean(root.get("name", "")))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
