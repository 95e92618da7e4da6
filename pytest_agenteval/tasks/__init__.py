"""The task format: the pydantic model of a line, its action paths, and its marker names."""

from pytest_agenteval.tasks.model import Task

__all__ = ["Task"]
