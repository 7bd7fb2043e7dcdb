"""The pieces under the routes: database URLs and locking, the scripted model, the `serve` command."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from refkit import new_chat
from sqlalchemy import event

from turnwire.cli import build_parser
from turnwire.normalise import Family, Normaliser
from turnwire.profiles import Profile
from turnwire.reference import (
    APPROVAL_REQUEST,
    IdMinter,
    ReferenceRuntime,
    ScriptBook,
    Store,
    TurnRequest,
    UnknownScenario,
)
from turnwire.reference.db import normalise_url
from turnwire.reference.scripted import answer_approval, with_decision

# ---- URLs -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("reference.db", "sqlite+pysqlite:///reference.db"),
        ("/tmp/x.db", "sqlite+pysqlite:////tmp/x.db"),
        ("sqlite:///x.db", "sqlite+pysqlite:///x.db"),
        ("postgresql://u@h:5432/d", "postgresql+psycopg://u@h:5432/d"),
        ("postgres://u:p@h/d", "postgresql+psycopg://u:p@h/d"),
        ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
    ],
)
def test_database_urls(given: str, expected: str) -> None:
    assert normalise_url(given) == expected


@pytest.mark.parametrize("given", ["", "sqlite://", "sqlite:///:memory:", "mysql://u@h/d"])
def test_unusable_database_urls_are_refused(given: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the message is checked by eye; any ValueError is the contract
        normalise_url(given)


# ---- locking ----------------------------------------------------------------------------------------------


@pytest.fixture
def statements(db_url: str) -> Iterator[tuple[Store, list[str]]]:
    store = Store.open(db_url)
    seen: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        seen.append(" ".join(statement.split()).upper())

    event.listen(store.engine, "before_cursor_execute", before)
    yield store, seen
    store.close()


def test_writes_take_the_lock_up_front_and_reads_do_not(statements: tuple[Store, list[str]]) -> None:
    store, seen = statements
    runtime = ReferenceRuntime(store)
    chat = new_chat()
    turn, _ = runtime.create_turn(chat, TurnRequest(query="q", scenario="tool-approval-request", profile=Profile.V7))
    assert turn.interrupt_id is not None
    seen.clear()
    runtime.resume(chat, turn.turn_id, {"interrupt_id": turn.interrupt_id, "decision": {"action": "reject"}})
    locks = [s for s in seen if s.startswith("SELECT") and "TW_CHATS" in s and "FOR UPDATE" in s]
    if store.engine.dialect.name == "sqlite":
        assert "BEGIN IMMEDIATE" in seen  # SQLite drops FOR UPDATE: the write lock is taken by BEGIN IMMEDIATE
        seen.clear()
        runtime.snapshot(chat, turn.turn_id)
        assert "BEGIN" in seen
        assert "BEGIN IMMEDIATE" not in seen
    else:
        assert locks, "a resume locks the chat's (session) row with SELECT ... FOR UPDATE"


# ---- the scripted model -----------------------------------------------------------------------------------


def test_every_scenario_has_a_script() -> None:
    book = ScriptBook()
    assert len(book.pairs()) == 46
    plan = book.script("tool-approval-approved", Profile.V7).approval
    assert plan is not None
    assert plan.style == "same-stream"
    assert book.script(APPROVAL_REQUEST, Profile.V6).approval.style == "new-stream"  # type: ignore[union-attr]
    assert book.script("text", Profile.V5).approval is None


def test_unknown_scenarios_name_what_exists() -> None:
    book = ScriptBook()
    with pytest.raises(UnknownScenario, match="known scenarios: abort"):
        book.script("nope", Profile.V7)
    with pytest.raises(UnknownScenario, match="has no ai-sdk-v5 variant"):
        book.script(APPROVAL_REQUEST, Profile.V5)


def test_live_ids_normalise_back_to_the_script() -> None:
    script = ScriptBook().script("sources-citation", Profile.V7)
    live = IdMinter("turn-a").live(script.opening, "2030-01-01T00:00:00.000000Z")
    other = IdMinter("turn-b").live(script.opening, "2030-01-01T00:00:00.000000Z")
    assert live != list(script.opening)
    assert live != other  # ids differ per turn
    # ... and are stable: a restarted server derives the same ones
    assert IdMinter("turn-a").live(script.opening, "x") == IdMinter("turn-a").live(script.opening, "x")
    assert Normaliser().chunks(live) == list(script.opening)
    assert IdMinter("t").id(Family.APPROVAL, "approval-1").startswith("approval_")


def test_the_client_side_answer_and_the_in_stream_decision() -> None:
    message = {
        "id": "m",
        "role": "assistant",
        "parts": [
            {"type": "tool-x", "toolCallId": "c", "state": "approval-requested", "input": {}, "approval": {"id": "a"}}
        ],
    }
    answered = answer_approval(message, "a", False, "no")
    assert answered["parts"][0]["state"] == "approval-responded"
    assert answered["parts"][0]["approval"] == {"id": "a", "approved": False, "reason": "no"}
    assert message["parts"][0]["state"] == "approval-requested"  # the input is not changed
    assert answer_approval(message, "other", True, None) == message
    chunks = [{"type": "tool-approval-response", "approvalId": "a", "approved": True, "reason": "old"}]
    assert with_decision(chunks, False, None) == [
        {"type": "tool-approval-response", "approvalId": "a", "approved": False}
    ]


# ---- the command ------------------------------------------------------------------------------------------


def test_serve_command_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.test_hooks) == ("127.0.0.1", 8000, "turnwire-reference.db", False)
    args = build_parser().parse_args(["serve", "--port", "0", "--db", "postgresql://x/y", "--test-hooks"])
    assert (args.port, args.db, args.test_hooks) == (0, "postgresql://x/y", True)
