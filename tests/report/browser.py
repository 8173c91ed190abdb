"""Headless Chromium driven over the DevTools protocol (websocket-client): open a page, collect
console errors and exceptions, check every image, take a screenshot."""
from __future__ import annotations

import base64
import json
import subprocess
import tempfile
import time
import urllib.request
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


def inspect_page(chromium: Path, html: Path, screenshot: Path) -> dict:
    """Load `html`; return its console errors, its images (src, complete, natural width) and
    write a full-page PNG screenshot."""
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.Popen([str(chromium), *FLAGS, f"--user-data-dir={profile}", "about:blank"],
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
                page = Page(ws)
                for domain in ("Page", "Runtime", "Log"):
                    page.call(f"{domain}.enable")
                page.call("Page.navigate", url=html.resolve().as_uri())
                page.wait_for("Page.loadEventFired", timeout=60)
                images = json.loads(page.call("Runtime.evaluate", expression=IMAGES_JS,
                                              returnByValue=True)["result"]["value"])
                metrics = page.call("Page.getLayoutMetrics")["cssContentSize"]
                shot = page.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                                 clip={"x": 0, "y": 0, "width": metrics["width"],
                                       "height": min(metrics["height"], 16000), "scale": 1})
                screenshot.write_bytes(base64.b64decode(shot["data"]))
                errors = [e for e in page.events if e.get("method") == "Runtime.exceptionThrown"
                          or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
                          or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
                title = page.call("Runtime.evaluate", expression="document.title", returnByValue=True)["result"]["value"]
            finally:
                ws.close()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return {"errors": errors, "images": images, "title": title}
