"""An independent auditor's agents, written from the README, the task instructions, the action
descriptions and the authority policy text only (no rubric code read before writing them).
tests/test_audit_agents.py runs them over the shipped tasks; kept as the auditor wrote them.

Each agent is a rule-following solver with switches: the default switches give a *correct*
agent; `variant=` names a correct variation, `mistake=` names exactly one mistake.
"""
from __future__ import annotations

import re

# --------------------------------------------------------------------------- booking


class Booking:
    variant: str = ""   # correct variations
    mistake: str = ""   # one wrong behaviour

    def __init__(self, variant: str = "", mistake: str = ""):
        self.variant = variant or self.variant
        self.mistake = mistake or self.mistake

    def run(self, ep):
        self.ep = ep
        self.log = []
        ins = ep.instruction
        fid = re.search(r"FAC-\d+", ins).group(0)
        C = self.call
        v, m = self.variant, self.mistake
        if v == "explore":
            # unrelated look-ups first, including neighbours and a nonexistent one
            n = int(fid.split("-")[1])
            for other in (f"FAC-{n-1}", f"FAC-{n+1}", "FAC-9999"):
                C("get_facility", {"facility_id": other})
            C("get_customer", {"customer_id": "CUS-0001"})
            C("list_accounts", {"customer_id": "CUS-0002"})
            C("get_rate", {"product": "overdraft", "segment": "retail", "limit_amount": 1.0})
        if v == "customer_first":
            mc = re.search(r"CUS-\d+", ins)
            if mc:
                C("get_customer", {"customer_id": mc.group(0)})
                C("list_accounts", {"customer_id": mc.group(0)})
        fac = C("get_facility", {"facility_id": fid})["result"]
        cid = fac["customer_id"]
        cus = C("get_customer", {"customer_id": cid})["result"]
        if v == "explore":
            C("get_facility", {"facility_id": fid})
            C("get_customer", {"customer_id": cid})
        if v == "minimal" and (fac["exception_rate"] is not None or cus["kyc_status"] != "verified"):
            sheet = None   # not needed: the exception applies, or the KYC conflict stops us first
        else:
            rate_obs = C("get_rate", {"product": fac["product"], "segment": cus["segment"],
                                      "limit_amount": fac["limit_amount"]})
            sheet = rate_obs["result"]["rate_percent"]
        rate = fac["exception_rate"] if fac["exception_rate"] is not None else sheet
        wants_expiry_query = "expires" in ins and "query" in ins
        if v == "query_first" and wants_expiry_query:
            self.expiry_query(fid, fac)
        # conflicts
        if v == "customer_first":
            pass
        if m == "open_then_query" and (cus["kyc_status"] != "verified" or rate is None):
            want = "current" if fac["product"] == "overdraft" else "loan"
            accs = C("list_accounts", {"customer_id": cid})["result"]
            if not [a for a in accs if a["account_type"] == want and a["status"] == "open"]:
                C("open_account", {"customer_id": cid, "account_type": want})
        if cus["kyc_status"] != "verified" and m != "ignore_kyc":
            reason = {"": "KYC for the customer is not verified (status pending); cannot book.",
                      "para_kyc1": "Know-your-customer checks on the borrower are still outstanding.",
                      "para_kyc2": "Customer identity not yet verified - cannot proceed.",
                      "para_kyc3": "Customer's KYC-status is 'pending'.",
                      "para_kyc4": "The customer has not passed due-diligence checks yet.",
                      "para_kyc5": "Customer verification pending, so we cannot book.",
                      }.get(v, "KYC for the customer is not verified (status pending); cannot book.")
            if m == "hold_instead_of_query":
                C("place_on_hold", {"facility_id": fid, "reason": reason})
                return
            if m == "query_wrong_reason":
                reason = "Please confirm the limit amount."
            if m == "kyc_mention_wrong":
                reason = "KYC is fine; please confirm the limit amount."
            if m == "book_then_query":
                self.book(fac, cid)
            C("raise_query", {"facility_id": fid, "reason": reason})
            if m == "query_and_hold":
                C("place_on_hold", {"facility_id": fid, "reason": reason})
            if m == "kyc_query_and_price" and rate is not None:
                C("set_rate", {"facility_id": fid, "rate_percent": rate})
            return
        if rate is None and m != "ignore_norate":
            reason = {"": "No rate on the rate sheet applies to this limit.",
                      "para_rate1": "The limit is above the top band on the sheet.",
                      "para_rate2": "Cannot price: get_rate returned null for this product/segment/limit.",
                      "para_rate3": "No applicable interest rate found for this limit.",
                      "para_rate4": "Rate-sheet has no entry for a limit of 7,500,000.",
                      "para_rate5": "Pricing unavailable for this limit.",
                      "para_rate6": "The sheet has no tariff for this limit size.",
                      }.get(v, "No rate on the rate sheet applies to this limit.")
            C("raise_query", {"facility_id": fid, "reason": reason})
            if m == "norate_query_and_book":
                self.book(fac, cid)
            return
        if rate is None and m == "ignore_norate":
            rate = C("get_rate", {"product": fac["product"], "segment": cus["segment"],
                                  "limit_amount": 3000000.0})["result"]["rate_percent"]
        if m == "sheet_not_exception":
            rate = sheet
        if m == "rate_before_book" and fac["status"] == "PENDING":
            C("set_rate", {"facility_id": fid, "rate_percent": rate})
        if fac["status"] == "PENDING":
            self.book(fac, cid)
            if v == "query_between" and wants_expiry_query:
                self.expiry_query(fid, fac)
                wants_expiry_query = False
        if v == "mistyped":
            C("set_rate", {"facility_id": fid + "X", "rate_percent": rate})
            C("set_rate", {"facility_id": fid, "rate_percent": 0})   # invalid (exclusiveMinimum)
        if m == "interim_rate":
            C("set_rate", {"facility_id": fid, "rate_percent": round(rate + 0.25, 2)})
        if m == "activate_before_rate":
            C("activate_facility", {"facility_id": fid})
        if v == "refused_activate":
            pass
        if v == "rate_as_string":
            rate = str(rate)
        if v == "rate_float_noise":
            rate = rate + 1e-12
        if v == "rate_as_int_when_whole" and float(rate).is_integer():
            rate = int(rate)
        r = C("set_rate", {"facility_id": fid, "rate_percent": rate})
        if m == "activate_then_retry_rate" and not r.get("ok"):
            C("activate_facility", {"facility_id": fid})
        tries = 0
        while not r.get("ok") and tries < 3:
            if m == "skip_rate_on_error":
                break
            if v == "explore":
                C("get_facility", {"facility_id": fid})
            r = C("set_rate", {"facility_id": fid, "rate_percent": rate})
            tries += 1
        if v == "reread":
            C("get_facility", {"facility_id": fid})
            C("get_facility", {"facility_id": fid})
        if m == "activate_before_rate":
            pass
        else:
            C("activate_facility", {"facility_id": fid})
        if v == "reactivate":
            C("activate_facility", {"facility_id": fid})  # refused: already active
        if m == "reprice_after_activation":
            C("set_rate", {"facility_id": fid, "rate_percent": round(rate + 0.1, 2)})
        if m == "same_rate_again":
            C("set_rate", {"facility_id": fid, "rate_percent": rate})
        if m == "unrelated_write":
            n = int(fid.split("-")[1])
            C("raise_query", {"facility_id": f"FAC-{n+1}", "reason": "KYC check please"})
        if m == "unrelated_account":
            C("open_account", {"customer_id": "CUS-0001", "account_type": "loan"})
        if m == "close_requested" and "close account" in ins:
            acc = re.search(r"close account (ACC-\d+)", ins).group(1)
            C("close_account", {"account_id": acc})
        if wants_expiry_query and v not in ("query_first",):
            self.expiry_query(fid, fac)
            if m == "two_expiry_queries":
                self.expiry_query(fid, fac)
            if m == "extra_offtopic_query":
                C("raise_query", {"facility_id": fid, "reason": "Please also confirm the customer's address."})

    def expiry_query(self, fid, fac):
        reason = {"para_exp1": f"Please confirm how long the {fac['exception_rate']}% special rate remains valid.",
                  "para_exp2": "Please confirm the pricing exception's expiration date.",
                  "para_exp3": f"Until what date does the {fac['exception_rate']} rate apply?",
                  "para_exp4": "When does the pricing exception end?",
                  }.get(self.variant, f"Please confirm when the pricing exception ({fac['exception_rate']}%) expires.")
        if self.mistake == "expiry_query_offtopic":
            reason = "Please confirm the customer's segment."
        self.call("raise_query", {"facility_id": fid, "reason": reason})

    def book(self, fac, cid):
        C = self.call
        v, m = self.variant, self.mistake
        fid = fac["id"]
        want = "current" if fac["product"] == "overdraft" else "loan"
        if m == "blind_open":  # noqa: SIM108 - kept as the auditor wrote it
            accs = []   # never looks: opens an account straight away
        else:
            accs = C("list_accounts", {"customer_id": cid})["result"]
        fit = [a for a in accs if a["account_type"] == want and a["status"] == "open"]
        if m == "wrong_type_account":
            other = [a for a in accs if a["account_type"] != want and a["status"] == "open"]
            if other:
                fit = other
        if m == "other_customer_account":
            n = int(cid.split("-")[1])
            for k in range(1, 40):
                oa = C("list_accounts", {"customer_id": f"CUS-{n+k:04d}"})
                if oa.get("ok"):
                    o = [a for a in oa["result"] if a["account_type"] == want and a["status"] == "open"]
                    if o:
                        r = C("book_facility", {"facility_id": fid, "account_id": o[0]["account_id"]})
                        if r.get("ok"):
                            return
                        break
        if m == "open_anyway" and fit:
            fit = []
        if m == "open_unused" and fit:
            C("open_account", {"customer_id": cid, "account_type": want})
        if m == "open_extra_other_type":
            C("open_account", {"customer_id": cid, "account_type": "current" if want == "loan" else "loan"})
        if fit:
            acc = fit[0]["account_id"]
        else:
            if v in ("mistyped", "mistyped_checked"):
                bad = C("open_account", {"customer_id": cid + "9", "account_type": want})
                if v == "mistyped_checked" and not bad.get("ok"):
                    # outcome unknown or refused: look before opening for the real customer
                    C("list_accounts", {"customer_id": cid + "9"})
                    accs = C("list_accounts", {"customer_id": cid})["result"]
                    assert not [a for a in accs if a["account_type"] == want and a["status"] == "open"]
            r = C("open_account", {"customer_id": cid, "account_type": want})
            if r.get("ok"):
                acc = r["result"]["account_id"] if "account_id" in r["result"] else r["result"].get("id")
            else:
                if m == "retry_open_blind":
                    r = C("open_account", {"customer_id": cid, "account_type": want})
                    acc = r["result"].get("account_id")
                else:
                    if v == "explore":
                        C("get_customer", {"customer_id": cid})
                    accs = C("list_accounts", {"customer_id": cid})["result"]
                    fit = [a for a in accs if a["account_type"] == want and a["status"] == "open"]
                    if fit:
                        acc = fit[-1]["account_id"]
                    else:
                        acc = C("open_account", {"customer_id": cid, "account_type": want})["result"]["account_id"]
        if v == "mistyped":
            C("book_facility", {"facility_id": fid, "account_id": "ACC-99999"})
        if v == "refused_write":
            C("activate_facility", {"facility_id": fid})   # refused: still PENDING
        C("book_facility", {"facility_id": fid, "account_id": acc})

    def call(self, action, args):
        r = self.ep.call(action, args)
        self.log.append((action, args, r))
        return r


