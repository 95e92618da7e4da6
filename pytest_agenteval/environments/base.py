"""``Environment``: the class a domain subclasses — a world plus the rubric it is judged by.

The world (``engine.World``) resets and applies; ``grading`` judges an episode from outside
(``grade_episode``). This class only joins the two, so ``env.grade()`` works in any harness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pytest_agenteval.engine.world import World
from pytest_agenteval.grading.grader import grade_episode

if TYPE_CHECKING:
    from pytest_agenteval.grading.checks import Check
    from pytest_agenteval.grading.context import GradeContext
    from pytest_agenteval.grading.grade import Grade
    from pytest_agenteval.grading.judge import Judge


class Environment(World):
    """Base class of every domain. See the README, "Writing an environment"."""

    # The judge of tasks' ``judged`` checks when ``grade`` is given none (docs/judge.md); the
    # plugin's pool sets it from --agenteval-judge. None: judged checks are left out.
    judge: Judge | None = None
    # SOME subclasses: the folder, relative to the file defining the class, of the task files
    # this environment ships as a suite (``--agenteval-suite=<name>``; docs/suites.md).
    suite: ClassVar[str | None] = None

    def rubric(self, ctx: GradeContext) -> list[Check]:
        """The domain's own checks, for what task data cannot say."""
        return []

    def grade(self, task_id: str | None = None, *, run: int = 1,
              agent_failure: tuple[str, str] | None = None, judge: Judge | None = None) -> Grade:
        """Grade the current episode against its task. Never changes the environment.

        ``agent_failure``: (failure mode, detail) when the agent itself failed — raised
        ("agent_error"), ran out of time ("agent_timeout") or was interrupted.
        ``judge``: reads the task's ``judged`` checks (default ``self.judge``; docs/judge.md).
        """
        return grade_episode(self, rubric=self.rubric, task_id=task_id, run=run, agent_failure=agent_failure,
                             judge=judge if judge is not None else self.judge)
