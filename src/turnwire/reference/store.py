"""The reference runtime's store: transactions and the few queries the runtime needs, nothing else.

Why a thin layer: the runtime's rules (what a resume does, when a stream is complete) live in
`turnwire.reference.runtime`; this module only knows rows. Every write goes through `Store.write()`,
whose transaction takes the write lock up front (see `turnwire.reference.db`), and locks the chat's
row (`lock_chat`) before touching the chat's turns, so concurrent writers to one chat are serialised
and two chats never wait for each other on PostgreSQL.

Store errors that mean "the database is busy or gone" surface as `StoreUnavailable`, so that the HTTP
layer can answer 503 without ever passing a driver's message ("database is locked") on to a client.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, RowMapping, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from turnwire.canonical import JSONValue, dumps, loads
from turnwire.reference.db import (
    BUSY_TIMEOUT_S,
    WRITE,
    chats,
    create_schema,
    make_engine,
    session_events,
    stream_events,
    turns,
)

__all__ = [
    "ChatRow",
    "Store",
    "StoreUnavailable",
    "StreamEventRow",
    "TurnRow",
]


class StoreUnavailable(ConnectionError):
    """The database did not answer in time (a lock wait or connection timed out) or is unreachable."""


@dataclass(frozen=True)
class ChatRow:
    """A chat (the session row): its id and its stored session snapshot, as raw JSON text."""

    chat_id: str
    state_snapshot: str | None


@dataclass(frozen=True)
class TurnRow:
    """One turn as stored."""

    turn_id: str
    chat_id: str
    profile: str
    scenario: str
    query: str
    client_idempotency_key: str | None
    approval_ttl_s: float
    status: str
    phase: str
    segment: int
    segment_closed: bool
    last_sequence: int
    message: dict[str, Any]
    prior: dict[str, Any] | None
    interrupt_id: str | None
    expires_at: str | None
    error_text: str | None
    created_at: str
    updated_at: str
    started_at: str | None
    finished_at: str | None

    @classmethod
    def from_row(cls, row: RowMapping) -> TurnRow:
        """Decode a `tw_turns` row."""
        values = dict(row)
        values["message"] = _json_object(values["message"])
        values["prior"] = None if values["prior"] is None else _json_object(values["prior"])
        values["segment_closed"] = bool(values["segment_closed"])
        return cls(**values)


@dataclass(frozen=True)
class StreamEventRow:
    """One stored chunk of a turn's UI message stream."""

    sequence: int
    segment: int
    chunk: dict[str, Any]


def _json_object(text: str) -> dict[str, Any]:
    value = loads(text)
    if not isinstance(value, dict):
        raise ValueError("stored JSON is not an object")
    return value


def json_text(value: JSONValue | Mapping[str, Any]) -> str:
    """The RFC 8785 text of a JSON value, as every JSON column stores it."""
    return dumps(value).decode("utf-8")