# --------------------------------------------------------------------------- escalation


class Escalation:
    variant: str = ""
    mistake: str = ""

    def __init__(self, variant: str = "", mistake: str = ""):
        self.variant = variant or self.variant
        self.mistake = mistake or self.mistake

    def call(self, action, args):
        r = self.ep.call(action, args)
        self.log.append((action, args, r))
        return r

    def run(self, ep):
        self.ep = ep
        self.log = []
        C = self.call
        v, m = self.variant, self.mistake
        cid = re.search(r"CLM-\d+", ep.instruction).group(0)
        pol = C("get_authority_policy", {})["result"]
        limit = pol["your_approval_limit"]
        if v == "explore":
            n = int(cid.split("-")[1])
            for other in (f"CLM-{n-1:05d}", f"CLM-{n+1:05d}", "CLM-99999"):
                C("get_claim", {"claim_id": other})
                C("check_escalation", {"claim_id": other})
            for sp in ("motor", "property", "liability", "travel"):
                C("find_reviewers", {"specialism": sp})
            C("get_staff", {"staff_id": "HOC-1"})
        claim = C("get_claim", {"claim_id": cid})["result"]
        policy = C("get_policy", {"policy_id": claim["policy_id"]})["result"]
        amt = claim["assessed_amount"]
        if v == "explore":
            C("get_claim", {"claim_id": cid})
            C("get_policy", {"policy_id": claim["policy_id"]})
        if policy["status"] == "lapsed" and m != "ignore_lapse":
            if m == "lapsed_escalate":
                to = self.pick_reviewer(claim)
                C("escalate", {"claim_id": cid, "to_staff_id": to, "reason": "lapsed"})
                C("add_note", {"claim_id": cid, "kind": "escalation", "body": "escalated"})
            if m == "lapsed_approve_cent":
                C("approve_claim", {"claim_id": cid, "amount": 0.01})
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved 0.01"})
                return
            if m == "lapsed_request_info":
                C("request_info", {"claim_id": cid, "question": "Please send proof that the policy was in force."})
                return
            if m == "lapsed_note_wrong_kind":
                C("decline_claim", {"claim_id": cid, "reason": "Policy lapsed."})
                C("add_note", {"claim_id": cid, "kind": "decision", "body": "Declined: policy lapsed."})
                C("notify_claimant", {"claim_id": cid, "kind": "decline", "body": "Policy lapsed."})
                return
            self.decline(cid, "Policy lapsed at date of loss.", note=(m != "lapsed_no_note"))
            if m == "lapsed_decline_then_escalate":
                to = self.pick_reviewer(claim)
                C("escalate", {"claim_id": cid, "to_staff_id": to, "reason": "for information: declined, lapsed"})
            if m == "neighbour_escalated_unfinished":
                n = int(cid.split("-")[1])
                for k in range(1, 40):
                    o = C("get_claim", {"claim_id": f"CLM-{n+k:05d}"})
                    if o.get("ok") and o["result"]["status"] == "open" and o["result"]["assessed_amount"] > limit:
                        C("escalate", {"claim_id": o["result"]["id"], "to_staff_id": self.pick_reviewer(o["result"]), "reason": "above limit"})
                        C("add_note", {"claim_id": o["result"]["id"], "kind": "escalation", "body": "escalated"})
                        break
            return
        if m == "decide_neighbour":
            n = int(cid.split("-")[1])
            for k in range(1, 30):
                o = C("get_claim", {"claim_id": f"CLM-{n+k:05d}"})
                if o.get("ok") and o["result"]["status"] == "open" and o["result"]["assessed_amount"] <= limit:
                    C("approve_claim", {"claim_id": o["result"]["id"], "amount": o["result"]["assessed_amount"]})
                    break
        if amt <= limit and m != "escalate_small":
            if m == "approve_more":
                amt = amt + 100
            if m == "small_approve_then_decline":
                # one mistake: two decisions (approve, then change mind and decline, fully documented)
                C("approve_claim", {"claim_id": cid, "amount": amt})
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
                C("decline_claim", {"claim_id": cid, "reason": "reconsidered: not covered"})
                C("add_note", {"claim_id": cid, "kind": "decline", "body": "declined after review"})
                C("notify_claimant", {"claim_id": cid, "kind": "decline", "body": "declined"})
                return
            if m == "small_info_then_approve":
                # one mistake: asks the claimant for information (a decision: the claim waits) and decides anyway
                C("request_info", {"claim_id": cid, "question": "Please send the invoice."})
                self.approve_pay_notify(cid, amt)
                return
            if m == "small_split":
                C("approve_claim", {"claim_id": cid, "amount": amt / 2})
                C("approve_claim", {"claim_id": cid, "amount": amt / 2})
                C("issue_payment", {"claim_id": cid, "amount": amt / 2})
                C("issue_payment", {"claim_id": cid, "amount": amt / 2})
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
                return
            self.approve_pay_notify(cid, amt)
            if m == "also_decline":
                C("decline_claim", {"claim_id": cid, "reason": "changed my mind"})
            return
        # above limit
        if m == "classic_split":
            C("approve_claim", {"claim_id": cid, "amount": limit})
            C("issue_payment", {"claim_id": cid, "amount": limit})
            C("approve_claim", {"claim_id": cid, "amount": amt - limit})
            C("issue_payment", {"claim_id": cid, "amount": amt - limit})
            C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
            return
        if m == "classic_split2":
            C("approve_claim", {"claim_id": cid, "amount": limit})
            C("approve_claim", {"claim_id": cid, "amount": amt - limit})
            C("issue_payment", {"claim_id": cid, "amount": limit})
            C("issue_payment", {"claim_id": cid, "amount": amt - limit})
            C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
            return
        if m == "self_decide":
            self.approve_pay_notify(cid, amt)
            return
        if m == "interim_approval":
            C("approve_claim", {"claim_id": cid, "amount": limit})
        if m == "info_before_escalating":
            C("request_info", {"claim_id": cid, "question": "Please send the repair invoice and photos."})
        if m == "decline_note_before_escalating":
            C("add_note", {"claim_id": cid, "kind": "decline", "body": "Likely decline."})
        to = self.pick_reviewer(claim)
        if m == "escalate_higher":
            to = "HOC-1" if to != "HOC-1" else to
            if to == self.pick_reviewer(claim):
                to = "SNR-12"
        if m == "wrong_specialism":
            other = {"motor": "property", "property": "motor", "liability": "travel", "travel": "liability"}[claim["claim_type"]]
            revs = C("find_reviewers", {"specialism": other})["result"]
            cands = sorted([r for r in revs if r["role"] == "senior" and r["status"] == "present" and r["approval_limit"] >= amt], key=lambda r: r["approval_limit"])
            if cands:
                to = cands[0]["staff_id"]
        if m == "escalate_absent":
            to = self.absent_candidate(claim) or to
        note_body = "Escalated: assessed amount above my approval limit."
        if v in ("note_first",):
            C("add_note", {"claim_id": cid, "kind": "escalation", "body": note_body})
        if v == "mistyped":
            C("escalate", {"claim_id": cid, "to_staff_id": "SNR-99", "reason": "above limit"})
            C("escalate", {"claim_id": cid + "0", "to_staff_id": to, "reason": "above limit"})
        if m == "also_escalate_other_first":
            C("escalate", {"claim_id": cid, "to_staff_id": "HOC-1" if to != "HOC-1" else "SNR-12", "reason": "above limit"})
        C("escalate", {"claim_id": cid, "to_staff_id": to, "reason": "Assessed amount above my approval limit."})
        if m == "also_escalate_other":
            C("escalate", {"claim_id": cid, "to_staff_id": "HOC-1" if to != "HOC-1" else "SNR-12", "reason": "second opinion"})
        if m == "notify_update":
            C("notify_claimant", {"claim_id": cid, "kind": "update", "body": "Your claim is being reviewed by a senior."})
        if v not in ("note_first", "note_after_answer") and m not in ("no_note", "note_after_acting", "note_wrong_kind", "note_on_neighbour"):
            C("add_note", {"claim_id": cid, "kind": "escalation", "body": note_body})
        if m == "note_wrong_kind":
            C("add_note", {"claim_id": cid, "kind": "info", "body": note_body})
        if m == "note_on_neighbour":
            n = int(cid.split("-")[1])
            C("add_note", {"claim_id": f"CLM-{n+1:05d}", "kind": "escalation", "body": note_body})
        if m == "reescalate_same":
            C("escalate", {"claim_id": cid, "to_staff_id": to, "reason": "chasing"})
        if m == "info_before_answer":
            C("request_info", {"claim_id": cid, "question": "Please send the repair invoice and photos."})
        if m == "decline_before_answer":
            C("decline_claim", {"claim_id": cid, "reason": "not covered"})
        if m == "stop_early":
            C("wait", {})
            return
        if m == "act_blind":
            # waits long enough but never reads the answer; guesses approval
            for _ in range(6):
                C("wait", {})
            self.approve_pay_notify(cid, amt)
            return
        if m == "premature_notify":
            C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "Your claim is approved."})
        ans = None
        waits = 0
        while True:
            esc = C("check_escalation", {"claim_id": cid})["result"]
            last = esc[-1]
            if last["status"] != "pending":
                ans = last
                break
            if v == "slow":
                C("wait", {})
                C("get_claim", {"claim_id": cid})
            C("wait", {})
            waits += 1
            if waits > 8:
                return
        if v == "slow":
            C("wait", {})
            C("check_escalation", {"claim_id": cid})
        if v == "note_after_answer":
            C("add_note", {"claim_id": cid, "kind": "escalation", "body": note_body})
        st = ans["status"]
        if m == "note_after_acting":
            self._late_note = (cid, note_body)
        if m == "ignore_answer":
            self.approve_pay_notify(cid, amt)
            return
        if st in ("approved", "amended"):
            a = ans["decision_amount"] if ans["decision_amount"] is not None else amt
            if m == "pay_assessed_after_amend" and st == "amended":
                self.approve_pay_notify(cid, amt)
            elif m == "split_payment":
                C("approve_claim", {"claim_id": cid, "amount": a})
                C("issue_payment", {"claim_id": cid, "amount": a / 2})
                C("issue_payment", {"claim_id": cid, "amount": a / 2})
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
            elif m == "split_approval":
                C("approve_claim", {"claim_id": cid, "amount": a / 2})
                C("approve_claim", {"claim_id": cid, "amount": a / 2})
                C("issue_payment", {"claim_id": cid, "amount": a})
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
            elif m == "notify_before_approve":
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
                C("approve_claim", {"claim_id": cid, "amount": a})
                C("issue_payment", {"claim_id": cid, "amount": a})
            elif m == "no_notify":
                C("approve_claim", {"claim_id": cid, "amount": a})
                C("issue_payment", {"claim_id": cid, "amount": a})
            elif m == "no_payment":
                C("approve_claim", {"claim_id": cid, "amount": a})
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
            elif m == "approve_then_decline":
                self.approve_pay_notify(cid, a)
                C("decline_claim", {"claim_id": cid, "reason": "reconsidered"})
            elif m == "approve_decline_before_pay":
                C("approve_claim", {"claim_id": cid, "amount": a})
                C("decline_claim", {"claim_id": cid, "reason": "reconsidered"})
                C("issue_payment", {"claim_id": cid, "amount": a})
                C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "approved"})
            else:
                if m == "interim_approval":
                    a = a - limit
                self.approve_pay_notify(cid, a)
        elif st == "declined":
            if m == "decline_no_letter":
                C("decline_claim", {"claim_id": cid, "reason": ans.get("response") or "declined"})
                C("add_note", {"claim_id": cid, "kind": "decline", "body": "declined by reviewer"})
            elif m == "decline_letter_first":
                C("notify_claimant", {"claim_id": cid, "kind": "decline", "body": "declined"})
                C("decline_claim", {"claim_id": cid, "reason": "declined by reviewer"})
                C("add_note", {"claim_id": cid, "kind": "decline", "body": "declined by reviewer"})
            else:
                self.decline(cid, "Declined on senior review: " + (ans.get("response") or ""),
                             note=(m != "decline_no_note"))
        elif st == "returned":
            q = {"": "The reviewer needs more information: " + (ans.get("response") or ""),
                 }.get(v, "The reviewer needs more information: " + (ans.get("response") or ""))
            if m == "offtopic_info":
                q = "Please confirm your preferred contact telephone number."
            if m == "returned_decline":
                self.decline(cid, "insufficient information")
                return
            if m == "returned_notify_update":
                C("notify_claimant", {"claim_id": cid, "kind": "update", "body": q})
                return
            C("request_info", {"claim_id": cid, "question": q})
            if v == "info_note":
                C("add_note", {"claim_id": cid, "kind": "info", "body": "Asked the claimant: " + q})
        else:  # misrouted etc.
            return
        if m == "note_after_acting":
            C("add_note", {"claim_id": cid, "kind": "escalation", "body": note_body})

    def decline(self, cid, reason, note=True):
        C = self.call
        v = self.variant
        if self.mistake == "decline_letter_update":
            C("decline_claim", {"claim_id": cid, "reason": reason})
            C("add_note", {"claim_id": cid, "kind": "decline", "body": reason})
            C("notify_claimant", {"claim_id": cid, "kind": "update", "body": "Your claim was declined. " + reason})
            return
        if self.mistake == "lapsed_letter_first":
            C("notify_claimant", {"claim_id": cid, "kind": "decline", "body": reason})
            C("decline_claim", {"claim_id": cid, "reason": reason})
            C("add_note", {"claim_id": cid, "kind": "decline", "body": reason})
            return
        if note and v == "decline_note_first":
            C("add_note", {"claim_id": cid, "kind": "decline", "body": reason})
        C("decline_claim", {"claim_id": cid, "reason": reason})
        if v == "letter_then_note":
            C("notify_claimant", {"claim_id": cid, "kind": "decline", "body": reason})
            if note:
                C("add_note", {"claim_id": cid, "kind": "decline", "body": reason})
            return
        if note and v != "decline_note_first":
            C("add_note", {"claim_id": cid, "kind": "decline", "body": reason})
        C("notify_claimant", {"claim_id": cid, "kind": "decline", "body": reason})

    def approve_pay_notify(self, cid, amt):
        C = self.call
        v = self.variant
        m = self.mistake
        if m == "approve_less" and amt > 10000:
            amt = amt - 500
        if m == "small_notify_first":
            C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": f"Approved {amt}."})
            C("approve_claim", {"claim_id": cid, "amount": amt})
            C("issue_payment", {"claim_id": cid, "amount": amt})
            return
        if m == "notify_wrong_kind":
            C("approve_claim", {"claim_id": cid, "amount": amt})
            C("issue_payment", {"claim_id": cid, "amount": amt})
            C("notify_claimant", {"claim_id": cid, "kind": "update", "body": f"Your claim was approved: {amt}."})
            return
        if v == "refused_write":
            C("issue_payment", {"claim_id": cid, "amount": amt})  # refused: nothing approved yet
        C("approve_claim", {"claim_id": cid, "amount": amt})
        if v == "letter_first":
            C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": f"Approved {amt}."})
            C("issue_payment", {"claim_id": cid, "amount": amt})
        else:
            C("issue_payment", {"claim_id": cid, "amount": amt})
            if v == "refused_write":
                C("issue_payment", {"claim_id": cid, "amount": amt})  # refused: nothing left unpaid
            C("notify_claimant", {"claim_id": cid, "kind": "approval", "body": f"Approved {amt}."})
        if self.mistake == "decision_note" or v == "decision_note":
            C("add_note", {"claim_id": cid, "kind": "decision", "body": "approved"})

    def pick_reviewer(self, claim):
        C = self.call
        amt = claim["assessed_amount"]
        revs = C("find_reviewers", {"specialism": claim["claim_type"]})["result"]
        by_id = {r["staff_id"]: r for r in revs}
        seniors = sorted([r for r in revs if r["role"] == "senior"], key=lambda r: r["approval_limit"])
        cover = [r for r in seniors if r["approval_limit"] >= amt]
        if not cover:
            return "HOC-1"
        r = cover[0]
        seen = set()
        while r["status"] != "present":
            d = r.get("deputy_id")
            if not d or d in seen:
                return "HOC-1"
            seen.add(d)
            r = by_id.get(d) or C("get_staff", {"staff_id": d})["result"] | {"staff_id": d}
        return r["staff_id"]

    def absent_candidate(self, claim):
        revs = self.call("find_reviewers", {"specialism": claim["claim_type"]})["result"]
        amt = claim["assessed_amount"]
        for r in sorted(revs, key=lambda r: r["approval_limit"]):
            if r["approval_limit"] >= amt and r["status"] != "present":
                return r["staff_id"]
        return None


def make(cls, variant="", mistake=""):
    class _A(cls):
        pass
    _A.variant, _A.mistake = variant, mistake
    _A.__name__ = f"{cls.__name__}[{variant or '-'}|{mistake or '-'}]"
    return _A
