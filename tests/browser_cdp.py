"""A headless Chromium driven over the DevTools protocol (aiohttp's websocket client).

Used by the slow-tier HTML-report test and to screenshot ``inspect view``: open a URL, wait
until a JavaScript condition holds (single-page apps render after load), collect uncaught
script errors and console errors, evaluate expressions and save a PNG screenshot.

    python tests/browser_cdp.py URL OUT.png [--wait JS] [--click TEXT]... [--width W --height H]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def chromium_path() -> str | None:
    """The first Chromium-family browser on PATH, or None."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Page:
    """One browser tab: ``evaluate``, ``wait_for``, ``screenshot``; errors seen so far."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.errors: list[str] = []
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if "id" in data and data["id"] in self.pending:
                self.pending.pop(data["id"]).set_result(data)
            elif data.get("method") == "Runtime.exceptionThrown":
                details = data["params"]["exceptionDetails"]
                text = details.get("exception", {}).get("description") or details.get("text")
                self.errors.append(f"exception: {text}")
            elif data.get("method") == "Log.entryAdded":
                entry = data["params"]["entry"]
                if entry.get("level") == "error":
                    self.errors.append(f"log: {entry.get('text')} {entry.get('url', '')}")

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result (raises on a protocol error)."""
        self.next_id += 1
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = fut
        await self.ws.send_str(json.dumps({"id": self.next_id, "method": method, "params": params}))
        data = await asyncio.wait_for(fut, 60)
        if "error" in data:
            raise RuntimeError(f"{method}: {data['error']}")
        return dict(data.get("result", {}))

    async def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression (awaited when it is a promise)."""
        res = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        return res.get("result", {}).get("value")

    async def wait_for(self, expression: str, timeout: float = 30.0) -> bool:
        """Poll until ``expression`` is truthy; False after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if await self.evaluate(expression):
                    return True
            except RuntimeError:
                pass
            await asyncio.sleep(0.25)
        return False

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", url=url)

    async def screenshot(self, path: Path, full_page: bool = False) -> None:
        """Write a PNG of the viewport (or the whole page) to ``path``."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = await self.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
            )
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
            params["captureBeyondViewport"] = True
        res = await self.send("Page.captureScreenshot", **params)
        path.write_bytes(base64.b64decode(res["data"]))


class Browser:
    """``async with Browser() as b: page = await b.page(url)`` — a headless Chromium process."""

    def __init__(self, width: int = 1400, height: int = 900) -> None:
        self.width, self.height = width, height
        self.proc: subprocess.Popen[bytes] | None = None
        # Chromium's helper processes (crashpad, renderers) can still write to the profile for a
        # moment after the browser exits: a profile left half-removed must not fail the test
        self.profile = tempfile.TemporaryDirectory(prefix="cdp-", ignore_cleanup_errors=True)
        self.session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Browser:
        exe = chromium_path()
        if exe is None:
            raise RuntimeError("no chromium on PATH")
        self.proc = subprocess.Popen(
            [
                exe,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile.name}",
                f"--window-size={self.width},{self.height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = Path(self.profile.name) / "DevToolsActivePort"
        for _ in range(200):
            if port_file.exists() and port_file.read_text().strip():
                break
            await asyncio.sleep(0.1)
        self.port = int(port_file.read_text().split()[0])
        self.session = aiohttp.ClientSession()
        return self

    async def page(self, url: str) -> Page:
        """A new tab with script-error collection on, navigated to ``url``."""
        assert self.session is not None
        async with self.session.put(f"http://127.0.0.1:{self.port}/json/new?about:blank") as r:
            target = await r.json()
        ws = await self.session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        page = Page(ws)
        for domain in ("Page", "Runtime", "Log"):
            await page.send(f"{domain}.enable")
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            width=self.width,
            height=self.height,
            deviceScaleFactor=1,
            mobile=False,
        )
        await page.goto(url)
        return page

    async def __aexit__(self, *exc: object) -> None:
        if self.session is not None:
            await self.session.close()
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.profile.cleanup()


CLICK_JS = """
(() => {
  const want = %s;
  const els = [...document.querySelectorAll('a,button,[role=tab],[role=button],div,span,td')];
  const hit = els.filter(e => e.childElementCount === 0 && e.textContent.trim() === want)[0]
    || els.filter(e => e.textContent.trim().startsWith(want)).pop();
  if (!hit) return false;
  hit.scrollIntoView(); hit.click(); return true;
})()
"""


async def _main(args: argparse.Namespace) -> None:
    async with Browser(args.width, args.height) as browser:
        page = await browser.page(args.url)
        ok = await page.wait_for(args.wait, 40)
        await asyncio.sleep(args.settle)
        for text in args.click or []:
            clicked = await page.evaluate(CLICK_JS % json.dumps(text))
            print(f"click {text!r}: {clicked}")
            await asyncio.sleep(args.settle)
        await page.screenshot(Path(args.out), full_page=args.full)
        print(f"wait ok={ok}; errors={page.errors}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("out")
    parser.add_argument("--wait", default="document.readyState === 'complete'")
    parser.add_argument("--click", action="append")
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--full", action="store_true")
    asyncio.run(_main(parser.parse_args()))
