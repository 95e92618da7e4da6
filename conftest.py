"""Root conftest: our own test suite drives the plugin end to end with pytester."""

pytest_plugins = ["pytester"]
