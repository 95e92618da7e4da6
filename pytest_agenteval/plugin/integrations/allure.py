"""allure-pytest: a failed task's test result names every failed check.

allure keeps the message of a test's first failed report, here its first failed check's. Its
listener (the plugin ``allure_listener``) has no public way to change a result, so this reads
``listener.allure_logger.get_test(listener._cache.get(nodeid))`` and sets the result's status
and ``StatusDetails``. Fallback: allure shows the first failed check's message only.
"""

from __future__ import annotations

import pytest

from pytest_agenteval.plugin.integrations.switch import enabled

NAME = "allure"


def self_test() -> bool:
    from allure_commons.model2 import Status, StatusDetails
    from allure_pytest.listener import AllureListener

    source = inspect_source(AllureListener)
    return (Status.FAILED == "failed" and StatusDetails(message="m").message == "m"
            and "self._cache" in source and "self.allure_logger" in source)


def inspect_source(cls: type) -> str:
    import inspect

    return inspect.getsource(cls)


def tell(config: pytest.Config, item: pytest.Item, text: str) -> None:
    """Set the test result's status to failed and its message to ``text``."""
    listener = config.pluginmanager.getplugin("allure_listener")
    if listener is None or not enabled(NAME, self_test):
        return
    from allure_commons.model2 import Status, StatusDetails

    result = listener.allure_logger.get_test(listener._cache.get(item.nodeid))
    if result is not None:
        result.status = Status.FAILED
        result.statusDetails = StatusDetails(message=text)