class Store:
    """The runtime's database: an engine plus the two kinds of transaction (read, write)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Store:
        """Open (and create the tables of) the database at `url`; lock waits last at most `busy_timeout_s`."""
        store = cls(make_engine(url, busy_timeout_s=busy_timeout_s))
        try:
            with store._guard():
                create_schema(store.engine)
        except StoreUnavailable as exc:  # at start-up the driver's reason helps the operator; say it
            store.close()
            cause = exc.__cause__
            detail = getattr(cause, "orig", None) or cause or exc
            first = (str(detail).strip().splitlines() or [type(detail).__name__])[0]
            raise StoreUnavailable(f"cannot open the database: {first}") from exc
        return store

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except OperationalError as exc:  # lock or statement timeout, "database is locked", lost connection
            raise StoreUnavailable(type(exc.orig).__name__ if exc.orig is not None else type(exc).__name__) from exc
        except PoolTimeout as exc:  # every pooled connection busy for too long
            raise StoreUnavailable("connection pool exhausted") from exc

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction (never blocks a writer on SQLite in WAL mode)."""
        with self._guard(), self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        with self._guard(), self.engine.connect() as conn:
            conn.execution_options(**{WRITE: True})
            with conn.begin():
                yield conn

    # ---- chats (the session rows) -----------------------------------------------------------------

    @staticmethod
    def get_chat(conn: Connection, chat_id: str) -> ChatRow | None:
        """The chat, without locking it."""
        row = conn.execute(select(chats.c.chat_id, chats.c.state_snapshot).where(chats.c.chat_id == chat_id)).first()
        return None if row is None else ChatRow(row.chat_id, row.state_snapshot)

    @staticmethod
    def lock_chat(conn: Connection, chat_id: str) -> ChatRow | None:
        """The chat, locked until the transaction ends (`SELECT … FOR UPDATE`); None if it does not exist."""
        query = select(chats.c.chat_id, chats.c.state_snapshot).where(chats.c.chat_id == chat_id).with_for_update()
        row = conn.execute(query).first()
        return None if row is None else ChatRow(row.chat_id, row.state_snapshot)

    @classmethod
    def lock_or_create_chat(cls, conn: Connection, chat_id: str, now: str) -> ChatRow:
        """The chat, locked; created first when it does not exist (a chat exists once it has a turn)."""
        found = cls.lock_chat(conn, chat_id)
        if found is not None:
            return found
        try:
            with conn.begin_nested():
                conn.execute(insert(chats).values(chat_id=chat_id, state_snapshot=None, created_at=now, updated_at=now))
        except IntegrityError:
            pass  # another writer created it between our read and our insert; lock theirs
        locked = cls.lock_chat(conn, chat_id)
        if locked is None:  # pragma: no cover - the row was just inserted or seen
            raise StoreUnavailable("chat row vanished")
        return locked

    @staticmethod
    def set_state_snapshot(conn: Connection, chat_id: str, raw: str | None, now: str) -> None:
        """Store the chat's session snapshot text as given."""
        conn.execute(update(chats).where(chats.c.chat_id == chat_id).values(state_snapshot=raw, updated_at=now))

    # ---- turns ------------------------------------------------------------------------------------

    @staticmethod
    def get_turn(conn: Connection, turn_id: str) -> TurnRow | None:
        """The turn with this id, or None."""
        row = conn.execute(select(turns).where(turns.c.turn_id == turn_id)).mappings().first()
        return None if row is None else TurnRow.from_row(row)

    @staticmethod
    def find_turn_by_key(conn: Connection, chat_id: str, key: str) -> TurnRow | None:
        """The chat's turn created with this idempotency key, or None."""
        query = select(turns).where(turns.c.chat_id == chat_id, turns.c.client_idempotency_key == key)
        row = conn.execute(query).mappings().first()
        return None if row is None else TurnRow.from_row(row)

    @staticmethod
    def turns_in_phase(conn: Connection, phase: str, *, chat_id: str | None = None) -> list[TurnRow]:
        """Turns in `phase` (of one chat, or of all chats), oldest first."""
        query = select(turns).where(turns.c.phase == phase)
        if chat_id is not None:
            query = query.where(turns.c.chat_id == chat_id)
        rows = conn.execute(query.order_by(turns.c.created_at, turns.c.turn_id)).mappings().all()
        return [TurnRow.from_row(r) for r in rows]

    @staticmethod
    def insert_turn(conn: Connection, values: Mapping[str, Any]) -> None:
        """Insert a turn row (`message` and `prior` as JSON values)."""
        conn.execute(insert(turns).values(**_encode_turn_values(values)))

    @staticmethod
    def update_turn(conn: Connection, turn_id: str, values: Mapping[str, Any]) -> None:
        """Update some columns of a turn (`message` and `prior` as JSON values)."""
        conn.execute(update(turns).where(turns.c.turn_id == turn_id).values(**_encode_turn_values(values)))

    # ---- the UI message stream --------------------------------------------------------------------

    @staticmethod
    def append_chunks(
        conn: Connection, turn_id: str, segment: int, first_sequence: int, chunks: Sequence[Mapping[str, Any]], now: str
    ) -> int:
        """Store `chunks` as events `first_sequence`, `first_sequence + 1`, …; returns the last sequence."""
        sequence = first_sequence - 1
        rows = []
        for chunk in chunks:
            sequence += 1
            rows.append(
                {
                    "turn_id": turn_id,
                    "sequence": sequence,
                    "segment": segment,
                    "chunk": json_text(chunk),
                    "created_at": now,
                }
            )
        if rows:
            conn.execute(insert(stream_events), rows)
        return sequence

    @staticmethod
    def stream_after(conn: Connection, turn_id: str, after: int, limit: int = 10_000) -> list[StreamEventRow]:
        """The turn's events with a sequence above `after`, in order (at most `limit`)."""
        query = (
            select(stream_events.c.sequence, stream_events.c.segment, stream_events.c.chunk)
            .where(stream_events.c.turn_id == turn_id, stream_events.c.sequence > after)
            .order_by(stream_events.c.sequence)
            .limit(limit)
        )
        return [StreamEventRow(r.sequence, r.segment, _json_object(r.chunk)) for r in conn.execute(query)]

    @staticmethod
    def segment_chunks(conn: Connection, turn_id: str, segment: int) -> list[dict[str, Any]]:
        """Every chunk of one segment of the turn's stream, in order."""
        query = (
            select(stream_events.c.chunk)
            .where(stream_events.c.turn_id == turn_id, stream_events.c.segment == segment)
            .order_by(stream_events.c.sequence)
        )
        return [_json_object(text) for text in conn.execute(query).scalars()]

    # ---- the session timeline ---------------------------------------------------------------------

    @staticmethod
    def add_session_event(conn: Connection, chat_id: str, turn_id: str, event: Mapping[str, Any]) -> None:
        """Append one encoded session event (a JSON object with `event_id` and `kind`) to the timeline."""
        conn.execute(
            insert(session_events).values(
                event_id=event["event_id"], chat_id=chat_id, turn_id=turn_id, kind=event["kind"], body=json_text(event)
            )
        )

    @staticmethod
    def session_events(conn: Connection, turn_id: str) -> list[dict[str, Any]]:
        """The turn's session events, in the order they were recorded."""
        query = (
            select(session_events.c.body).where(session_events.c.turn_id == turn_id).order_by(session_events.c.position)
        )
        return [_json_object(text) for text in conn.execute(query).scalars()]

    @staticmethod
    def count_session_events(conn: Connection, turn_id: str, kind: str) -> int:
        """How many events of `kind` the turn's timeline holds."""
        query = select(func.count()).where(session_events.c.turn_id == turn_id, session_events.c.kind == kind)
        return int(conn.execute(query).scalar_one())


def _encode_turn_values(values: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(values)
    for key in ("message", "prior"):
        if key in out and out[key] is not None and not isinstance(out[key], str):
            out[key] = json_text(out[key])
    return out
