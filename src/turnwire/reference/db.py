"""The reference runtime's tables and engines: one SQLAlchemy Core code path for SQLite and PostgreSQL.

Why Core and one schema: the runtime must behave the same on a laptop (a SQLite file, the default) and
on a server database (PostgreSQL), and the interesting part — a resume applied exactly once under
concurrency — must not depend on which one it is. So every query is written once; the dialects differ
only in how a *write transaction* takes its lock, which is set up here and nowhere else:

* **SQLite**: WAL (readers never block the writer), a busy timeout (a writer waits for the lock
  instead of failing with "database is locked"), and every write transaction opened with
  `BEGIN IMMEDIATE`, so it holds the database's write lock from its first statement. A deferred
  `BEGIN` that later upgrades to a write can fail at once with SQLITE_BUSY, which the busy timeout does
  not cover; `BEGIN IMMEDIATE` is what makes the timeout apply. `synchronous=NORMAL` keeps every
  committed transaction across a process crash (SIGKILL), which is the durability the runtime needs.
* **PostgreSQL** (psycopg 3): writers lock the chat's row with `SELECT … FOR UPDATE`
  (`with_for_update()`, which SQLite ignores: there the whole database is already locked). Lock and
  statement timeouts bound every wait.

The session row is the chat's row (`tw_chats`): it holds the chat's session snapshot (version 2, the
pending tool call), and every write to a chat's turns locks it first, always in that order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

__all__ = [
    "BUSY_TIMEOUT_S",
    "WRITE",
    "chats",
    "create_schema",
    "make_engine",
    "metadata",
    "normalise_url",
    "session_events",
    "stream_events",
    "turns",
]

BUSY_TIMEOUT_S: Final = 15.0
"""How long a writer waits for the database's write lock (SQLite) or a row lock (PostgreSQL)."""

STATEMENT_TIMEOUT_S: Final = 30.0
"""PostgreSQL: no statement runs longer than this."""

WRITE: Final = "turnwire_write"
"""Execution option marking a connection whose transaction writes (SQLite: `BEGIN IMMEDIATE`)."""

metadata = MetaData()

_ID = 200
_TIME = 40

chats = Table(
    "tw_chats",
    metadata,
    Column("chat_id", String(_ID), primary_key=True),
    # The session snapshot (AgentSessionSnapshot v2) as JSON text, as stored: the runtime writes only
    # version 2, but reads whatever is there, so a planted legacy snapshot is refused, not repaired.
    Column("state_snapshot", Text, nullable=True),
    Column("created_at", String(_TIME), nullable=False),
    Column("updated_at", String(_TIME), nullable=False),
)

turns = Table(
    "tw_turns",
    metadata,
    Column("turn_id", String(_ID), primary_key=True),
    Column("chat_id", String(_ID), ForeignKey("tw_chats.chat_id"), nullable=False),
    Column("profile", String(16), nullable=False),
    Column("scenario", String(_ID), nullable=False),
    Column("query", Text, nullable=False),
    Column("client_idempotency_key", String(_ID), nullable=True),
    Column("approval_ttl_s", Float, nullable=False),
    Column("status", String(16), nullable=False),
    # the scripted model's position: "done", "awaiting-approval" or "continuing" (decision applied,
    # continuation not yet played: a crash between the two is finished on the next access)
    Column("phase", String(24), nullable=False),
    Column("segment", Integer, nullable=False),
    Column("segment_closed", Boolean, nullable=False),
    Column("last_sequence", Integer, nullable=False),
    Column("message", Text, nullable=False),  # the folded UIMessage of the turn (JSON)
    Column("prior", Text, nullable=True),  # the message the current segment continues (JSON)
    Column("interrupt_id", String(_ID), nullable=True),
    Column("expires_at", String(_TIME), nullable=True),
    Column("error_text", Text, nullable=True),
    Column("created_at", String(_TIME), nullable=False),
    Column("updated_at", String(_TIME), nullable=False),
    Column("started_at", String(_TIME), nullable=True),
    Column("finished_at", String(_TIME), nullable=True),
    UniqueConstraint("chat_id", "client_idempotency_key", name="uq_tw_turns_idempotency"),
    Index("ix_tw_turns_chat", "chat_id"),
)

