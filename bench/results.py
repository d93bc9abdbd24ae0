"""Write the figures in bench/RESULTS.md from the tools' JSON output.

    python bench/bench.py --json bench/.work/bench.json
    python bench/realworld.py --json bench/.work/realworld.json
    python bench/conformance.py --suite DIR --json bench/.work/conformance.json
    python bench/conformance.py --suite DIR --checker mypy --json bench/.work/conformance-mypy.json
    python bench/primer.py --json bench/.work/primer.json
    python bench/scale.py --json bench/.work/scale.json
    python bench/results.py      # reads those files (any may be missing)

Only the part of RESULTS.md between the ``<!-- figures -->`` and
``<!-- /figures -->`` markers is replaced; the notes around it are kept.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import corpus

RESULTS = corpus.BENCH_DIR / "RESULTS.md"
START, END = "<!-- figures -->", "<!-- /figures -->"


def _load(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.exists() else None


def _t(r: dict) -> str:
    if r.get("failure"):
        return "failed"
    return f"{r['median_wall_s']:.2f} s" if r.get("median_wall_s") is not None else "n/a"


def _mem(r: dict) -> str:
    v = r.get("median_max_rss_mib")
    return f"{v:.0f} MiB" if v is not None and not r.get("failure") else "n/a"


def _ratio(v: dict | None, m: dict, key: str) -> str:
    if not v or v.get("failure") or not v.get(key) or not m.get(key):
        return "n/a"
    return f"{v[key] / m[key]:.2f}x"


def bench_section(doc: dict) -> list[str]:
    out = [f"### Speed and memory ({doc['machine']['date']})", "",
           f"Corpus: {', '.join(doc['corpus'])} ({doc['lines']:,} lines); "
           f"CPU: {doc['machine'].get('cpu', 'not recorded')}, {doc['machine']['cores']} cores; "
           f"{doc['repeats']} interleaved runs per scenario, medians; "
           "ratio = veritype / mypy (below 1: veritype better).", "",
           "| scenario | veritype | mem | mypy | mem | time ratio | mem ratio |",
           "|---|---|---|---|---|---|---|"]
    for name, row in doc["scenarios"].items():
        v, m = row.get("veritype"), row["mypy"]
        vt = "not run" if v is None else _t(v)
        vm = "" if v is None else _mem(v)
        out.append(f"| {name} | {vt} | {vm} | {_t(m)} | {_mem(m)} | "
                   f"{_ratio(v, m, 'median_wall_s')} | {_ratio(v, m, 'median_max_rss_mib')} |")
    remarks = []
    for scenario, row in doc["scenarios"].items():
        for name, r in row.items():
            if r.get("failure"):
                remarks.append(f"- {scenario}, {name} failed: `{r['failure'].splitlines()[-1]}`")
            elif r.get("note"):
                remarks.append(f"- {scenario}, {name}: {r['note']}")
    if remarks:
        out += [""] + remarks
    cold = doc["scenarios"].get("cold", {})
    speeds = [f"{name} {doc['lines'] / r['median_wall_s']:,.0f}"
              for name, r in cold.items() if r.get("median_wall_s")]
    if speeds:
        out += ["", "Lines checked per second (cold): " + ", ".join(speeds) + "."]
    if doc.get("scaling"):
        out += ["", "Scaling (cold):", "",
                "| packages | lines | veritype | mypy | ratio |", "|---|---|---|---|---|"]
        for step in doc["scaling"]:
            v, m = step.get("veritype"), step["mypy"]
            out.append(f"| {step['packages']} | {step['lines']:,} | "
                       f"{_t(v) if v else 'not run'} | {_t(m)} | "
                       f"{_ratio(v, m, 'median_wall_s')} |")
    return out


def realworld_section(doc: dict) -> list[str]:
    out = [f"### Real-world precision ({doc['machine']['date']})", "",
           "Errors matched on path + line + code. 'veritype only' are likely false positives.", "",
           "| package | lines | mypy | veritype | veritype only | mypy only |",
           "|---|---|---|---|---|---|"]
    for label, p in doc["packages"].items():
        if p["crash"]:
            out.append(f"| {label} | {p['lines']:,} | {len(p['mypy'])} | crashed | | |")
        else:
            out.append(f"| {label} | {p['lines']:,} | {len(p['mypy'])} | {len(p['veritype'])}"
                       f" | {len(p['veritype_only'])} | {len(p['mypy_only'])} |")
    return out


def primer_section(doc: dict) -> list[str]:
    out = [f"### Primer: real projects as their CI runs mypy ({doc['machine']['date']},"
           f" veritype {doc['machine']['veritype']})", "",
           "Error lines (path + line) of mypy 2.4.1 and veritype, cold runs from each sdist root"
           " with the project's own config (bench/primer.py). 'veritype only': lines where"
           " only veritype reports an error.", "",
           "| project | lines | mypy | veritype | veritype only | mypy only | cold ratio |",
           "|---|---|---|---|---|---|---|"]
    totals = [0] * 5
    tm = tv = 0.0
    for label, p in doc["projects"].items():
        if p["failure"]:
            out.append(f"| {label} | {p['lines']:,} | failed | | | | |")
            continue
        cells = [p["lines"], p["mypy"], p["veritype"], p["veritype_only"], p["mypy_only"]]
        totals = [a + b for a, b in zip(totals, cells)]
        tm += p["mypy_time_s"] or 0
        tv += p["veritype_time_s"] or 0
        ratio = (f"{p['veritype_time_s'] / p['mypy_time_s']:.2f}x"
                 if p["mypy_time_s"] and p["veritype_time_s"] else "n/a")
        out.append(f"| {label} | {cells[0]:,} | " + " | ".join(map(str, cells[1:]))
                   + f" | {ratio} |")
    out.append(f"| **total** | {totals[0]:,} | " + " | ".join(map(str, totals[1:]))
               + f" | {f'{tv / tm:.2f}x' if tm else 'n/a'} |")
    if doc.get("strip_ignores"):
        out += ["", "(run with every `# type: ignore` comment removed)"]
    return out


def conformance_section(docs: list[dict]) -> list[str]:
    out = [f"### Conformance ({docs[0]['machine']['date']})", ""]
    for d in docs:
        out.append(f"- {d['checker']}: **{d['passed']}/{d['total']}** files pass")
    out += ["", "| chapter | " + " | ".join(d["checker"] for d in docs) + " |",
            "|---|" + "---|" * len(docs)]
    for ch in docs[0]["chapters"]:
        cells = []
        for d in docs:
            c = d["chapters"].get(ch)
            cells.append(f"{c['passed']}/{c['total']}" if c else "")
        out.append(f"| {ch} | " + " | ".join(cells) + " |")
    return out


#: The sections of the figures block, in order, by the start of their heading.
SECTIONS = ("### Speed", "### Scale", "### Real-world", "### Primer", "### Conformance")


def scale_section(doc: dict) -> list[str]:
    import scale

    m = doc["machine"]
    return [f"### Scale: a generated program, 100k to 1M lines ({m['date']})", "",
            f"bench/scale.py (seed {doc['seed']}): 500 lines a module, imports between modules, import "
            "cycles, generic classes, subclasses, dataclasses, protocols, calls and planted errors; "
            f"veritype {m['veritype']}, {m['mypy'] or 'mypy'}, one cold run each (empty cache directory). "
            "CPU seconds (user + system), not wall time: the machine is shared. Growth: the figure "
            "per 100k lines against the smallest size's (linear: 1.00x).", "",
            *scale.table(doc)]


def _old_sections(block: str) -> tuple[list[str], dict[str, list[str]]]:
    """The block's lines before the first section, and each section's lines."""
    head: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] = head
    for line in block.strip("\n").splitlines():
        key = next((k for k in SECTIONS if line.startswith(k)), None)
        if key is not None:
            current = sections.setdefault(key, [])
        current.append(line)
    return head, sections


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=corpus.WORK, help="where the JSON files are")
    args = ap.parse_args(argv)

    text = RESULTS.read_text() if RESULTS.exists() else f"# Benchmark results\n\n{START}\n{END}\n"
    head, _, rest = text.partition(START)
    block, _, tail = rest.partition(END)
    old_head, old = _old_sections(block)

    new: dict[str, list[str]] = {}
    machine_info = None
    bench = _load(args.dir / "bench.json")
    if bench:
        machine_info = bench["machine"]
        new["### Speed"] = bench_section(bench)
    real = _load(args.dir / "realworld.json")
    if real:
        machine_info = machine_info or real["machine"]
        new["### Real-world"] = realworld_section(real)
    primer = _load(args.dir / "primer.json")
    if primer:
        machine_info = machine_info or primer["machine"]
        new["### Primer"] = primer_section(primer)
    sized = _load(args.dir / "scale.json")
    if sized:
        new["### Scale"] = scale_section(sized)
    confs = [d for d in (_load(args.dir / "conformance.json"),
                         _load(args.dir / "conformance-mypy.json")) if d]
    if confs:
        machine_info = machine_info or confs[0]["machine"]
        new["### Conformance"] = conformance_section(confs)

    # A section whose JSON file is absent keeps its figures (each heading has
    # its date); the "Measured" line is rewritten only when all are new.
    parts: list[str] = []
    if machine_info and all(k in new for k in old):
        m = machine_info
        parts = [f"Measured {m['date']} on `{m['uname']}`, {m['cores']} cores, "
                 f"Python {m['python']}; veritype {m['veritype']}, {m['mypy'] or 'mypy'}.", ""]
    else:
        parts = [line for line in old_head]
        if parts and parts[-1] != "":
            parts.append("")
    for key in SECTIONS:
        lines = new.get(key) or [line for line in old.get(key, [])]
        while lines and lines[-1] == "":
            lines = lines[:-1]
        if lines:
            parts += lines + [""]

    RESULTS.write_text(head + START + "\n" + "\n".join(parts) + END + tail)
    print(f"updated {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
