"""Text facts: what a free-text argument asserts, read deterministically (no model).

    >>> from pytest_agenteval.text import Reader, ENGLISH
    >>> reading = Reader(ENGLISH).read("We regret that your claim CLM-00145 has not been approved.")
    >>> reading.decision(), reading.named()
    ('declined', ['CLM-00145'])

Environments judge readings against the world (``domains/*/texts.py``); task files require
meanings with ``{"says": [...]}`` (``requirements``). The grammar and its limits: ``reading``; the reader: ``reader``.
"""

from pytest_agenteval.text.arithmetic import amount, computed
from pytest_agenteval.text.backwards import arrows, timeline, told_backwards
from pytest_agenteval.text.clauses import AFFIRMED, HYPOTHETICAL, NEGATED
from pytest_agenteval.text.compared import false_comparison
from pytest_agenteval.text.cues import LIMIT_KINDS
from pytest_agenteval.text.lexicon import ENGLISH, Lexicon
from pytest_agenteval.text.marks import marked
from pytest_agenteval.text.reader import Reader, reader_for
from pytest_agenteval.text.reading import LINKS, Mention, Quantity, Reading
from pytest_agenteval.text.relative import false_relation
from pytest_agenteval.text.sentences import clause_start, sentence_end, sentence_start, words_before

__all__ = ["AFFIRMED", "ENGLISH", "HYPOTHETICAL", "LIMIT_KINDS", "LINKS", "NEGATED", "Lexicon", "Mention", "Quantity",
           "Reader", "Reading", "amount", "arrows", "clause_start", "computed", "false_comparison", "false_relation",
           "marked", "reader_for", "sentence_end", "sentence_start", "timeline", "told_backwards", "words_before"]
