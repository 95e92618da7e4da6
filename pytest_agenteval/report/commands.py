"""``agenteval report`` and ``agenteval compare``: results files in, tables (and HTML) out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pytest_agenteval.report.merge import (
    Merged,
    MergeError,
    read_and_merge,
    read_results_file,
    recorded_task_files,
    refuse_different_tasks,
)
from pytest_agenteval.report.metrics import summary_json, summary_lines, summary_title
from pytest_agenteval.report.results import json_line


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
    _merge_options(report)
    report.set_defaults(handler=_report)
    against = commands.add_parser("compare", help="compare two runs of the same tasks, task by task; exit 1 on a "
                                                  "significant regression")
    against.add_argument("base", help="the earlier run's results file")
    against.add_argument("new", help="the run to judge")
    against.add_argument("--alpha", type=float, default=0.05, help="significance level of the sign test (0.05)")
    against.add_argument("--allow-mixed", action="store_true",
                         help="compare even if a task or task file differs between the two runs")
    against.set_defaults(handler=_compare)


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
    for line in summary_lines(merged.grades, merged.k):
        print(line)
    if args.out:
        records: list[dict[str, Any]] = []
        if merged.runs:
            records.append({"run_record": {**merged.runs[0], "merged_from": merged.files}})
        records += merged.grades
        records.append({"summary": summary_json(merged.grades, merged.k)})
        Path(args.out).write_text("".join(map(json_line, records)), encoding="utf-8")
    if args.html:
        from pytest_agenteval.report.episodes import episode_details
        from pytest_agenteval.report.html import write_html

        tasks = args.tasks or recorded_task_files(merged)
        details = episode_details(merged.grades, tasks) if tasks else None
        write_html(args.html, merged.grades, merged.k, sources=merged.files, details=details)
        print(f"HTML report: {args.html}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from pytest_agenteval.report.compare import compare, render

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
    print(f"base: {args.base} ({len(base.grades)} episodes), new: {args.new} ({len(new.grades)} episodes); "
          f"{result.overall.tasks} tasks in both")
    for line in render(result):
        print(line)
    return 1 if result.significant_regression else 0
