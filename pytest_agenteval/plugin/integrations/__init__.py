"""Other plugins' interfaces, one module per plugin, each with a self-test and a fallback.

As ``plugin/compat.py`` is for pytest's own internals: every use of another plugin's
interfaces (public or not) is in its module here, with a ``self_test()`` that checks they are
there and behave as expected, and a fallback used when they are not or when
``AGENTEVAL_INTEGRATIONS`` forces it (``switch``). The modules:

- ``xdist``: pytest-xdist's controller and worker objects (``dsession``'s failure count, the
  worker's queue, ``workerinput``) outside the scheduler (``concurrency``)
- ``allure``: allure-pytest's listener (the test result's message)
- ``sugar``: pytest-sugar's terminal reporter (its tally)
- ``rerunfailures``: pytest-rerunfailures' rerun decision
- ``html``: pytest-html's row hook
- ``junit``: the rewrite of pytest's JUnit XML
- ``json_report``: pytest-json-report's report
"""
