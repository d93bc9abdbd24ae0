"""`veritype daemon`: a checker process that keeps its program between runs (a driver, beside `check`).

    veritype daemon start | stop | status | restart
    veritype daemon check [FLAGS] [PATHS...]   (starts the daemon if needed)

`check` takes the flags and paths of `veritype check` and prints exactly what
it would print, with the same exit status; the work is done by the daemon,
which holds one engine workspace (`veritype.engine.workspace.Snapshot`, the
one the language server uses) per directory and options. A file unchanged
since the last run answers from memory, unless an edit changed a name it
uses (fine-grained dependencies); a file whose edit stays inside one
function body re-checks only that body; other edits re-load the file. The daemon listens on a Unix socket named after the user
and the directory it was started for, serves one request at a time, and
exits on `stop`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any, TextIO

_STARTUP_WAIT = 30.0  # seconds a starting daemon has to open its socket


class DaemonError(Exception):
    """The daemon could not be reached or started."""


def socket_path(cwd: str) -> str:
    key = hashlib.sha256(os.path.abspath(cwd).encode()).hexdigest()[:16]
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(tempfile.gettempdir(), f"veritype-{uid}-{key}.sock")


# -- the client --------------------------------------------------------------------------


def _request(path: str, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        s.sendall(json.dumps(message).encode() + b"\n")
        data = _read_line(s)
    if not data:
        raise DaemonError("the daemon closed the connection without an answer")
    reply: dict[str, Any] = json.loads(data)
    return reply


def _alive(path: str) -> bool:
    try:
        return bool(_request(path, {"cmd": "ping"}, timeout=5).get("ok"))
    except (OSError, ValueError, DaemonError):
        return False


def start(cwd: str) -> str:
    """Start the daemon for `cwd` unless it runs; returns a line to show."""
    path = socket_path(cwd)
    if _alive(path):
        return f"Daemon is already running (socket {path})"
    log = open(path + ".log", "ab")  # noqa: SIM115 - handed to the daemon process
    subprocess.Popen(
        [sys.executable, "-m", "veritype", "daemon", "serve", path],
        cwd=cwd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
    )
    deadline = time.monotonic() + _STARTUP_WAIT
    while time.monotonic() < deadline:
        if _alive(path):
            return f"Daemon started (socket {path})"
        time.sleep(0.05)
    raise DaemonError(f"the daemon did not start; see {path}.log")


def stop(cwd: str) -> str:
    path = socket_path(cwd)
    if not _alive(path):
        return "Daemon is not running"
    try:
        _request(path, {"cmd": "stop"}, timeout=10)
    except (OSError, DaemonError):
        pass
    return "Daemon stopped"


def status(cwd: str) -> tuple[str, bool]:
    path = socket_path(cwd)
    if not _alive(path):
        return "Daemon is not running", False
    reply = _request(path, {"cmd": "ping"}, timeout=5)
    return f"Daemon is running (pid {reply.get('pid')}, socket {path})", True


def check(argv: list[str], cwd: str, stdout: TextIO, stderr: TextIO) -> int:
    path = socket_path(cwd)
    if not _alive(path):
        start(cwd)
    reply = _request(path, {"cmd": "check", "argv": argv, "cwd": cwd})
    stdout.write(reply.get("stdout", ""))
    stderr.write(reply.get("stderr", ""))
    return int(reply.get("status", 2))


def main(argv: list[str], cwd: str, stdout: TextIO, stderr: TextIO) -> int:
    """`veritype daemon ...` (argv without `daemon`)."""
    sub = argv[0] if argv else ""
    if sub == "serve" and len(argv) == 2:
        serve(argv[1])
        return 0
    if sub == "check":
        return check(argv[1:], cwd, stdout, stderr)
    if sub in ("start", "stop", "status", "restart") and len(argv) == 1:
        if sub == "start":
            stdout.write(start(cwd) + "\n")
        elif sub == "stop":
            stdout.write(stop(cwd) + "\n")
        elif sub == "restart":
            stop(cwd)
            _wait_gone(socket_path(cwd))
            stdout.write(start(cwd) + "\n")
        else:
            line, running = status(cwd)
            stdout.write(line + "\n")
            return 0 if running else 1
        return 0
    from veritype.cli.flags import UsageError

    raise UsageError("usage: veritype daemon start|stop|status|restart, or veritype daemon check [FLAGS] [PATHS...]")


def _wait_gone(path: str) -> None:
    deadline = time.monotonic() + 10
    while _alive(path) and time.monotonic() < deadline:
        time.sleep(0.05)


# -- the daemon ----------------------------------------------------------------------------


class Engine:
    """The engine workspaces of `veritype check` runs, kept between runs: the
    daemon's (one request at a time, over its socket) and `watch`'s (in its
    own process)."""

    def __init__(self) -> None:
        from veritype.engine.heap import Heap

        self.workspaces: dict[tuple[str, str], Any] = {}
        # The program is millions of long-lived objects: collected and frozen
        # between requests (engine.heap), so that neither a check nor the
        # collection after it walks all of them again.
        self.heap = Heap()

    def idle(self) -> None:
        """Between requests: collect the garbage of the last one."""
        self.heap.idle()

    def check(self, argv: list[str], cwd: str) -> dict[str, Any]:
        out, err = io.StringIO(), io.StringIO()
        real_err = sys.stderr
        sys.stderr = err  # the checker's warnings go to the client's stderr
        try:
            from veritype.engine.deep_stack import call_with_deep_stack

            # As `veritype check` does (engine.build.run): deeply nested code must not lose the run.
            status = call_with_deep_stack(lambda: self._check(argv, cwd, out))
        except SystemExit as exc:  # argparse's --help and the like must not end the daemon
            status = exc.code if isinstance(exc.code, int) else 2
        except Exception as exc:  # noqa: BLE001 - the CLI's own error handling, in the daemon
            from veritype.cli.flags import UsageError
            from veritype.config.loader import ConfigError
            from veritype.modules.discover import DiscoveryError

            if isinstance(exc, (UsageError, ConfigError, DiscoveryError)):
                err.write(f"veritype: error: {exc}\n")
            else:
                err.write(f"veritype: internal error: {type(exc).__name__}: {exc}\n")
                self.workspaces.clear()  # start afresh: a failed run may have left a half state
            status = 2
        finally:
            sys.stderr = real_err
        return {"stdout": out.getvalue(), "stderr": err.getvalue(), "status": status}

    def _check(self, argv: list[str], cwd: str, stdout: TextIO) -> int:
        from veritype.cli.flags import UsageError, options_from_args, parse_args, set_default_cache_dir
        from veritype.cli.main import EXIT_CLEAN, EXIT_ERRORS, _collect_sources, _warn, write_report
        from veritype.engine.workspace import Snapshot, check_documents

        started = time.monotonic()

        ns = parse_args(argv)
        if getattr(ns, "watch", False) or getattr(ns, "stats", False) or getattr(ns, "commands", None) or getattr(ns, "install_types", False):
            raise UsageError("veritype daemon check does not take --watch, --stats, -c or --install-types")
        cwd = os.path.abspath(cwd)
        options = options_from_args(ns, cwd, _warn)
        set_default_cache_dir(options, cwd)
        sources = _collect_sources(ns, options, cwd)
        key = (cwd, repr(options))
        snap = self.workspaces.get(key)
        if snap is None:
            snap = Snapshot({}, cwd, options)
            self.workspaces = {key: snap}  # one set of options at a time: memory stays bounded
        texts: dict[str, str] = {}
        for src in sources:
            path = os.path.abspath(src.path)
            if src.text is not None:
                texts[path] = src.text
            else:
                from veritype.syntax.read_files import read_source

                try:
                    texts[path] = read_source(path)
                except (OSError, UnicodeDecodeError, SyntaxError):
                    texts[path] = ""
        # Edits first, then each file from memory unless an edit changed
        # what it uses (engine.workspace.check_documents).
        results = check_documents(snap, texts)
        found = [d for path in sorted(results) for d in results[path]]
        # Paths as the sources name them (relative ones stay relative), as `veritype check` prints them.
        shown = {os.path.abspath(s.path): s.path for s in sources}
        found = [dataclasses.replace(d, path=shown.get(os.path.abspath(d.path), d.path)) for d in found]
        printed = write_report(found, sources, len(sources), options, stdout, started, cwd)
        return EXIT_ERRORS if any(d.severity == "error" for d in printed) else EXIT_CLEAN


def serve(path: str) -> None:
    """Run the daemon on the Unix socket `path` until a `stop` request."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    daemon = Engine()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(path)
        os.chmod(path, 0o600)  # the user's own checker only
        server.listen(8)
        try:
            while True:
                conn, _ = server.accept()
                with conn:
                    data = _read_line(conn)
                    try:
                        message = json.loads(data or b"{}")
                    except ValueError:
                        message = {}
                    cmd = message.get("cmd")
                    if cmd == "ping":
                        reply: dict[str, Any] = {"ok": True, "pid": os.getpid()}
                    elif cmd == "check":
                        reply = daemon.check(list(message.get("argv", [])), str(message.get("cwd", os.getcwd())))
                    elif cmd == "stop":
                        conn.sendall(json.dumps({"ok": True}).encode() + b"\n")
                        return
                    else:
                        reply = {"ok": False, "error": f"unknown request {cmd!r}"}
                    try:
                        conn.sendall(json.dumps(reply).encode() + b"\n")
                    except OSError:
                        pass  # the client went away
                if cmd == "check":
                    daemon.idle()
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass


def _read_line(sock: socket.socket) -> bytes:
    """One newline-terminated message from `sock` (what came before the peer
    closed, if it closed first)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data
