"""MCP-client agents under pytest: each episode served by its own in-memory MCP server.

    class MyAgent(pytest_agenteval.adapters.mcp.Agent):
        async def run_mcp(self, client, episode):
            tools = (await client.list_tools()).tools        # the task's tools, with readOnlyHint
            result = await client.call_tool("get_facility", {"facility_id": "FAC-6102"})

    pytest --agent=mymod:MyAgent tasks/ --runs 5 -n 4

``client`` is the official SDK's ``mcp.Client``, connected in process to the same server
``agenteval mcp`` serves on stdio (same tools, same ``isError`` policy: see
``agents/mcp_server.py``), so ``--runs``, ``-n``, the table and the results file work as for any
agent. ``client.instructions`` is the task's instruction. ``episode`` is there for
``record_usage``, ``attach_transcript``, ``max_steps`` and ``seed``; act through the client.
When the step budget is used up, that call returns ``isError`` and the next one raises
``EpisodeOver``: the session has ended.
Needs ``pip install "pytest-agenteval[mcp]"``.
"""

from __future__ import annotations

from typing import Any

from pytest_agenteval.errors import EpisodeOver

__all__ = ["Agent", "server"]


def server(episode: Any, *, on_over: Any = None) -> Any:
    """The episode's MCP server (low-level SDK ``Server``), to connect any in-process client to."""
    from pytest_agenteval.agents.mcp_server import build_server

    return build_server(episode, on_over=on_over)


class Agent:
    """Base class of an MCP-client agent: implement ``async def run_mcp(self, client, episode)``."""

    async def run_mcp(self, client: Any, episode: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement async def run_mcp(self, client, episode)")

    async def run(self, episode: Any) -> None:
        from mcp import Client

        over: list[bool] = []
        try:
            async with Client(server(episode, on_over=lambda: over.append(True))) as client:
                await self.run_mcp(_Ending(client, over, episode), episode)
        except BaseException as exc:  # noqa: BLE001 - the agent's own error, without the SDK's task-group wrapping
            leaf = exc
            while len(getattr(leaf, "exceptions", ())) == 1:
                leaf = leaf.exceptions[0]  # type: ignore[attr-defined]
            if leaf is exc:
                raise
            raise leaf from None
        if over:
            raise EpisodeOver(f"the step budget of {episode.max_steps} is used up")


class _Ending:
    """The client, except that once a call has found the episode over, the next one raises
    ``EpisodeOver``: the session has ended, and an agent that ignores ``isError`` stops there."""

    def __init__(self, client: Any, over: list[bool], episode: Any) -> None:
        self._client, self._over, self._episode = client, over, episode

    async def call_tool(self, *args: Any, **kwargs: Any) -> Any:
        if self._over:
            raise EpisodeOver(f"the session has ended: the step budget of {self._episode.max_steps} is used up")
        return await self._client.call_tool(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)
