"""Merge results files: xdist runs, shards, CI matrix jobs, reruns of a subset.

An episode is identified by ``(task_id, run)``. The same episode in two files is kept once when
both grades agree (the same file given twice, a shard that overlaps another). When they
disagree (a rerun of the task) both are real episodes of the same agent, so both are kept, the
later one under the next free run number: dropping one would let a rerun of the failures
replace them. ``prefer_last`` keeps only the later file's grade instead (after a grader or
harness fix), and says so.

Runs of different agents, or of different versions of a task, are refused unless
``allow_mixed``: merged, their pass rate would describe no agent and no task set. The agent
and the task files' sha256 come from each file's run record when it has one
(``{"run_record": {...}}``, its first and last line); a task's version is also read from its
grades (environment, seed, tags, split).
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.report.compressed import load_line, results_bytes
from pytest_agenteval.report.labels import describe, differences
from pytest_agenteval.report.metrics import INTERRUPTED, NOT_GRADED, SKIPPED_TASKS, is_errored
from pytest_agenteval.report.results import grade_problem, json_lines, resumed_notes
from pytest_agenteval.report.signing import RESUMED

# Fields that differ between two runs of the very same episode (where and how long it ran).
# The signature names the run and the line, so it differs too.
VOLATILE = frozenset({"nodeid", "duration", "worker", "signature"})


class MergeError(AgentEvalError):
    """Results files that must not be merged, or cannot be read."""


@dataclass(frozen=True, kw_only=True)
class ResultsFile:
    path: str
    grades: list[dict[str, Any]]
    summary: dict[str, Any] | None = None
    run: dict[str, Any] | None = None
    superseded: int = 0  # attempts a rerun replaced ("counted": false), left out as the run left them out
    resumed: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line, what the resume found)


RUN_RECORD = "run_record"


def run_record_of(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The run record a line carries: ``{"run_record": {...}}`` opens and closes a results file."""
    found = record.get(RUN_RECORD)
    return found if isinstance(found, dict) else None


def read_results_file(path: str | os.PathLike[str]) -> ResultsFile:
    """Grades, summary and run record of one results file; a bad line names the file and line."""
    grades: list[dict[str, Any]] = []
    summary = run = None
    superseded = 0
    resumed: list[tuple[int, dict[str, Any]]] = []
    try:
        text = results_bytes(path).decode("utf-8")
    except OSError as exc:
        raise MergeError(f"{path}: cannot read it ({exc.strerror or exc}); give a results file written "
                         "by --agenteval-results") from None
    except UnicodeDecodeError:
        raise MergeError(f"{path}: not UTF-8 text (is this a results file written by --agenteval-results?)") from None
    lines = json_lines(text)
    last = max((n for n, line in enumerate(lines, 1) if line.strip()), default=0)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = load_line(line)
        except ValueError as exc:
            if number == last:  # an interrupted run's last line may be cut short
                continue
            raise MergeError(f"{path}:{number}: not valid JSON: {getattr(exc, 'msg', exc)} (is this a results file "
                             "written by --agenteval-results?)") from None
        if not isinstance(record, dict):
            raise MergeError(f"{path}:{number}: not a JSON object (is this a results file?)")
        if "summary" in record or run_record_of(record) is not None:
            if (shape := _misshapen(record)) is not None:  # (a traceback in every command: red team 48)
                raise MergeError(f"{path}:{number}: not a summary or run record: {shape} (is this a results file "
                                 "written by --agenteval-results, edited since?)")
            summary = record.get("summary", summary)
            run = run_record_of(record) or run
        elif isinstance(record.get(RESUMED), dict):
            resumed.append((number, record[RESUMED]))
        elif "task_id" in record and "passed" in record:
            problem = grade_problem(record)
            if problem is not None:
                raise MergeError(f"{path}:{number}: not a grade: {problem} (is this a results file written by "
                                 "--agenteval-results?)")
            if record.get("counted", True) is False:
                superseded += 1  # an attempt a rerun replaced: the run did not count it, nor does a report
                continue
            grades.append(record)
        else:
            raise MergeError(f"{path}:{number}: neither a grade, a run record nor a summary "
                             "(is this a results file written by --agenteval-results?)")
    return ResultsFile(path=str(path), grades=grades, summary=summary, run=run, superseded=superseded,
                       resumed=resumed)



