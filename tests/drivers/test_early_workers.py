"""Workers forked before parsing (veritype/engine/early_workers.py): the parent
never parses the sources, the followed modules and their order are a serial
run's, and so are the diagnostics and the cache written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import veritype.engine.workers as workers_module
from veritype.engine.build import run
from veritype.engine.fork_pool import ForkPool
from veritype.modules.sources import BuildSource

from test_workers import FILES, _cache_contents, options, sources, write

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes need fork")


@pytest.fixture(autouse=True)
def small_programs_in_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers_module, "CHARS_PER_WORKER", 1)


@pytest.fixture
def parsed_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files parsed in this process (a worker's parses are its own)."""
    import veritype.evaluate.program as program_module

    parent = os.getpid()
    seen: list[str] = []
    real = program_module.parse_file

    def spy(path: str):  # type: ignore[no-untyped-def]
        if os.getpid() == parent:
            seen.append(path)
        return real(path)

    monkeypatch.setattr(program_module, "parse_file", spy)
    return seen


@pytest.mark.parametrize("cache", [False, True])
def test_the_parent_parses_no_source(tmp_path: Path, parsed_here: list[str], cache: bool) -> None:
    root = tmp_path / "proj"
    write(root, FILES)
    flags = [] if cache else ["--no-incremental"]
    serial = run(sources(root), options(root, "--no-incremental"))
    parsed_here.clear()
    parallel = run(sources(root), options(root, *flags, "-n", "2"), release_bodies=True)
    assert parallel.diagnostics == serial.diagnostics
    assert [p for p in parsed_here if str(root) in p] == []
    # Without a second worker's worth to parse, the run loads here as before.
    workers_module.CHARS_PER_WORKER = 10**9
    try:
        parsed_here.clear()
        small = run(sources(root), options(root, "--no-incremental", "-n", "2"))
    finally:
        workers_module.CHARS_PER_WORKER = 1
    assert small.diagnostics == serial.diagnostics
    assert any(p.endswith("a.py") for p in parsed_here)


def test_followed_modules_are_a_serial_runs(tmp_path: Path) -> None:
    # Only app/d.py is named: the others are followed (mypy's follow_imports
    # = normal), found by the workers' scans, reported in a serial run's order.
    root = tmp_path / "proj"
    write(root, FILES)
    only = [BuildSource(str(root / "app" / "d.py"), "app.d", str(root))]
    serial = run(only, options(root, "--no-incremental"))
    parallel = run(only, options(root, "--no-incremental", "-n", "2"))
    paths = {os.path.basename(d.path) for d in serial.diagnostics}
    assert {"a.py", "b.py", "c.py", "d.py", "leaf.py"} <= paths
    assert parallel.diagnostics == serial.diagnostics
    assert parallel.files_checked == serial.files_checked == 1


def test_a_cold_run_in_early_workers_writes_a_serial_runs_cache(tmp_path: Path) -> None:
    # As a one-shot `veritype check` runs (bodies released after each check):
    # the workers' digests and static imports are taken before that.
    import shutil

    root = tmp_path / "proj"
    write(root, FILES)
    run(sources(root), options(root), release_bodies=True)
    serial = _cache_contents(root)
    shutil.rmtree(root / ".veritype_cache")
    run(sources(root), options(root, "-n", "2"), release_bodies=True)
    assert _cache_contents(root) == serial


def _fail_on_two(n: int) -> int:
    if n == 2:
        raise ValueError("two")
    return n * 10


def test_a_failing_task_is_raised_in_the_parent() -> None:
    pool = ForkPool(2, _fail_on_two)
    try:
        assert sorted(answer for _, _, answer in pool.run([1, 3])) == [10, 30]
        with pytest.raises(RuntimeError, match="ValueError: two"):
            list(pool.run([1, 2, 3]))
    finally:
        pool.close()


def test_a_task_is_dressed_for_its_worker() -> None:
    pool = ForkPool(2, _fail_on_two)
    try:
        answers = pool.run([1, 3], dress=lambda w, task: task * 10)
        assert sorted(answer for _, _, answer in answers) == [100, 300]
    finally:
        pool.close()


def test_stopped_workers_exit_before_the_pool_is_closed() -> None:
    # `stop` asks them to go and returns at once; they are gone without a join
    # from `close`, which then only reaps them.
    pool = ForkPool(2, _fail_on_two)
    try:
        assert sorted(answer for _, _, answer in pool.run([1, 3])) == [10, 30]
        procs = list(pool.procs)
        pool.stop()
        for proc in procs:
            proc.join(timeout=60)
            assert proc.exitcode == 0
        pool.stop()  # (again: nothing more is sent)
    finally:
        pool.close()
    assert pool.procs == [] and pool.conns == []


