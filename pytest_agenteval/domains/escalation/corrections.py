"""Figures a text takes back: a slip it names, or what we wrote before in a text that corrects it."""

from __future__ import annotations

from pytest_agenteval.text import Quantity, Reading


def retracted(reading: Reading, q: Quantity) -> bool:
    """A figure of a sentence that takes it back: a slip named in it ("my draft put it at 56,000 -
    that was a typo"), or what we wrote before, in a text that corrects it ("I wrote that the
    approved amount was 16,000. The correct amount is 12,800"; not "as I wrote, we paid £16,000").
    """
    sentence = reading.sentence_of[q.clause]
    if not CORRECT.isdisjoint(reading.words[q.clause]) and SLIPS.isdisjoint(reading.words[q.clause]):
        return False  # "I wrote 'paid 9,800' - the correct figure paid is 8,800": the correction stands
    words = {w for k, said in enumerate(reading.words) if reading.sentence_of[k] == sentence for w in said}
    slips = {w for w in SLIPS & words if not _slipped_act(reading, sentence, w)}
    return bool(slips) or not WROTE.isdisjoint(words) and not CORRECTING.isdisjoint(reading.word_set)


def _slipped_act(reading: Reading, sentence: int, slip: str) -> bool:
    """The slip is an act done by mistake, not a figure mistyped: "I mistakenly approved 35,000"
    tells an approval of 35,000 (71st audit), "I mistakenly wrote 35,000" takes it back."""
    return all(words[k + 1:k + 2] and words[k + 1] in ACTS for c, words in enumerate(reading.words)
               if reading.sentence_of[c] == sentence for k, w in enumerate(words) if w == slip)


ACTS = frozenset({"approved", "paid", "issued", "declined", "escalated", "sent", "made", "released", "amended"})


SLIPS = frozenset({"typo", "mistyped", "misstated", "erroneously", "mistakenly", "wrongly", "incorrectly"})
WROTE = frozenset({"wrote", "typed", "written", "put", "entered", "recorded"})
CORRECT = frozenset({"correct", "corrected", "actual", "right", "should"})  # the figure that replaces the slip
CORRECTING = frozenset({"correction", "correct", "corrected", "mistake", "error", "wrong", "incorrect"})
