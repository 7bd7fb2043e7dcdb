"""Databases and servers for the reference runtime's tests.

Every test runs on SQLite and on PostgreSQL (the `db_url` fixture is parametrised over both).

PostgreSQL: a server on 127.0.0.1:5432 that answers (trust auth, user postgres) is used as it is. When
none answers — a fresh machine — the set-up installs Debian's `postgresql` package (`apt-get`, as root)
and starts its cluster with `pg_ctlcluster`, giving the `postgres` role a password if the new cluster
does not trust local TCP connections. If that cannot be done the PostgreSQL tests are skipped with the
reason — unless the `CI` environment variable is set: CI must run them, so there it is a failure.
Either way each test run creates its own database (`tw_ref_<random>`) and drops it at the end, so
parallel or earlier runs never see each other's rows. `TURNWIRE_TEST_PG` names another admin DSN.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from turnwire.reference import ReferenceServer

PG_HOST = "127.0.0.1"
PG_PORT = 5432
PG_PASSWORD = "turnwire-test"
_APT_TIMEOUT_S = 900


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def _answers(dsn: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(dsn, connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.Error:
        return False


def _candidates(port: int = PG_PORT) -> list[str]:
    base = f"postgresql://postgres@{PG_HOST}:{port}"
    with_password = f"postgresql://postgres:{PG_PASSWORD}@{PG_HOST}:{port}"
    return [f"{base}/postgres", f"{base}/test", f"{with_password}/postgres"]


def _run(command: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, check=False)


def _install_and_start() -> tuple[str | None, str]:
    """Install and start Debian's PostgreSQL; returns (admin DSN, "") or (None, why not)."""
    if os.name != "posix" or os.geteuid() != 0:
        return None, "no PostgreSQL answers on 127.0.0.1:5432 and installing one needs root"
    if shutil.which("pg_ctlcluster") is None:
        if shutil.which("apt-get") is None:
            return None, "no PostgreSQL answers on 127.0.0.1:5432 and apt-get is not available to install one"
        for step in (["apt-get", "update"], ["apt-get", "install", "-y", "postgresql"]):
            done = _run(step, _APT_TIMEOUT_S)
            if done.returncode != 0:
                return None, f"`{' '.join(step)}` failed: {(done.stderr or done.stdout).strip()[-300:]}"
    listed = _run(["pg_lsclusters", "--no-header"], 60).stdout.split()
    if len(listed) < 3:
        versions = sorted(p.name for p in Path("/usr/lib/postgresql").glob("*") if p.name.isdigit())
        if not versions:
            return None, "postgresql is installed but no server version was found under /usr/lib/postgresql"
        _run(["pg_createcluster", versions[-1], "main"], 120)
        listed = _run(["pg_lsclusters", "--no-header"], 60).stdout.split()
    if len(listed) < 3:
        return None, "no PostgreSQL cluster could be created"
    version, cluster, port = listed[0], listed[1], int(listed[2])
    started = _run(["pg_ctlcluster", "--skip-systemctl-redirect", version, cluster, "start"], 120)
    if started.returncode != 0 and "already running" not in started.stderr:
        return None, f"pg_ctlcluster could not start the cluster: {started.stderr.strip()[-300:]}"
    for dsn in _candidates(port):
        if _answers(dsn):
            return dsn, ""
    sql = f"ALTER ROLE postgres PASSWORD '{PG_PASSWORD}'"
    _run(["runuser", "-u", "postgres", "--", "psql", "-p", str(port), "-v", "ON_ERROR_STOP=1", "-c", sql], 60)
    for dsn in _candidates(port):
        if _answers(dsn):
            return dsn, ""
    return None, "the PostgreSQL cluster started but refuses the test's connections"


@pytest.fixture(scope="session")
def postgres_admin_dsn() -> str:
    """A DSN of a PostgreSQL role that may create databases (found, or installed and started)."""
    override = os.environ.get("TURNWIRE_TEST_PG")
    found = next((dsn for dsn in ([override] if override else _candidates()) if _answers(dsn)), None)
    why = ""
    if found is None and not override:
        found, why = _install_and_start()
    if found is None:
        reason = why or f"TURNWIRE_TEST_PG={override!r} does not answer"
        if _in_ci():
            pytest.fail(f"PostgreSQL is required in CI: {reason}")
        pytest.skip(f"PostgreSQL unavailable: {reason}")
    return found


@pytest.fixture(scope="session")
def postgres_url(postgres_admin_dsn: str) -> Iterator[str]:
    """A fresh database for this test run (dropped at the end), as a SQLAlchemy URL."""
    import psycopg
    from psycopg import sql

    name = f"tw_ref_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_admin_dsn, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    base, _, _ = postgres_admin_dsn.rpartition("/")
    try:
        yield f"{base.replace('postgresql://', 'postgresql+psycopg://', 1)}/{name}"
    finally:
        with psycopg.connect(postgres_admin_dsn, autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The database of one backend for this run: a SQLite file, or the run's PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("reference-sqlite") / "reference.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(scope="session")
def server(db_url: str) -> Iterator[ReferenceServer]:
    """A reference runtime on an ephemeral loopback port, on `db_url` (shared by the run's tests)."""
    with ReferenceServer(db_url, test_hooks=True) as running:
        yield running
