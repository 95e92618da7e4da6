"""Booking's constant policies: what an agent that reads nothing but the instruction might do.

``agenteval validate`` runs each on every booking task; a task one of them passes is guessable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_agenteval.domains.booking.traps import FACILITY

if TYPE_CHECKING:
    from pytest_agenteval.agents import Episode


def _facility(episode: Episode) -> str | None:
    named = FACILITY.search(episode.instruction)
    return named.group() if named else None


class AlwaysQuery:
    """Raise one query on the named facility, asking about everything a query is ever about."""

    def run(self, episode: Episode) -> None:
        if fid := _facility(episode):
            episode.call("raise_query", {"facility_id": fid, "reason": "Please check KYC and the rate."})


class AlwaysHold:
    """Put the named facility on hold."""

    def run(self, episode: Episode) -> None:
        if fid := _facility(episode):
            episode.call("place_on_hold", {"facility_id": fid, "reason": "On hold until KYC and pricing are checked."})


class AlwaysActivate:
    """Activate the named facility as it stands (right for a facility already booked and priced)."""

    def run(self, episode: Episode) -> None:
        if fid := _facility(episode):
            episode.call("activate_facility", {"facility_id": fid})


BASELINES = {"always query": AlwaysQuery, "always hold": AlwaysHold, "always activate": AlwaysActivate}
