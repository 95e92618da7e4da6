"""The test suite, a package: its helpers import as ``tests.helpers``."""
