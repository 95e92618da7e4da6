"""``agenteval validate --report PATH.html``: the report as one self-contained page (no
network, no script), drawn from ``Report.as_dict`` so the page and the JSON say the same.

Findings by level, then each task-set section that is there — guessability baselines per
file, tags against traps, the coverage matrix, duplicates, difficulty and the agents' pass
matrix — and the strictness table.
"""

from __future__ import annotations

from html import escape
from typing import Any

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:1180px;margin:0 auto;padding:20px 28px 60px}h1{font-size:22px}h2{font-size:17px;margin:26px 0 8px}
.muted{color:#5d6677}.cards{display:flex;gap:14px;flex-wrap:wrap}
.card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:10px 16px;min-width:120px}
.card b{display:block;font-size:22px}.ok{color:#17633a}.bad{color:#8c1f1f}
table{border-collapse:collapse;background:#fff;margin:6px 0}td,th{border:1px solid #e6e9ef;padding:3px 8px;
font-size:12.5px;text-align:left;vertical-align:top}td.n{text-align:right}
li.error{color:#8c1f1f}li.warning{color:#8c5a00}li.info{color:#35507a}
td.pass{background:#d9f2e3}td.fail{background:#fadcdc}
"""

LEVELS = ("error", "warning", "info")


def _table(head: list[str], rows: list[list[Any]], *, classes: list[list[str]] | None = None) -> str:
    def cell(value: Any, cls: str = "") -> str:
        kind = cls or ("n" if isinstance(value, int | float) else "")
        return f'<td class="{kind}">{escape(str(value))}</td>' if kind else f"<td>{escape(str(value))}</td>"

    body = "".join("<tr>" + "".join(cell(v, classes[i][j] if classes else "") for j, v in enumerate(row)) + "</tr>"
                   for i, row in enumerate(rows))
    return "<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + f"</tr>{body}</table>"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _findings(findings: list[dict[str, str]]) -> str:
    out = []
    for level in LEVELS:
        mine = [f for f in findings if f["level"] == level]
        items = "".join(f'<li class="{level}">{escape(f["where"])}: {escape(f["message"])}</li>' for f in mine)
        title = {"error": "errors", "warning": "warnings", "info": "info"}[level]
        out.append(f'<h3 id="{level}">{title} ({len(mine)})</h3>' + (f"<ul>{items}</ul>" if mine else
                                                                      '<p class="muted">none</p>'))
    return "".join(out)


def _coverage(data: dict[str, Any]) -> str:
    cells = data.get("cells", [])
    names = sorted({n for c in cells for n in c["baselines"]})
    head = ["failure mode", "environment", "split", "tasks", "reference", *names]
    return _table(head, [[c["failure_mode"], c["environment"], c["split"], c["tasks"], _rate(c["reference"]),
                          *(_rate(c["baselines"].get(n)) for n in names)] for c in cells])


def _duplicates(data: dict[str, Any]) -> str:
    pairs = data.get("pairs", [])
    if not pairs:
        return '<p class="muted">none</p>'
    return _table(["kind", "tasks", "splits", "leak"], [
        [p["kind"], " = ".join(p["tasks"]), " / ".join(p["splits"]), "yes" if p["leak"] else "no"] for p in pairs])


def _difficulty(data: dict[str, Any]) -> str:
    files = _table(["file", "writes required: tasks", "look-ups required: tasks"], [
        [path, ", ".join(f"{n}: {c}" for n, c in h["writes"].items()),
         ", ".join(f"{n}: {c}" for n, c in h["reads"].items())] for path, h in data.get("files", {}).items()])
    agents = data.get("agents", [])
    if not agents:
        return files
    rows, classes = [], []
    for task_id, t in data["tasks"].items():
        marks = ["passed" if t["passed"].get(a) else "failed" for a in agents]
        rows.append([task_id, t["writes"], t["reads"], *marks])
        classes.append(["", "n", "n", *("pass" if m == "passed" else "fail" for m in marks)])
    return files + f"<p>{data.get('separating', 0)} task(s) separate the agents.</p>" + _table(
        ["task", "writes", "reads", *agents], rows, classes=classes)


def _baselines(data: dict[str, Any]) -> str:
    rows = [[path, name, f"{len(o['passed'])}/{o['tasks']}",
             _rate(len(o["passed"]) / o["tasks"] if o["tasks"] else None), ", ".join(o["passed"])]
            for path, per in sorted(data.items()) for name, o in sorted(per.items())]
    return _table(["file", "baseline", "passed", "pass rate", "tasks it passes"], rows)


def _traps(data: dict[str, Any]) -> str:
    return _table(["failure mode", "tagged", "tag without its trap", "trap without its tag"], [
        [mode, c["tagged"], c["no_trap"], c["untagged"]] for mode, c in sorted(data.get("modes", {}).items())])


def render(report: dict[str, Any]) -> str:
    sections = report.get("sections", {})
    verdict = "passed" if report["passed"] else "failed"
    counts = {level: sum(f["level"] == level for f in report["findings"]) for level in LEVELS}
    cards = "".join(f'<div class="card"><span class="muted">{k}</span><b>{escape(str(v))}</b></div>' for k, v in [
        ("verdict", verdict + (" (--strict)" if report["strict"] else "")), ("tasks", report["tasks"]),
        ("reference passed", report["reference_passed"]), ("do-nothing failed", report["noop_failed"]),
        *counts.items(), ("valid variants", report["variants"])])
    parts = [f'<div class="cards">{cards}</div>', "<h2>Findings</h2>", _findings(report["findings"])]
    drawn = {"baselines": ("Guessability baselines per file", _baselines),
             "traps": ("Tags against traps", _traps),
             "coverage": ("Coverage: failure mode × environment × split", _coverage),
             "duplicates": ("Duplicates and leakage", _duplicates),
             "difficulty": ("Difficulty", _difficulty)}
    for name, (title, draw) in drawn.items():
        if name in sections:
            parts.append(f'<h2 id="{name}">{escape(title)}</h2>' + draw(sections[name]))
    strictness = report.get("strictness", [])
    parts.append('<h2 id="strictness">Strictness: mutants of each reference path</h2>' + _table(
        ["task", "mutants", "lying texts", "killed", "other label", "survived"],
        [[r["task_id"], r["mutants"], r["texts"], r["killed"], len(r["other_label"]), len(r["survived"])]
         for r in strictness]))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>agenteval validate</title><style>{CSS}</style></head>
<body><main><h1>agenteval validate: <span class="{'ok' if report['passed'] else 'bad'}">{verdict}</span></h1>
{''.join(parts)}
</main></body></html>
"""
