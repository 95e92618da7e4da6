"""A text against the customer's records and accounts: the ids it names are the facility's,
its customer's and their accounts; an account said held, missing, or booked to is so."""

from __future__ import annotations

import re

from pytest_agenteval.domains.booking.figures import History
from pytest_agenteval.domains.booking.rules import ACCOUNT_TYPE
from pytest_agenteval.domains.booking.schema import ID_DIGITS
from pytest_agenteval.grading import Text, examples
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import AFFIRMED, NEGATED, Reading

CUSTOMER_NAME = lazy(r"\bCustomer \d+\b")
# "booked to account ACC-1 and active": a thing after a preposition is an object, not the subject.
PREPOSITIONS = frozenset({"to", "into", "on", "against", "under", "in", "with", "for", "from", "via", "of"})


def records(h: History, fid: str, t: Text) -> str | None:
    ctx, customer, reading = h.ctx, h.start(fid, "customer_id"), t.reading
    name = (ctx.row("customer", customer) or {}).get("name")
    for m in CUSTOMER_NAME.finditer(reading.said):  # "Customer 9999's KYC is pending"
        if m.group(0) != name:
            return f"names {m.group(0)}, but {fid}'s customer is {name}"
    for ident in reading.named():
        if ident in (fid, customer):
            continue
        account = ctx.row("account", ident)
        if account is not None and account["customer_id"] == customer:
            for clause in dict.fromkeys(k for i, k in reading.ids if i == ident):  # each time it is named
                if AFFIRMED in reading.polarities("closed", clause) and account["status"] != "closed":
                    return f"says account {ident} is closed, but it is {account['status']}"
                if (called := _called(reading, ident, clause)) and not called <= {
                        account["account_type"], account["status"]}:
                    return f"calls {ident} a {' '.join(sorted(called))} account; it is {account['status']} " \
                           f"{account['account_type']}"
                wrong = _booking_account(h, fid, ident, clause, t)
                if wrong:
                    return wrong
            continue
        if ctx.row("facility", ident) is not None:
            return f"names facility {ident}, not the facility queried"
        if ctx.row("customer", ident) is not None:
            return f"names customer {ident}; {fid} is {customer}'s"
        if account is not None:
            return f"names account {ident}, which is {account['customer_id']}'s, not {customer}'s"
        if ident.partition("-")[0] in ID_DIGITS and ident not in examples(reading.said):  # not "(e.g. FAC-1234)"
            return f"names {ident}, which is no record"
    return None


def _booking_account(h: History, fid: str, account: str, clause: int, t: Text) -> str | None:
    """An account of the customer named as the one the facility is (or will be) booked to: the one it
    ended booked to, or, when it was never booked, an open account of the type its product needs."""
    reading = t.reading
    if _labelled_account(reading, clause):  # "All set. Account: ACC-1. Status: active.", "Account | ACC-1"
        if reading.denies("booked") or not any(m.meaning in ("booked", "activated") and m.polarity == AFFIRMED
                                               for m in reading.mentions):
            return None
    else:  # "booked to ACC-1", "I will activate it on account ACC-1", "live on ACC-1", "FAC-1 (on ACC-1)"
        if not (any(m.meaning in ("booked", "book", "activated", "activate") and m.polarity != NEGATED
                    for m in reading.mentions if m.clause == clause) or _aside_of(reading, fid, clause)
                or _placed(reading, fid, account, clause)) or (
                reading.denies("booked") or reading.denies("book")):
            return None
        before = _words_before(reading, account, clause)
        if not before or before[-1] not in PREPOSITIONS or {"not", "than", "instead", "rather", "other"} & set(before):
            return None  # "…rather than ACC-2", "not to ACC-2"
    final = (h.ctx.row("facility", fid) or {}).get("account_id")
    if final is not None:
        return None if final == account else f"says {fid} is booked to {account}, but it was booked to {final}"
    row = h.ctx.row("account", account) or {}
    want = ACCOUNT_TYPE[h.start(fid, "product")]
    if row.get("status") != "open" or row.get("account_type") != want:
        return (f"names {account} ({row.get('status')} {row.get('account_type')}) for {fid}, which needs an open "
                f"{want} account")
    return None


