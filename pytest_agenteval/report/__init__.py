"""Reporting without pytest: reliability metrics and the results file."""
