"""Running one agent call against a ``World``: the step budget, the allowed actions, argument
validation, injected faults (a trial run decides who takes one), and each action inside a
savepoint, so a refused or failed call leaves nothing behind and a look-up that writes is an
environment bug. ``World`` inherits it; this module holds no state of its own."""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_agenteval.engine import audit, faults, tracking
from pytest_agenteval.engine.actions import ActionSpec
from pytest_agenteval.engine.schema import TableInfo
from pytest_agenteval.errors import ActionError

if TYPE_CHECKING:
    from pytest_agenteval.engine.episode_state import EpisodeState


def error(code: str, detail: str) -> dict[str, Any]:
    """An observation of a call that did nothing."""
    return {"ok": False, "error": code, "detail": detail}


class Running:
    """What ``World`` does with one agent call (see the module's docstring)."""

    actions: ClassVar[dict[str, ActionSpec]] = {}
    _episode_attributes: frozenset[str] | None

    if TYPE_CHECKING:
        @property
        def db(self) -> sqlite3.Connection: ...

        @property
        def tables(self) -> dict[str, TableInfo]: ...

        def _require_episode(self) -> EpisodeState: ...

    def _run_agent_action(
        self, ep: EpisodeState, action: Any, arguments: Any
    ) -> tuple[str, str | None, dict[str, Any]]:
        """(outcome, fault, observation) for one agent call."""
        if ep.steps > ep.max_steps:
            ep.over_budget = True
            return "refused", None, error("step_limit", f"the step budget of {ep.max_steps} is used up")
        spec = self.actions.get(action) if isinstance(action, str) else None
        if spec is None or (ep.allowed is not None and action not in ep.allowed):
            ep.forbidden.append(audit.without_surrogates(str(action)))
            allowed = sorted(ep.allowed if ep.allowed is not None else self.actions)
            code = "unknown_action" if spec is None else "forbidden_action"
            return "refused", None, error(
                code, f"{action!r} is not an allowed action; allowed: {', '.join(allowed)}"
            )
        args, reason = spec.validate(arguments)
        if args is None:
            return "error", None, error("invalid_arguments", reason or "")
        if audit.has_surrogate(audit.canonical_json(args)):
            return "error", None, error("invalid_arguments", "a string holds a lone surrogate (\\ud800-\\udfff), "
                                         "which is not Unicode text; send valid UTF-8 text")
        ep.calls[spec.name] += 1
        fault = faults.lookup(ep.task, spec.name, ep.calls[spec.name])
        if fault is not None and fault.error in ("unavailable", "timeout") and not fault.after_commit:
            # Nothing is done, but only a call that would have done something takes the fault:
            # one that would fail gets its own answer (else a throwaway call on a record that
            # does not exist takes the fault, and the real one goes through: red team 18).
            failure = self._trial(spec, args)
            if failure is not None:
                ep.calls[spec.name] -= 1
                return "error", None, failure
            return "error", fault.label, faults.observation(fault)
        outcome, obs = self._execute(spec, args, stale=fault is not None and fault.error == "stale_read")
        if fault is not None and fault.after_commit:
            if outcome != "ok":
                # It committed nothing, so nothing was lost in a timeout: the call gets its own
                # answer, and the fault waits for the call that commits. (Before, a throwaway
                # call, open_account for a customer that does not exist, took the fault, and the
                # real one went through: red team 18's agent passed every retry trap that way.)
                ep.calls[spec.name] -= 1
                return outcome, None, obs
            return "error", fault.label, faults.observation(fault)
        return outcome, fault.label if fault else None, obs

    def _execute(self, spec: ActionSpec, args: dict[str, Any], *, stale: bool) -> tuple[str, dict[str, Any]]:
        db = self.db
        if not spec.writes and not stale:
            return self._look_up(spec, args)
        db.execute("SAVEPOINT action")
        try:
            if stale:
                tracking.revert_changes(db, self.tables)
            before = db.total_changes
            result = spec.function(self, **args)
        except ActionError as exc:
            db.execute("ROLLBACK TO action")
            db.execute("RELEASE action")
            return "error", error(exc.code, exc.detail)
        except sqlite3.IntegrityError as exc:
            db.execute("ROLLBACK TO action")
            db.execute("RELEASE action")
            return "error", error("constraint", f"the database refused it: {exc}")
        except BaseException:
            db.execute("ROLLBACK TO action")
            db.execute("RELEASE action")
            raise
        if stale:  # the stale view is undone, whatever the look-up did
            wrote = db.total_changes != before
            db.execute("ROLLBACK TO action")
            db.execute("RELEASE action")
            if wrote:
                raise RuntimeError(f"read-only action {spec.name} changed the database")
        else:
            db.execute("RELEASE action")
        return "ok", {"ok": True, "result": result}

    def _trial(self, spec: ActionSpec, args: dict[str, Any]) -> dict[str, Any] | None:
        """The error the call would get, or None: it is run, and all it did is undone (its rows,
        the ids it took, and the Python state ``on_reset`` set). A message to the user is not
        run: it would be heard."""
        ep = self._require_episode()
        if spec.name == "say_to_user":
            return None if ep.user is not None else error("no_user", "there is no user in this task to talk to")
        sequences = ep.sequences.copy()
        state = {name: copy.deepcopy(getattr(self, name)) for name in self._episode_attributes or ()}
        self.db.execute("SAVEPOINT trial")
        try:
            outcome, obs = self._execute(spec, args, stale=False)
        finally:
            self.db.execute("ROLLBACK TO trial")
            self.db.execute("RELEASE trial")
            ep.sequences = sequences
            for name, value in state.items():
                setattr(self, name, value)
        return obs if outcome != "ok" else None

    def _look_up(self, spec: ActionSpec, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """A read-only action, inside a savepoint that is always rolled back: a look-up that
        writes is an environment bug, raised, and leaves nothing behind.

        (Not ``PRAGMA query_only``: changing a flag pragma expires every prepared statement,
        so each later statement, trigger programs included, would be compiled again.)
        """
        with self._undone(f"read-only action {spec.name}"):
            try:
                result = spec.function(self, **args)
            except ActionError as exc:
                return "error", error(exc.code, exc.detail)
        return "ok", {"ok": True, "result": result}

    @contextmanager
    def _undone(self, what: str) -> Iterator[None]:
        """Run a block that must not write; whatever it did is rolled back, and a write raises."""
        db = self.db
        before = db.total_changes
        db.execute("SAVEPOINT undone")
        try:
            yield
        finally:
            wrote = db.total_changes != before
            if wrote:  # only a block that wrote has anything to undo
                db.execute("ROLLBACK TO undone")
            db.execute("RELEASE undone")
        if wrote:
            raise RuntimeError(f"{what} changed the database")

