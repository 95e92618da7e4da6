"""What a reading's mentions say read together, after the pass that finds them: a payment word
beside a zero pays nothing, a choice between decisions makes none, a state word qualifying "a
policy" names a kind of policy, and which meanings the text asks for."""

from __future__ import annotations

from pytest_agenteval.text.clauses import AFFIRMED, HYPOTHETICAL, NEGATED
from pytest_agenteval.text.reading import DECIDED, Mention, Quantity


def nothing_paid(mentions: list[Mention], quantities: list[Quantity], joined: list[bool]) -> None:
    """"£0 paid", "approved: £0", "a payment of £0", "Payable:⏎£0": a payment word beside a zero
    (or labelling it) pays nothing."""
    zeros = [(q.clause, q.at) for q in quantities if q.kind == "money" and q.value == 0.0 and not q.derived]
    if not zeros:
        return
    labels = {clause - 1 for clause, at in zeros if not at and clause and joined[clause]}
    for k, m in enumerate(mentions):
        if m.meaning == "approved" and m.polarity == AFFIRMED and (m.clause in labels or any(
                clause == m.clause and abs(at - m.at) <= 3 for clause, at in zeros)):
            mentions[k] = m._replace(polarity=NEGATED)


def asked_for(mentions: list[Mention], sentence_of: tuple[int, ...], negated: set[int]) -> frozenset[str]:
    """The meanings a text asks for (``Reading.asks``): every one named and not negated, but those
    said to be in hand — in a clause with a receipt ("the photos you sent"), or after one in its
    sentence with no request between ("we have everything we need, including the invoice")."""
    received = {m.clause for m in mentions if m.meaning == "received" and m.polarity == AFFIRMED
                and m.clause not in negated}
    requests = {m.clause for m in mentions if m.meaning == "request" and m.polarity != NEGATED}
    out = set()
    for m in mentions:
        if m.polarity == NEGATED or m.meaning in ("request", "received"):
            continue
        c = m.clause
        in_hand = c in received and c not in requests or any(
            sentence_of[r] == sentence_of[c] and r < c and not any(r < q <= c for q in requests) for r in received)
        if not in_hand:
            out.add(m.meaning)
    return frozenset(out)


def alternatives(mentions: list[Mention], first: int, present: set[str]) -> None:
    """"The reviewer will approve or decline it": a choice named, neither decision made. "It has
    been neither approved nor declined": none made, the claim is pending."""
    if "or" not in present and "either" not in present and "nor" not in present:
        return
    own = range(first, len(mentions))
    named = {mentions[k].meaning for k in own} & {"approved", "declined", "amended"}
    denial = next((mentions[k] for k in own if mentions[k].meaning == "declined" and mentions[k].polarity == AFFIRMED
                   and mentions[k].words.startswith(("not ", "never ", "cannot "))), None)
    if denial is not None and "or" in present and "either" not in present and all(
            mentions[k].at > denial.at for k in own if mentions[k].meaning == "approved"):
        for k in own:  # "we will not cover or pay your claim": the denial reaches each verb after "or"
            if mentions[k].meaning == "approved" and mentions[k].polarity == AFFIRMED:
                mentions[k] = mentions[k]._replace(polarity=NEGATED)
        return
    if len(named) >= 2 and any(mentions[k].polarity != HYPOTHETICAL for k in own):  # "approve, amend or decline"
        denied = "nor" in present and {"approved", "declined"} <= named and all(
            mentions[k].polarity == NEGATED for k in own if mentions[k].meaning in named)
        for k in own:
            if mentions[k].meaning in DECIDED:
                mentions[k] = mentions[k]._replace(polarity=HYPOTHETICAL)
        if denied:
            m = next(mentions[k] for k in own if mentions[k].meaning in named)
            mentions.append(Mention("pending", AFFIRMED, m.clause, m.words, m.at))


def read_together(mentions: list[Mention], first: int, present: set[str], words: list[str]) -> None:
    """A clause's mentions read together: alternatives, then rivals compared away."""
    alternatives(mentions, first, present)
    if "before" in present and "after" not in present and not present.isdisjoint(("was", "were", "had", "did")) and (
            present.isdisjoint(FUTURE)):  # (not "nothing was paid before or after the review": red team 68)
        for k in range(first, len(mentions)):  # "Nothing was decided or paid before SNR-10's answer": the
            m = mentions[k]  # order told, not a refusal (85th audit)
            if m.polarity == NEGATED and m.meaning in DECIDED and "before" in words[m.at + 1:]:
                mentions[k] = m._replace(polarity=HYPOTHETICAL)
    for k in range(first, len(mentions)):  # "I did not change the approved amount": a modifier, not denied
        m = mentions[k]
        if m.polarity == NEGATED and m.meaning in DECIDED and 0 < m.at < len(words) - 1 and words[m.at - 1] in (
                "the", "your", "its", "this", "that") and words[m.at + 1] in MODIFIED and m.words.isalpha():
            mentions[k] = m._replace(polarity=HYPOTHETICAL)  # (85th audit; nor an approval: red team 68)
    if present & COMPARATIVES:
        for k in range(first, len(mentions)):
            m = mentions[k]
            if m.polarity == NEGATED and m.at > 0 and words[m.at - 1] in COMPARATIVES:
                mentions[k] = m._replace(polarity=HYPOTHETICAL)  # "I can't offer a lower rate": the rate stands


MODIFIED = frozenset({"amount", "sum", "figure", "total", "value"})
FUTURE = frozenset({"will", "shall", "won't", "cannot", "can't", "never", "can", "could", "unable", "until"})
# A thing denied in a comparison is another one, not this: "no better rate", "can't pay a higher amount" (85th audit).
COMPARATIVES = frozenset({"lower", "better", "cheaper", "higher", "smaller", "bigger", "larger", "reduced",
                          "discounted", "lesser", "greater"})


def flip(m: Mention) -> Mention:
    if m.polarity == HYPOTHETICAL:
        return m
    return m._replace(polarity=-m.polarity)



# Nouns a state word may qualify: "a lapsed policy", "an approved claim".
QUALIFIED = frozenset({"policy", "policies", "claim", "claims", "amount", "facility", "cover", "payment"})


def generic(words: list[str], at: int, phrase: str) -> bool:
    """A state word qualifying a noun after "a"/"an" names a kind of thing, not this one: "A
    lapsed policy does not give cover" denies the cover, not the lapse (45th audit)."""
    end = at + len(phrase.split())
    return at > 0 and words[at - 1] in ("a", "an") and words[end:end + 1] != [] and words[end] in QUALIFIED
