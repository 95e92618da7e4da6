"""Task files: the pydantic model of a line and the loader that reports problems by line."""

from pytest_agenteval.tasks.loader import LoadedTask, TaskLoader, load_tasks
from pytest_agenteval.tasks.model import Task

__all__ = ["LoadedTask", "Task", "TaskLoader", "load_tasks"]
