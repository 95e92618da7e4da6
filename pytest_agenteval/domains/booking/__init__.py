"""Loan-facility booking: accounts, facilities, rates, booking events, injected faults."""

from pytest_agenteval.domains.booking.environment import BookingEnvironment

__all__ = ["BookingEnvironment"]
