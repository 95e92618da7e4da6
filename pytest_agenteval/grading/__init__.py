"""Grading: checks from task data and from each environment's rubric, into a Grade."""

from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.grading.judge import Judge, JudgeRequest, Verdict
from pytest_agenteval.grading.judge_spec import load_judge
from pytest_agenteval.grading.texts import Text, examples, text_checks

__all__ = ["Check", "Grade", "GradeContext", "Judge", "JudgeRequest", "Text", "Verdict", "check", "examples",
           "load_judge", "text_checks"]