stream_events = Table(
    "tw_stream_events",
    metadata,
    Column("turn_id", String(_ID), ForeignKey("tw_turns.turn_id"), primary_key=True),
    Column("sequence", Integer, primary_key=True),
    Column("segment", Integer, nullable=False),
    Column("chunk", Text, nullable=False),  # the chunk's RFC 8785 JSON
    Column("created_at", String(_TIME), nullable=False),
)

session_events = Table(
    "tw_session_events",
    metadata,
    Column("position", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(_ID), nullable=False, unique=True),
    Column("chat_id", String(_ID), ForeignKey("tw_chats.chat_id"), nullable=False),
    Column("turn_id", String(_ID), ForeignKey("tw_turns.turn_id"), nullable=False),
    Column("kind", String(_ID), nullable=False),
    Column("body", Text, nullable=False),  # the encoded SessionEvent (JSON)
    Index("ix_tw_session_events_turn", "turn_id", "position"),
)


def normalise_url(url: str) -> str:
    """A database URL SQLAlchemy can open: a bare path means a SQLite file; PostgreSQL uses psycopg 3.

    Raises ValueError for an in-memory SQLite database (each pooled connection would see its own empty
    database) and for any other backend.
    """
    text = url.strip()
    if not text:
        raise ValueError("empty database URL")
    if "://" not in text:
        text = "sqlite:///" + text
    try:
        parsed: URL = make_url(text)
    except ArgumentError as exc:
        raise ValueError(f"not a database URL: {url!r} ({exc})") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:") or (parsed.database or "").startswith("file::memory:"):
            raise ValueError("an in-memory SQLite database cannot be shared by the server's threads; give a file path")
        return parsed.set(drivername="sqlite+pysqlite").render_as_string(hide_password=False)
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise ValueError(f"unsupported database {backend!r}: use a SQLite file path or a postgresql:// URL")


def _sqlite_on_connect(busy_timeout_s: float) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's own implicit BEGIN is deferred).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    return on_connect


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE) else "BEGIN")


def make_engine(url: str, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Engine:
    """An engine for `url` (see `normalise_url`) with the runtime's locking and timeouts set up.

    `busy_timeout_s` bounds every wait for a lock (and for a pooled connection).
    """
    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(
            parsed,
            connect_args={"check_same_thread": False, "timeout": busy_timeout_s},
            pool_size=8,
            max_overflow=24,
            pool_timeout=max(busy_timeout_s, 1.0),
        )
        event.listen(engine, "connect", _sqlite_on_connect(busy_timeout_s))
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    lock_ms = max(int(busy_timeout_s * 1000), 1)
    options = f"-c lock_timeout={lock_ms} -c statement_timeout={int(STATEMENT_TIMEOUT_S * 1000)}"
    return create_engine(
        parsed,
        connect_args={"connect_timeout": 10, "options": options},
        pool_size=5,
        max_overflow=25,
        pool_timeout=max(busy_timeout_s, 1.0),
        pool_pre_ping=True,
    )


_SCHEMA_LOCK: Final = 0x7475726E  # PostgreSQL advisory lock key ("turn") guarding table creation


def create_schema(engine: Engine) -> None:
    """Create the runtime's tables if they do not exist (idempotent, safe for servers starting together).

    SQLite serialises the creation with `BEGIN IMMEDIATE`; PostgreSQL with a transaction-scoped
    advisory lock, since two `CREATE TABLE IF NOT EXISTS` can still collide there.
    """
    with engine.connect() as conn:
        conn.execution_options(**{WRITE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_SCHEMA_LOCK})")
            metadata.create_all(conn, checkfirst=True)
