"""A self-contained HTML report: one file, no network, readable offline.

Pass rate per failure-mode tag and per environment as bars with their 95% intervals (the same
numbers as the terminal table), a task x run grid, and a drill-down per episode: instruction,
each action with its observation in order, the state diff, every check with its message, and
usage and transcript when the grade has them. Charts are inline SVG drawn here (they show with
scripts off).

Episode details load on demand, so the file stays small and quick to open at any run length:
the page holds the index (cards, charts, grid, one summary line per episode); each episode's
drill-down is pre-rendered HTML, and the drill-downs are stored in pages of ``PAGE`` episodes,
each a gzip-compressed JSON array in a ``<script type="application/gzip">`` element (inert
text). Opening an episode decompresses its page in the browser (``DecompressionStream``).
``unpacked(page)`` inlines them again (tests, tools). Written from a ``GradeSpool``, the
report holds one page of grades in memory at a time.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import os
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import IO, Any

from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.patterns import lazy
from pytest_agenteval.printable import printable
from pytest_agenteval.report.episodes import EpisodeDetail, Replayer
from pytest_agenteval.report.metrics import (
    Row,
    is_errored,
    played,
    plural,
    summarize,
    tally,
    triggered_modes,
)
from pytest_agenteval.report.views import DiffRow, compact, diff_rows, turns, usage_line

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:1180px;margin:0 auto;padding:20px 28px 60px}
h1{font-size:22px;margin:6px 0 2px}h2{font-size:17px;margin:28px 0 8px}
.muted{color:#5d6677}.cards{display:flex;gap:14px;flex-wrap:wrap;margin:14px 0}
.card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:10px 16px;min-width:130px}
.card b{display:block;font-size:22px}.panel{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:12px}
.charts{display:grid;grid-template-columns:1fr 1fr;gap:16px}
svg text{font:12px system-ui,sans-serif;fill:#1d2330}
.grid{column-width:330px;column-gap:24px;font-size:12px}
.grid .row{display:flex;gap:6px;align-items:center;break-inside:avoid;padding:1px 0}
.grid .id{width:64px;flex:none}.grid .runs{flex:none;display:flex;gap:3px}
.grid .modes{color:#5d6677;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.grid a.cell{display:inline-block;width:18px;height:14px;border-radius:3px}
a.pass{background:#2e9e5b}a.fail{background:#d64545}a.error{background:#7a7a7a}
details.ep{background:#fff;border:1px solid #dde1e8;border-radius:8px;margin:6px 0;padding:6px 12px}
details.ep[open]{box-shadow:0 0 0 2px #4a7bd0}summary{cursor:pointer}
.tag{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;margin-left:6px}
.tag.pass{background:#d9f2e3;color:#17633a}.tag.fail{background:#fadcdc;color:#8c1f1f}.tag.error{background:#e4e4e4;color:#333}
table.t{border-collapse:collapse;width:100%;margin:6px 0;table-layout:fixed}
table.t td,table.t th{border-top:1px solid #e6e9ef;padding:3px 6px;vertical-align:top;font-size:12.5px;text-align:left}
pre{white-space:pre-wrap;word-break:break-word;margin:0;font:12px/1.35 ui-monospace,Menlo,Consolas,monospace}
tr.failed td{background:#fff3f3}.warn{color:#8c5a00}
.chat{display:flex;flex-direction:column;gap:6px;margin:6px 0}
.msg{border-radius:8px;padding:5px 10px;max-width:85%;background:#f0f2f6;white-space:pre-wrap;word-break:break-word}
.msg .role{display:block;font-size:11px;color:#5d6677;text-transform:uppercase}
.msg.user{align-self:flex-end;background:#e3ecfb}.msg.assistant{align-self:flex-start;background:#eef6ee}
.msg.tool{align-self:flex-start;background:#f7f3e8;font:12px/1.35 ui-monospace,Menlo,Consolas,monospace}
.msg .call{display:block;font:12px ui-monospace,Menlo,Consolas,monospace;color:#3b4a6b}
tr.added td{background:#f0faf3}tr.removed td{background:#fff3f3}
"""

