"""A small shop in the style of outcome-graded benchmarks: a fixed data set read from a file,
writes that may repeat or be overwritten, a list argument, a policy for the agent."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from pytest_agenteval.engine import action
from pytest_agenteval.environments import Environment
from pytest_agenteval.errors import ActionError

DATA = Path(__file__).parent / "data" / "shop_orders.json"
SCHEMA = """
CREATE TABLE orders (
    id      TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    status  TEXT NOT NULL,
    address TEXT NOT NULL,
    items   TEXT NOT NULL
);
"""
OrderId = Annotated[str, Field(description="Order id, e.g. O-1", max_length=20)]


class Shop(Environment):
    name = "shop"
    schema = SCHEMA
    fixed_scenario = True
    data_files = ("data/shop_orders.json",)
    policy = "Change an order only when its owner asks. Never cancel a delivered order."
    system_prompt = "You are the shop's support agent."
    unscoped_look_ups = frozenset({"list_statuses"})
    conformance_probe = [("set_address", {"order_id": "O-1", "address": "1 New Street"})]

    def seed_rows(self, rng: random.Random, scenario_seed: int) -> Mapping[str, Iterable[Sequence[Any]]]:
        rows = json.loads(DATA.read_text())
        return {"orders": [(r["id"], r["user_id"], r["status"], r["address"], json.dumps(r["items"]))
                           for r in rows]}

    def look_up_arguments(self, action: str, task: Any) -> list[dict[str, Any]] | None:
        if action == "find_user_orders":  # its argument is a user, not a table's id
            return [{"user": "U-2"}, {"user": "U-3"}]
        return None

    def _order(self, order_id: str) -> dict[str, Any]:
        return self.require("orders", order_id)

    @action(writes=False)
    def get_order(self, order_id: OrderId) -> dict[str, Any]:
        """Look up one order."""
        return self._order(order_id)

    @action(writes=False)
    def find_user_orders(self, user: Annotated[str, Field(description="User id", max_length=20)]) -> list[str]:
        """The ids of a user's orders."""
        return [r[0] for r in self.db.execute("SELECT id FROM orders WHERE user_id = ? ORDER BY id", (user,))]

    @action(writes=False)
    def list_statuses(self) -> list[str]:
        """The order statuses there are."""
        return ["pending", "delivered", "cancelled", "exchanged"]

    @action
    def set_address(self, order_id: OrderId,
                    address: Annotated[str, Field(description="The new address", max_length=80)]) -> dict[str, Any]:
        """Set a pending order's delivery address."""
        if self._order(order_id)["status"] != "pending":
            raise ActionError("not_pending", f"order {order_id} is not pending")
        self.db.execute("UPDATE orders SET address = ? WHERE id = ?", (address, order_id))
        return {"order_id": order_id, "address": address}

    @action
    def exchange_items(self, order_id: OrderId,
                       item_ids: Annotated[list[str], Field(description="Items to exchange", min_length=1)]
                       ) -> dict[str, Any]:
        """Exchange some items of a delivered order."""
        order = self._order(order_id)
        if order["status"] not in ("delivered", "exchanged"):
            raise ActionError("not_delivered", f"order {order_id} is not delivered")
        if not set(item_ids) <= set(json.loads(order["items"])):
            raise ActionError("no_such_item", f"order {order_id} has no item among {item_ids}")
        self.db.execute("UPDATE orders SET status = 'exchanged' WHERE id = ?", (order_id,))
        return {"order_id": order_id, "exchanged": sorted(item_ids)}

    @action
    def cancel_order(self, order_id: OrderId) -> dict[str, Any]:
        """Cancel a pending order."""
        if self._order(order_id)["status"] != "pending":
            raise ActionError("not_pending", f"order {order_id} is not pending")
        self.db.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (order_id,))
        return {"order_id": order_id, "status": "cancelled"}


@contextmanager
def opened(cls: type[Shop] = Shop, **kwargs: Any) -> Iterator[Shop]:
    """A shop, closed after use (``with Shop()`` types the world as ``World``)."""
    env = cls(**kwargs)
    try:
        yield env
    finally:
        env.close()
