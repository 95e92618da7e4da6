"""The ``World``: a seeded SQLite database an agent changes only through audited actions.

It resets, applies and lets anyone read; it knows nothing of grading. ``Environment``
(``environments/base.py``) is a world with its rubric, judged from outside by ``grading``.
A domain subclasses ``Environment`` with its SQL schema, a deterministic ``seed_rows`` and
its ``@action`` methods. Nothing here imports pytest, so a customer's harness can drive it.
"""

from __future__ import annotations

import copy
import random
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from pytest_agenteval.engine import audit, tracking
from pytest_agenteval.engine.actions import ActionSpec, action, collect_actions
from pytest_agenteval.engine.conversation import ScriptedUser, SimulatedUser
from pytest_agenteval.engine.episode_state import EpisodeState, Message, Turn, UserReplied
from pytest_agenteval.engine.model_user import ModelUser, UserModel
from pytest_agenteval.engine.running import Running
from pytest_agenteval.engine.scenarios import ScenarioCache, connect, fingerprint
from pytest_agenteval.engine.schema import TableInfo, quote, read_tables
from pytest_agenteval.errors import ActionError, EnvironmentBug, EpisodeOver, describe_exception
from pytest_agenteval.text import ENGLISH, Lexicon, Reader, reader_for

if TYPE_CHECKING:
    from pytest_agenteval.tasks.model import Task

