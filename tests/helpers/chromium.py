"""The system's headless Chromium driven over the DevTools protocol: no driver binary, no download.

Selenium was used before; it pulls in trio, whose hypothesis plugin warns in every pytest run of
a venv that also has hypothesis (the test extras leaked that warning into evaluation runs).
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

_STARTUP_SECONDS = 30.0


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Chromium:
    """One headless page. ``problems`` collects console errors/warnings and uncaught exceptions."""

    def __init__(self, width: int = 1280, height: int = 1000) -> None:
        binary = chromium_path()
        if binary is None:
            raise RuntimeError("no chromium: apt-get install chromium")
        # Chromium's helper processes may still write to the profile as it is removed: ignore that.
        self._profile = tempfile.TemporaryDirectory(prefix="agenteval-chromium-", ignore_cleanup_errors=True)
        self._process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", f"--window-size={width},{height}", "--remote-debugging-port=0",
             f"--user-data-dir={self._profile.name}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # a group to end
        self._ids = itertools.count(1)
        self.problems: list[str] = []
        self._loaded = False
        try:
            # (entered as a context manager: websockets 17 warns about a bare connect(); closed in close())
            self._socket = connect(self._page_socket(Path(self._profile.name)), max_size=None).__enter__()
            for domain in ("Page", "Runtime", "Log"):
                self.send(f"{domain}.enable")
        except BaseException:
            self.close()
            raise

    def _page_socket(self, profile: Path) -> str:
        deadline = time.monotonic() + _STARTUP_SECONDS
        port_file = profile / "DevToolsActivePort"
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"chromium exited with {self._process.returncode}")
            if port_file.exists() and port_file.read_text().count("\n") >= 1:
                port = port_file.read_text().split("\n")[0]
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as answer:
                    pages = [t for t in json.load(answer) if t["type"] == "page"]
                if pages:
                    return str(pages[0]["webSocketDebuggerUrl"])
            time.sleep(0.05)
        raise RuntimeError(f"chromium did not open its DevTools port in {_STARTUP_SECONDS:.0f} s")

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """One command; events that arrive before its answer are recorded."""
        ident = next(self._ids)
        self._socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self._socket.recv(timeout=_STARTUP_SECONDS))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self._event(message)

    def _event(self, message: dict[str, Any]) -> None:
        method, params = message.get("method"), message.get("params", {})
        if method == "Page.loadEventFired":
            self._loaded = True
        elif method == "Runtime.exceptionThrown":
            self.problems.append(f"exception: {params['exceptionDetails'].get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            self.problems.append(f"console.{params['type']}: {params.get('args')}")
        elif method == "Log.entryAdded" and params["entry"].get("level") in ("error", "warning"):
            self.problems.append(f"log: {params['entry'].get('text')}")

    def get(self, url: str) -> None:
        self._loaded = False
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + _STARTUP_SECONDS
        while not self._loaded:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not load in {_STARTUP_SECONDS:.0f} s")
            self._event(json.loads(self._socket.recv(timeout=_STARTUP_SECONDS)))

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression (awaited if it is a promise)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, seconds: float = 10.0) -> Any:
        """The expression's value once it is truthy (event handlers such as hashchange run later)."""
        deadline = time.monotonic() + seconds
        while not (value := self.js(expression)):
            if time.monotonic() > deadline:
                raise AssertionError(f"{expression} still {value!r} after {seconds:.0f} s")
            time.sleep(0.02)
        return value

    def click(self, selector: str) -> None:
        """A real mouse click (press and release) at the middle of the element."""
        box = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                      " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                      " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def screenshot(self, path: str | os.PathLike[str]) -> None:
        Path(path).write_bytes(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

    def close(self) -> None:
        socket = getattr(self, "_socket", None)
        if socket is not None:
            socket.close()
        with contextlib.suppress(ProcessLookupError):  # the browser and every helper it started
            os.killpg(self._process.pid, signal.SIGKILL)  # (they write to the profile until they end)
        self._process.wait()
        self._profile.cleanup()
