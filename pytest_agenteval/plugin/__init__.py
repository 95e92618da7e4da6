"""The pytest plugin (entry point ``agenteval``): hooks, in the order pytest calls them, then
the fixtures it registers.

Everything pytest-specific lives in this package; what it drives (tasks, environments, agents,
grading, reports) never imports pytest. Its modules, each importing only those listed before it:

- ``state``: the per-run ``State`` and each item's ``TaskCase``; imports nothing of the plugin
- ``compat``: the only use of pytest internals, each with a public-API fallback
- ``timeouts``, ``reruns``: living with pytest-timeout and rerun/repeat plugins
- ``subtests``: each check reported as a pytest subtest
- ``runner``: the test function every task line becomes
- ``collect``: task files as pytest modules, task lines as parametrised items, markers
- ``fixtures``: ``task``, ``env``, ``reset``, ``apply``, ``agent``, ``episode``, ``agenteval_pool``
- ``outcomes``: one count per task in every reporter (terminal, JUnit, pytest-html, sugar, allure)
- ``lean``: flat memory: a reported episode's grade taken off pytest's reports
- ``hookspecs``: the hooks we call (each graded episode, the run's end), for plugins of yours
- ``record``, ``reporter``: what ran; each graded episode to the hooks, the summary table and gate
- ``results_file``, ``html``: the results file and the HTML report, implementations of those hooks
- ``integrations``: other plugins' interfaces, one module each, with self-tests and fallbacks
- ``concurrency``: ``--agenteval-concurrency``, episodes in flight per process
- ``distribute``: under xdist, each worker kept at a full window of items (``--agenteval-schedule``)
- ``judging``: ``--agenteval-judge``, the optional judge of tasks' ``judged`` checks
"""

from __future__ import annotations

import gc
import math
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.agents.containment import STRONGEST
from pytest_agenteval.agents.episode import DEFAULT_TIME_LIMIT
from pytest_agenteval.agents.loading import check_buildable, is_builtin_spec, load_agent
from pytest_agenteval.agents.pool import close_pools
from pytest_agenteval.agents.sandbox import IsolatedAgent, warm
from pytest_agenteval.engine.model_user import UserModel
from pytest_agenteval.environments.discovery import INI_KEY as INI_ENVIRONMENTS
from pytest_agenteval.environments.discovery import load_project_environments
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import AgentSpecError, EnvironmentSpecError
from pytest_agenteval.plugin.agent_skips import SELECTIVE
from pytest_agenteval.plugin.budgets import add_options as add_budget_options
from pytest_agenteval.plugin.budgets import configure_budget
from pytest_agenteval.plugin.collect import (
    DEFAULT_PATTERNS,
    INI_PATTERNS,
    RUNNER,
    TaskFile,
    TaskItem,
    TaskLineError,
    is_task_file,
    register_marker,
    scan_task_files,
    task_params,
)
from pytest_agenteval.plugin.compat import configure as configure_compat
from pytest_agenteval.plugin.compat import fixture_overridden
from pytest_agenteval.plugin.concurrency import Ahead
from pytest_agenteval.plugin.distribute import add_schedule_option, make_scheduler
from pytest_agenteval.plugin.errored import Errored
from pytest_agenteval.plugin.errored import add_options as add_errored_options
from pytest_agenteval.plugin.fixtures import (  # noqa: F401 - fixtures are registered by being here
    agent,
    agenteval_pool,
    apply,
    env,
    episode,
    reset,
    task,
)
from pytest_agenteval.plugin.hiding import add_hide_option
from pytest_agenteval.plugin.hints import Hints
from pytest_agenteval.plugin.html import HtmlReport, check_writable
from pytest_agenteval.plugin.integrations import pytest_html, sugar
from pytest_agenteval.plugin.integrations.json_report import JsonReportGrades
from pytest_agenteval.plugin.isolating import INI_LIMITS, contain, isolate_option, limits_given
from pytest_agenteval.plugin.judging import add_options as add_judge_options
from pytest_agenteval.plugin.judging import configure_judge
from pytest_agenteval.plugin.kept_errors import KeptErrors
from pytest_agenteval.plugin.lastfailed import identity_key, remember, scope
from pytest_agenteval.plugin.lean import Lean
from pytest_agenteval.plugin.outcomes import Outcomes, is_check_report
from pytest_agenteval.plugin.progress import Progress
from pytest_agenteval.plugin.progress import add_option as add_progress_option
from pytest_agenteval.plugin.record import agent_fixtures, describe_agent
from pytest_agenteval.plugin.reporter import Reporter
from pytest_agenteval.plugin.reruns import refuse_duplicate_runs, refuse_repeat
from pytest_agenteval.plugin.results_file import open_results_file, signed_line, take_signing_key
from pytest_agenteval.plugin.resume import deselect as deselect_resumed
from pytest_agenteval.plugin.resume import header_line as resume_line
from pytest_agenteval.plugin.resume import kept_grades
from pytest_agenteval.plugin.resume import read as read_resume
from pytest_agenteval.plugin.shadowing import shadowing_problem
from pytest_agenteval.plugin.state import STATE, State, TaskCase
from pytest_agenteval.plugin.suites import add_option as add_suite_option
from pytest_agenteval.plugin.suites import add_suite_paths
from pytest_agenteval.plugin.timeouts import drop_deadline, note_deadline
from pytest_agenteval.plugin.view import add_show_option
from pytest_agenteval.report.labels import LabelError, describe, endpoint_of, git_state, identity, parse_labels
from pytest_agenteval.taskfiles.files import resolved
from pytest_agenteval.taskfiles.loader import TaskLoader

