"""What is taken out of a text before it is read, as saying nothing of the world: the writer's
doubt about their own reading ("unless I'm misreading it"), the words of a self-correction
("sorry, I mean"; what follows is read as said of what came before), and the quoted words of
another party ("you told us 'my cover was running'")."""

from __future__ import annotations

import re


def prepared(text: str) -> str:
    """``text`` as the reader reads it (each pass only when its cue is there: the common text is
    returned as it is)."""
    if _CERTAINTY_CUE.search(text):
        text = _CERTAINTY.sub("", text)
    if _CORRECTION_CUE.search(text):
        text = _CORRECTION.sub(" - ", text)
    return unquoted(text) if _QUOTE_OPEN.search(text) else text


# The writer's doubt about their own reading, not a condition on what they say: "Unless I'm
# misreading it, the sheet stops at £5m", "If I'm not mistaken, KYC is pending".
_CERTAINTY_CUE = re.compile(r"\b(?:unless|if|as far as)\b", re.I)
_CERTAINTY = re.compile(
    r"\b(?:unless\s+i(?:'m|\s+am)\s+(?:mistaken|wrong|misreading\s+(?:it|this|that)|misreading|missing\s+"
    r"something)|unless\s+i(?:'ve|\s+have)\s+(?:missed|misread)\s+(?:something|it|this)|if\s+i(?:'m|\s+am)\s+not"
    r"\s+mistaken|if\s+i\s+(?:read|understand)\s+(?:it|this|that)\s+(?:right|rightly|correctly)|as\s+far\s+as\s+"
    r"i\s+can\s+(?:tell|see))\b\s*,?\s*", re.I)
# A writer correcting themselves: what follows is said of what the clause before was about ("KYC
# is pending - sorry, I mean it failed" says KYC failed; the pending it said stands too).
_CORRECTION_CUE = re.compile(r"\b(?:mean|meant|correction|rather|scratch|make that|should have said)\b", re.I)
# Only after a break or an apology: "we will make that payment", "I mean to pay" correct nothing.
# (No leading whitespace in the pattern: tried at every position, it made a long run of spaces
# cost quadratic time.)
_CORRECTION = re.compile(
    r"(?:[-\u2013\u2014,;:.]\s*(?:\b(?:sorry|oops|apologies)\s*[,:\-\u2013\u2014]?\s*)?|\b(?:sorry|oops|apologies)"
    r"\s*[,:\-\u2013\u2014]?\s*)\b(?:i\s+mean(?:t)?(?:\s+to\s+say)?|correction|or\s+rather|scratch\s+that|make\s+that"
    r"|i\s+should\s+have\s+said)\b\s*[,:]?",
    re.I)
# A quotation of someone else's words: "You told us 'I thought my cover was still running'" says
# nothing of the cover; the quotation is left out of the reading (its ids stay in ``text``).
_QUOTE_OPEN = re.compile(r"(?:^|(?<=[\s:(]))[\"\u201c\u2018']")
_QUOTED = re.compile(r"(?:^|(?<=[\s:(]))([\"\u201c\u2018'])(.{3,400}?)[\"\u201d\u2019'](?=[\s.,;:!?)]|$)", re.S)
_REPORTING = frozenset({"said", "say", "says", "told", "wrote", "write", "writes", "mentioned", "asked", "explained",
                        "stated", "claimed", "saying", "telling", "writing", "asking", "quote", "quoted", "words"})
_OTHERS = frozenset({"you", "your", "customer", "claimant", "policyholder", "they", "he", "she", "broker", "garage",
                     "adjuster", "holder"})


def unquoted(text: str) -> str:
    """``text`` without the quotations of another party's words (their reporting verb within the
    six words before, its speaker not "we" or "I")."""
    def drop(m: re.Match[str]) -> str:
        before = re.findall(r"[a-z']+", text[:m.start()].lower())[-6:]
        said = next((k for k, w in enumerate(before) if w in _REPORTING), None)
        if said is None or not _OTHERS.intersection(before) or {"we", "i", "our"} & set(before[:said]):
            return m.group(0)
        return m.group(1) * 2
    return _QUOTED.sub(drop, text)