SCRIPT = """
var pages={};
function page(n){if(!pages[n]){var text=document.getElementById('page-'+n).textContent.trim();
var bin=atob(text),bytes=new Uint8Array(bin.length);for(var i=0;i<bin.length;i++)bytes[i]=bin.charCodeAt(i);
pages[n]=new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).json();}
return pages[n];}
function fill(d){if(d.dataset.loaded)return Promise.resolve();d.dataset.loaded='1';
return page(d.dataset.page).then(function(bodies){d.querySelector('.body').innerHTML=bodies[+d.dataset.i];});}
document.addEventListener('toggle',function(e){var d=e.target;
if(d.classList&&d.classList.contains('ep')&&d.open)fill(d);},true);
function openEpisode(){var id=decodeURIComponent(location.hash.slice(1));var el=id&&document.getElementById(id);
if(el&&el.tagName==='DETAILS'){el.open=true;fill(el).then(function(){el.scrollIntoView({block:'start'});});}}
window.addEventListener('hashchange',openEpisode);document.addEventListener('DOMContentLoaded',openEpisode);
"""
PAGE = 64  # episodes per compressed page of drill-downs


def episode_anchor(task_id: str, run: int) -> str:
    """An episode's element id, escaped for an attribute: a task id read from a results file
    may hold anything, and must not end the attribute (and open markup, or a page of details)."""
    return escape(f"ep-{task_id}-run{run}")