@dataclass(frozen=True, kw_only=True)
class Merged:
    grades: list[dict[str, Any]]
    k: int
    files: list[str]
    duplicates: int = 0  # identical episodes found in more than one file, kept once
    notes: list[str] = field(default_factory=list)  # what the merge did that a reader should know
    runs: list[dict[str, Any]] = field(default_factory=list)
    # Files whose run did not finish: no summary line (killed, or cut), or one saying it was interrupted.
    unfinished: list[str] = field(default_factory=list)
    # Each file's task items that failed before their episode was graded (``metrics.NOT_GRADED``).
    not_graded: dict[str, list[str]] = field(default_factory=dict)
    # Each file's selected tasks its agent skipped (``metrics.SKIPPED_TASKS``).
    skipped: dict[str, list[str]] = field(default_factory=dict)
    # Each source's resumes (where, what the resume found): a merged file carries them on.
    resumed: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)


def task_version(grade: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a grade says about its task's version."""
    return (grade.get("environment"), grade.get("scenario_seed"), tuple(sorted(grade.get("failure_mode_tags", []))),
            grade.get("split"))


def same_episode(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    keys = (set(a) | set(b)) - VOLATILE
    return all(a.get(key) == b.get(key) for key in keys)


def merge(files: Sequence[ResultsFile], *, allow_mixed: bool = False, prefer_last: bool = False) -> Merged:
    if not files:
        raise MergeError("no results files given")
    if not allow_mixed:
        _refuse_mixed(files)
    kept: dict[tuple[str, int], tuple[dict[str, Any], str]] = {}
    extra: list[dict[str, Any]] = []
    duplicates = 0
    notes: list[str] = []
    for results in files:
        for grade in results.grades:
            key = (str(grade["task_id"]), int(grade["run"]))
            if key not in kept:
                kept[key] = (grade, results.path)
                continue
            earlier, where = kept[key]
            if same_episode(earlier, grade):
                duplicates += 1
            elif is_errored(earlier) and is_errored(grade):  # tried again, errored again: the later is kept
                kept[key] = (grade, results.path)
            elif is_errored(earlier) or is_errored(grade):  # a rerun of what errored (a resumed file too)
                played_one, errored_in = (grade, where) if is_errored(earlier) else (earlier, results.path)
                kept[key] = (played_one, results.path if played_one is grade else where)
                notes.append(f"{key[0]} run {key[1]}: errored in {errored_in}, played in "
                             f"{kept[key][1]}: the played episode is kept")
            elif prefer_last:
                kept[key] = (grade, results.path)
                notes.append(f"{key[0]} run {key[1]}: {results.path} replaces {where} (--prefer-last)")
            else:
                extra.append(grade)
                differ = ", ".join(sorted(k for k in (set(earlier) | set(grade)) - VOLATILE
                                          if earlier.get(k) != grade.get(k)))
                notes.append(f"{key[0]} run {key[1]}: {where} ({_verdict(earlier)}) and {results.path} "
                             f"({_verdict(grade)}) differ in {differ}; both kept as episodes "
                             "(--prefer-last keeps only the later file's)")
    grades = [g for g, _ in kept.values()]
    taken = Counter(task for task, _ in kept)
    highest: dict[str, int] = defaultdict(int)
    for task, run in kept:
        highest[task] = max(highest[task], run)
    for grade in extra:  # the later of two disagreeing grades becomes a further run of its task
        task = str(grade["task_id"])
        highest[task] += 1
        taken[task] += 1
        grades.append({**grade, "run": highest[task]})
    grades.sort(key=lambda g: (g["task_id"], g["run"]))
    if duplicates:
        notes.insert(0, f"{duplicates} episode(s) found in more than one file with the same grade: kept once")
    if superseded := sum(f.superseded for f in files):
        notes.append(f"{superseded} attempt(s) replaced by a rerun left out, as the run left them out "
                     "(a rate under --reruns is of passes within N+1 tries)")
    # First: whoever reads a gate must see them.
    notes[:0] = [note for f in files for note in resumed_notes(f.path, f.resumed)]
    return Merged(grades=grades, k=_k(taken), files=[f.path for f in files], duplicates=duplicates,
                  notes=notes, runs=[f.run for f in files if f.run is not None],
                  unfinished=[f.path for f in files if f.summary is None or f.summary.get(INTERRUPTED) is True],
                  not_graded={f.path: [str(i) for i in f.summary[NOT_GRADED]] for f in files
                              if f.summary is not None and isinstance(f.summary.get(NOT_GRADED), list)
                              and f.summary[NOT_GRADED]},
                  skipped={f.path: [str(i) for i in f.summary[SKIPPED_TASKS]] for f in files
                           if f.summary is not None and isinstance(f.summary.get(SKIPPED_TASKS), list)
                           and f.summary[SKIPPED_TASKS]},
                  resumed=[(f.path, line, mark) for f in files for line, mark in f.resumed])


def _verdict(grade: Mapping[str, Any]) -> str:
    return "errored" if is_errored(grade) else "passed" if grade.get("passed") else "failed"


def _k(per_task: Mapping[str, int]) -> int:
    """K for pass^k and pass@k: the fewest episodes any task has, so that every task counts."""
    return max(1, min(per_task.values(), default=1))


def _agent(run: Mapping[str, Any]) -> str | None:
    agent = run.get("agent")
    if isinstance(agent, Mapping):
        agent = agent.get("spec") or agent.get("name")
    return None if agent is None else str(agent)


def task_files_of(run: Mapping[str, Any]) -> dict[str, str]:
    """{task file path: sha256} from a run record, in whichever of the plausible shapes it has."""
    found = run.get("task_files") or run.get("tasks") or []
    if isinstance(found, Mapping):
        return {str(p): str(v.get("sha256") if isinstance(v, Mapping) else v) for p, v in found.items()}
    out = {}
    for item in found if isinstance(found, list) else []:
        if isinstance(item, Mapping) and "sha256" in item:
            out[str(item.get("path"))] = str(item["sha256"])
    return out


def _refuse_mixed(files: Sequence[ResultsFile]) -> None:
    how = "pass --allow-mixed to merge them anyway"
    agents = {f.path: _agent(f.run) for f in files if f.run is not None}
    named = {p: a for p, a in agents.items() if a is not None}
    if len(set(named.values())) > 1:
        listing = ", ".join(f"{p} ran {a}" for p, a in named.items())
        raise MergeError(f"these results are from different agents ({listing}); compare them with "
                         f"`agenteval compare BASE NEW` instead, or {how}")
    runs = [f for f in files if f.run is not None]
    for other in runs[1:]:
        differ = differences(runs[0].run or {}, other.run or {})
        if differ:
            raise MergeError(f"these results are from differently labelled runs ({runs[0].path}: "
                             f"{describe(runs[0].run or {}) or 'no labels'}; {other.path}: "
                             f"{describe(other.run or {}) or 'no labels'}; they differ in {', '.join(differ)}); "
                             f"compare them with `agenteval compare BASE NEW` instead, or {how}")
    refuse_different_tasks(files, how=how)


def refuse_different_tasks(files: Sequence[ResultsFile], *, how: str) -> None:
    """Raise ``MergeError`` if two files ran different versions of a task file or of a task."""
    digests: dict[str, tuple[str, str]] = {}
    for results in files:
        for task_file, digest in task_files_of(results.run or {}).items():
            if task_file in digests and digests[task_file][0] != digest:
                other, where = digests[task_file]
                raise MergeError(f"{task_file} differs between {where} (sha256 {other[:12]}) and {results.path} "
                                 f"(sha256 {digest[:12]}): different task versions; rerun one of them on the "
                                 f"same task files, or {how}")
            digests.setdefault(task_file, (digest, results.path))
    versions: dict[str, tuple[tuple[Any, ...], str]] = {}
    for results in files:
        for grade in results.grades:
            version = task_version(grade)
            task = str(grade["task_id"])
            if task in versions and versions[task][0] != version:
                raise MergeError(f"task {task} differs between {versions[task][1]} and {results.path} "
                                 f"(environment, seed, tags or split: {versions[task][0]} vs {version}): "
                                 f"different task versions; {how}")
            versions.setdefault(task, (version, results.path))


# The shapes the commands read of a summary line and a run record (each optional).
_SHAPES: dict[str, tuple[type, ...]] = {"summary": (dict,), "labels": (dict,), "git": (dict,), "task_files": (list,),
                                        "options": (dict,), "versions": (dict,), "agent": (str,), "endpoint": (str,),
                                        "reruns": (int,), "episodes": (int,)}


def _misshapen(record: Mapping[str, Any]) -> str | None:
    """The first field of a summary line or run record (or of its ``summary``) of a type no run
    writes; None when every one it has is of its type."""
    run: Mapping[str, Any] = run_record_of(record) or {}
    summary: Mapping[str, Any] = record["summary"] if isinstance(record.get("summary"), dict) else {}
    options: Mapping[str, Any] = run["options"] if isinstance(run.get("options"), dict) else {}
    fields: Mapping[str, Any]
    for where, fields in (("", record), ("run.", run), ("summary.", summary), ("run.options.", options)):
        for key, value in fields.items():
            kinds = _SHAPES.get(key)
            if kinds is not None and value is not None and not (isinstance(value, kinds) and not isinstance(
                    value, bool)):
                return f"{where}{key} is {type(value).__name__}, not {' or '.join(k.__name__ for k in kinds)}"
    labels = run.get("labels") if isinstance(run, dict) else None
    if isinstance(labels, dict) and not all(isinstance(v, (str, int, float)) for v in labels.values()):
        return "run.labels holds a value that is not text or a number"
    return None


def merged_run_record(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The run record of a merged file: the first source's, holding what every source ran (red
    team 67: one source's record hid the others'): each task file, the most reruns any allowed, and
    the weakest containment any agent ran under (an in-process shard's passes are no sandboxed run's)."""
    record = dict(runs[0]) if runs else {}
    if len(runs) < 2:
        return record
    settings: list[Mapping[str, Any]] = [run["options"] if isinstance(run.get("options"), dict) else {}
                                         for run in runs]
    options = {**settings[0], "isolate": min((o.get("isolate") for o in settings), key=_containment),
               "reruns": max(int(o.get("reruns") or 0) for o in settings)}
    files: list[Any] = []
    for run in runs:
        listed = run.get("task_files")
        for item in listed if isinstance(listed, list) else []:
            if item not in files:
                files.append(item)
    return {**record, "options": options, "task_files": files}


def _containment(isolate: Any) -> int:
    """How strongly an agent was kept from the harness: none (in process), a process, a sandbox."""
    return 2 if isinstance(isolate, str) and isolate.startswith("bwrap") else 1 if isinstance(isolate, str) else 0


def read_and_merge(paths: Iterable[str | os.PathLike[str]], **options: bool) -> Merged:
    return merge([read_results_file(p) for p in paths], **options)


def recorded_task_files(merged: Merged) -> list[str]:
    """The task files the run records name that are here, unchanged (same sha256), for the HTML
    report's replays when no ``--tasks`` are given."""
    found = []
    for run in merged.runs:
        for path, digest in task_files_of(run).items():
            file = Path(path)
            if path not in found and file.is_file() and hashlib.sha256(file.read_bytes()).hexdigest() == digest:
                found.append(path)
    return found
