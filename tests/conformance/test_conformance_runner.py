"""The runner's verdict rules: applicability, error vs failure, summary, exit code, baseline, redaction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from turnwire.conformance import (
    BaselineError,
    Capability,
    Check,
    CheckContext,
    HttpExchange,
    Recording,
    ReportedFinding,
    Status,
    applicability,
    exit_code,
    load_baseline,
    parse_baseline,
    run,
)
from turnwire.findings import Finding
from turnwire.profiles import Profile
from turnwire.tools.secrets import REDACTED

STREAM = b'data: {"type":"start"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n'


def ctx(**kw: object) -> CheckContext:
    base: dict[str, object] = {"profile": Profile.V7, "capabilities": frozenset()}
    base.update(kw)
    return CheckContext(**base)  # type: ignore[arg-type]


def finding_check(name: str, req: str, *, times: int = 1, **kw: object) -> Check:
    def fn(context: CheckContext) -> Iterator[Finding]:
        for _ in range(times):
            yield Finding.of(req, "planted", expected="e", received="r", byte_offset=0)

    return Check(name=name, requirements=(req,), run=fn, **kw)  # type: ignore[arg-type]


def passing(name: str, req: str = "SSE-DONE", **kw: object) -> Check:
    return Check(name=name, requirements=(req,), run=lambda c: [], **kw)  # type: ignore[arg-type]


# ---- applicability -------------------------------------------------------------------------------


def test_unclaimed_capability_is_not_applicable_with_the_reason() -> None:
    check = passing("x.y", needs=frozenset({Capability.RESUME}))
    reason = applicability(check, ctx(capabilities=frozenset({Capability.STREAMING})))
    assert reason is not None
    assert "resume" in reason
    assert "streaming" in reason


@pytest.mark.parametrize(
    ("flag", "words"),
    [("needs_live", "live runtime"), ("needs_recording", "recorded stream"), ("needs_at_rest", "at-rest")],
)
def test_missing_target_parts_are_not_applicable(flag: str, words: str) -> None:
    reason = applicability(passing("x.y", **{flag: True}), ctx())
    assert reason is not None
    assert words in reason


def test_custom_applies_reason_is_reported_and_nothing_is_skipped() -> None:
    check = passing("x.y", applies=lambda c: "because")
    report = run(ctx(), [check, passing("x.z")])
    assert [(r.check, r.status, r.reason) for r in report.results] == [
        ("x.y", Status.NOT_APPLICABLE, "because"),
        ("x.z", Status.PASSED, None),
    ]
    assert report.summary.not_applicable == 1


# ---- verdicts --------------------------------------------------------------------------------------


def test_an_exception_in_a_check_is_an_error_not_a_finding_and_fails_the_run() -> None:
    def boom(context: CheckContext) -> Iterator[Finding]:
        raise KeyError("oops")
        yield  # pragma: no cover

    report = run(ctx(), [Check(name="x.boom", requirements=("SSE-DONE",), run=boom), passing("x.ok")])
    [bad, ok] = report.results
    assert bad.status is Status.ERROR
    assert "KeyError" in (bad.reason or "")
    assert "oops" in (bad.reason or "")
    assert bad.findings == []
    assert ok.status is Status.PASSED
    assert report.summary.errors == 1
    assert exit_code(report) == report.exit_code == 1


def test_must_finding_fails_should_finding_does_not() -> None:
    should = run(ctx(), [finding_check("x.s", "SSE-DONE")])
    assert should.results[0].status is Status.FAILED
    assert should.summary.must_failures == 0
    assert should.exit_code == 0
    must = run(ctx(), [finding_check("x.m", "SSE-UTF8", times=2)])
    assert must.summary.must_failures == 2
    assert must.exit_code == 1


def test_summary_counts_and_timing() -> None:
    report = run(
        ctx(),
        [passing("a.p"), finding_check("a.f", "SSE-UTF8"), passing("a.n", needs_live=True)],
        target="t",
    )
    s = report.summary
    assert (s.passed, s.failed, s.not_applicable, s.errors) == (1, 1, 1, 0)
    assert report.target == "t"
    assert all(r.duration_s >= 0 for r in report.results)
    assert report.duration_s >= 0


def test_plain_findings_get_the_stream_excerpt_of_the_only_recording() -> None:
    report = run(ctx(recordings=[Recording(name="r.sse", stream=STREAM)]), [finding_check("a.f", "SSE-UTF8")])
    [rf] = report.results[0].findings
    assert rf.reproducer is not None
    assert "r.sse" in (rf.reproducer.excerpt or "")
    assert "data: " in (rf.reproducer.excerpt or "")


def test_on_result_sees_every_check_in_order() -> None:
    seen: list[str] = []
    run(ctx(), [passing("a.1"), passing("a.2")], on_result=lambda c, r: seen.append(f"{c.name}:{r.status}"))
    assert seen == ["a.1:passed", "a.2:passed"]


# ---- baseline ---------------------------------------------------------------------------------------


def test_baselined_failure_does_not_fail_the_run_but_is_reported() -> None:
    baseline = parse_baseline([{"requirement": "SSE-UTF8", "reason": "known, tracked in #1"}])
    report = run(ctx(), [finding_check("a.f", "SSE-UTF8")], baseline=baseline)
    [rf] = report.results[0].findings
    assert rf.baselined
    assert report.summary.must_failures == 0
    assert report.summary.baselined == 1
    assert report.exit_code == 0


def test_stale_baseline_entry_fails_the_run() -> None:
    baseline = parse_baseline([{"requirement": "SSE-DONE", "reason": "was broken"}])
    report = run(ctx(), [passing("a.p", "SSE-DONE")], baseline=baseline)
    assert report.summary.stale_baseline == ["SSE-DONE"]
    assert report.exit_code == 1


def test_baseline_entry_no_check_exercised_is_listed_not_stale() -> None:
    baseline = parse_baseline([{"requirement": "RESUME-HTTP-ONCE", "reason": "concurrency not fixed yet"}])
    report = run(
        ctx(), [passing("a.p", "SSE-DONE"), passing("b.n", "RESUME-HTTP-ONCE", needs_live=True)], baseline=baseline
    )
    assert report.summary.stale_baseline == []
    assert report.summary.baseline_not_exercised == ["RESUME-HTTP-ONCE"]
    assert report.exit_code == 0


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"requirement": "SSE-DONE"}, "not a list"),
        ([{"requirement": "SSE-DONE"}], "missing reason"),
        ([{"requirement": "SSE-DONE", "reason": "  "}], "missing reason"),
        ([{"requirement": "NOPE-1", "reason": "x"}], "unknown requirement"),
        ([{"reason": "x"}], "missing requirement"),
        ([{"requirement": "SSE-DONE", "reason": "x", "why": 1}], "unknown key"),
        ([{"requirement": "SSE-DONE", "reason": "x"}, {"requirement": "SSE-DONE", "reason": "y"}], "twice"),
        (["SSE-DONE"], "mapping"),
    ],
)
def test_bad_baselines_are_load_errors(raw: object, words: str) -> None:
    with pytest.raises(BaselineError) as err:
        parse_baseline(raw)
    text = str(err.value).replace("expected a YAML list", "not a list")
    assert words in text
    assert "\n" not in str(err.value)


def test_baseline_file_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="cannot read baseline"):
        load_baseline(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("- requirement: [unclosed\n", encoding="utf-8")
    with pytest.raises(BaselineError, match="not valid YAML") as err:
        load_baseline(bad)
    assert "\n" not in str(err.value)
    good = tmp_path / "good.yaml"
    good.write_text("- requirement: SSE-DONE\n  reason: our proxy drops it\n", encoding="utf-8")
    assert load_baseline(good).requirements == {"SSE-DONE"}


# ---- redaction ----------------------------------------------------------------------------------------


def test_secrets_are_masked_in_findings_and_reproducers() -> None:
    token = "sk-live-0123456789abcdef"
    exchange = HttpExchange(
        method="POST",
        url="http://127.0.0.1/run",
        request_headers={"Authorization": f"Bearer {token}"},
        request_body=f'{{"secrets": {{"KEY": "{token}"}}}}'.encode(),
        status=500,
        headers={"set-cookie": "session=abc123def456"},
        body=f"echo {token} session=abc123def456".encode(),
    )

    def leaky(context: CheckContext) -> Iterator[ReportedFinding]:
        f = Finding.of("SSE-UTF8", f"the target echoed {token}", received=token)
        yield ReportedFinding(finding=f, reproducer=exchange.reproducer())

    rec = Recording(name="r", stream=STREAM, exchange=exchange)
    report = run(ctx(recordings=[rec]), [Check(name="a.leak", requirements=("SSE-UTF8",), run=leaky)])
    text = report.model_dump_json()
    assert token not in text
    assert "abc123def456" not in text
    assert REDACTED in text


def test_named_secrets_option_is_masked() -> None:
    def leaky(context: CheckContext) -> Iterator[Finding]:
        yield Finding.of("SSE-UTF8", "value hunter2-secret-value here")

    report = run(
        ctx(options={"secrets": ["hunter2-secret-value"]}), [Check(name="a.l", requirements=("SSE-UTF8",), run=leaky)]
    )
    assert "hunter2-secret-value" not in report.model_dump_json()