def bars(rows: Sequence[Row], *, label_width: int = 170) -> str:
    """Horizontal bars of pass@1 with the interval as a whisker; a scale of 0 to 1."""
    width, bar_h, gap = 560, 16, 8
    plot = width - label_width - 60
    height = 24 + len(rows) * (bar_h + gap)
    parts = [f'<svg class="chart" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = label_width + tick * plot
        parts.append(f'<line x1="{x:.1f}" y1="14" x2="{x:.1f}" y2="{height}" stroke="#e3e6ec"/>'
                     f'<text x="{x:.1f}" y="10" text-anchor="middle">{tick:g}</text>')
    for i, row in enumerate(rows):
        y = 20 + i * (bar_h + gap)
        name = row.group.split(" ", 1)[-1]
        colour = "#2e9e5b" if row.pass_at_1 >= 0.8 else "#d9a21b" if row.pass_at_1 >= 0.5 else "#d64545"
        low, high = label_width + row.ci_low * plot, label_width + row.ci_high * plot
        tip = (f"{name}: pass@1 {row.pass_at_1:.2f}, 95% CI [{row.ci_low:.2f}, {row.ci_high:.2f}], "
               f"{plural(row.tasks, 'task')}, {plural(row.episodes, 'episode')}")
        parts.append(
            f'<g class="bar"><title>{escape(tip)}</title>'
            f'<text x="{label_width - 8}" y="{y + 12}" text-anchor="end">{escape(name)}</text>'
            f'<rect x="{label_width}" y="{y}" width="{max(row.pass_at_1 * plot, 1.5):.1f}" height="{bar_h}" '
            f'fill="{colour}" rx="2"/>'
            f'<line x1="{low:.1f}" y1="{y + bar_h / 2}" x2="{high:.1f}" y2="{y + bar_h / 2}" stroke="#1d2330"/>'
            f'<line x1="{low:.1f}" y1="{y + 3}" x2="{low:.1f}" y2="{y + bar_h - 3}" stroke="#1d2330"/>'
            f'<line x1="{high:.1f}" y1="{y + 3}" x2="{high:.1f}" y2="{y + bar_h - 3}" stroke="#1d2330"/>'
            f'<text x="{label_width + plot + 8}" y="{y + 12}">{row.pass_at_1:.2f}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def count_bars(counts: Sequence[tuple[str, int]], total: int, *, label_width: int = 170) -> str:
    """Horizontal bars: in how many of ``total`` episodes each failure mode was triggered."""
    width, bar_h, gap = 560, 14, 6
    plot = width - label_width - 70
    height = 8 + len(counts) * (bar_h + gap)
    parts = [f'<svg class="chart counts" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    for i, (mode, n) in enumerate(counts):
        y = 4 + i * (bar_h + gap)
        parts.append(f'<g><title>{escape(f"{mode}: triggered in {n} of {total} episodes")}</title>'
                     f'<text x="{label_width - 8}" y="{y + 11}" text-anchor="end">{escape(mode)}</text>'
                     f'<rect x="{label_width}" y="{y}" width="{max(n / max(total, 1) * plot, 1.5):.1f}" '
                     f'height="{bar_h}" fill="#d64545" rx="2"/>'
                     f'<text x="{label_width + n / max(total, 1) * plot + 6:.1f}" y="{y + 11}">{n}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def _json(value: Any, *, compact: bool = False) -> str:
    return escape(json.dumps(value, indent=None if compact else 1, ensure_ascii=False, sort_keys=True, default=str))


def brief(grade: Mapping[str, Any]) -> dict[str, Any]:
    """What the page's index shows of an episode: its tally (for the charts) and its summary line."""
    return {**tally(grade), "score": float(grade.get("score", 0) or 0), "steps_used": int(grade.get("steps_used", 0)),
            "failed_checks": tuple(c["name"] for c in grade.get("checks", []) if not c["passed"]),
            "error_line": _error_line(grade) if is_errored(grade) else None}


def _order(b: Mapping[str, Any]) -> tuple[bool, str, int]:
    return bool(b["passed"]), str(b["task_id"]), int(b["run"])


def _grid(grades: Sequence[Mapping[str, Any]]) -> str:
    """``grades``: briefs (``brief``)."""
    by_task: dict[tuple[str, str], dict[int, Mapping[str, Any]]] = defaultdict(dict)
    for g in grades:
        by_task[(str(g["environment"]), str(g["task_id"]))][int(g["run"])] = g
    runs = sorted({int(g["run"]) for g in grades})
    rows = []
    for (env, task), episodes in sorted(by_task.items()):
        cells = []
        for r in runs:
            episode = episodes.get(r)
            if episode is None:
                cells.append('<span class="cell"></span>')
                continue
            verdict = _verdict(episode)
            failed = ", ".join(episode["failed_checks"])
            said = {"pass": "passed", "fail": f"failed: {failed}"}.get(verdict) or f"errored: {episode['error_line']}"
            tip = f"{task} run {r}: {said}"
            cells.append(f'<a class="cell {verdict}" href="#{episode_anchor(task, r)}" '
                         f'title="{escape(tip)}" aria-label="{escape(tip)}"></a>')
        modes = ", ".join(sorted({m for g in episodes.values() for m in g.get("failure_modes", [])}))
        rows.append(f'<div class="row" title="{escape(env)}"><span class="id">{escape(task)}</span>'
                    f'<span class="runs">{"".join(cells)}</span><span class="modes">{escape(modes)}</span></div>')
    if not runs:
        return ""
    which = "run 1" if len(runs) == 1 else f"runs {runs[0]}–{runs[-1]}"
    return (f'<p class="muted">One row per task, one square per run ({which}), green passed, red failed, grey errored '
            f'(not counted), then the '
            f'failure modes its episodes triggered.</p><div class="grid">{"".join(rows)}</div>')


def _verdict(grade: Mapping[str, Any]) -> str:
    return "error" if is_errored(grade) else "pass" if grade["passed"] else "fail"


def _error_line(grade: Mapping[str, Any]) -> str:
    return f"{grade['error'].get('kind', '')}: {grade['error'].get('message', '')}"


def _summary(b: Mapping[str, Any], page: int, index: int) -> str:
    """An episode's line in the index (``b``: its brief); its drill-down is item ``index`` of page ``page``."""
    task, run = str(b["task_id"]), int(b["run"])
    verdict = _verdict(b)
    word = {"pass": "passed", "fail": "failed", "error": "errored"}[verdict]
    modes = " · " + escape(", ".join(b["failure_modes"])) if b["failed_checks"] else ""
    return (f'<details class="ep" id="{episode_anchor(task, run)}" data-page="{page}" data-i="{index}"><summary>'
            f'<b>{escape(task)}</b> run {run} <span class="tag {verdict}">{word}</span> '
            f'<span class=muted>{escape(str(b["environment"]))} · score {b["score"]:.2f} · '
            f'{plural(b["steps_used"], "step")}{modes}</span></summary><div class="body"></div></details>')


def _episode(grade: Mapping[str, Any], detail: EpisodeDetail | None) -> str:
    """An episode's drill-down (the inside of its ``<details>``)."""
    verdict = _verdict(grade)
    checks = grade.get("checks", [])
    failed = [c for c in checks if not c["passed"]]
    out = []
    if verdict == "error":  # not counted: what went wrong matters more than its checks
        out.append(f"<h3>Errored (not in any pass rate)</h3><p>{escape(_error_line(grade))}</p>"
                   f"<pre>{escape(str(grade['error'].get('traceback', '')))}</pre>")
    if detail is not None:
        out.append(f"<h3>Instruction</h3><p>{escape(detail.instruction)}</p>")
        if detail.warning:
            out.append(f'<p class="warn">{escape(detail.warning)}</p>')
    rows = "".join(f'<tr class="{"" if c["passed"] else "failed"}"><td>{"✔" if c["passed"] else "✘"}</td>'
                   f'<td>{escape(c["name"])}</td><td>{escape("" if c["passed"] else c.get("failure_mode", ""))}</td>'
                   f'<td>{escape(c.get("detail", ""))}</td></tr>' for c in sorted(checks, key=lambda c: c["passed"]))
    out.append(f'<h3>Checks ({len(failed)} of {len(checks)} failed)</h3><table class="t"><colgroup>'
               f'<col style="width:28px"><col style="width:230px"><col style="width:170px"><col></colgroup>'
               f'<tr><th></th><th>check</th><th>failure mode</th><th>message</th></tr>{rows}</table>')
    out.append("<h3>Actions</h3>")
    steps: list[tuple[str, Any, Any]]
    if detail is not None:
        steps = [(s.action, s.arguments, s.observation) for s in detail.steps]
    else:
        steps = [(a["action"], a.get("arguments"), None) for a in grade.get("actions", [])]
    if steps:
        unknown = "(not recorded)"
        rows = "".join(f"<tr><td>{i}</td><td><b>{escape(a)}</b><pre>{_json(args, compact=True)}</pre></td>"
                       f"<td><pre>{unknown if detail is None else _json(obs, compact=True)}</pre></td></tr>"
                       for i, (a, args, obs) in enumerate(steps, 1))
        out.append('<table class="t"><colgroup><col style="width:28px"><col style="width:40%"><col></colgroup>'
                   f'<tr><th>#</th><th>action</th><th>observation</th></tr>{rows}</table>')
        if detail is None:
            out.append('<p class="muted">Observations are not in the results file; give the task files '
                       '(<code>agenteval report --html PATH RESULTS --tasks tasks/*.jsonl</code>) to replay them.</p>')
    else:
        out.append("<p class=muted>The agent took no action.</p>")
    out.append(f"<h3>State diff</h3>{_diff_tables(grade.get('final_state_diff'))}")
    if grade.get("usage"):
        out.append(f"<h3>Usage</h3><p>{escape(usage_line(grade['usage']))}</p>")
    if grade.get("transcript"):
        out.append(f"<h3>Transcript</h3>{_conversation(grade['transcript'])}")
    # The agent's calls, their observations, its transcript and the state it left, as text: raw, its
    # escapes and bidirectional overrides reached the page (only the index was checked; red team 17).
    return printable("".join(out))


def _conversation(transcript: Any) -> str:
    """The transcript as a conversation: one bubble per message, its tool calls under its text."""
    bubbles = []
    for turn in turns(transcript):
        kind = turn.role if turn.role in ("user", "assistant", "tool", "system") else "other"
        calls = "".join(f'<span class="call">→ {escape(call)}</span>' for call in turn.tool_calls)
        bubbles.append(f'<div class="msg {kind}"><span class="role">{escape(turn.role)}</span>'
                       f"{escape(turn.text)}{calls}</div>")
    return f'<div class="chat">{"".join(bubbles)}</div>'


def _diff_tables(diff: Any) -> str:
    """The state diff as one table per database table: a row per added or removed row and per changed field."""
    by_table: dict[str, list[DiffRow]] = defaultdict(list)
    for row in diff_rows(diff):
        by_table[row.table].append(row)
    if not by_table:
        return "<p class=muted>Nothing changed.</p>"
    out = []
    for table, rows in by_table.items():
        cells = "".join(
            f'<tr class="{r.change}"><td>{escape(r.key)}</td><td>{r.change}</td><td>{escape(r.field)}</td>'
            f"<td><pre>{'' if r.change == 'added' else escape(compact(r.old))}</pre></td>"
            f"<td><pre>{'' if r.change == 'removed' else escape(compact(r.new))}</pre></td></tr>" for r in rows)
        out.append(f'<table class="t"><caption style="text-align:left"><b>{escape(table)}</b></caption><colgroup>'
                   f'<col style="width:110px"><col style="width:70px"><col style="width:130px"><col><col></colgroup>'
                   f"<tr><th>key</th><th>change</th><th>field</th><th>before</th><th>after</th></tr>{cells}</table>")
    return "".join(out)


class GradeSpool:
    """Grades kept on disk, not in memory: each one JSON line in an anonymous scratch file; in
    memory, per episode, where its line is and its ``brief``. The latest grade of a key wins."""

    def __init__(self) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self._index: dict[str, tuple[int, int, dict[str, Any]]] = {}

    def put(self, key: str, grade: Mapping[str, Any]) -> None:
        data = json.dumps(grade, sort_keys=True, default=str).encode("utf-8")
        at = self._file.seek(0, os.SEEK_END)
        self._file.write(data)
        self._index[key] = (at, len(data), brief(grade))

    def __len__(self) -> int:
        return len(self._index)

    def briefs(self) -> list[tuple[str, dict[str, Any]]]:
        return [(key, entry[2]) for key, entry in self._index.items()]

    def get(self, key: str) -> dict[str, Any]:
        at, size, _ = self._index[key]
        self._file.seek(at)
        return dict(json.loads(self._file.read(size)))

    def close(self) -> None:
        self._file.close()


def _pack(bodies: list[str]) -> str:
    return base64.b64encode(gzip.compress(json.dumps(bodies).encode("utf-8"), mtime=0)).decode("ascii")


def _page_script(number: int, bodies: list[str]) -> str:
    return f'<script type="application/gzip" id="page-{number}">{_pack(bodies)}</script>\n'


_PAGE_RE = lazy(r'<script type="application/gzip" id="page-(\d+)">([^<]*)</script>')
_BODY_RE = lazy(r'data-page="(\d+)" data-i="(\d+)">(<summary>.*?</summary>)<div class="body"></div>')


def unpacked(page: str) -> str:
    """The report with every episode's drill-down inlined where a browser would load it."""
    pages = {int(m.group(1)): json.loads(gzip.decompress(base64.b64decode(m.group(2))))
             for m in _PAGE_RE.finditer(page)}
    page = _PAGE_RE.sub("", page)
    return _BODY_RE.sub(lambda m: f'data-page="{m.group(1)}" data-i="{m.group(2)}">{m.group(3)}<div class="body">'
                                  f'{pages[int(m.group(1))][int(m.group(2))]}</div>', page)


def _render(out: IO[str], briefs: Sequence[Mapping[str, Any]], k: int, pages: Iterator[list[str]], *,
            sources: Sequence[str], title: str, about: str, warnings: Sequence[str] = ()) -> None:
    """``briefs`` in the order of the episode list; ``pages`` their drill-downs, ``PAGE`` at a time;
    ``warnings``: what the run left out of the page (``run_warnings``), said under its title."""
    everything, grades = briefs, played(briefs)
    errored = len(everything) - len(grades)
    source = ", ".join(escape(os.fspath(s)) for s in sources)
    source_note = " from " + source if source else ""
    errored_note = f", and {errored} errored, in no pass rate" if errored else ""
    rows = summarize(grades, k)
    overall = rows[0] if rows else None
    envs = [r for r in rows if r.group.startswith("env ")]
    tags = [r for r in rows if r.group.startswith("tag ")]
    failed_episodes = sum(not g["passed"] for g in grades)
    failed_checks = sum(len(g["failed_checks"]) for g in grades)
    cards = "" if overall is None else "".join(
        f'<div class="card"><span class=muted>{label}</span><b>{value}</b></div>' for label, value in [
            ("pass@1", f"{overall.pass_at_1:.2f}"),
            ("95% CI", f"[{overall.ci_low:.2f}, {overall.ci_high:.2f}]"),
            ("tasks", str(overall.tasks)), ("episodes", f"{overall.episodes} (K={k})"),
            ("failed episodes", str(failed_episodes)), ("failed checks", str(failed_checks)),
        ] + ([("errored (not counted)", str(errored))] if errored else [])
        + ([(f"pass^{k}", f"{overall.pass_hat_k:.2f}")] if k > 1 and overall.pass_hat_k is not None else []))
    triggered = triggered_modes(grades)
    run_line = f'<p class="run">{escape(about)}</p>' if about else ""
    run_line += "".join(f'<p class="warn"><b>{escape(w)}</b></p>' for w in warnings)
    out.write(f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="generator" content="pytest-agenteval">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{escape(title)}</title><style>{CSS}</style><script>{SCRIPT}</script></head>
<body><main>
<h1>{escape(title)}</h1>{run_line}
<div class="muted">{plural(len(grades), "episode")}{source_note}{errored_note}.
Intervals are 95%, clustered by task (see the README, "Reliability table").</div>
<div class="cards">{cards}</div>
<div class="charts"><div class="panel"><h2>Pass rate per failure-mode tag</h2>{bars(tags)}</div>
<div class="panel"><h2>Pass rate per environment</h2>{bars(envs)}
<h2>Failure modes triggered</h2><p class="muted">In how many of the {len(grades)} episodes each failure mode was
triggered (a failed check names it).</p>{count_bars(triggered, len(grades)) if triggered else "none"}
</div></div>
<h2>Tasks × runs</h2><div class="panel">{_grid(everything)}</div>
<h2>Episodes</h2><p class="muted">Failed episodes first; click a grid cell or an episode to open it.</p>
<noscript><p class="warn">Each episode's details load with a script: allow scripts for this file to open them.</p>
</noscript>
""")
    for number in range(0, len(everything), PAGE):
        out.write("".join(_summary(b, number // PAGE, i) for i, b in enumerate(everything[number:number + PAGE])))
    out.write("\n")
    for number, bodies in enumerate(pages):
        out.write(_page_script(number, bodies))
    out.write("</main></body></html>\n")


def render_html(grades: Sequence[Mapping[str, Any]], k: int, *, sources: Sequence[str] = (),
                details: Mapping[tuple[str, int], EpisodeDetail] | None = None,
                title: str = "agenteval report", about: str = "", warnings: Sequence[str] = ()) -> str:
    """The report of ``grades`` as one string (``write_report`` writes one from a spool)."""
    ordered = sorted(grades, key=lambda g: _order(brief(g)))
    detail_map = details or {}

    def pages() -> Iterator[list[str]]:
        for at in range(0, len(ordered), PAGE):
            yield [_episode(g, detail_map.get((str(g["task_id"]), int(g["run"])))) for g in ordered[at:at + PAGE]]

    buffer = io.StringIO()
    _render(buffer, [brief(g) for g in ordered], k, pages(), sources=sources, title=title, about=about,
            warnings=warnings)
    return buffer.getvalue()


def write_report(path: str | os.PathLike[str], spool: GradeSpool, k: int, *, sources: Sequence[str] = (),
                 task_files: Iterable[str | os.PathLike[str]] = (), pool: EnvironmentPool | None = None,
                 about: str = "", title: str = "agenteval report", warnings: Sequence[str] = ()) -> None:
    """The report of the spooled grades, read back and replayed one page at a time."""
    keyed = sorted(spool.briefs(), key=lambda kb: _order(kb[1]))
    replayer = Replayer(task_files, pool=pool)

    def pages() -> Iterator[list[str]]:
        for at in range(0, len(keyed), PAGE):
            grades = [spool.get(key) for key, _ in keyed[at:at + PAGE]]
            yield [_episode(g, replayer.detail(g)) for g in grades]

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "w", encoding="utf-8") as out:
            _render(out, [b for _, b in keyed], k, pages(), sources=sources, title=title, about=about,
                    warnings=warnings)
    finally:
        replayer.close()


def write_html(path: str | os.PathLike[str], grades: Sequence[Mapping[str, Any]], k: int, *,
               sources: Sequence[str] = (), details: Mapping[tuple[str, int], EpisodeDetail] | None = None,
               about: str = "", warnings: Sequence[str] = ()) -> None:
    """``about``: one line naming the run (agent, labels, git commit, endpoint), under the title."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(render_html(grades, k, sources=sources, details=details, about=about, warnings=warnings),
                          encoding="utf-8")


def run_warnings(not_graded: Sequence[str], unfinished: Sequence[str] = ()) -> list[str]:
    """What a report's reader must know that its episodes do not show: task items that failed
    before their episode was graded (in no rate; the run failed on them) and runs that did not
    finish. Without it, a run whose failing tasks went ungraded (an agent that made the judge fail
    on them) read as all passed in its HTML report (red team 17)."""
    out = []
    if not_graded:
        named = ", ".join(not_graded[:5]) + (", …" if len(not_graded) > 5 else "")
        out.append(f"Not graded: {plural(len(not_graded), 'task item')} failed before their episode was graded "
                   f"({named}); they are in no rate and not on this page, and the run failed on them.")
    if unfinished:
        out.append(f"Not finished: {', '.join(unfinished)}: the run did not play every task it selected "
                   "(killed, cut short or interrupted); the tasks it left are not on this page.")
    return out
