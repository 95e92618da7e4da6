"""Import an in-process agent's module once in a child process before the harness imports it.

An agent module's top-level code runs in the harness when it is imported. If that code ends
the process (``os._exit(0)``, a signal, ``sys.exit`` in a thread), the harness would end with
it, and with status 0 and no results a CI gate would pass. The child must report a completed
import (a nonce on stdout after the import returns); anything else is one line, and the run
stops as a usage error. This catches a module that ends whatever imports it; a module that
behaves differently when probed is trusted code in-process anyway (see the README's threat
model).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

PROBE_TIMEOUT = 120.0
_CHILD = """
import importlib, json, os, sys
name, nonce, path = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sys.path[:] = path
try:
    importlib.import_module(name)
except BaseException:  # the import ended by raising: the harness reports it from its own, with file:line
    pass
sys.stdout.write(nonce)
sys.stdout.flush()
os._exit(0)
"""


def probe_import(module_name: str) -> str | None:
    """None if importing ``module_name`` completes (or raises) in a child process; else how it did not
    (completing "importing NAME ...")."""
    if module_name in sys.modules:
        return None  # imported already: importing again runs nothing
    nonce = secrets.token_hex(16)
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, module_name, nonce, json.dumps(sys.path)],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=PROBE_TIMEOUT,
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=False)
    except subprocess.TimeoutExpired:
        return f"did not finish within {PROBE_TIMEOUT:g} s in a separate process"
    if nonce.encode() in done.stdout:
        return None
    how = f"exit status {done.returncode}" if done.returncode >= 0 else f"signal {-done.returncode}"
    tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
    return (f"ended the process before the import finished ({how}"
            + (f"; last output: {tail[0][:200]}" if tail else "") + ")")
