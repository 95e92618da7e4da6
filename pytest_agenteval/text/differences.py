"""A figure given as a difference from another, read as the figure it gives: "£8,000 above my
£10,000 limit" states £18,000, "£49,350 below your £50,000 sum insured" £650, "a £50,000 limit
that covers it with £5,000 to spare" £45,000, "153 bps below the sheet's 7.42%" 5.89%; and a
monthly rate as the yearly one it is ("0.425% a month": 5.1%).

Which reading a figure before *above/below…* has is decided by the sentence: a difference when
another figure of the sentence is what it gives, else a comparison when that holds ("£18,000
above my £10,000 limit"), else a difference ("£1,000 above my £10,000 limit", on a £41,000
claim, states £11,000: then judged as any stated figure is). A check then judges what the text
states, right or wrong, and never the difference itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_agenteval.text.reading import Quantity

UP = frozenset({"above", "over", "more", "higher", "beyond", "greater", "bigger", "larger", "past"})
DOWN = frozenset({"below", "under", "less", "lower", "short", "beneath", "smaller"})  # ("within": a comparison)
THAN = frozenset({"more", "higher", "greater", "bigger", "larger", "less", "lower", "smaller"})  # "… than"
SPARE = (("to", "spare"), ("of", "headroom"), ("headroom",), ("spare",))
MONTHLY = (("a", "month"), ("per", "month"), ("monthly",), ("pcm",))
NEAR = 1e-6
TRIGGERS = UP | DOWN | {"spare", "headroom"}
NAMED_FIGURES = frozenset({"assessed", "claimed", "approved", "paid", "total", "valued", "assd"})


def resolved(quantities: Sequence[Quantity], words: Sequence[Sequence[str]],
             sentence_of: Sequence[int]) -> list[Quantity]:
    """``quantities`` with each difference and monthly rate replaced by the figure it gives."""
    out = list(quantities)
    if not any(q.kind == "rate" or q.kind == "money" and TRIGGERS.intersection(words[q.clause]) for q in out):
        return out  # most texts: no figure beside a word of difference
    for k, q in enumerate(out):
        if not isinstance(q.value, float) or q.kind not in ("money", "rate"):
            continue
        after = [w for w in words[q.clause][q.at + 1:q.at + 4]]
        if q.kind == "rate" and any(tuple(after[:len(m)]) == m for m in MONTHLY):
            out[k] = q._replace(value=round(q.value * 12, 2), text=f"{q.text} a month", derived=True)  # 2 places
            continue
        if q.kind == "rate" and "bp" not in q.text and "basis" not in " ".join(after):
            continue  # only a margin in basis points is a difference of rates
        given = _given(q, out, words, sentence_of, after)
        if given is not None:
            out[k] = q._replace(value=given[0], text=given[1], reference=True, derived=True)
        elif q.kind == "rate" and _margin(words[q.clause], q.at):  # "with 0 bps added": no rate of its own
            out[k] = q._replace(kind="margin")
    return out


MARGIN_BEFORE = frozenset({"plus", "minus", "by", "add", "adding", "added", "with", "margin", "spread", "of"})
MARGIN_AFTER = frozenset({"added", "over", "above", "below", "under", "margin", "spread", "on", "more", "less",
                          "higher", "lower", "extra"})


def _margin(words: Sequence[str], at: int) -> bool:
    """Basis points added to or taken off a rate ("the sheet plus 25 bps", "up by 25 bps", "0 bps
    added"), not a rate written in them ("608 basis points")."""
    before = [w for w in words[max(0, at - 2):at] if w]
    after = [w for w in words[at + 1:at + 3] if w]
    return bool(MARGIN_BEFORE.intersection(before[-1:]) or MARGIN_AFTER.intersection(after[:1]))


def _given(q: Quantity, quantities: Sequence[Quantity], words: Sequence[Sequence[str]],
           sentence_of: Sequence[int], after: list[str]) -> tuple[float, str] | None:
    """The figure ``q`` gives as a difference (and how it was worked out), or None."""
    assert isinstance(q.value, float)
    same_kind = [o for o in quantities if o is not q and o.kind == q.kind and isinstance(o.value, float)]
    spare = any(tuple(after[:len(s)]) == s for s in SPARE)
    if spare:  # "a £50,000 limit … with £5,000 to spare"
        base = next((o for o in reversed(same_kind) if o.clause == q.clause and o.at < q.at), None)
        sign = -1.0
    else:
        direction = after[:1]
        if not direction or direction[0] not in UP | DOWN or direction[0] in THAN and after[1:2] != ["than"]:
            return None  # "£10,800 less your £1,000 excess" subtracts (``arithmetic``); "£800 less than…" differs
        if q.at and words[q.clause][q.at - 1] in NAMED_FIGURES:
            return None  # "assessed 140k > my 10k": a figure named by its label compares
        sign = 1.0 if direction[0] in UP else -1.0
        base = next((o for o in same_kind if o.clause == q.clause and q.at + 1 < o.at <= q.at + 7), None)
        if base is not None and any(w in UP | DOWN for w in words[q.clause][q.at + 2:base.at]):
            base = None  # "£18,000 is above my £10,000 limit": a second comparison word, no difference
    if base is None:
        return None
    assert isinstance(base.value, float)
    value = round(base.value + sign * q.value, 6)
    others = [o for o in same_kind if o is not base and sentence_of[o.clause] == sentence_of[q.clause]]
    compares = not spare and (q.value >= base.value if sign > 0 else q.value <= base.value)
    if not any(abs(float(o.value) - value) <= NEAR * max(1.0, value) for o in others) and compares:  # type: ignore[arg-type]
        return None  # "£18,000 above my £10,000 limit": a comparison that holds
    return value, f"{q.text} {'above' if sign > 0 else 'below'} {base.text}"