def _called(reading: Reading, ident: str, clause: int) -> set[str]:
    """What the words right before an account's id call it: "your open loan account ACC-1", "the
    customer's current account is ACC-2" (its type and status, as the records write them)."""
    at = next((i for named, k, i in reading.id_at if named == ident and k == clause), None)
    before = [w for w in reading.before(clause, at, 6)] if at is not None else []
    if at is not None and not any(reading.words[clause][:at]) and clause > 0 and (
            reading.sentence_of[clause - 1] == reading.sentence_of[clause]):
        before = [w for w in reading.words[clause - 1] if w][-6:]  # "your loan account, ACC-1": in apposition
    while before and before[-1] in ("is", "number", "no", "id", "ref"):
        before.pop()
    if before[-1:] != ["account"]:
        return set()
    return {w for w in before[-3:-1] if w in ("loan", "current", "open", "closed")}


def _aside_of(reading: Reading, fid: str, clause: int) -> bool:
    """The clause is an aside right after the facility's id that puts it on an account: "the rate
    of FAC-1 (on account ACC-1)"."""
    return clause > 0 and reading.words[clause][:1] in (("on",), ("to",)) and any(
        i == fid and k == clause - 1 and at == len(reading.words[k]) - 1 for i, k, at in reading.id_at)


def _placed(reading: Reading, fid: str, account: str, clause: int) -> bool:
    """The facility said to sit on the account, with no verb of booking: "FAC-1 is on ACC-2" (78th audit)."""
    at = {i: at for i, k, at in reading.id_at if k == clause and i in (fid, account)}
    if fid not in at or account not in at or at[fid] >= at[account]:
        return False
    return set(reading.words[clause][at[fid] + 1:at[account]]) <= _PLACING | ACCOUNT_WORDS


_PLACING = frozenset({"is", "now", "sits", "went", "goes", "will", "go", "be", "been", "has", "placed", "live", "on",
                      "to", "against", "under", "in", "onto", "into", "sitting", "held"})


def _labelled_account(reading: Reading, clause: int) -> bool:
    """The id is given under the label "account": a table row ("Account | ACC-1") or a label line
    ("Account: ACC-1")."""
    words = reading.words[clause]
    row = words[:1] == ("account",) and sum(1 for w in words if w) == 1
    label = [w for w in (reading.words[clause - 1] if clause > 0 and reading.joined[clause] else ()) if w]
    while label and label[-1] in ("id", "no", "number", "ref"):  # "account_id: ACC-1"
        label.pop()
    line = label[-1:] == ["account"] and not any(words) and not OTHER.intersection(label)  # not "other_account:"
    return row or line


OTHER = frozenset({"other", "another", "second", "previous", "alternative", "secondary", "old"})


# What may stand between a preposition and an account's id: "to your existing loan account ACC-1".
ACCOUNT_WORDS = frozenset({"your", "the", "a", "an", "our", "its", "their", "his", "her", "existing", "new", "open",
                           "loan", "current", "business", "account", "no", "number", "ref"})


def _words_before(reading: Reading, ident: str, clause: int) -> list[str]:
    """The words before ``ident`` in ``clause`` (however the id was written: "ACC 00369",
    "acc-00369", "ACC number 369"), back to the word before the account's own words: the
    preposition of "to your loan account ACC-1", and the word before it ("not to…")."""
    at = next(((k, i) for named, k, i in reading.id_at if named == ident and k == clause), None)
    if at is None:
        return []
    before = reading.before(*at, 12)
    k = len(before)
    while k and before[k - 1] in ACCOUNT_WORDS:
        k -= 1
    return before[max(0, k - 2):k]