FROZE = pytest.StashKey[bool]()  # this run froze what collection made (gc.freeze)
_SESSIONS: set[int] = set()  # configs of this process not yet unconfigured


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Our own hooks (``hookspecs``), for plugins that take each graded episode."""
    from pytest_agenteval.plugin import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agenteval", "agent evaluation (pytest-agenteval)")
    group.addoption("--agent", metavar="MODULE:ATTR",
                    help="the agent to evaluate: MODULE:ATTR (class or zero-argument factory), "
                         "or a built-in: reference, noop, saboteur:<failure_mode>, replay:<file>")
    group.addoption("--agenteval-user-model", metavar="URL#MODEL",
                    help="play tasks' simulated users with this model at an OpenAI-compatible endpoint, its replies "
                         "cached in pytest's cache (default: the scripted user; docs/conversations.md)")
    group.addoption("--runs", metavar="K", type=int, default=1,
                    help="run every task K times (ids gain -runN); the summary reports pass^K")
    group.addoption("--agenteval-results", metavar="PATH",
                    help="write one grade per episode as JSON Lines, flushed as each ends")
    group.addoption("--agenteval-signing-key", metavar="PATH",
                    help="sign the results file's lines (HMAC-SHA256) with the key in this file, kept outside "
                         "the project and unreadable by the agent (or set AGENTEVAL_SIGNING_KEY)")
    group.addoption("--agenteval-fail-under", metavar="RATE",
                    help="exit 0 when pass@1 (pass^K with --runs K) is at least RATE (0..1), non-zero below it, "
                         "whatever single tasks did; per tag: [tool.agenteval] fail_under_tags in pyproject.toml")
    group.addoption("--agenteval-label", metavar="KEY=VALUE", action="append", default=[],
                    help="name this run (repeatable: model=gpt-4o-mini, prompt=v3); in the run record, header, "
                         "table and HTML report; runs with other labels are not merged, resumed or rerun by --lf")
    group.addoption("--agenteval-resume", metavar="RESULTS",
                    help="continue a results file: run only the episodes it lacks or has errored, append to it "
                         "(refused for a file of other task files, another agent or other labels)")
    group.addoption("--agenteval-html", metavar="PATH",
                    help="write a self-contained HTML report (charts, task x run grid, every episode)")
    group.addoption("--agenteval-isolate", nargs="?", const=STRONGEST, default=None, metavar="LEVEL",
                    help="run each agent in a sandbox of its own that can only send actions and receive "
                         "observations (for agents you do not trust). LEVEL: bwrap (bubblewrap: no files "
                         "but what Python needs, no network, no harness), process (a process of its own "
                         "only); with no LEVEL, the strongest here, refusing if there is no OS sandbox")
    group.addoption("--agenteval-isolate-network", action="store_true",
                    help="let bwrap-isolated agents use the network (agents that call a model)")
    group.addoption("--agenteval-limits", metavar="LIMITS", default=None,
                    help="OS resource limits of an isolated agent's process, e.g. cpu=60,memory=2G,processes=64,"
                         "file_size=16M; unnamed ones keep their defaults (cpu=600, memory=4G, processes=256, "
                         "file_size=64M, open_files=1024), none lifts one (docs/isolation.md); also the "
                         "agenteval_limits ini value")
    parser.addini(INI_LIMITS, type="string", default="",
                  help="--agenteval-limits' default for this project (the option wins)")
    add_hide_option(parser)
    add_show_option(parser)
    group.addoption("--agenteval-timeout", metavar="SECONDS", type=float, default=DEFAULT_TIME_LIMIT,
                    help=f"time limit per episode (default {DEFAULT_TIME_LIMIT:g}; 0 for none)")
    parser.addini(INI_ENVIRONMENTS, type="linelist", default=[],
                  help="modules that register your environments (register_environment), imported at start "
                       "with rootdir on sys.path; the agenteval command reads it too")
    group.addoption("--agenteval-concurrency", metavar="C", type=int, default=1,
                    help="episodes in flight at once in each process (default 1): for agents that spend "
                         "their time waiting on a model; async agents share one event loop, others get a "
                         "thread each. Combines with -n (C per worker)")
    parser.addini(INI_PATTERNS, type="linelist", default=DEFAULT_PATTERNS,
                  help="glob patterns (matched from the right, relative to rootdir) of task files; "
                       ".jsonl files named on the command line are always task files")
    add_schedule_option(group)
    add_judge_options(parser, group)
    add_suite_option(group)
    add_budget_options(group)
    add_progress_option(group)
    add_errored_options(group)


MAX_RUNS = 100_000  # past it collection would hold the run for hours, or fill the memory (--runs=10**20 hung)


def pytest_configure(config: pytest.Config) -> None:
    configure_compat(config)  # pytest internals or their public fallbacks, for the whole run
    _SESSIONS.add(id(config))
    runs = config.getoption("runs")
    if not 1 <= runs <= MAX_RUNS:  # each run is one item per task, all made before the first runs
        raise pytest.UsageError(f"--runs={runs}: must be 1 to {MAX_RUNS:,} (each run is one test item per task)")
    if config.getoption("agenteval_isolate") is not None and not hasattr(config, "workerinput"):
        # Before rootdir goes first on sys.path and before any xdist worker starts (shadowing)
        problem = shadowing_problem([config.rootpath, Path.cwd()])
        if problem is not None:
            raise pytest.UsageError(problem)
    try:  # the project's own environments, found as the agenteval command finds them
        load_project_environments(config.rootpath, config.getini(INI_ENVIRONMENTS))
    except EnvironmentSpecError as exc:
        raise pytest.UsageError(str(exc)) from None
    spec = config.getoption("agent")
    isolate = isolate_option(config)
    factory = None
    if spec and isolate is not None and not is_builtin_spec(spec):
        pass  # never imported here: the sandbox checks it (below, once the paths to hide are known)
    elif spec:
        try:
            factory = load_agent(spec, search_path=config.rootpath)
            if not hasattr(config, "workerinput") and not _listing(config):  # checked once, by the controller
                check_buildable(spec, factory)
        except AgentSpecError as exc:
            raise pytest.UsageError(str(exc)) from None
    timeout = config.getoption("agenteval_timeout")
    if not 0 <= timeout < math.inf:  # also refuses nan
        raise pytest.UsageError(f"--agenteval-timeout={timeout:g}: must be a number of seconds, 0 or more "
                                "(0 for no time limit)")
    concurrency = config.getoption("agenteval_concurrency")
    if concurrency < 1:
        raise pytest.UsageError(f"--agenteval-concurrency={concurrency}: must be 1 or more (1 runs one episode "
                                "at a time)")
    try:
        labels = parse_labels(config.getoption("agenteval_label"))
    except LabelError as exc:
        raise pytest.UsageError(str(exc)) from None
    judge, judge_described = configure_judge(config)  # after the environments: rootdir is on sys.path
    # Built scenarios and validated task lines are cached in pytest's cache folder
    # (cleared by --cache-clear).
    cache = getattr(config, "cache", None)
    user_model = None
    if config.getoption("agenteval_user_model"):
        try:
            user_model = UserModel.parse(config.getoption("agenteval_user_model"),
                                         cache.mkdir("agenteval-users") if cache is not None else None)
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
    pool = EnvironmentPool(cache_dir=cache.mkdir("agenteval-scenarios") if cache is not None else None,
                           judge=judge, user_model=user_model)
    loader = TaskLoader(pool, cache_dir=cache.mkdir("agenteval-tasks") if cache is not None else None)
    add_suite_paths(config)  # after the project's environments: they may ship suites too
    explicit = {resolved(a.split("::")[0]) for a in config.args if a.split("::")[0].endswith(".jsonl")}
    state = State(agent=factory, agent_spec=spec, runs=runs, time_limit=timeout or None, isolate=isolate is not None,
                  pool=pool, loader=loader, explicit=explicit, judge_described=judge_described)
    state.budget = configure_budget(config)
    state.labels, state.endpoint = labels, endpoint_of(factory)
    state.resumed = read_resume(config)
    if not hasattr(config, "workerinput"):
        state.git = git_state(config.rootpath)
    if concurrency > 1:
        state.ahead = Ahead(concurrency, pool.fresh, state.time_limit, state.budget)
    config.stash[STATE] = state
    config.pluginmanager.register(Outcomes(config), "agenteval-outcomes")
    config.pluginmanager.register(Errored(config), "agenteval-errored")
    config.pluginmanager.register(KeptErrors(config), "agenteval-kept-errors")
    config.pluginmanager.register(Lean(config), "agenteval-lean")
    if sugar.wanted(config):
        config.pluginmanager.register(sugar.SugarCounts(config, is_check_report), "agenteval-sugar")
    if pytest_html.wanted(config):
        config.pluginmanager.register(pytest_html.HtmlRows(is_check_report, config), "agenteval-pytest-html")
    paths = [Path(a.split("::")[0]) for a in config.args] or [config.rootpath]
    # Markers read up front for -m as well: its hints need them on an xdist controller too.
    scan = scan_task_files(paths, config, explicit, markers=bool(config.option.markers or config.option.markexpr))
    state.task_files, state.task_hashes, state.task_data = scan.counts, scan.hashes, scan.data
    state.file_problems = scan.problems
    for name, what in scan.markers.items():
        register_marker(config, name, what)
    if isolate is not None:
        if not hasattr(config, "workerinput"):
            take_signing_key(config)
        contain(config, state, isolate)
    elif config.getoption("agenteval_limits") is not None:
        limits_given(config)  # a malformed value is refused whether or not a sandbox runs (red team 38)
    refuse_repeat(config, bool(state.task_files))
    fixtures = agent_fixtures(config, [config.rootpath / f for f in state.task_files])
    state.agent_described = describe_agent(spec, fixtures)
    scope(config, _identity_key(state))  # --lf: this agent's and labels' failures, not another's
    if not hasattr(config, "workerinput"):  # the controller (or a serial run) reports
        reporter = Reporter(config, state)
        config.pluginmanager.register(reporter, "agenteval-reporter")
        # The outputs are implementations of our hooks (hookspecs): each graded episode as it arrives.
        results = open_results_file(config, state, reporter.this_run)
        if results is not None:
            config.pluginmanager.register(results, "agenteval-results")
            reporter.results = results
        kept = kept_grades(state.resumed) if state.resumed is not None else {}
        config.pluginmanager.register(JsonReportGrades(config, reporter.run_record, kept), "agenteval-json-report")
        config.pluginmanager.register(Hints(config, paths), "agenteval-hints")
        config.pluginmanager.register(Progress(config), "agenteval-progress")
        if config.getoption("agenteval_html"):
            check_writable(config.getoption("agenteval_html"))
            config.pluginmanager.register(HtmlReport(config, config.getoption("agenteval_html"), state.runs, pool,
                                                     list(state.task_files), kept), "agenteval-html")
        if _xdist_controller(config) and not _listing(config) and state.task_files:
            # Workers cannot stop the session cleanly, so the controller checks up front.
            _require_agent(state.agent is not None or bool(fixtures))


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash[STATE]
    limit = f"{state.time_limit:g} s" if state.time_limit else "none"
    files = ", ".join(f"{path} ({n})" for path, n in state.task_files.items()) or "none found"
    return [
        f"agenteval: agent={state.agent_described}, runs={state.runs}, "
        f"episode time limit={limit}"
        + (f", episodes in flight per process={state.ahead.concurrency}" if state.ahead is not None else ""),
        f"agenteval task files: {files}",
        *([f"agenteval judge: {state.judge_described}"] if state.judge_described else []),
        *([f"agenteval isolation: {state.containment.describe()}"] if state.containment is not None else []),
        *([f"agenteval sandbox limits: {state.containment.limits.describe(state.containment.level)}"]
          if state.containment is not None else []),
        *([signed_line(config)] if signed_line(config) else []),
        *([f"agenteval run: {named}"] if (named := describe(_named(state))) else []),
        *([resume_line(state.resumed)] if state.resumed is not None else []),
    ]


def _identity_key(state: State) -> str:
    return identity_key(identity({"agent": state.agent_described, "labels": state.labels,
                                  "endpoint": state.endpoint}))


def _named(state: State) -> dict[str, Any]:
    return {"labels": state.labels, "git": state.git, "endpoint": state.endpoint}


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    state = parent.config.stash[STATE]
    if is_task_file(file_path, parent.config, state.explicit):
        return TaskFile.from_parent(parent, path=file_path)
    return None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.module.__name__ != RUNNER:
        return
    task_file = metafunc.definition.parent
    assert isinstance(task_file, TaskFile)
    state = metafunc.config.stash[STATE]
    env_names = {t.environment: state.pool.get(t.environment).name for t in task_file.loaded}
    metafunc.parametrize("agenteval_case", task_params(metafunc.config, task_file.loaded, state.runs, env_names))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    state = config.stash[STATE]
    state.task_data.clear()  # what collection did not load is not needed any more
    # Task files pytest does not collect (a FIFO, a device, a dangling link): one error item each.
    collected = {item.path for item in items}
    items += [TaskLineError.from_parent(session, name=shown, nodeid=shown, path=config.rootpath / shown,
                                        problems=[problem])
              for shown, problem in state.file_problems.items() if config.rootpath / shown not in collected]
    if state.resumed is not None:
        deselect_resumed(config, state.resumed, items, lambda item: getattr(item, "callspec", None) and
                         item.callspec.params.get("agenteval_case"))
    task_items = [i for i in items if isinstance(i, TaskItem)]
    refuse_duplicate_runs(task_items, lambda item: item.callspec.params.get("agenteval_case"))
    if state.agent is None and task_items and not _listing(config) and not hasattr(config, "workerinput"):
        _require_agent(_agent_fixture_overridden(task_items[0]))
    # A saboteur (the tasks tagged with its mode) or a replay (the tasks it has calls for) plays
    # only some tasks; no other agent may choose what it is judged on (red team 28: an agent with
    # its own applies_to skipped the tasks it would fail, and the gate passed).
    applies = state.agent.applies_to if isinstance(state.agent, SELECTIVE) else None
    if applies is not None:
        skip = pytest.mark.skip(reason=state.agent.skip_reason)
        for item in task_items:
            case = item.callspec.params["agenteval_case"]
            if isinstance(case, TaskCase) and not applies(case.task):
                item.add_marker(skip)


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash[STATE]
    if isinstance(state.agent, IsolatedAgent) and not _xdist_controller(session.config) \
            and not _listing(session.config):
        # Now, not at configure: the results file exists (each sandbox hides what exists when it starts).
        warm(state.agent)
    if any(isinstance(item, TaskItem) for item in session.items):
        # What collection made (modules, items, tasks) lives until the session ends: moved out
        # of the cyclic collector's reach, the full collections during the run, pytest's own at
        # unconfigure and the interpreter's at exit no longer walk it each time.
        gc.freeze()
        session.config.stash[FROZE] = True


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(STATE, None)
    if state is not None and state.task_files and config.pluginmanager.get_plugin("dsession") is not None:
        # An xdist controller collects nothing, so collection's freeze never comes: what it
        # imported and configured was walked by every full collection, ten at pytest's
        # unconfigure and the interpreter's at exit (~1 s at the end of a -n 2 run).
        gc.freeze()
        config.stash[FROZE] = True


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under -n with --agenteval-concurrency > 1: every worker's window kept full (plugin/distribute.py)."""
    return make_scheduler(config, log)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> None:
    note_deadline(item, settings)
    # None: pytest-timeout goes on to set its timer


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> None:
    drop_deadline(item)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(STATE, None)
    if state is not None:
        remember(session.config, _identity_key(state))


