"""A tiny Messages-API server on 127.0.0.1 that replays scripted ``tool_use`` turns.

It lets the real ``anthropic`` SDK, real HTTP and the real ``tool_result`` round trip run in CI
without the internet. A script maps the instruction to its turns; each turn is a list of
(tool name, input) calls sent as parallel ``tool_use`` blocks. After the script it says "Done.".
A script may also be a function of the turn number returning a turn (or None to finish).
``statuses``: HTTP error statuses (429, 503, 401...) answered first, one per request, before
the script's replies (the provider failing; see tests/test_provider_errors.py).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Turn = list[tuple[str, Any]]
Script = list[Turn] | Callable[[int], Turn | None]
OUTPUT_TOKENS = 7


class ScriptedAnthropic:
    def __init__(self, scripts: dict[str, Script], statuses: list[int] | None = None) -> None:
        self.scripts = scripts
        self.statuses = list(statuses or [])
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                assert self.path.endswith("/v1/messages"), self.path
                server.requests.append(body)
                status = server.statuses.pop(0) if server.statuses else 200
                error = {"type": "error", "error": {"type": "api_error", "message": f"scripted {status}"}}
                reply = json.dumps(server.reply(body) if status == 200 else error).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedAnthropic:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @staticmethod
    def input_tokens(body: dict[str, Any]) -> int:
        """What the fake bills for a request: deterministic, so tests can check the sum."""
        return len(json.dumps(body["messages"])) // 4

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        instruction = body["messages"][0]["content"]
        done = sum(1 for m in body["messages"] if m["role"] == "user" and isinstance(m["content"], list)
                   and any(b.get("type") == "tool_result" for b in m["content"]))
        script = self.scripts.get(instruction, [])
        turn = script(done) if callable(script) else (script[done] if done < len(script) else None)
        if turn:
            content = [{"type": "tool_use", "id": f"toolu_{done}_{i}", "name": name, "input": arguments}
                       for i, (name, arguments) in enumerate(turn)]
            stop = "tool_use"
        else:
            content, stop = [{"type": "text", "text": "Done."}], "end_turn"
        return {"id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant", "model": body["model"],
                "content": content, "stop_reason": stop, "stop_sequence": None,
                "usage": {"input_tokens": self.input_tokens(body), "output_tokens": OUTPUT_TOKENS}}
