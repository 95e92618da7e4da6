"""A facility's product, where a text names it right beside the facility: "FAC-5015 (overdraft)",
"FAC-5015 is a revolving credit facility", "the term loan FAC-5015". (``states.facts`` judges a
product named anywhere, by its mentions; a denial later in the clause, "FAC-5015 (overdraft) has
no sheet rate", leaves the aside asserted here.)"""

from __future__ import annotations

from pytest_agenteval.domains.booking.figures import History
from pytest_agenteval.text import Reading

# The words that name each product; "loan" alone names none (a revolver is a loan too).
PRODUCTS = {"overdraft": "overdraft", "overdrafts": "overdraft", "revolver": "revolver", "revolving": "revolver",
            "rcf": "revolver"}
NAMES = {"overdraft": "an overdraft", "revolver": "a revolver", "term_loan": "a term loan"}
DENIED = frozenset({"not", "no", "never", "nor", "rather", "instead"})


def product(h: History, fid: str, reading: Reading) -> str | None:
    """A product named right beside the facility's id is its product: within four words after
    it in its clause ("FAC-1 (overdraft)", "FAC-1, an overdraft", "FAC-1 is a term loan") or two
    before it ("the revolver FAC-1"), with no other id and no denial between ("FAC-1 is not an
    overdraft")."""
    truth = h.start(fid, "product")
    for ident, clause, at in reading.id_at:
        if ident != fid:
            continue
        words = reading.words[clause]
        others = [k for i, c, k in reading.id_at if c == clause and i != fid]
        after = words[at + 1:min([k for k in others if k > at] + [at + 5])]
        before = words[max([k + 1 for k in others if k < at] + [at - 2, 0]):at][::-1]  # nearest first
        for near in (after, before):
            said = _named(near)
            if said is not None and said != truth:
                return f"calls {fid} {NAMES[said]}, but it is {NAMES.get(str(truth), str(truth))}"
    return None


SEGMENTS = {"retail": "retail", "sme": "sme", "smes": "sme", "corporate": "corporate"}


def segment(h: History, fid: str, reading: Reading) -> str | None:
    """A segment right after the customer's id is theirs: "CUS-1421 (SME)", "CUS-1421, a corporate
    customer" (within three words, no other id and no denial between)."""
    customer = h.start(fid, "customer_id")
    truth = h.customer(fid).get("segment")
    for ident, clause, at in reading.id_at:
        if ident != customer or truth is None:
            continue
        words = reading.words[clause]
        others = [k for i, c, k in reading.id_at if c == clause and i != ident]
        after = words[at + 1:min([k for k in others if k > at] + [at + 4])]
        for word in after:
            if word in DENIED:
                break
            if word in SEGMENTS and SEGMENTS[word] != truth:
                return f"calls {customer} {word}, but the customer is {truth}"
    return None


def _named(words: tuple[str, ...]) -> str | None:
    """The product the words name, nearest first, before any denial."""
    for k, word in enumerate(words):
        if word in DENIED:
            return None
        if word in PRODUCTS:
            return PRODUCTS[word]
        if word == "term" and "loan" in words[k - 1:k + 2]:  # (``before`` runs backwards)
            return "term_loan"
    return None
