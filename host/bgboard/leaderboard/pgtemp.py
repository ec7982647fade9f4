"""A throwaway PostgreSQL cluster (Debian's server binaries, initdb + pg_ctl) in a temporary
folder on a free port, for the leaderboard's tests and `bgboard bench leaderboard`. PostgreSQL
will not run as root: as root, the cluster runs as the `postgres` user Debian's package makes."""

import glob
import os
import shutil
import socket
import subprocess
import tempfile


class Unavailable(Exception):
    """PostgreSQL's server programs are not installed here (the message says how to get them)."""


def server_bin():
    """The folder holding initdb and pg_ctl, or Unavailable."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return os.path.dirname(os.path.realpath(found))
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, "initdb")):
            return d
    raise Unavailable("PostgreSQL's server is not installed (initdb not found; Debian: apt-get "
                      "install postgresql, which tools/dev test does)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """`with Cluster() as pg:` a running server; `pg.url(db)` a SQLAlchemy URL for psycopg."""

    def __init__(self):
        self.bin = server_bin()
        self.dir = tempfile.mkdtemp(prefix="bgboard-pg-")
        self.port = free_port()
        self.user = None
        if os.geteuid() == 0:
            import pwd
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and there is no 'postgres' user to run "
                                  "PostgreSQL as (Debian's postgresql package makes one)")
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
            os.chmod(self.dir, 0o755)
        self.data = os.path.join(self.dir, "data")
        self.started = False

    def _run(self, *args, timeout=120):
        cmd = [os.path.join(self.bin, args[0])] + list(args[1:])
        kw = {}
        if self.user:
            uid, gid = self.user.pw_uid, self.user.pw_gid

            def demote():
                os.setgid(gid)
                os.setuid(uid)
            kw["preexec_fn"] = demote
        env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                             cwd=self.dir, **kw)
        if out.returncode:
            raise RuntimeError("%s failed: %s" % (args[0], (out.stderr or out.stdout).strip()))
        return out

    def start(self):
        self._run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")
        opts = ("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=60"
                % (self.port, self.dir))
        self._run("pg_ctl", "-D", self.data, "-o", opts, "-l", os.path.join(self.dir, "log"),
                  "-w", "-t", "60", "start")
        self.started = True
        return self

    def create_database(self, name):
        import sqlalchemy as sa
        engine = sa.create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        with engine.connect() as c:
            c.exec_driver_sql('DROP DATABASE IF EXISTS "%s"' % name)
            c.exec_driver_sql('CREATE DATABASE "%s"' % name)
        engine.dispose()
        return self.url(name)

    def url(self, db):
        return "postgresql+psycopg://postgres@127.0.0.1:%d/%s" % (self.port, db)

    def stop(self):
        if self.started:
            try:
                self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