def accounts_denied(h: History, fid: str, reading: Reading) -> str | None:
    """"The customer has no accounts with us", "no open loan account": the records say which accounts
    the customer holds."""
    customer = h.start(fid, "customer_id")
    for m in reading.mentions:
        if m.meaning != "account" or m.polarity != NEGATED:
            continue
        before = reading.before(m.clause, m.at, 4)
        if not ({"no", "none", "any"} & set(before) or m.clause in reading.missing):
            continue  # "not verified for this account": the account is not what is denied
        if "new" in before or OPENED.intersection(reading.words[m.clause]) or CHANGED.intersection(
                reading.words[m.clause]):
            continue  # "No new accounts were opened", "Nothing else changed on your accounts": an act not done
        sentence = {w for k, ws in enumerate(reading.words) if reading.sentence_of[k] == reading.sentence_of[m.clause]
                    for w in ws}
        named = {i.split("-", 1)[0] for i, k in reading.ids if reading.sentence_of[k] == reading.sentence_of[m.clause]}
        if (FACILITY_STEPS.intersection(sentence) or named == {"FAC"}) and not {
                "customer", "you", "they", "holds", "hold", "has"} & set(reading.words[m.clause]):
            continue  # "FAC-1 left PENDING, no account, no rate set", "FAC-1 read, pending, no account yet" (64th)
        kinds = [k for k in ("loan", "current") if k in before or k in m.words.split()]  # ("current account")
        is_open = "open" in before
        query = "SELECT id FROM account WHERE customer_id = ?" + (" AND status = 'open'" if is_open else "") + (
            " AND account_type = ?" if kinds else "")
        held = [r[0] for r in h.ctx.env.db.execute(query, (customer, *kinds[:1]))]
        if held:
            what = " ".join(["open"] * is_open + kinds[:1] + ["account"])
            return f"says {customer} has no {what}, but they hold {', '.join(held)}"
    return None


OPENED = frozenset({"opened", "created", "set", "added", "made", "booked", "assigned", "linked",
                    "chosen", "selected", "picked", "allocated", "nominated", "used"})  # ("No account has been chosen")
CHANGED = frozenset({"changed", "touched", "altered", "modified", "affected", "happened", "moved",  # (84th audit)
                     "done"})  # ("Nothing was done to your loan account": 89th audit)
FACILITY_STEPS = frozenset({"rate", "booked", "booking", "activation", "activated", "left"})


# "the customer already has an open current account", "you hold a loan account with us"
HOLDS = lazy(r"\b(?:(?<!we )(?<!i )(?:has|have|holds|hold)\s+(?:already\s+)?(?:got\s+)?(?:an?\s+)?"
             r"(?:existing\s+)?|(?:customer|customer's|their|your|his|her|its)\s+(?:own\s+)?existing\s+)"
             r"(open\s+)?(loan|current)\s+account\b")  # "the customer's existing current account"


def accounts_held(h: History, fid: str, reading: Reading) -> str | None:
    """An account of a type the customer is said to hold is one the records show them holding."""
    customer = h.start(fid, "customer_id")
    for words in reading.words:
        found = HOLDS.search(" ".join(w for w in words if w))
        if found is None or {"not", "no", "never"} & set(words):
            continue
        query = "SELECT id FROM account WHERE customer_id = ? AND account_type = ?" + (
            " AND status = 'open'" if found.group(1) else "")
        if h.ctx.env.db.execute(query, (customer, found.group(2))).fetchone() is None:
            said = f"{'an open' if found.group(1) else 'a'} {found.group(2)} account"
            return f"says {customer} holds {said}, but they hold none"
    return None


_DENIAL = lazy(r"\b(?:nothing|not|no|never|none)\b|n't\b", re.IGNORECASE)
# "on your current account", "to the customer's loan account": an account named by its type.
TYPED_ACCOUNT = lazy(r"\b(?:on|to|into|against|from|under)\s+(?:(?:your|the|a|an|their|its|customer's)\s+)*"
                     r"(current|loan)\s+account\b", re.IGNORECASE)


def account_type(h: History, fid: str, t: Text) -> str | None:
    """The type of account a text names for the facility is the type of its account: the one it
    is booked to by the end, else the one its product needs."""
    said_text = t.reading.said
    found = next((m for m in TYPED_ACCOUNT.finditer(said_text) if CHANGED.isdisjoint(
        said_text[max(0, m.start() - 25):m.start()].lower().split()[-3:]) or not _DENIAL.search(
        said_text, max(0, m.start() - 40), m.start())), None)
    if found is None:
        return None  # (not an act on another account: "Nothing was done to your loan account"; 89th audit)
    account = (h.ctx.row("facility", fid) or {}).get("account_id")
    kind = (h.ctx.row("account", account) or {}).get("account_type") if account else ACCOUNT_TYPE[
        h.start(fid, "product")]
    said = found.group(1).lower()
    typed = [m for m in t.reading.mentions if m.meaning == "account" and m.words == f"{said} account"]
    if typed and all(m.polarity == NEGATED for m in typed):
        return None  # "It can't go on your current account": the type ruled out, not named
    return None if kind is None or said == kind else f"names a {said} account for {fid}, which is on a {kind} account"