class World(Running):
    """Reset, apply and read over a seeded SQLite database (what ``Environment`` builds on)."""

    name: ClassVar[str] = ""
    # What seed data is keyed by (with the scenario seed and population). It defaults to
    # ``name``; set it to the old name when renaming an environment, or every scenario
    # (and so every task's facts) changes.
    seed_key: ClassVar[str | None] = None
    schema: ClassVar[str] = ""
    agent_role: ClassVar[str] = "agent"
    default_population: ClassVar[int] = 100
    # The domain's own task fields (top-level keys of a task line beyond the common ones),
    # as a pydantic model; the loader validates them with it. None: the domain has none.
    task_fields: ClassVar[type[BaseModel] | None] = None
    max_open_scenarios: ClassVar[int] = 8
    clock_start: ClassVar[datetime] = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    clock_tick: ClassVar[timedelta] = timedelta(seconds=30)
    actions: ClassVar[dict[str, ActionSpec]] = {}
    # (action, arguments) pairs that write on scenario 0; check_environment uses them.
    conformance_probe: ClassVar[list[tuple[str, dict[str, Any]]]] = []
    # Failure mode -> sabotage function (see agents/saboteurs.py); grader validation runs them.
    saboteurs: ClassVar[dict[str, Any]] = {}
    # What free text means here (docs/text.md): the meaning classes its texts are read with,
    # and the free-text arguments whose claims the rubric checks, each with the failure mode
    # a false claim triggers: {("notify_claimant", "body"): "misleading_letter"}.
    lexicon: ClassVar[Lexicon] = ENGLISH
    texts: ClassVar[Mapping[tuple[str, str], str]] = {}
    # The labels ``agenteval validate``'s mutants expect (docs/environments.md, "Proving it"):
    # of a text written too early (any one; empty: the text's own), and of path mutants by
    # "<kind> <action>.<argument>", "<kind> <action>", "<action>" or "<kind>", most specific first.
    early_text_failure_modes: ClassVar[frozenset[str]] = frozenset()
    mutant_failure_modes: ClassVar[Mapping[str, frozenset[str]]] = {}
    # SOME subclasses. Guessability baselines of ``agenteval validate``: name -> a zero-argument
    # factory of a constant policy, an agent that reads only ``episode.instruction`` and calls
    # writes only (never a look-up), e.g. "always raise a query". A task such a policy passes
    # measures nothing (docs/environments.md, "Guessability baselines").
    baselines: ClassVar[Mapping[str, Callable[[], Any]]] = {}
    # SOME subclasses. Failure mode -> whether the task's world holds that trap, called on the
    # world reset for the task: (world, task) -> bool. A tag whose trap is absent is an error
    # of ``agenteval validate``; a trap held by an untagged task is listed (validate/traps.py).
    traps: ClassVar[Mapping[str, Callable[[World, Task], bool]]] = {}
    # SOME subclasses. A fixed data set (a ported benchmark's): every seed builds the same
    # tables, so check_environment does not ask the seed to vary them.
    fixed_scenario: ClassVar[bool] = False
    # SOME subclasses. Files the seed data is read from, relative to the class's module (or
    # absolute): their bytes enter the cache fingerprint, so editing one rebuilds the scenarios.
    data_files: ClassVar[tuple[str | Path, ...]] = ()
    # SOME subclasses. What the agent receives with its instruction (``episode.policy`` and
    # ``episode.system_prompt``); a task's own ``policy`` / ``system_prompt`` replace them.
    policy: ClassVar[str] = ""
    system_prompt: ClassVar[str] = ""
    # SOME subclasses. Look-ups not scoped by a record (a catalogue, a policy text): validate
    # calls them as the reference does, and does not warn it could not vary their arguments.
    unscoped_look_ups: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.actions = collect_actions(cls)

    @classmethod
    def reader(cls) -> Reader:
        """The reader of this environment's lexicon (one per lexicon, its readings cached)."""
        return reader_for(cls.lexicon)

    def __init__(self, *, population: int | None = None, cache_dir: Path | None = None) -> None:
        self.population = population or self.default_population
        code = fingerprint(type(self)) if cache_dir is not None else None
        # Names this environment's code, population and SQLite for anything cached on disk.
        self.cache_key = f"{self.name}-{self.population}-{code}" if code else None
        self._scenarios = ScenarioCache(self._build, max_open=self.max_open_scenarios,
                                        disk=cache_dir if code else None,
                                        fingerprint=self.cache_key or "")
        self._db: sqlite3.Connection | None = None
        self._episode: EpisodeState | None = None
        # Set by the harness (--agenteval-user-model): tasks' users are played by this model.
        self.user_model: UserModel | None = None
        # An agent's thread may call apply() while the harness resets or grades (an agent
        # left behind after its time limit, or after an interruption): one at a time.
        self._lock = threading.RLock()
        # The attributes ``on_reset`` sets (learnt at the first reset): the episode's Python state.
        self._episode_attributes: frozenset[str] | None = None

    # ----- what a domain provides ---------------------------------------------------

    def seed_rows(
        self, rng: random.Random, scenario_seed: int
    ) -> Mapping[str, Iterable[Sequence[Any] | Mapping[str, Any]]]:
        """Rows per table, in column order or as mappings. Use only ``rng`` for chance."""
        raise NotImplementedError

    def on_reset(self, task: Task | None) -> None:
        """Called after each reset (overrides applied); prepare scripted counterparties."""

    def after_step(self, step: int) -> None:
        """Called after every agent step; scripted counterparties act here."""

    def agent_actor_id(self, task: Task | None) -> str:
        return "agent"

    def decision_facts(self, task: Task) -> list[tuple[str, Any, str]]:
        """The (table, primary key, column) values the task's right answer turns on — a
        lapsed policy, a KYC flag. Called after ``reset`` for ``task``; ``agenteval validate``
        reports each one that no allowed look-up shows (docs/environments.md). Default: none."""
        return []

    def distractors(self, task: Task) -> frozenset[str]:
        """Ids the task's instruction names on purpose although the task never touches them
        (a record the agent must leave alone); ``agenteval validate`` warns of any other
        named record the task does not touch. Default: none."""
        return frozenset()

    def look_up_arguments(self, action: str, task: Task) -> list[dict[str, Any]] | None:
        """Arguments ``agenteval validate`` should try ``action`` (a look-up) with on unrelated
        records, for look-ups whose arguments it cannot build itself (an argument not named
        ``<table>_id``). None: let validate build them. Default: None."""
        return None

    def policy_for(self, task: Task | None) -> str:
        """The policy text the agent receives: the task's, else the environment's."""
        return task.policy if task is not None and task.policy is not None else self.policy

    def system_prompt_for(self, task: Task | None) -> str:
        """The system prompt the agent receives: the task's, else the environment's."""
        return task.system_prompt if task is not None and task.system_prompt is not None else self.system_prompt

    def user_for(self, task: Task) -> SimulatedUser | None:
        """The simulated user of a task with a ``user`` scenario: the scripted one, reading with
        this environment's lexicon, or the model-driven one when the harness set ``user_model``.
        Override for another (docs/conversations.md)."""
        if task.user is None:
            return None
        if self.user_model is not None:
            return ModelUser(task.user, self.user_model)
        return ScriptedUser(task.user, self.lexicon)

    @action(writes=False)
    def say_to_user(self, message: Message) -> UserReplied:
        """Say something to the user you are serving (ask for what you need, propose what you will do,
        tell them the outcome) and get their reply. Only when the task has a user."""
        ep = self._require_episode()
        if ep.user is None:
            raise ActionError("no_user", "there is no user in this task to talk to")
        reply = ep.user.reply(message)
        ep.conversation.append(Turn(step=ep.steps, message=message, reply=reply))
        return {"reply": reply.text, "conversation_over": reply.ended}

    def task_fields_of(self, task: Task | None) -> Any:
        """The task's domain fields as an instance of ``task_fields`` (its defaults when
        ``task`` is None). The loader has validated them, so this does not fail for a loaded task."""
        if self.task_fields is None:
            return None
        return self.task_fields.model_validate(task.domain_fields if task is not None else {})

    # ----- the episode: reset, act, end, read while grading ------------------------------

    def reset(self, scenario_seed: int, *, task: Task | None = None) -> None:
        """Restore the scenario for ``scenario_seed`` and apply the task's overrides.

        Cost: a rollback of what the previous episode wrote plus the overrides; it does
        not grow with table size. The previous episode ends: calls on its behalf are refused.
        """
        with self._lock:
            self._reset(scenario_seed, task)

    def _reset(self, scenario_seed: int, task: Task | None) -> None:
        if self._episode is not None:
            self._episode.ended = True
        if task is not None and task.scenario_seed != scenario_seed:
            raise ValueError(
                f"task {task.task_id} uses scenario_seed {task.scenario_seed}, not {scenario_seed}"
            )
        db = self._scenarios.get(scenario_seed)
        if db.in_transaction:
            db.execute("ROLLBACK")
        db.execute("BEGIN")
        self._db = db
        if task is not None:
            self._apply_overrides(task.overrides)
        db.execute("DELETE FROM _changes")
        self._episode = EpisodeState(
            task=task,
            seed=scenario_seed,
            max_steps=task.max_steps if task else 10_000,
            allowed=frozenset(task.allowed_actions) if task else None,
            user=self.user_for(task) if task is not None and task.user is not None else None,
        )
        before = set(vars(self))
        self.on_reset(task)
        if self._episode_attributes is None:  # what on_reset set: the state a trial call restores
            self._episode_attributes = frozenset(set(vars(self)) - before)

    def apply(self, action: str, arguments: Any = None, *, episode: EpisodeState | None = None) -> dict[str, Any]:
        """Run one agent action; always returns an observation, never raises for bad input.

        ``episode``: the episode the call is made for (what ``Episode.call`` passes). If that
        episode has ended, or a reset has started another, the call raises ``EpisodeOver``
        and changes nothing. Without it, the call acts on the current episode.
        """
        with self._lock:
            if episode is not None and (episode is not self._episode or episode.ended):
                task_id = episode.task.task_id if episode.task is not None else "(no task)"
                raise EpisodeOver(f"episode {task_id} has ended; no more actions are accepted")
            return self._apply(self._require_episode(), action, arguments)

    def end_episode(self, episode: EpisodeState | None = None) -> None:
        """End the current episode (or ``episode``, if still current): later calls made for it
        raise ``EpisodeOver``. Grading it is still allowed."""
        with self._lock:
            target = self._episode if episode is None else episode
            if target is not None:
                target.ended = True

    def _apply(self, ep: EpisodeState, action: str, arguments: Any) -> dict[str, Any]:
        ep.steps += 1
        arguments = {} if arguments is None else arguments
        try:
            outcome, fault, obs = self._run_agent_action(ep, action, arguments)
        except Exception as exc:  # not ActionError: the environment's bug (its writes are rolled back)
            self._crashed(ep, f"action {action} raised {describe_exception(exc)}", action, arguments)
            raise EnvironmentBug(ep.crash) from exc
        args_json = audit.stored_arguments(arguments)
        self._append_audit(
            step=ep.steps, actor_role=self.agent_role,
            actor_id=self.agent_actor_id(ep.task), action=audit.without_surrogates(str(action)),
            args_json=args_json, outcome=outcome, error=obs.get("error"), fault=fault,
        )
        if ep.conversation and ep.conversation[-1].step == ep.steps and outcome == "ok":
            # The user's reply is logged as a counterparty's act, right after the message.
            self._append_audit(step=ep.steps, actor_role="user", actor_id="user", action="reply",
                               args_json=audit.canonical_json({"text": ep.conversation[-1].reply.text,
                                                               "kind": ep.conversation[-1].reply.kind}),
                               outcome="ok", error=None, fault=None)
        try:
            self.after_step(ep.steps)
        except Exception as exc:
            self._crashed(ep, f"after_step({ep.steps}) raised {describe_exception(exc)}")
            raise EnvironmentBug(ep.crash) from exc
        return obs

    def _crashed(self, ep: EpisodeState, what: str, action: str | None = None, arguments: Any = None) -> None:
        """Remember that the environment failed (grading then refuses the episode) and log it."""
        ep.crash = ep.crash or what
        if action is not None:
            self._append_audit(
                step=ep.steps, actor_role=self.agent_role, actor_id=self.agent_actor_id(ep.task),
                action=audit.without_surrogates(str(action)), args_json=audit.stored_arguments(arguments),
                outcome="error",
                error="environment_error", fault=None,
            )

    @contextmanager
    def read_only(self, what: str) -> Iterator[EpisodeState]:
        """Hold the episode still while ``what`` reads it (grading): no agent call interleaves,
        and a write raises and is undone."""
        with self._lock:
            ep = self._require_episode()
            with self._undone(what):
                yield ep

    # ----- reading the episode ----------------------------------------------------------

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("call reset(scenario_seed) before using the environment")
        return self._db

    @property
    def episode(self) -> EpisodeState:
        return self._require_episode()

    @property
    def task(self) -> Task | None:
        return self._require_episode().task

    @cached_property
    def tables(self) -> dict[str, TableInfo]:
        scratch = connect()
        try:
            scratch.executescript(self.schema)
            return read_tables(scratch)
        finally:
            scratch.close()

    @cached_property
    def all_columns(self) -> frozenset[str]:
        return frozenset(c for t in self.tables.values() for c in t.columns)

    def diff(self) -> tracking.StateDiff:
        return tracking.compute_diff(self.db, self.tables)

    def audit_log(self) -> list[audit.AuditEvent]:
        return audit.read_events(self.db)

    def tools(self, allowed: Iterable[str] | None = None) -> list[dict[str, Any]]:
        names = self.actions if allowed is None else [a for a in allowed if a in self.actions]
        return copy.deepcopy([self.actions[n].tool() for n in names])

    def row(self, table: str, pk: Any) -> dict[str, Any] | None:
        return tracking.fetch_row(self.db, self.tables[table], pk)

    def require(self, table: str, pk: Any) -> dict[str, Any]:
        """The row, or an ``ActionError("not_found")`` the agent sees as an observation."""
        found = self.row(table, pk)
        if found is None:
            raise ActionError("not_found", f"no {table} {pk}")
        return found

    def scenario_has_row(self, scenario_seed: int, table: str, pk: Any) -> bool:
        """Whether the built scenario (before any episode) holds this row."""
        db = self._scenarios.get(scenario_seed)
        info = self.tables[table]
        if db.in_transaction and db is self._db:
            # Look through the open episode at the scenario: a touched row's old version.
            hit = db.execute(
                "SELECT old FROM _changes WHERE tbl = ? AND pk = ?", (table, pk)
            ).fetchone()
            if hit is not None:
                return hit[0] is not None
        return db.execute(info.select_by_pk, (pk,)).fetchone() is not None

    def try_overrides(self, scenario_seed: int, rows: Sequence[tuple[str, Any, Mapping[str, Any]]]
                      ) -> list[str | None]:
        """Apply updates to the scenario and undo them; per row: None (accepted), "missing"
        (no such row), or why the database's constraints refuse it."""
        if not rows:
            return []
        db = self._scenarios.get(scenario_seed)
        outcomes: list[str | None] = []
        db.execute("SAVEPOINT try_overrides")
        try:
            for table, pk, fields in rows:
                info = self.tables[table]
                assignments = ", ".join(f"{quote(f)} = ?" for f in fields)
                try:
                    cursor = db.execute(f"UPDATE {info.quoted} SET {assignments} WHERE {quote(info.pk)} = ?",
                                        [*fields.values(), pk])
                    outcomes.append(None if cursor.rowcount else "missing")
                except sqlite3.DatabaseError as exc:
                    outcomes.append(str(exc))
        finally:
            db.execute("ROLLBACK TO try_overrides")
            db.execute("RELEASE try_overrides")
        return outcomes

    # ----- helpers for domain code -------------------------------------------------------

    def now(self) -> str:
        """The simulated clock: deterministic, one tick per audit row."""
        return _clock_text(self.clock_start, self.clock_tick, self._episode.ticks if self._episode else 0)

    def new_id(self, prefix: str) -> str:
        """Ids for rows the episode creates: PREFIX-E001, PREFIX-E002, … (never seeded)."""
        ep = self._require_episode()
        ep.sequences[prefix] += 1
        return f"{prefix}-E{ep.sequences[prefix]:03d}"

    def record(self, *, actor_role: str, actor_id: str, action: str, arguments: Any) -> None:
        """Audit an action taken by a scripted counterparty (not the agent)."""
        ep = self._require_episode()
        self._append_audit(
            step=ep.steps, actor_role=actor_role, actor_id=actor_id, action=action,
            args_json=audit.canonical_json(arguments), outcome="ok", error=None, fault=None,
        )

    def close(self) -> None:
        with self._lock:
            if self._episode is not None:
                self._episode.ended = True
            self._scenarios.close()
            self._db = None
            self._episode = None

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- internals ---------------------------------------------------------------------

    def _require_episode(self) -> EpisodeState:
        if self._episode is None:
            raise RuntimeError("call reset(scenario_seed, task=...) before apply() or grade()")
        return self._episode

    def _build(self, db: sqlite3.Connection, scenario_seed: int) -> None:
        db.executescript(self.schema)
        tables = read_tables(db)
        rng = random.Random(f"{self.seed_key or self.name}:{scenario_seed}:{self.population}")
        db.execute("BEGIN")
        for table, rows in self.seed_rows(rng, scenario_seed).items():
            info = tables[table]
            cols = ", ".join(quote(c) for c in info.columns)
            marks = ", ".join("?" for _ in info.columns)
            db.executemany(
                f"INSERT INTO {info.quoted} ({cols}) VALUES ({marks})",
                (_as_tuple(row, info.columns) for row in rows),
            )
        db.execute("COMMIT")
        db.executescript(audit.AUDIT_SCHEMA)
        tracking.install(db, tables.values())

    def _apply_overrides(self, overrides: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> None:
        for table, rows in overrides.items():
            info = self.tables[table]
            for pk, fields in rows.items():
                assignments = ", ".join(f"{quote(f)} = ?" for f in fields)
                self.db.execute(
                    f"UPDATE {info.quoted} SET {assignments} WHERE {quote(info.pk)} = ?",
                    [*fields.values(), pk],
                )

    def _append_audit(self, **fields: Any) -> None:
        ep = self._require_episode()
        audit.append(self.db, ts=self.now(), **fields)
        ep.ticks += 1


@lru_cache(maxsize=4096)
def _clock_text(start: datetime, tick: timedelta, ticks: int) -> str:
    return (start + ticks * tick).strftime("%Y-%m-%dT%H:%M:%SZ")


def _as_tuple(row: Sequence[Any] | Mapping[str, Any], columns: tuple[str, ...]) -> Sequence[Any]:
    if isinstance(row, Mapping):
        return tuple(row[c] for c in columns)
    return row
