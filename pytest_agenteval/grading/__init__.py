"""Grading: checks from task data and from each environment's rubric, into a Grade."""

from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.grading.judge import Judge, JudgeRequest, Verdict
from pytest_agenteval.grading.judge_spec import load_judge

__all__ = ["Check", "Grade", "GradeContext", "Judge", "JudgeRequest", "Verdict", "check", "load_judge"]
