"""Tiny OpenAI-compatible servers on 127.0.0.1: one replays scripted tool calls, one judges.

They let the real ``openai`` SDK, real HTTP and the real tool-result round trip run in CI
without the internet. ``ScriptedOpenAI``: each scripted turn is one tool call; after the
script, it says "Done.". ``FakeJudge``: answers a judge's request with what ``decide`` says of
the text between the judge prompt's markers.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ScriptedOpenAI:
    def __init__(self, scripts: dict[str, list[tuple[str, str]]]) -> None:
        """``scripts``: instruction -> [(tool name, raw JSON arguments), ...]."""
        self.scripts = scripts
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                reply = json.dumps(server.reply(body)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        instruction = next(m["content"] for m in body["messages"] if m["role"] == "user")
        done = sum(1 for m in body["messages"] if m["role"] == "tool")
        script = self.scripts.get(instruction, [])
        if done < len(script):
            name, arguments = script[done]
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{done}", "type": "function", "function": {"name": name, "arguments": arguments}}]}
            finish = "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": "Done."}, "stop"
        return {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


class FakeJudge(ScriptedOpenAI):
    """``decide(text, request body)`` returns the answer's content (a JSON verdict, or anything,
    to test malformed answers)."""

    def __init__(self, decide: Callable[[str, dict[str, Any]], str]) -> None:
        super().__init__({})
        self.decide = decide

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        text = fenced(prompt)
        message = {"role": "assistant", "content": self.decide(text, body)}
        return {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def fenced(prompt: str) -> str:
    """The text between a judge prompt's markers, read as a model that respects the fence would:
    the opening marker's line names the fence, and the first closing marker of that name ends it."""
    head, _, rest = prompt.partition("\n<<<")
    name, _, rest = rest.partition("\n")
    return rest.split(f"\n{name}>>>", 1)[0]
