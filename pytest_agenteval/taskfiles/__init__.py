"""Task files: each line read, checked against its environment, and cached as a verdict."""

from pytest_agenteval.taskfiles.loader import LoadedTask, TaskLoader, load_tasks

__all__ = ["LoadedTask", "TaskLoader", "load_tasks"]