def _echo(message: tuple[int, int, bytes]) -> tuple[int, bytes]:
    """A task's number, with `size` bytes of answer (the third item pads the message)."""
    return message[0], b"a" * message[1]


def test_tasks_queued_ahead_are_answered_in_order_and_the_last_go_one_at_a_time() -> None:
    pool = ForkPool(2, _echo)
    events: list[tuple[str, int, int]] = []

    def dress(w: int, task: int) -> tuple[int, int, bytes]:
        events.append(("sent", w, task))
        return (task, 0, b"")

    try:
        answers = []
        for w, task, answer in pool.run(list(range(8)), dress=dress, ahead=2):
            events.append(("answered", w, task))
            answers.append((w, task, answer[0]))
        assert sorted(task for _, task, _ in answers) == list(range(8))
        assert all(task == n for _, task, n in answers)
        # Before any answer each worker holds three tasks (one and two ahead);
        # the two left are one per worker: each is sent to a worker that has
        # answered all it was given.
        first = next(i for i, e in enumerate(events) if e[0] == "answered")
        assert [e[1:] for e in events[:first]] == [(0, 0), (0, 1), (0, 2), (1, 3), (1, 4), (1, 5)]
        for task in (6, 7):
            i = events.index(next(e for e in events if e[0] == "sent" and e[2] == task))
            w = events[i][1]
            assert sum(1 if kind == "sent" else -1 for kind, v, _ in events[:i] if v == w) == 0
        # Each worker answers in the order its tasks were sent.
        for w in (0, 1):
            assert [t for kind, v, t in events if kind == "sent" and v == w] == [t for v, t, _ in answers if v == w]
    finally:
        pool.close()


def test_a_large_message_is_not_queued_ahead() -> None:
    # Tasks and answers larger than a pipe holds: a task queued while its
    # worker sends such an answer would leave both processes waiting on the
    # other's read. It is sent once its worker is free.
    pool = ForkPool(2, _echo)
    big = 1_000_000
    try:
        answers = list(pool.run(list(range(6)), dress=lambda w, task: (task, big, b"m" * big), ahead=2))
        assert sorted(task for _, task, _ in answers) == list(range(6))
        assert all(len(answer[1]) == big for _, _, answer in answers)
    finally:
        pool.close()


class _Conn:
    """A worker's end of the pipe, scripted: `polls` answers poll() in turn
    (then True: a message waits), `messages` are received in turn."""

    def __init__(self, messages: list[object], polls: list[bool]) -> None:
        self.messages, self.polls, self.sent = list(messages), list(polls), []  # type: list[object], list[bool], list[object]

    def poll(self) -> bool:
        return self.polls.pop(0) if self.polls else True

    def recv(self) -> object:
        if not self.messages:
            raise EOFError
        return self.messages.pop(0)

    def send(self, answer: object) -> None:
        self.sent.append(answer)

    def close(self) -> None:
        pass


def test_an_idle_worker_steps_until_a_message_waits() -> None:
    from veritype.engine.fork_pool import _serve

    steps: list[int] = []

    def idle() -> bool:
        steps.append(len(steps))
        return True

    conn = _Conn([1, 3, None], [False, False, True, False])
    _serve(conn, _fail_on_two, idle)  # type: ignore[arg-type]
    # Two steps before the first message, one before the second, none once it waits.
    assert steps == [0, 1, 2]
    assert conn.sent == [("ok", 10), ("ok", 30)]


def test_an_idle_worker_stops_when_it_has_nothing_more_to_do() -> None:
    from veritype.engine.fork_pool import _serve

    steps: list[int] = []

    def idle() -> bool:
        steps.append(len(steps))
        return len(steps) < 2

    conn = _Conn([1, None], [False] * 10)
    _serve(conn, _fail_on_two, idle)  # type: ignore[arg-type]
    # Two steps (the second said there was no more) before the message, not
    # ten; one after it (a task may have given it more to do).
    assert steps == [0, 1, 2] and conn.sent == [("ok", 10)]


def test_a_failing_idle_step_is_the_answer_to_the_next_message() -> None:
    from veritype.engine.fork_pool import _serve

    def idle() -> bool:
        raise ValueError("idle")

    conn = _Conn([1, 3, None], [False])
    _serve(conn, _fail_on_two, idle)  # type: ignore[arg-type]
    assert [status for status, _ in conn.sent] == ["error", "error"]  # type: ignore[misc]
    assert "ValueError: idle" in conn.sent[0][1]  # type: ignore[index]


