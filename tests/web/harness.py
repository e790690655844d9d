"""What the tests of examples/web share: the bridge as a process (started on a free port
with its own SQLite file), HTTP requests as a page makes them, an event-stream reader,
and the browser windows.

`needs_safe` marks the tests that need `arbiter --safe`; against a binary without it
they are skipped with a note, and NEEDS_SAFE names them.
"""

import http.client
import json
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "examples/web/serve.py"
ARBITER = os.environ.get("ARBITER_BIN") or shutil.which("arbiter")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or shutil.which("chromedriver", path="/usr/lib/chromium")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    webdriver = None


def arbiter_answers(*commands):
    """What arbiter itself answers, as JSON, to compare with what the bridge says."""
    args = [ARBITER, "--json"] + [arg for command in commands for arg in ("-c", command)]
    run = subprocess.run(args, capture_output=True, text=True, timeout=10)
    return [json.loads(line) for line in run.stdout.splitlines()]


def _has_safe():
    if not ARBITER:
        return False
    usage = subprocess.run([ARBITER, "--help"], capture_output=True, text=True, timeout=10)
    return "--safe" in usage.stdout


HAS_SAFE = _has_safe()
NEEDS_SAFE = set()


def needs_safe(test):
    """Marks a test that needs arbiter's safe mode."""
    NEEDS_SAFE.add(test.__name__)
    return unittest.skipUnless(HAS_SAFE, "needs arbiter --safe")(test)


def browser_missing():
    if webdriver is None:
        return "selenium is not importable (pip install selenium)"
    if not CHROMIUM or not CHROMEDRIVER:
        return "chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
    if not ARBITER:
        return "no arbiter binary (set ARBITER_BIN)"
    return None


