"""Statements that lean on what is said around them, rewritten into the plain statement a person
reads (red team 64): a short answer to a one-word question ("Declined? Of course not." denies it;
"Approved? Yes!" says it), an auxiliary answering a question reported just before ("You asked if
we would pay your claim. We have!" says it is paid; "…we would decline it. We didn't." denies it),
a negative question that asserts ("Isn't it great news that your claim has been approved?"), and
money said paid inside a phrase ("If the £33,000 we paid you hasn't arrived…" still says it was
paid: the sentence is added at the end). Sarcasm and irony are not read."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

# (a plain "No" or "Yes" is the notes' to read: "KYC verified? No - pending"; text/notes.py)
_NO = r"(?:of\s+course\s+not|certainly\s+not|absolutely\s+not|definitely\s+not|not\s+at\s+all|no\s+way|never|nope)"
_YES = r"(?:yep|absolutely|of\s+course|certainly|definitely|indeed)"
# "Declined? Us? Never.", "Approved? Yes!" at a sentence's start
# (the answer ends its sentence: "Declined? Never an easy thing to tell anyone" answers nothing; red team 65)
_SHORT = lazy(rf"(?:(?<=^)|(?<=[.!?\n]\s)|(?<=[.!?\n]))(?P<word>[A-Za-z]+ed|paid|sent|done|made|set|active|"
              rf"pending)\?\s+(?:(?:us|me|you|them)\?\s+)?(?:(?P<no>{_NO})|(?P<yes>{_YES}))(?:\s*[.!]+|[ \t]*$)",
              re.IGNORECASE | re.MULTILINE)
_PARTICIPLES = {"pay": "paid", "approve": "approved", "decline": "declined", "reject": "rejected",
                "refuse": "refused", "settle": "settled", "accept": "accepted", "cover": "covered",
                "book": "booked", "activate": "activated"}
# "…we would pay your claim. We have!", "…it would be approved? It was."
_REPORTED = lazy(
    r"\b(?:we|they|SNR-\d+|HOC-\d+|the\s+reviewer|it|your\s+claim)\s+(?:would|might|will|could)\s+"
    rf"(?:(?P<verb>{'|'.join(_PARTICIPLES)})\s+(?P<obj>[^.?!\n]{{0,40}}?)|be\s+(?P<done>{'|'.join(_PARTICIPLES.values())}))"
    r"\s*[.?!]+\s+(?P<who>We|They|It|He|She)\s+(?P<aux>did\s+not|didn't|did|have\s+not|haven't|have|has\s+not|"
    r"hasn't|has|will\s+not|won't|will|was\s+not|wasn't|was)(?=\s*[,.!;]|\s*$)", re.IGNORECASE)
# (only glad news: "Isn't it true that you were paid by the other insurer?" is a question; red team 65)
_ASSERTING_QUESTION = lazy(r"\b(?:isn't|is\s+it\s+not)\s+it\s+((?:great|good|wonderful|fantastic|brilliant|"
                           r"excellent|lovely)\s+news)\s+that\s+([^?\n]{1,200})\?", re.IGNORECASE)
# (money, to the reader: not "the £27,000 we sent for senior review"; red team 65)
_PAID_INSIDE = lazy(r"\bthe\s+(?P<fig>[£$€]\s?\d[\d,.]*(?:\s?[km]\b)?)\s+(?:that\s+|which\s+)?(?:we|I)\s+"
                    r"(?:have\s+|had\s+|'ve\s+)?(?:already\s+)?(?:paid|transferred|sent\s+(?:to\s+)?you)\b",
                    re.IGNORECASE)


def answered(text: str, words: set[str]) -> str:
    """``text`` with each statement that leans on its neighbours told in full."""
    if "?" in text:
        text = _SHORT.sub(_short, text)
        if "isn" in words or "not" in words:  # (words are runs of letters: "isn", "t")
            text = _ASSERTING_QUESTION.sub(r"It is \1 that \2.", text)
    if not words.isdisjoint(("would", "might", "will", "could")):
        text = _REPORTED.sub(_reported, text)
    if "paid" in words or "sent" in words or "transferred" in words:
        told = [f"We paid you {m.group('fig')}." for m in _PAID_INSIDE.finditer(text)]
        if told:
            text = text + "\n" + " ".join(told)
    return text


def _short(m: re.Match[str]) -> str:
    return f"{'Not ' if m.group('no') else ''}{m.group('word')}."


def _reported(m: re.Match[str]) -> str:
    asked = m.group(0)[:m.start("who") - m.start()]
    aux = " ".join(m.group("aux").lower().replace("won't", "will not").replace("n't", " not").split())
    if m.group("done"):
        return f"{asked}{m.group('who')} {aux} {m.group('done')}"
    verb, base = m.group("verb").lower(), aux.split()[0]
    form = verb if base in ("did", "will") else _PARTICIPLES[verb]  # "did not decline", "have paid", "was paid"
    return f"{asked}{m.group('who')} {aux} {form} {m.group('obj') if base != 'was' else ''}".rstrip()
