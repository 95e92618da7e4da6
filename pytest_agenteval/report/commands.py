"""``agenteval report`` and ``agenteval compare``: results files in, tables (and HTML) out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pytest_agenteval.report.gate import judge, read_gate
from pytest_agenteval.report.labels import about_run
from pytest_agenteval.report.merge import (
    Merged,
    MergeError,
    merged_run_record,
    read_and_merge,
    read_results_file,
    recorded_task_files,
    refuse_different_tasks,
)
from pytest_agenteval.report.metrics import (
    INTERRUPTED,
    NOT_GRADED,
    SKIPPED_TASKS,
    summary_json,
    summary_lines,
    summary_title,
)
from pytest_agenteval.report.outputs import not_a_file
from pytest_agenteval.report.results import ResultsWriter
from pytest_agenteval.report.signing import (
    KEY_ENV,
    SIGNATURE,
    Signer,
    Verification,
    expected_run,
    load_key,
    runs_named,
    verify,
)

FORGED = 1  # the exit status when a signature, a line count or the run record does not match


def add_commands(commands: Any) -> None:
    report = commands.add_parser("report", help="merge results files (shards, CI jobs, reruns) and print the "
                                                "reliability table; --html writes the HTML report")
    report.add_argument("results", nargs="+", help="results files written by --agenteval-results")
    report.add_argument("--html", metavar="PATH", help="also write a self-contained HTML report here")
    report.add_argument("--tasks", nargs="+", metavar="TASKS",
                        help="the task files, so that the HTML report shows instructions and observations "
                             "(each episode's actions are replayed); default: the files the run records name, "
                             "where they are here unchanged")
    report.add_argument("--out", metavar="PATH", help="also write the merged results file here")
    report.add_argument("--fail-under", metavar="RATE",
                        help="exit 1 when the merged pass@1 (pass^K for K runs) is below RATE (0..1); per tag: "
                             "[tool.agenteval] fail_under_tags in ./pyproject.toml, which also sets fail_under")
    _merge_options(report)
    add_key_option(report)
    report.set_defaults(handler=_report)
    against = commands.add_parser("compare", help="compare two runs of the same tasks, task by task; exit 1 on a "
                                                  "significant regression")
    against.add_argument("base", help="the earlier run's results file")
    against.add_argument("new", help="the run to judge")
    against.add_argument("--alpha", type=float, default=0.05,
                         help="significance level of the one-sided sign test (0.05)")
    against.add_argument("--allow-mixed", action="store_true",
                         help="compare even if a task or task file differs between the two runs")
    against.add_argument("--allow-missing", action="store_true",
                         help="compare even if NEW lacks tasks BASE has (an interrupted or partial run); "
                              "without it that fails, naming them")
    add_key_option(against)
    against.set_defaults(handler=_compare)
    show = commands.add_parser("show", help="print one episode: actions and observations, transcript, usage, "
                                            "state diff, failed checks")
    show.add_argument("results", help="a results file written by --agenteval-results")
    show.add_argument("task", help="the task's id")
    show.add_argument("--run", type=int, default=None, metavar="K", help="which run of the task (default: its first)")
    show.add_argument("--tasks", nargs="+", metavar="TASKS",
                      help="the task files, to replay the actions' observations (default: the files the run "
                           "records name, where they are here unchanged)")
    show.set_defaults(handler=_show)


def add_key_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--signing-key", metavar="PATH",
                        help=f"verify the files' signatures with the key in this file (default: ${KEY_ENV}; "
                             "without either, signatures are not checked and that is said)")
    parser.add_argument("--run-id", action="append", metavar="RUN", dest="run_ids",
                        help="the run id the pytest header printed for the run you mean (repeat for several "
                             "files): a verified file of any other run is a problem")


def signing_key(args: argparse.Namespace) -> bytes | None:
    """``SigningKeyError`` (exit 2, one line) for a key file that cannot be read or a key too short."""
    return load_key(args.signing_key, option="--signing-key")


def verified(paths: list[str], key: bytes | None, command: str,
             runs: list[str] | None = None, *, ordered: bool = False) -> dict[str, Verification] | None:
    """Each file's verification said (one line each); None, after saying why, if any does not match,
    or if ``runs`` (``--run-id``) is given and a file is not verified as one of them, two files are
    one run, or a run named has no file (``ordered``: the files are the runs named, in order)."""
    found: dict[str, Verification] = {}
    for path in paths:
        try:
            found[path] = verify(path, key)
        except OSError:
            continue  # reading it again reports this, with its fix
    for check in found.values():
        if check.said:
            print(check.said)
    problems = [p for check in found.values() for p in check.problems]
    if runs:
        problems += [p for check in found.values() if (p := expected_run(check, runs)) is not None]
        problems += runs_named(list(found.values()), runs, ordered=ordered)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"agenteval {command}: {len(problems)} problem(s) above: the results are not evidence of what "
              "ran (use the files the signed runs wrote, with their key)", file=sys.stderr)
        return None
    return found


def _merge_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-mixed", action="store_true",
                        help="merge runs of different agents or task versions anyway")
    parser.add_argument("--prefer-last", action="store_true",
                        help="when two files grade the same episode differently, keep only the later file's "
                             "(default: keep both as episodes)")


def _load(paths: list[str], args: argparse.Namespace) -> Merged | None:
    try:
        return read_and_merge(paths, allow_mixed=getattr(args, "allow_mixed", False),
                              prefer_last=getattr(args, "prefer_last", False))
    except MergeError as exc:
        print(f"agenteval {args.command}: {exc}", file=sys.stderr)
        return None


def _report(args: argparse.Namespace) -> int:
    gate = read_gate(Path.cwd(), args.fail_under, option="--fail-under")  # a bad rate: before any work
    for option, path in (("--out", args.out), ("--html", args.html)):
        if path and (special := not_a_file(path)) is not None:
            print(f"agenteval report: {option} {path}: {special}", file=sys.stderr)
            return 2
    key = signing_key(args)
    checks = verified(args.results, key, "report", args.run_ids)
    if checks is None:
        return FORGED
    merged = _load(args.results, args)
    if merged is None:
        return 2
    shown = 10
    for note in merged.notes[:shown]:
        print(f"note: {note}")
    if len(merged.notes) > shown:
        print(f"note: … and {len(merged.notes) - shown} more like these")
    if not merged.grades:
        print(f"agenteval report: no graded episodes in {', '.join(merged.files)}", file=sys.stderr)
        return 2
    print(summary_title(merged.grades, merged.k))
    about = about_run(merged.runs[0]) if merged.runs else ""
    if about:
        print(about)
    for line in summary_lines(merged.grades, merged.k):
        print(line)
    if args.out:
        _write_merged(args.out, merged, checks, key)
    if args.html:
        from pytest_agenteval.report.episodes import episode_details
        from pytest_agenteval.report.html import run_warnings, write_html

        tasks = args.tasks or recorded_task_files(merged)
        details = episode_details(merged.grades, tasks) if tasks else None
        ungraded = [f"{path}: {item}" for path, items in merged.not_graded.items() for item in items]
        write_html(args.html, merged.grades, merged.k, sources=merged.files, details=details, about=about,
                   warnings=run_warnings(ungraded, merged.unfinished))
        print(f"HTML report: {args.html}")
    unfinished = ", ".join(merged.unfinished)
    if unfinished:
        print(f"note: {unfinished}: the run did not finish (no summary line: killed or cut short; or interrupted): "
              "tasks it selected may be missing (continue it with pytest … --agenteval-resume FILE)")
    if gate.active:
        verdict = judge(merged.grades, merged.k, gate)
        for line in verdict.lines:
            print(line)
        if unfinished:
            print(f"agenteval gate: FAILED: {unfinished}: the run did not finish, so its unplayed tasks are in no "
                  "rate: a gate holds only a finished run (resume it, then gate)")
            return 1
        for path, items in merged.not_graded.items():
            print(f"agenteval gate: FAILED: {path}: {len(items)} task item(s) failed before their episode was "
                  f"graded ({', '.join(items[:3])}{', …' if len(items) > 3 else ''}), so they are in no rate, and "
                  "the run failed on them: a gate holds only episodes graded (resume it, then gate)")
        for path, items in merged.skipped.items():
            print(f"agenteval gate: FAILED: {path}: {len(items)} selected task(s) skipped by the agent "
                  f"({', '.join(items[:3])}{', …' if len(items) > 3 else ''}): a gate holds only a run that "
                  "tried every task it selected")
        if merged.not_graded or merged.skipped:
            return 1
        return 0 if verdict.passed else 1
    return 0


def _show(args: argparse.Namespace) -> int:
    from pytest_agenteval.report.episodes import episode_details
    from pytest_agenteval.report.show import ShowError, pick, render

    merged = _load([args.results], args)
    if merged is None:
        return 2
    try:
        grade = pick(merged.grades, args.task, args.run, args.results)
    except ShowError as exc:
        print(f"agenteval show: {exc}", file=sys.stderr)
        return 2
    tasks = args.tasks or recorded_task_files(merged)
    detail = episode_details([grade], tasks).get((str(grade["task_id"]), int(grade["run"]))) if tasks else None
    print("\n".join(render(grade, detail)))
    return 0


def _write_merged(out: str, merged: Merged, checks: dict[str, Verification], key: bytes | None) -> None:
    """The merged results file: each source's verification in its run record, signed anew with ``key``."""
    signer = Signer(key) if key is not None else None
    writer = ResultsWriter(out, signer=signer)
    run: dict[str, Any] = {**merged_run_record(merged.runs), "merged_from": merged.files,
                           "verification": {path: _status(check) for path, check in checks.items()}}
    run.pop("signing", None)
    if signer is not None:
        run["signing"] = block = signer.block()  # its run id, to pin with --run-id (red team 67)
        print(f"agenteval report: {out}: signed ({block['algorithm']}, key id {block['key_id']}, "
              f"run {block['run_id']})")
    if merged.runs or signer is not None:  # files from before run records merge into a file without one
        writer.start(run)
    for path, line, mark in merged.resumed:  # a source's resumes stay told (red team 22: a merge dropped them)
        writer.mark_resumed({**mark, "source": f"{path}:{line}"})
    for grade in merged.grades:
        writer.write({k: v for k, v in grade.items() if k != SIGNATURE})
    summary = summary_json(merged.grades, merged.k)
    if merged.unfinished:  # the merged file is no more finished than its sources
        summary[INTERRUPTED] = True
    if merged.not_graded:  # nor more graded
        summary[NOT_GRADED] = sorted({item for items in merged.not_graded.values() for item in items})
    if merged.skipped:  # nor more complete
        summary[SKIPPED_TASKS] = sorted({item for items in merged.skipped.values() for item in items})
    writer.close(summary)


