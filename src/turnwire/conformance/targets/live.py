"""The live target: a runtime reached over HTTP (a URL, or the embedded reference runtime), recorded and probed.

`build_context` is what `turnwire check [URL]` calls. It reads the target profile, starts the embedded
runtime when no URL is given, makes sure the target answers at all (`TargetUnavailable` — exit 2 — only
when nothing accepts the connection), and then **drives every scenario** of the protocol profile the
way a client would: create the turn, read its stream, read its snapshot; an approval turn is paused,
resumed (approve, or reject with the golden's reason) or left to expire, as the reference runtime
documents (docs/reference-runtime.md#tool-approvals). Each stream becomes a `Recording`, so the
recording checks judge live runtimes and files alike; the `HttpRuntime` itself is handed to the live
checks, which talk to the runtime again.

Everything that goes wrong while recording is a finding (`recording_findings`, reported by the check
`live.http.recording`), never an exception.
"""

from __future__ import annotations

import ipaddress
import socket
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from turnwire.conformance.checks.live_common import (
    APPROVAL_ANSWERS,
    APPROVAL_REQUEST,
    LiveStream,
    client_answer,
    create_findings,
    exchange_findings,
    json_findings,
    profile_scenarios,
    read_until_pause,
    resume_body,
)
from turnwire.conformance.context import CheckContext, HttpExchange, LiveTurn, Recording
from turnwire.conformance.model import Capability, ReportedFinding
from turnwire.conformance.targets.http import Failure, HttpRuntime, failure_of
from turnwire.conformance.targets.profile import TargetProfile, load_target_profile
from turnwire.fold import fold
from turnwire.profiles import Profile

__all__ = [
    "DEFAULT_OPTIONS",
    "TargetUnavailable",
    "build_context",
    "check_address",
    "connect",
    "record_scenarios",
]

DEFAULT_OPTIONS: Final[Mapping[str, Any]] = {
    "resume_concurrency": 20,
    "replay_cursors": 8,
}
"""Run options the live checks read, with their defaults (the caller's options override them)."""

_REJECT_REASON: Final = "rejected by the turnwire conformance run"


class TargetUnavailable(Exception):
    """The target cannot be checked at all: nothing accepts a connection at its URL, or it may not be used."""


def check_address(url: str, *, allow_public: bool = False) -> None:
    """Refuse a URL that is not http(s), or whose host is not loopback or private (unless allowed).

    Why: a conformance run sends many requests, some deliberately wrong; it should hit only a runtime
    its user runs, not whatever a typo resolves to.
    """
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise TargetUnavailable(f"target URL {url!r} has an invalid port") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetUnavailable(f"target URL {url!r} is not an http:// or https:// URL with a host")
    if allow_public:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, port or 80, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        raise TargetUnavailable(f"target host {parts.hostname!r} cannot be resolved: {exc}") from None
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if not (address.is_loopback or address.is_private or address.is_link_local):
            raise TargetUnavailable(
                f"target host {parts.hostname!r} resolves to the public address {address}; turnwire checks "
                "loopback and private addresses only unless allowed (option allow_public_targets)"
            )


def connect(url: str, target: TargetProfile, options: Mapping[str, Any]) -> HttpRuntime:
    """An `HttpRuntime` for `url`, after making sure something answers there (`TargetUnavailable` if not).

    A target that accepts the connection but then hangs, resets or answers garbage is checkable (it
    fails): the probe's failure is kept as a finding, and after a timeout the runtime fails fast.
    """
    limits = target.limits.override(options)
    runtime = HttpRuntime(url, target, limits=limits)
    probe = LiveTurn(chat_id=f"tw-probe-{uuid.uuid4().hex[:12]}", turn_id="tw-probe", scenario="", created=_NO_EXCHANGE)
    exchange = runtime.snapshot(probe)
    failure = failure_of(exchange)
    if failure is Failure.REFUSED:
        runtime.close()
        raise TargetUnavailable(f"target {url} is unreachable: {exchange.error}")
    if failure is not None:
        runtime.recording_findings += exchange_findings(exchange, "start-up probe", range(100, 600))
        if failure is Failure.TIMEOUT:
            runtime.trip(f"the start-up probe timed out ({exchange.error})")
    return runtime


_NO_EXCHANGE: Final = HttpExchange(method="", url="")


# ---- recording the scenarios ----------------------------------------------------------------------------