def wait_until(condition, what, timeout=20, every=0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


class Bridge:
    """serve.py on a free port, with a database file of its own (kept across `restart`)."""

    def __init__(self, *args, db=None):
        self.args = list(args)
        self.dir = tempfile.mkdtemp(prefix="arbiter-web-")
        self.db = db or str(Path(self.dir) / "games.sqlite3")
        self.port = 0
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, str(SERVE), "--port", str(self.port), "--arbiter", ARBITER, "--db", self.db, *self.args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.process.stdout.readline()  # "serving http://127.0.0.1:PORT/ (arbiter pid N)"
        if not line.startswith("serving "):
            raise RuntimeError(f"serve.py did not start: {line}{self.process.stderr.read()}")
        self.url = line.split()[1].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])
        self.host = f"127.0.0.1:{self.port}"
        self.stderr = []
        self.drain = threading.Thread(target=self._drain, args=(self.process,), daemon=True)
        self.drain.start()

    def _drain(self, process):
        for line in process.stderr:
            self.stderr.append(line)

    def arbiter_pid(self):
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return int(children[0]) if children else None

    def waiting_input(self):
        """The bytes written to arbiter's stdin that it has not read yet."""
        import fcntl
        import termios
        with open(f"/proc/{self.arbiter_pid()}/fd/0", "rb", buffering=0) as pipe:
            count = bytearray(4)
            fcntl.ioctl(pipe, termios.FIONREAD, count)
            return int.from_bytes(count, sys.byteorder)

    def rss_kib(self):
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))

    def threads(self):
        return int(re.search(r"Threads:\s+(\d+)", Path(f"/proc/{self.process.pid}/status").read_text()).group(1))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        self.drain.join(timeout=5)
        self.process.stderr.close()

    def restart(self):
        """The bridge stopped and started again on the same port and database."""
        self.stop()
        self.start()

    def close(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- HTTP as a page makes it ----------------------------------------------------------

    def request(self, method, path, body=None, headers=None, raw=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
            sent = {"Host": self.host, "Origin": self.url}
            if data is not None:
                sent["Content-Type"] = "application/json"
            sent.update(headers or {})
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                if value is not None:
                    connection.putheader(name, value)
            if data is not None and "Content-Length" not in sent:
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data)
            response = connection.getresponse()
            text = response.read()
            try:
                payload = json.loads(text)
            except ValueError:
                payload = text.decode(errors="replace")
            return response.status, payload
        finally:
            connection.close()

    def create(self, **body):
        status, reply = self.request("POST", "/games", body)
        assert status == 201, (status, reply)
        reply["white_token"] = reply["white"].split("token=")[1]
        reply["black_token"] = reply["black"].split("token=")[1]
        return reply

    def act(self, game, token, action, version, arg=""):
        return self.request("POST", "/action", {"game": game, "token": token, "action": action, "arg": arg, "version": version})

    def events(self, game, token=""):
        return Events(self, game, token)


class Events:
    """One page's event stream, read on a thread: its events in a queue."""

    def __init__(self, bridge, game, token=""):
        self.sock = socket.create_connection(("127.0.0.1", bridge.port), timeout=30)
        query = f"game={game}" + (f"&token={token}" if token else "")
        self.sock.sendall(f"GET /events?{query} HTTP/1.1\r\nHost: {bridge.host}\r\n\r\n".encode())
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        while self.file.readline() not in (b"\r\n", b""):
            pass
        self.events = queue.Queue()
        self.closed = threading.Event()
        self.last = None  # the last update
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event, data = "message", []
        try:
            for raw in self.file:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if data:
                        self.events.put((event, json.loads("\n".join(data))))
                    event, data = "message", []
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
        except (OSError, ValueError):
            pass
        self.closed.set()

    def next(self, timeout=20):
        event, data = self.events.get(timeout=timeout)
        if event == "update":
            self.last = data
        return event, data

    def until(self, condition, what, timeout=20):
        """Reads events until an update meets the condition; answers it."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                event, data = self.next(max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"timed out waiting for {what}") from None
            if event == "update" and condition(data):
                return data

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # the reader's file holds the socket open
        except OSError:
            pass
        self.sock.close()


class Page:
    """One browser window on the board."""

    def __init__(self):
        self.downloads = tempfile.mkdtemp(prefix="arbiter-web-")
        options = Options()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=940,860",
                    "--hide-scrollbars", "--force-device-scale-factor=1"):
            options.add_argument(arg)
        options.add_experimental_option("prefs", {"download.default_directory": self.downloads})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})

    def open(self, bridge, link):
        self.driver.get(bridge.url + link)
        if "game=" in link:
            self.wait(lambda: self.fen() is not None, "the board to show the game")

    def quit(self):
        self.driver.quit()
        shutil.rmtree(self.downloads, ignore_errors=True)

    def wait(self, condition, what, timeout=20):
        WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition(), f"waiting for {what}")

    def element(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def square(self, name):
        return self.element(f'[data-square="{name}"]')

    def text(self, element_id):
        return self.element(f"#{element_id}").text

    def fen(self):
        return self.element("#board").get_attribute("data-fen")

    def version(self):
        return self.element("#board").get_attribute("data-version")

    def sans(self):
        return self.driver.execute_script("return [...document.querySelectorAll('#moves .san')].map(el => el.textContent)")

    def rows(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#moves li')].map(li => [...li.children].map(el => el.textContent).join(' '))"
        )

    def classes(self, square):
        return self.square(square).get_attribute("class").split()

    def corner(self):
        return self.element("#board > :first-child").get_attribute("data-square")

    def piece(self, square):
        found = self.driver.execute_script(
            "const p = document.querySelector(`[data-square=${arguments[0]}] .piece`);"
            "return p && [p.classList[1], p.textContent]",
            square,
        )
        return tuple(found) if found else None

    def drawing(self):
        """Everything the board draws, square by square, for "nothing changed"."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('[data-square]')]"
            ".map(el => `${el.dataset.square} ${el.className} ${el.textContent}`).sort()"
        ) + [self.text("banner"), ",".join(self.sans())]

    def click(self, square):
        self.square(square).click()

    def move(self, origin, target):
        self.click(origin)
        self.click(target)

    def drag(self, origin, target):
        chain = ActionChains(self.driver).click_and_hold(self.square(origin))
        chain.move_to_element(self.square(target)).release().perform()

    def press(self, button_id):
        self.element(f"#{button_id}").click()

    def enabled(self, button_id):
        return self.element(f"#{button_id}").is_enabled()

    def service(self):
        banner = self.element("#service")
        return banner.text if banner.is_displayed() else ""


def run(module_name):
    """unittest.main for a test file, then the list of tests that need --safe."""
    result = unittest.main(module=module_name, exit=False).result
    if NEEDS_SAFE and not HAS_SAFE:
        print(f"skipped until arbiter has --safe: {', '.join(sorted(NEEDS_SAFE))}", file=sys.stderr)
    return result.wasSuccessful()