def _status(check: Verification) -> str:
    if check.verified:
        return "signed, verified"
    return "signed, not verified (no key given)" if check.signed else "unsigned"


def _compare(args: argparse.Namespace) -> int:
    from pytest_agenteval.report.compare import compare, render

    if verified([args.base, args.new], signing_key(args), "compare", args.run_ids, ordered=True) is None:
        return FORGED
    base, new = _load([args.base], args), _load([args.new], args)
    if base is None or new is None:
        return 2
    if not args.allow_mixed:
        try:  # a paired comparison needs the same tasks on both sides (the agents may differ)
            refuse_different_tasks([read_results_file(args.base), read_results_file(args.new)],
                                   how="pass --allow-mixed to compare them anyway")
        except MergeError as exc:
            print(f"agenteval compare: {exc}", file=sys.stderr)
            return 2
    result = compare(base.grades, new.grades, alpha=args.alpha)
    if result.overall.tasks == 0:
        print(f"agenteval compare: {args.base} and {args.new} have no task in common", file=sys.stderr)
        return 2
    if result.only_base and not args.allow_missing:
        print(f"agenteval compare: {args.new} lacks {len(result.only_base)} of the "
              f"{len(result.only_base) + result.overall.tasks} tasks of {args.base} ({_listed(result.only_base)}) "
              "or has only errored episodes of them: not evidence of no regression (run them, or pass "
              "--allow-missing to compare the tasks in both)", file=sys.stderr)
        return 2
    print(f"base: {args.base} ({len(base.grades)} episodes), new: {args.new} ({len(new.grades)} episodes); "
          f"{result.overall.tasks} tasks in both")
    for side, merged in (("base", base), ("new", new)):
        print(f"{side} run: {about_run(merged.runs[0] if merged.runs else None) or 'no run record'}")
        for note in merged.notes:
            if "resumed after " in note:  # a second try among the grades compared
                print(f"note: {note}")
    reruns = [_reruns(merged.runs) for merged in (base, new)]
    if reruns[0] != reruns[1]:
        print(f"agenteval compare: note: reruns differ (base {reruns[0]}, new {reruns[1]}): a rerun hides a failure "
              "its next attempt passes, so the side with more reruns reads better for it")
    for line in render(result):
        print(line)
    return 1 if result.significant_regression else 0


def _reruns(runs: list[dict[str, Any]]) -> int:
    """The most reruns any run of a side allowed (0: none, or a record from before they were recorded)."""
    return max((int((run.get("options") or {}).get("reruns") or 0) for run in runs), default=0)


def _listed(names: list[str], shown: int = 10) -> str:
    more = f", … and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more