@dataclass
class _Recorder:
    runtime: HttpRuntime
    profile: Profile
    capabilities: frozenset[Capability]
    approval_ttl_s: float
    expiry_margin_s: float
    recordings: list[Recording] = field(default_factory=list)

    def problem(self, findings: Iterable[ReportedFinding]) -> bool:
        """Keep `findings` for the report; True when there were any."""
        found = list(findings)
        self.runtime.recording_findings.extend(found)
        return bool(found)

    def create(self, slug: str, ttl: float | None = None) -> LiveTurn | None:
        created = self.runtime.create_turn(slug, profile=self.profile, approval_ttl_s=ttl)
        if isinstance(created, HttpExchange):
            self.problem(create_findings(created, f"recording {slug}: create turn"))
            return None
        return created

    def snapshot(self, turn: LiveTurn, what: str) -> tuple[Any, HttpExchange | None]:
        """The turn's snapshot as JSON and its exchange (None, None without the snapshot capability)."""
        if Capability.SNAPSHOT not in self.capabilities:
            return None, None
        exchange = self.runtime.snapshot(turn)
        if self.problem(exchange_findings(exchange, f"{what}: snapshot", {200})):
            return None, exchange
        body, found = json_findings(exchange, f"{what}: snapshot")
        self.problem(found)
        return body, exchange

    def record(
        self,
        name: str,
        slug: str,
        turn: LiveTurn,
        exchange: HttpExchange,
        prior: dict[str, Any] | None = None,
    ) -> None:
        """Keep one recording (a stream that failed is kept as far as it got, when its status was 200)."""
        self.problem(exchange_findings(exchange, f"recording {name}: stream", {200}))
        if exchange.status != 200:
            return
        at_rest, at_rest_exchange = self.snapshot(turn, f"recording {name}")
        self.recordings.append(
            Recording(
                name=name,
                stream=exchange.body,
                headers=dict(exchange.headers),
                at_rest=at_rest,
                prior=prior,
                scenario=slug,
                exchange=exchange,
                at_rest_exchange=at_rest_exchange,
            )
        )

    def plain(self, slug: str) -> None:
        turn = self.create(slug)
        if turn is not None:
            self.record(slug, slug, turn, self.runtime.stream(turn))

    def answered(self, slug: str, approved: bool) -> None:
        """An approval turn answered: the ask (its own stream, ai-sdk-v6), the resume, the rest."""
        turn = self.create(slug)
        if turn is None:
            return
        opening = read_until_pause(self.runtime, turn)
        if self.problem(exchange_findings(opening, f"recording {slug}: stream up to the approval", {200})):
            return
        first = LiveStream.read(opening)
        interrupt = first.approval_id()
        if interrupt is None:  # no pause: record what there is, the golden check shows what is missing
            self.record(slug, slug, turn, opening)
            return
        if first.done:  # the ask is a complete stream of its own: the answer comes as a continuation
            self.record(f"{slug} (ask)", APPROVAL_REQUEST, turn, opening)
        reason = None if approved else golden_denial_reason(self.profile)
        decision: dict[str, Any] = {"action": "approve"} if approved else {"action": "reject", "message": reason}
        applied = self.runtime.resume(turn, resume_body(interrupt, decision))
        if self.problem(
            exchange_findings(applied, f"recording {slug}: resume", {200}, requirement="RESUME-HTTP-APPLIED")
        ):
            return
        if not first.done:
            self.record(slug, slug, turn, self.runtime.stream(turn))
            return
        held = fold(first.chunks, self.profile).message or {"id": "", "role": "assistant", "parts": []}
        prior = client_answer(held, interrupt, approved, reason)
        last = first.ids[-1] if first.ids else None
        self.record(slug, slug, turn, self.runtime.stream(turn, last_event_id=last), prior=prior)

    def expiring(self) -> tuple[LiveTurn, float] | None:
        """Start the ask that will be left to expire (finished by `expired`, after the other scenarios)."""
        turn = self.create(APPROVAL_REQUEST, ttl=self.approval_ttl_s)
        if turn is None:
            return None
        return turn, time.monotonic() + self.approval_ttl_s + self.expiry_margin_s

    def expired(self, turn: LiveTurn, ready_at: float) -> None:
        time.sleep(max(0.0, ready_at - time.monotonic()))
        self.record(APPROVAL_REQUEST, APPROVAL_REQUEST, turn, self.runtime.stream(turn))


