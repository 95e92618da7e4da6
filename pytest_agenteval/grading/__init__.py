"""Grading: checks from task data and from each environment's rubric, into a Grade."""

from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.grade import Grade

__all__ = ["Check", "Grade", "GradeContext", "check"]
