"""Decision words that decide nothing, fixed up once a clause is read: a limit measured against
the amount ("SNR-04's limit doesn't cover it"), a purpose after a state ("not in force to cover
the loss")."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_agenteval.text.clauses import HYPOTHETICAL
from pytest_agenteval.text.lexicon import NOBODY
from pytest_agenteval.text.reading import DECIDED, Mention
from pytest_agenteval.text.tokens import Token


def measured(mentions: list[Mention], first: int, clause: Sequence[Token], words: list[str]) -> None:
    """"SNR-04's limit doesn't cover it", "no senior can cover it", "SNR-10 (50,000) can't cover
    it", "the lowest covering limit": a limit measured against the amount, no decision (and the
    verb *cover* there names no policy)."""
    if "cover" not in " ".join(words) or not any(w.startswith("cover") for w in words):  # (the join: most clauses)
        return
    own = range(first, len(mentions))
    measured = []
    for k in own:
        m = mentions[k]
        if m.meaning not in (*DECIDED, "policy") or m.polarity == HYPOTHETICAL or "cover" not in m.words:
            continue
        limit = any(mentions[j].meaning == "limit" and mentions[j].at < m.at for j in own) or words[:1] in (
            ["which"], ["that"]) and any(n.meaning == "limit" and n.clause == m.clause - 1 for n in mentions[:first])
        # ("the highest senior limit is 500,000, which does not cover it": the limit's; 55th audit)
        nobody = any(words[j] in NOBODY and words[j + 1:j + 3] and set(words[j + 1:j + 3]) & HOLDERS
                     for j in range(m.at))  # "no (liability) senior can cover it"
        figured = any(clause[j].kind == "id" and any(t.kind in ("money", "number") for t in clause[j + 1:j + 4])
                      for j in range(m.at))  # "SNR-10 (50,000) can't cover it"
        if limit or nobody or figured:
            measured.append(k)
    for k in reversed(measured):
        if mentions[k].meaning == "policy":
            del mentions[k]
        else:
            mentions[k] = mentions[k]._replace(polarity=HYPOTHETICAL)


HOLDERS = frozenset({"senior", "seniors", "reviewer", "reviewers", "one", "handler"})


def purpose(mentions: list[Mention], first: int, words: list[str]) -> None:
    """"The policy was not in force to cover the loss": what a state would have allowed, no
    decision (the decision word right after "to", after a state word)."""
    for k in range(first, len(mentions)):
        m = mentions[k]
        if m.meaning in DECIDED and m.polarity != HYPOTHETICAL and m.at >= 2 and words[m.at - 1] == "to" and (
                words[m.at - 2] in STATES):
            mentions[k] = m._replace(polarity=HYPOTHETICAL)


STATES = frozenset({"force", "valid", "active", "effect", "place", "enough", "sufficient", "live"})