def test_a_worker_waiting_for_its_first_check_loads_the_libraries_its_scan_found(tmp_path: Path) -> None:
    # Between its scan and its first check (the other worker still scans),
    # a worker loads builtins and the library modules its modules import,
    # never a module of the project (app.b, imported by app.a, is not in
    # this worker's share: another worker loads it, as a source).
    from veritype.engine.early_workers import _Worker
    from veritype.evaluate.program import Program
    from veritype.modules.finder import ModuleFinder

    root = tmp_path / "proj"
    write(root, FILES)
    srcs = sources(root)
    share = [s for s in srcs if s.module in ("app.a", "app.uses")]
    opts = options(root, "--no-incremental")
    program = Program(opts, ModuleFinder(opts, [s.base_dir for s in srcs]))
    worker = _Worker(program)
    worker.scan(share)
    assert "builtins" not in program.modules and "ext.core" not in program.modules
    steps = 0
    while worker.idle():
        steps += 1
    assert steps == 3  # builtins, ext, ext.core
    assert {"builtins", "ext", "ext.core"} <= set(program.modules)
    assert "__future__" not in program.modules  # (app.a imports from it: a check never loads it)
    assert not [name for name in program.modules if name.startswith("app") and name not in ("app.a", "app.uses")]
    # `begin` (the parent then orders the import cycles) does not end the
    # waiting; a check does: nothing more is loaded after it.
    worker.scan(share)
    worker(("begin", srcs, [s.module for s in srcs], False, False))
    assert worker.warm
    worker(("check", ["app.leaf"], []))
    assert not worker.idle()


@pytest.mark.parametrize("release", [False, True])
def test_a_worker_releases_the_bodies_of_modules_checked_elsewhere(tmp_path: Path, release: bool) -> None:
    # Each module is checked by one worker; one the other worker checked is
    # never read here again past its interface (a one-shot run only).
    from veritype.engine.early_workers import _Worker
    from veritype.evaluate.program import Program
    from veritype.modules.finder import ModuleFinder

    root = tmp_path / "proj"
    write(root, FILES)
    srcs = sources(root)
    opts = options(root, "--no-incremental")
    program = Program(opts, ModuleFinder(opts, [s.base_dir for s in srcs]))
    worker = _Worker(program)
    worker.scan(srcs)
    worker(("begin", srcs, [s.module for s in srcs], release, False))
    leaf, b = program.modules["app.leaf"], program.modules["app.b"]
    assert leaf is not None and leaf.tree is not None and b is not None and b.tree is not None
    leaf_body = leaf.tree.body[1].body  # def f
    b_body = b.tree.body[1].body[0].body  # B.name
    worker(("check", ["app.c"], ["app.leaf"]))
    assert (leaf.tree.body[1].body is not leaf_body) == release
    assert b.tree.body[1].body[0].body is b_body  # not checked yet anywhere
    worker(("check", ["app.d"], ["app.a", "app.b"]))
    assert (b.tree.body[1].body[0].body is not b_body) == release


def test_settings_not_enforced_in_a_workers_module_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # A module's `# mypy:` line naming a setting veritype does not enforce is
    # read where the module loads: a worker; the run's warning names it still.
    from veritype.cli.main import main

    root = tmp_path / "proj"
    write(root, {**FILES, "app/inline.py": "# mypy: disallow-any-expr\nx = 1\n"})
    monkeypatch.chdir(root)
    outputs = []
    for flags in ([], ["-n", "2"]):
        main(["check", "--no-incremental", *flags, "app"])
        outputs.append(capsys.readouterr())
    assert "not enforced: disallow_any_expr" in outputs[0].err
    assert outputs[1] == outputs[0]


def _src(module: str, size: int, package: bool = False) -> BuildSource:
    path = module.replace(".", "/") + ("/__init__.py" if package else ".py")
    return BuildSource(path, module, "/", "x" * size)


def test_scan_shares_are_cut_between_packages_near_the_even_cut() -> None:
    from veritype.engine.early_workers import _shares

    def names(shares: list[list[BuildSource]]) -> list[list[str]]:
        return [[s.module for s in share] for share in shares]

    # The even cut (500 of 1000) falls inside package b; its start (at 440)
    # is within an eighth of a share (62) of it: the cut moves there.
    srcs = [_src("a", 40, True), _src("a.m", 400), _src("b", 20, True), _src("b.x", 270), _src("b.y", 270)]
    assert names(_shares(srcs, 2)) == [["a", "a.m"], ["b", "b.x", "b.y"]]
    # Further away (at 300), the even cut stands, as within one package.
    srcs = [_src("a", 40, True), _src("a.m", 260), _src("b", 20, True), _src("b.x", 340), _src("b.y", 340)]
    assert names(_shares(srcs, 2)) == [["a", "a.m", "b", "b.x"], ["b.y"]]
    one = [_src(f"p.m{i}", 100) for i in range(10)]
    assert names(_shares(one, 3)) == [[f"p.m{i}" for i in range(4)], [f"p.m{i}" for i in range(4, 7)], [f"p.m{i}" for i in range(7, 10)]]
