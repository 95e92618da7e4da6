"""Counterfactuals read as what they deny (``prepass.prepared`` calls ``counterfactuals``)."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

# A counterfactual says its condition is false and its consequence did not happen: "Had your
# claim been approved, we would have paid £4,200" says it was not approved (and nothing was
# paid). Read as the condition denied: "your claim was not approved".
_SUBJECT = r"(?P<subj>(?:your|the|our|this|that|we|it|they|you|he|she|[A-Z]{2,5}-\d+)\b[^,.;:!?\n]{0,60}?)"
_UNLESS = (r"(?:been\s+(?P<state>[^,.;:!?\n]{1,60}?)|(?P<verb>[a-z]+ed|paid|sent|made|met|done|gone|given|"
           r"had|known))")
_WOULD = r"[^.;:!?\n]{0,200}?\bwould(?:\s+not|n't)?\s+have\b[^.;:!?\n]{0,200}?"  # (bounded: red team 49)
_CONDITION = (rf"had\s+{_SUBJECT}\s+{_UNLESS}", rf"if\s+{_SUBJECT}\s+had\s+{_UNLESS}")
_END = r"(?=,\s*but\b|[.;:!?\n]|$)"
_COUNTERFACTUALS = [lazy(rf"\b{condition}\s*,\s*{_WOULD}{_END}", re.I) for condition in _CONDITION] + [
    lazy(rf"\b(?:we|i|you|they|it)\s+{_WOULD}\s+{condition}{_END}", re.I) for condition in _CONDITION]


def counterfactuals(text: str) -> str:
    """Each counterfactual as its condition denied ("Had it been approved, we would have paid
    £X" reads "it was not approved")."""
    def denied(m: re.Match[str]) -> str:
        return f"{m['subj']} was not {m['state']}" if m["state"] else f"{m['subj']} had not {m['verb']}"
    for pattern in _COUNTERFACTUALS:
        text = pattern.sub(denied, text)
    return text
