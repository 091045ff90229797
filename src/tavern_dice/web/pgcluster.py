"""A throwaway PostgreSQL cluster for tests and benchmarks: Debian's ``initdb`` and
``pg_ctl`` in a temporary folder, on a free port of 127.0.0.1, as an unprivileged user
(PostgreSQL refuses to run as root; as root we run it as ``nobody``), removed on
:meth:`Cluster.stop`.

    cluster = Cluster.start()            # raises ClusterUnavailable(reason)
    url = cluster.create_database("t1")  # postgresql+psycopg://tavern@127.0.0.1:PORT/t1
    ...
    cluster.stop()
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SUPERUSER = "tavern"
FAST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
"""For tests: a cluster thrown away after the run need not survive a power cut."""


class ClusterUnavailable(Exception):
    """PostgreSQL cannot be started here; the message says why."""


def find_binary(name: str) -> str | None:
    """``initdb``/``pg_ctl`` on the PATH, else Debian's ``/usr/lib/postgresql/*/bin``."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Cluster:
    """A running throwaway cluster (superuser ``tavern``, trust authentication, only on
    127.0.0.1 and a socket in its own folder)."""

    root: Path
    port: int
    pg_ctl: str
    run_as: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, settings: Sequence[str] = FAST_SETTINGS) -> Cluster:
        """Create and start a cluster (``settings``: ``name=value`` server settings).

        Raises:
            ClusterUnavailable: no PostgreSQL binaries, no psycopg, or the server did
                not start (with its log's last lines).
        """
        initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise ClusterUnavailable("PostgreSQL's initdb/pg_ctl are not installed "
                                     "(apt-get install postgresql)")
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise ClusterUnavailable("psycopg is not installed "
                                     "(pip install 'tavern-dice[postgres]')") from None
        root = Path(tempfile.mkdtemp(prefix="tavern-pg-"))
        run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(root, nobody.pw_uid, nobody.pw_gid)
            run_as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        cluster = cls(root, free_port(), pg_ctl, run_as)
        data, log = root / "data", root / "server.log"
        try:
            cluster._run([initdb, "-D", str(data), "-U", SUPERUSER, "--auth=trust",
                          "--encoding=UTF8", "--no-instructions"])
            options = [f"-p {cluster.port}", "-c listen_addresses=127.0.0.1",
                       f"-c unix_socket_directories={root}", "-c max_connections=300",
                       *(f"-c {s}" for s in settings)]
            cluster._run([pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60",
                          "-o", " ".join(options), "start"])
        except (OSError, subprocess.CalledProcessError) as error:
            tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
            detail = getattr(error, "stderr", "") or ""
            shutil.rmtree(root, ignore_errors=True)
            raise ClusterUnavailable(f"PostgreSQL did not start: {error} {detail} {tail}"
                                     .strip()) from None
        return cluster

    def _run(self, command: list[str]) -> None:
        # cwd: the server's user may not be allowed to read the current folder.
        subprocess.run(command, check=True, capture_output=True, text=True, cwd=self.root,
                       env={**os.environ, "LC_ALL": "C.UTF-8"}, timeout=120,
                       **self.run_as)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={SUPERUSER} "
                             "dbname=postgres", autocommit=True) as conn:
            conn.execute(sql.encode())  # names checked by the callers

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        if not name.replace("_", "").isalnum():
            raise ValueError(f"database names here are letters, digits and _: {name!r}")
        self._admin(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        if not name.replace("_", "").isalnum():
            raise ValueError(f"database names here are letters, digits and _: {name!r}")
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        try:
            self._run([self.pg_ctl, "-D", str(self.root / "data"), "-m", "immediate",
                       "-w", "stop"])
        except (OSError, subprocess.CalledProcessError):
            pass
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
