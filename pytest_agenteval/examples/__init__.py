"""The example agents, installed with the package so they run from any folder:

    pytest --agent=pytest_agenteval.examples.rule_agent:Agent --agenteval-suite=all

Each module is a link to the repository's ``examples/`` (one copy; the wheel holds the files).
"""
