"""Results files written gzip-compressed (a path ending in ``.gz``), read back by every reader.

The reading itself, bounded, is ``pytest_agenteval.readback`` (at the bottom of the package: the
``replay:FILE`` agent reads results files too).
"""

from pytest_agenteval.readback import GZIP_MAGIC, TooLarge, gunzip, is_compressed_name, load_line, results_bytes

__all__ = ["GZIP_MAGIC", "TooLarge", "gunzip", "is_compressed_name", "load_line", "results_bytes"]
