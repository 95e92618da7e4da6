"""Root conftest: our own test suite drives the plugin end to end with pytester."""

import signal

pytest_plugins = ["pytester"]

# A suite started in the background by a non-interactive shell (``nohup sh -c 'pytest -n 2' &``)
# inherits SIGINT ignored, and every Python it starts keeps it ignored: the Ctrl-C tests
# (tests/test_interrupts.py) then see no KeyboardInterrupt. A handler of our own here is reset
# to the default at exec, so xdist's workers and pytester's children get Ctrl-C as at a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
