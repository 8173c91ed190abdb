"""Headless Chromium driven over the DevTools protocol (websocket-client): open a page, collect
console errors and exceptions, check every image, move and click the mouse, run a script, take a
screenshot."""
from __future__ import annotations

import base64
import json
import subprocess
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import websocket

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--remote-debugging-port=0", "--window-size=1280,1600"]

IMAGES_JS = ("JSON.stringify(Array.from(document.images).map(i => "
             "({src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth})))")


class Page:
    def __init__(self, ws):
        self.ws, self.next_id, self.events = ws, 0, []

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, event: str, timeout: float = 30.0) -> dict:
        end = time.time() + timeout
        while time.time() < end:
            for e in self.events:
                if e.get("method") == event:
                    return e
            self.ws.settimeout(max(0.1, end - time.time()))
            try:
                self.events.append(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                break
        raise TimeoutError(f"no {event} within {timeout} s")


class Browser(Page):
    """A page in a running headless Chromium, with what a test does to it."""

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired", timeout=60)

    def mouse(self, kind: str, x: float, y: float) -> None:
        """A real mouse event at page coordinates (kind: mouseMoved, mousePressed, mouseReleased)."""
        extra = {"button": "left", "clickCount": 1} if kind != "mouseMoved" else {}
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)

    def click(self, x: float, y: float) -> None:
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y)
        self.mouse("mouseReleased", x, y)

    def errors(self) -> list[dict]:
        return [e for e in self.events if e.get("method") == "Runtime.exceptionThrown"
                or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
                or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]

    def screenshot(self, path: Path, max_height: int = 16000) -> None:
        metrics = self.call("Page.getLayoutMetrics")["cssContentSize"]
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": metrics["width"],
                               "height": min(metrics["height"], max_height), "scale": 1})
        path.write_bytes(base64.b64decode(shot["data"]))


@contextmanager
def browser(chromium: Path, window: str = "1280,1600"):
    """A headless Chromium with one page (Browser), closed on leaving."""
    with tempfile.TemporaryDirectory() as profile:
        flags = [f for f in FLAGS if not f.startswith("--window-size")] + [f"--window-size={window}"]
        proc = subprocess.Popen([str(chromium), *flags, f"--user-data-dir={profile}", "about:blank"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            end = time.time() + 60
            while not (port_file.exists() and port_file.read_text().strip()) and time.time() < end:
                time.sleep(0.1)
            port = int(port_file.read_text().splitlines()[0])
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
            target = next(t for t in targets if t["type"] == "page")
            ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
            try:
                page = Browser(ws)
                for domain in ("Page", "Runtime", "Log"):
                    page.call(f"{domain}.enable")
                yield page
            finally:
                ws.close()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def inspect_page(chromium: Path, html: Path, screenshot: Path) -> dict:
    """Load `html`; return its console errors, its images (src, complete, natural width) and
    write a full-page PNG screenshot."""
    with browser(chromium) as page:
        page.open(html.resolve().as_uri())
        images = json.loads(page.evaluate(IMAGES_JS))
        page.screenshot(screenshot)
        return {"errors": page.errors(), "images": images, "title": page.evaluate("document.title")}
