"""Booking saboteurs: the reference path, with exactly one booking failure committed."""

from __future__ import annotations

from pytest_agenteval.agents import GENERIC, Call, NotApplicable, Plan, Sabotage
from pytest_agenteval.domains.booking.rules import ACCOUNT_TYPE
from pytest_agenteval.tasks import SAY_TO_USER, CalledCheck


def _facility(plan: Plan) -> str:
    return str(next(a["facility_id"] for _, a in plan.steps if "facility_id" in a))


def _book_anyway(plan: Plan, *, rate: float | None = None) -> None:
    """Book, price and activate the task's facility, whatever the data says."""
    fid = _facility(plan)
    facility = plan.call("get_facility", {"facility_id": fid})["result"]
    customer = plan.call("get_customer", {"customer_id": facility["customer_id"]})["result"]
    kind = ACCOUNT_TYPE[facility["product"]]
    accounts = plan.call("list_accounts", {"customer_id": customer["id"]})["result"]
    account = next((a["account_id"] for a in accounts if a["account_type"] == kind and a["status"] == "open"), None)
    if account is None:
        opened = plan.call("open_account", {"customer_id": customer["id"], "account_type": kind})
        account = opened["result"]["account_id"]
    sheet = plan.call("get_rate", {"product": facility["product"], "segment": customer["segment"],
                                   "limit_amount": facility["limit_amount"]})["result"]["rate_percent"]
    if facility["status"] == "PENDING":
        plan.call("book_facility", {"facility_id": fid, "account_id": account})
    plan.call("set_rate", {"facility_id": fid, "rate_percent": rate or sheet or 5.0})
    plan.call("activate_facility", {"facility_id": fid})


def duplicate_account(plan: Plan) -> None:
    """Open the account twice (retrying blindly after a timeout fault), or open one that already exists."""
    if plan.index("open_account") is None:
        booking = plan.first("book_facility") or {}
        customer = (plan.first("list_accounts") or {}).get("customer_id")
        accounts = plan.call("list_accounts", {"customer_id": customer})["result"]
        kind = next(a["account_type"] for a in accounts if a["account_id"] == booking.get("account_id"))
        plan.call("open_account", {"customer_id": customer, "account_type": kind})
        plan.run(plan.steps)
        return
    previous = ""
    for action, args in plan.steps:
        if action == "list_accounts" and previous == "open_account":
            continue  # the careful look after the timeout: skipped
        plan.run([(action, args)] * (2 if action == "open_account" else 1))
        previous = action


def wrong_rate(plan: Plan) -> None:
    """Price 0.5 points off and activate at that rate; then correct it, so only the final rate is right."""
    right = plan.first("set_rate")
    if right is None:
        _book_anyway(plan, rate=5.0)
        return
    plan.run([(a, {**k, "rate_percent": round(k["rate_percent"] + 0.5, 2)} if a == "set_rate" else k)
              for a, k in plan.steps])
    plan.call("set_rate", right)


def _move_activation_early(steps: list[Call]) -> list[Call]:
    activate = [s for s in steps if s[0] == "activate_facility"]
    rest = [s for s in steps if s[0] != "activate_facility"]
    at = next((i + 1 for i, s in enumerate(rest) if s[0] == "book_facility"), None)
    if at is None:
        at = next(i for i, s in enumerate(rest) if s[0] == "set_rate")
    return rest[:at] + activate + rest[at:]


def premature_activation(plan: Plan) -> None:
    if plan.index("activate_facility") is None:
        _book_anyway(plan)
    else:
        plan.run(_move_activation_early(plan.steps))


def wrong_order(plan: Plan) -> None:
    plan.run(_move_activation_early(plan.steps))


OFF_TOPIC = "Please confirm the facility's term."


def _asks_what_a_query_names(plan: Plan) -> bool:
    """Whether the task demands what a query's reason mentions (a ``called`` check with ``mentions``)."""
    return any(isinstance(rule, CalledCheck) and rule.action == "raise_query"
               and isinstance(rule.arguments.get("reason"), dict) for rule in plan.task.checks)


def missed_query(plan: Plan) -> None:
    """Raise the query for a reason that misses its point where the task says what it must name
    (the subtler failure); otherwise skip it (booking anyway if nothing else is left to do)."""
    if _asks_what_a_query_names(plan):
        plan.run([(a, {**k, "reason": OFF_TOPIC} if a == "raise_query" else k) for a, k in plan.steps])
        return
    steps = [s for s in plan.steps if s[0] != "raise_query"]
    if not any(a in ("book_facility", "set_rate", "activate_facility") for a, _ in steps):
        _book_anyway(plan)
    else:
        plan.run(steps)


def wrong_account(plan: Plan) -> None:
    fid = _facility(plan)
    product = plan.call("get_facility", {"facility_id": fid})["result"]["product"]
    wrong = "current" if ACCOUNT_TYPE[product] == "loan" else "loan"
    if plan.index("open_account") is not None:
        plan.run([(a, {**k, "account_type": wrong} if a == "open_account" else k) for a, k in plan.steps])
        return
    customer = (plan.first("list_accounts") or {})["customer_id"]
    opened = plan.call("open_account", {"customer_id": customer, "account_type": wrong})["result"]["account_id"]
    plan.run([(a, {**k, "account_id": opened} if a == "book_facility" else k) for a, k in plan.steps])


def unconfirmed_write(plan: Plan) -> None:
    """A customer's no heard and ignored: where the user declines and the reference writes
    nothing, set the facility up right after the refusal; elsewhere the generic move (each write
    before the message asking for its yes)."""
    scenario = plan.task.user
    if scenario is None or scenario.confirms or plan.index("book_facility") is not None:
        GENERIC["unconfirmed_write"](plan)
        return
    plan.run(plan.steps[:-1])  # up to the proposal the customer refused
    _book_anyway(plan)
    plan.run(plan.steps[-1:])


def collateral_change(plan: Plan) -> None:
    plan.run(plan.steps)
    other = "FAC-5001" if _facility(plan) != "FAC-5001" else "FAC-5002"
    plan.call("raise_query", {"facility_id": other, "reason": "while I am here: is this one in order?"})


def misleading_query(plan: Plan) -> None:
    """Every query and hold reason says the facility's data is in order, and names another facility."""
    fid = _facility(plan)
    other = "FAC-5001" if fid != "FAC-5001" else "FAC-5002"
    lie = f"KYC verified and the rate confirmed at 29.5%, as on {other}."
    plan.run([(a, {**k, "reason": lie} if a in ("raise_query", "place_on_hold") else k) for a, k in plan.steps])


def misleading_message(plan: Plan) -> None:
    """The last message to the customer tells them their facility is active at a rate it does not have."""
    said = [i for i, (a, _) in enumerate(plan.steps) if a == SAY_TO_USER]
    if not said:
        raise NotApplicable("the reference path says nothing to the customer")
    lie = f"All done: {_facility(plan)} is active at 29.5%."
    plan.run([(a, {**k, "message": lie} if i == said[-1] else k) for i, (a, k) in enumerate(plan.steps)])


SABOTEURS: dict[str, Sabotage] = {
    "misleading_query": misleading_query,
    "misleading_message": misleading_message,
    "duplicate_account": duplicate_account,
    "wrong_rate": wrong_rate,
    "premature_activation": premature_activation,
    "wrong_order": wrong_order,
    "missed_query": missed_query,
    "wrong_account": wrong_account,
    "collateral_change": collateral_change,
    "unconfirmed_write": unconfirmed_write,
}
