"""Acts only the handler does here, said of a reviewer: a reviewer answers (approves, amends,
declines or returns a claim) and does nothing else; the handler pays, writes to the claimant and
adds notes. "SNR-05 will pay the holder directly", "the reviewer will send the approval letter",
"Holder 331 will be notified by HOC-1's office", "SNR-01 still has to countersign the payment"
(55th audit: the right step credited to the wrong person)."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

_REVIEWER = (r"(?:(?:SNR|HOC)-\d+(?:['\u2019]s\s+(?:office|team))?|(?:the|our)\s+(?:senior\s+|assigned\s+|deputy\s+)?"
             r"(?:\w+\s+)?reviewer|(?:the|our)\s+head\s+of\s+claims(?:['\u2019]\s+office)?|(?:our|the)\s+senior\s+(?:\w+\s+)?"
             r"(?:reviewer|colleague))")
_HOLDER = r"(?:the\s+)?(?:holder|claimant|policyholder|customer|insured|you)(?:\s+\d+)?\b"
# ("will transfer the £12,500", "wired the money")
_ACT = (rf"(?:pay|pays|paid|paying|transfer|transfers|transferred|transferring|wire|wires|wired|"
        # ("settled it with you", not "settled the matter": red team 70)
        rf"(?:settled?|settles)(?=\s+(?:it|up|with\s+(?:you|{_HOLDER})|the\s+claim|your\s+claim|the\s+payment|"
        rf"the\s+[£$€]|[£$€]|\d))|"
        # ("personally sent you the £12,500": red team 68)
        rf"(?:sent|send|sends|posted)\s+(?:you|{_HOLDER})\s+(?:the\s+|your\s+)?(?:[£$€]\s?\d[\d,]*|money|funds|payment)|"
        rf"(?:issue|issues|issued|make|makes|made|release|released|arranged?|arranges)\s+"
        rf"(?:the\s+|a\s+|your\s+)?(?:[£$€]\s?\d[\d,]*\s+)?(?:payment|transfer)|"
        # ("credited your account", "sent the £12,500 to your bank", "released the funds": red team 70)
        rf"credit(?:s|ed)?\s+(?:your|their|his|her|the\s+(?:holder|claimant)['\u2019]s)\s+(?:bank\s+)?account|"
        rf"(?:sent|send|sends|transferred)\s+(?:the\s+|your\s+)?(?:[£$€]\s?\d[\d,]*|money|funds|payment)\s+to\s+"
        rf"(?:your|their|his|her)\s+(?:bank|account)|"
        rf"(?:release|released|releases)\s+(?:the\s+|your\s+)?(?:funds|money|[£$€]\s?\d[\d,]*)|"
        rf"countersign\w*|(?:write|writes|wrote|written|writing)\s+to\s+{_HOLDER}|(?:notify|notifies|notified|inform|informs|"
        rf"informed|contact|contacts|contacted|email|emails|emailed)\s+{_HOLDER}|(?:send|sends|sent|post|posts|posted|issue|"
        rf"issues|issued)\s+(?:the\s+|an?\s+|our\s+|their\s+)?(?:(?:approval|decline|decision|outcome)\s+)?letter)")
_AUX = (r"(?:(?:will|shall|would|has|have|had|is|are|was|must|needs?\s+to|still\s+has\s+to|has\s+still\s+to|"
        r"is\s+going\s+to|is\s+to)\s+)?(?:(?:also|then|now|directly|personally|already|still|be)\s+)*")
# A second decision or doer between a reviewer's answer and "and paid": the handler's act, told
# tersely ("SNR-07 approved it as assessed at 18000, and the handler then approved and paid").
# ("approved it so quickly and paid", "approved what you claimed and paid you": the reviewer still; red team 68)
_OTHER_DOER = (r"\b(?:approv\w*|amend\w*|declin\w*|which|so(?!\s+(?:quickly|fast|promptly|soon))|then|we|"
               r"you(?!\s+(?:claimed|asked))|i|handler)\b")
HANDLER_ONLY = lazy(rf"\b(?P<who>{_REVIEWER})\s+{_AUX}(?P<act>{_ACT})"
                    rf"|\b(?P<act2>notified|informed|written\s+to|paid|contacted|emailed)\s+(?:(?:to|you|the|claimant|holder|"
                    rf"in|full|out|directly)\s+){{0,3}}by\s+"  # "was paid to you by our head of claims"
                    rf"(?P<who2>{_REVIEWER})"
                    # "payment issued by SNR-11", "approval letter sent by HOC-1's office" (59th audit)
                    rf"|\b(?P<thing>payment|PAY-E?\d+|letter)\s+(?:was\s+|has\s+been\s+)?(?P<act3>issued|sent|made|"
                    rf"arranged|released|posted|signed|written)\s+(?:directly\s+|personally\s+)?by\s+(?P<who3>{_REVIEWER})"
                    # "escalated to SNR-07, who approved 18,000 and issued the payment directly"
                    rf"|\b(?P<who4>{_REVIEWER})(?:\s+(?:at|for|of)\s+[£$€]?\d[\d,.]*k?)?,?\s+\(?who\s+(?:(?:[^.;!?\n,]|"
                    rf"(?<=\d),(?=\d)){{0,50}}?\s+and\s+)?(?:has\s+|had\s+|also\s+|then\s+|"
                    rf"personally\s+|directly\s+)*(?P<act4>{_ACT})"
                    # "SNR-05 approved 14,000 after one wait and paid the claimant directly" (86th audit)
                    # ("SNR-01 looked at your claim, approved it and paid you", "approved your claim, so paid
                    # you", "SNR-05, having approved 14,000, paid the claimant": red team 68; not "SNR-05
                    # approved, paid once": the handler's, tersely)
                    rf"|\b(?P<who5>{_REVIEWER})\s+{_AUX}(?:(?:looked\s+at|reviewed|assessed|considered)\s+[^.;:,!?\n]{{0,30}},\s+)?"
                    rf"(?:approved|amended|declined|agreed|signed\s+off|reduced)\b"
                    rf"(?:(?!{_OTHER_DOER})(?:[^.;:,!?\n]|(?<=\d)[.,](?=\d))){{0,60}}?,?\s+(?:and|so|and\s+so)\s+{_AUX}"
                    rf"(?P<act5>{_ACT})\b(?!\s+of\b|\s+by\b|\s+(?:it\s+)?(?:was|is|has\s+been)\b)"
                    rf"|\b(?P<who6>{_REVIEWER}),\s+having\s+(?:[^.;!?\n,]|(?<=\d),(?=\d)){{0,40}},\s+{_AUX}(?P<act6>{_ACT})\b"
                    # "the £12,500 you received came straight from SNR-01"
                    rf"|(?:\b(?:money|payment|funds)|[£$€]\s?\d[\d,.]*k?)\b[^.;!?\n]{{0,30}}?\b(?:came|comes)\s+(?:straight\s+|"
                    rf"directly\s+)?from\s+(?P<who7>{_REVIEWER})",
                    re.IGNORECASE)
_PASSIVE = lazy(r"\b(?:was|were|is|are|be|been)\s+(?:\w+\s+)?$", re.IGNORECASE)
_DONE_TO = lazy(r"(?:paid|made|issued|released|arranged|sent|posted|written|notified|informed|contacted|"
                r"emailed|countersigned)\b", re.IGNORECASE)
_LEADING = frozenset({"the", "your", "this", "that", "our", "and", "so", "but"})
_CUES = ("snr-", "hoc-", "reviewer", "head of claims", "senior")
_DENIED = lazy(r"\b(?:not|never|no|neither|nor|if|whether|unless)\b|n't", re.IGNORECASE)


def reviewer_did_handlers_act(said: str) -> str | None:
    """A reviewer said to pay, write to the claimant or countersign, at any time."""
    low = said.lower()
    if not any(cue in low for cue in _CUES):
        return None
    for m in HANDLER_ONLY.finditer(said):
        clause_start = max(said.rfind(ch, 0, m.start()) for ch in ".;!?\n(") + 1
        if _DENIED.search(said, clause_start, m.end()):
            continue  # "SNR-07 does not pay claims", "if the reviewer wrote to you"
        lead = said[max(said.rfind(ch, 0, m.start()) for ch in ".;!?\n(,") + 1:m.start()]
        if m.group("who7") and not set(re.findall(r"[\w'-]+", lead.lower())) <= _LEADING:
            continue  # "the decision on your £12,500 came from SNR-01": the decision did (red team 70)
        if m.group("who") and _PASSIVE.search(said, m.end("who"), m.start("act")) and _DONE_TO.match(m.group("act")):
            continue  # "the 740,000 approved by our head of claims was paid to you": the amount was (70th audit)
        return f"says {m.group(0)!r}: a reviewer only answers the escalation; the handler pays and writes to " \
               "the claimant"
    return None
