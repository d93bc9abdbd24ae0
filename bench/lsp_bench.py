"""Drive language servers over stdio the same way and time their answers.

    python bench/lsp_bench.py --root DIR --file rich/console.py [--basedpyright CMD] [--json OUT]

For each server (veritype's `veritype lsp`, and basedpyright's
`basedpyright-langserver --stdio` when given or on PATH): initialize on
`--root`, open `--file`, and measure
- open: didOpen to the first diagnostics for the file;
- hover, completion (after `self.`), definition: request to answer, first
  and then the median of 5 more (warm);
- edit: a change adding a type error inside a method body, to diagnostics
  showing it; then the change undone, to diagnostics without it (median of
  3 each). That is what a user waits for after typing. A hover sent right
  after each change is timed too (the server must take in the new text).
The positions are found by text markers in the file (defaults fit rich's
console.py), so both servers get identical requests. Prints a Markdown
table; `--json` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import Any

HOVER = ("new_segments: List[Segment] = []", 0)
COMPLETE = ("return self.get_style(default)", len("return self."))
DEFINE = ("for line in Segment.split_and_crop_lines(", len("for line in Segment.spl"))
# The edit: a line with a type error, inserted after the line of this marker.
EDIT_AFTER = "            new_segments: List[Segment] = []"
EDIT_LINE = "            __bench_n: int = 'not an int'\n"


class Server:
    """A minimal JSON-RPC client over a server's stdin/stdout."""

    def __init__(self, cmd: list[str], cwd: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.responses: dict[int, Queue[Any]] = {}
        self.notifications: Queue[dict[str, Any]] = Queue()
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        with self._lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:
                self._answer(message)  # a request from the server
            elif "id" in message:
                q = self.responses.get(message["id"])
                if q is not None:
                    q.put(message)
            else:
                self.notifications.put(message)

    def _answer(self, request: dict[str, Any]) -> None:
        method = request["method"]
        result: Any = None
        if method == "workspace/configuration":
            result = [None for _ in request["params"]["items"]]
        self._send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def request(self, method: str, params: Any, timeout: float = 120) -> Any:
        self.next_id += 1
        q: Queue[Any] = Queue()
        self.responses[self.next_id] = q
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        reply = q.get(timeout=timeout)
        return reply.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_diagnostics(self, uri: str, predicate: Any, timeout: float = 300) -> list[Any]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                msg = self.notifications.get(timeout=max(deadline - time.monotonic(), 0.01))
            except Empty:
                raise TimeoutError(f"no diagnostics for {uri}") from None
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                diags = msg["params"]["diagnostics"]
                if predicate(diags):
                    return diags

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 - a server that will not stop is killed
            self.proc.kill()


def position(text: str, marker: str, offset: int) -> dict[str, int]:
    index = text.index(marker) + offset
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1000, result


def bench_server(name: str, cmd: list[str], root: Path, file: Path) -> dict[str, float]:
    text = file.read_text()
    uri = file.resolve().as_uri()
    server = Server(cmd, str(root))
    server.request("initialize", {
        "processId": os.getpid(), "rootUri": root.resolve().as_uri(),
        "workspaceFolders": [{"uri": root.resolve().as_uri(), "name": root.name}],
        "capabilities": {"textDocument": {"publishDiagnostics": {}, "hover": {"contentFormat": ["markdown"]}}},
    })
    server.notify("initialized", {})
    out: dict[str, float] = {}
    doc = {"uri": uri}
    start = time.perf_counter()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
    server.wait_diagnostics(uri, lambda d: True)
    out["open"] = (time.perf_counter() - start) * 1000
    queries = {
        "hover": ("textDocument/hover", {"textDocument": doc, "position": position(text, *HOVER)}),
        "completion": ("textDocument/completion", {"textDocument": doc, "position": position(text, *COMPLETE)}),
        "definition": ("textDocument/definition", {"textDocument": doc, "position": position(text, *DEFINE)}),
    }
    for key, (method, params) in queries.items():
        first, result = timed(lambda: server.request(method, params))
        warm = [timed(lambda: server.request(method, params))[0] for _ in range(5)]
        out[f"{key} first"] = first
        out[key] = statistics.median(warm)
        if not result:
            print(f"  {name}: {key} gave no answer", file=sys.stderr)
    version = 1
    edited = text.replace(EDIT_AFTER + "\n", EDIT_AFTER + "\n" + EDIT_LINE, 1)
    bad_line = position(edited, EDIT_LINE.strip(), 0)["line"]
    adds, removes, hovers = [], [], []
    hover_method, hover_params = queries["hover"]
    for _ in range(3):
        for new_text, wanted, times in ((edited, True, adds), (text, False, removes)):
            version += 1
            start = time.perf_counter()
            server.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": new_text}],
            })

            def shows(diags: list[Any], wanted: bool = wanted) -> bool:
                return any(d["range"]["start"]["line"] == bad_line for d in diags) == wanted

            if wanted:
                # A hover right after the keystroke, before the check: the
                # new text must be loaded to answer it (the marker is above the edit).
                hovers.append(timed(lambda: server.request(hover_method, hover_params))[0])
            server.wait_diagnostics(uri, shows)
            times.append((time.perf_counter() - start) * 1000)
    out["edit (error appears)"] = statistics.median(adds)
    out["edit (error goes)"] = statistics.median(removes)
    out["hover right after an edit"] = statistics.median(hovers)
    server.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, type=Path)
    parser.add_argument("--file", default="rich/console.py")
    parser.add_argument("--veritype", default=f"{sys.executable} -m veritype lsp")
    parser.add_argument("--basedpyright", default=shutil.which("basedpyright-langserver") and "basedpyright-langserver --stdio")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    file = args.root / args.file
    servers = {"veritype": args.veritype.split()}
    if args.basedpyright:
        servers["basedpyright"] = args.basedpyright.split()
    results = {name: bench_server(name, cmd, args.root, file) for name, cmd in servers.items()}
    lines = len(file.read_text().splitlines())
    names = list(results)
    print(f"{args.file} ({lines:,} lines), times in ms (warm: median of 5; edit: median of 3)\n")
    print("| measure | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for key in results[names[0]]:
        print(f"| {key} | " + " | ".join(f"{results[n].get(key, float('nan')):,.0f}" for n in names) + " |")
    if args.json:
        args.json.write_text(json.dumps({"file": args.file, "lines": lines, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