def golden_denial_reason(profile: Profile) -> str:
    """The reason the golden denial shows, so a reject reproduces the golden (a fixed text otherwise)."""
    from turnwire.canonical import loads
    from turnwire.resources import golden_dir
    from turnwire.sse import DONE, decode

    folder = golden_dir() / profile.value / APPROVAL_ANSWERS[False]
    try:
        prior_file = folder / "prior.json"
        if prior_file.is_file():
            prior = loads(prior_file.read_bytes())
            parts = prior.get("parts") if isinstance(prior, dict) else None
            for part in parts if isinstance(parts, list) else []:
                approval = part.get("approval") if isinstance(part, dict) else None
                if isinstance(approval, dict) and isinstance(approval.get("reason"), str):
                    return str(approval["reason"])
        for event in decode((folder / "stream.sse").read_bytes()).events:
            if event.data != DONE and '"tool-approval-response"' in event.data:
                chunk = loads(event.data)
                if isinstance(chunk, dict) and isinstance(chunk.get("reason"), str):
                    return str(chunk["reason"])
    except (OSError, ValueError):
        pass
    return _REJECT_REASON


def record_scenarios(
    runtime: HttpRuntime,
    profile: Profile,
    capabilities: frozenset[Capability],
    scenarios: Iterable[str] = (),
) -> list[Recording]:
    """Drive each scenario on the runtime and record it (nothing without the streaming capability).

    Approval answers need `resume`, the bare ask needs `expiry` (it is left to expire, while the other
    scenarios play); scenarios whose capability is not claimed are not driven.
    """
    if Capability.STREAMING not in capabilities:
        return []
    target = runtime.target
    recorder = _Recorder(runtime, profile, capabilities, target.approval_ttl_s, target.expiry_margin_s)
    wanted = list(scenarios) or profile_scenarios(profile)
    pending = None
    if APPROVAL_REQUEST in wanted and Capability.EXPIRY in capabilities:
        pending = recorder.expiring()
    for slug in wanted:
        if slug == APPROVAL_REQUEST:
            continue
        answer = next((approved for approved, name in APPROVAL_ANSWERS.items() if name == slug), None)
        if answer is None:
            recorder.plain(slug)
        elif Capability.RESUME in capabilities:
            recorder.answered(slug, answer)
    if pending is not None:
        recorder.expired(*pending)
    return recorder.recordings


def _secrets(named: Any) -> list[str]:
    if isinstance(named, str):
        return [named]
    if isinstance(named, Iterable):
        return [str(v) for v in named]
    return []


# ---- the entry point --------------------------------------------------------------------------------------


def build_context(
    url: str | None,
    *,
    profile: Profile,
    target_profile: Path | None,
    options: Mapping[str, Any],
) -> tuple[CheckContext, Callable[[], None]]:
    """The check context of a live target (`url`) or, for None, of the embedded reference runtime.

    Returns the context and the function that releases the target (closes connections, stops the
    embedded runtime); call it once the checks ran. Raises `TargetUnavailable` when the target cannot
    be checked at all, and `turnwire.conformance.targets.profile.TargetProfileError` for a bad profile file.
    """
    if target_profile is not None:
        target = load_target_profile(target_profile)
    else:
        target = TargetProfile.embedded() if url is None else TargetProfile()
    closers: list[Callable[[], None]] = []

    def close() -> None:
        while closers:
            closers.pop()()

    try:
        if url is None:
            from turnwire.conformance.targets.embedded import EmbeddedRuntime

            try:
                embedded = EmbeddedRuntime().start()
            except (RuntimeError, OSError) as exc:
                raise TargetUnavailable(f"the embedded reference runtime did not start: {exc}") from None
            closers.append(embedded.stop)
            url = embedded.api_url
        else:
            check_address(url, allow_public=bool(options.get("allow_public_targets")))
        runtime = connect(url, target, options)
        closers.append(runtime.close)
        capabilities = frozenset(target.capabilities)
        recordings = record_scenarios(runtime, profile, capabilities, target.scenarios)
    except BaseException:
        close()
        raise
    run_options = {
        **DEFAULT_OPTIONS,
        "approval_ttl_s": target.approval_ttl_s,
        "expiry_margin_s": target.expiry_margin_s,
        **{k: v for k, v in options.items() if v is not None},
    }
    run_options["secrets"] = [*_secrets(options.get("secrets")), *target.headers.values()]
    context = CheckContext(
        profile=profile, capabilities=capabilities, recordings=recordings, live=runtime, options=run_options
    )
    return context, close