def pytest_unconfigure(config: pytest.Config) -> None:
    _SESSIONS.discard(id(config))
    if config.stash.get(FROZE, False) and _SESSIONS:
        gc.unfreeze()  # a run inside another (pytester): that process goes on; let its garbage go
    state = config.stash.get(STATE, None)
    if state is not None:
        if state.ahead is not None:
            state.ahead.close()
        close_pools()  # no sandbox left waiting (here and in every xdist worker)
        state.pool.close()


@pytest.fixture(scope="session")
def agenteval_state(pytestconfig: pytest.Config) -> State:
    """This run's state: how the other fixtures and the test body reach it (they never import the hooks)."""
    return pytestconfig.stash[STATE]


def _listing(config: pytest.Config) -> bool:
    opt = config.option
    return bool(opt.collectonly or opt.showfixtures or opt.show_fixtures_per_test or opt.markers)


def _xdist_controller(config: pytest.Config) -> bool:
    return bool(getattr(config.option, "numprocesses", None)) and getattr(config.option, "dist", "no") != "no"


def _require_agent(present: bool) -> None:
    if not present:
        raise pytest.UsageError(
            "no agent to evaluate: pass --agent=MODULE:ATTR (e.g. --agent=reference), "
            "or define an `agent` fixture in conftest.py"
        )


def _agent_fixture_overridden(item: pytest.Item) -> bool:
    overridden = fixture_overridden(item, "agent", agent.__wrapped__)  # type: ignore[attr-defined]
    if overridden is None:  # without pytest's internals: the conftests collection has loaded
        return bool(agent_fixtures(item.config, [item.path]))
    return overridden
