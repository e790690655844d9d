#!/usr/bin/env python3
"""A web board for arbiter, as a small service: one `arbiter --json --safe` process
behind an HTTP server of Python's standard library, its games kept in SQLite.

    python3 examples/web/serve.py [--port 8080] [--arbiter PATH] [--db arbiter-web.sqlite3]

then open http://127.0.0.1:8080/ and press "new game": the page shows three links,
white's and black's (each with its own secret token) and the watchers'.

The bridge knows the protocol's framing and nothing of chess. A page's action becomes
one arbiter command with `game <name>`, the seat its token stands for and `if
<version>` (the version the page showed), written together with `state`, whose answer
is stored in SQLite and pushed to every page of the game by Server-Sent Events in the
order arbiter gave it. What is legal, whose turn it is and whether a page acted on the
current position are arbiter's to say. The clocks are the bridge's: wall time is policy,
not rules; when a flag falls the bridge tells arbiter `timeout <colour>`.

Everything a client can make the bridge hold is bounded: request bodies, their read
time, event streams per game and in all, the updates queued for a slow page, games
created per minute by one client, and games open in arbiter (the least recently used
idle one is closed there, kept in SQLite and restored on its next visit). Arbiter
killed, or stopped past --restart-after, is started again and every open game restored.
"""

import argparse
import itertools
import json
import re
import secrets
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

HERE = Path(__file__).resolve().parent
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/board.css": ("board.css", "text/css; charset=utf-8"),
}
SEATS = ("white", "black")
BODY_LIMIT = 4096  # bytes of a request body
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
MOVE = re.compile(r"[A-Za-z0-9=+#@-]{1,10}")
FEN = re.compile(r"[A-Za-z0-9/ -]{1,100}")
TIME_CONTROL = re.compile(r"(\d{1,3}(?:\.\d{1,2})?)(s?)\+(\d{1,3})")
QUEUE_LIMIT = 16  # updates waiting for one page before it is disconnected
STREAM_BUFFER = 64 * 1024  # bytes of a page's stream the kernel may hold


class Protocol:
    """Every line serve.py writes to arbiter, and how it reads the answers: the one place
    that knows arbiter's commands.

    A game's snapshot is arbiter's `state` object, and a game comes back with `restore`
    of it; takebacks, flag falls and aborts are arbiter's commands, and every silent
    command with an id answers `ok`.
    """

    def __init__(self, path):
        self.path = path
        self.opening = False
        self.safe = "--safe" in subprocess.run([path, "--help"], capture_output=True, text=True).stdout

    def argv(self):
        return [self.path, "--json"] + (["--safe"] if self.safe else [])

    @staticmethod
    def line(rid, game, command):
        prefix = f"game {game} " if game else ""
        return f"@{rid} {prefix}{command}\n"

    @staticmethod
    def prepare(max_games):
        """Lines for the default game, written once at each start: `state` (arbiter
        answers), a probe for `opening` whose answer sets the flag, MaxGames, and a
        query after them."""
        return ["state", "opening", f"setoption name MaxGames value {max_games}", "isready"]

    def prepared(self, answers):
        opening = answers[1]
        self.opening = error_code(opening) != "unknown-command"

    def snapshot(self):
        """The queries whose answers make one update of a page."""
        return ["state"] + (["opening"] if self.opening else [])

    def read_snapshot(self, answers):
        """The state object and the opening, from the answers to `snapshot()`; None for
        the state when one of them is an error."""
        opening = None
        if self.opening:
            answers, last = answers[:-1], answers[-1]
            opening = read_opening(last)
        if any(answer is None or "error" in answer for answer in answers):
            return None, opening
        [state] = answers
        return {k: v for k, v in state.items() if k not in ("answer", "id", "game")}, opening

    def create(self, fen):
        return f"position fen {fen}" if fen else "position startpos"

    def restore(self, state):
        return "restore " + json.dumps(state, separators=(",", ":"), ensure_ascii=True)

    @staticmethod
    def action(action, seat, arg):
        """The command for a player's action, or None for an action that does not exist."""
        return {
            "move": f"move {arg} as {seat}",
            "resign": f"resign {seat}",
            "offer-draw": f"draw offer {seat}",
            "accept-draw": f"draw accept {seat}",
            "decline-draw": f"draw decline {seat}",
            "claim": "claim",
            "offer-takeback": f"takeback offer {seat}",
            "accept-takeback": f"takeback accept {seat}",
            "decline-takeback": f"takeback decline {seat}",
            "abort": "abort",
        }.get(action)

    @staticmethod
    def guarded(version, command):
        return f"if {version} {command}"

    @staticmethod
    def timeout(colour):
        return f"timeout {colour}"

    @staticmethod
    def close():
        """Closing a game, and a query after it (`close` answers only with an id)."""
        return ["close", "version"]

    @staticmethod
    def pgn():
        return "pgn"

    @staticmethod
    def pgn_text(answer):
        return answer.get("pgn") if answer else None


def error_code(answer):
    return ((answer or {}).get("error") or {}).get("code")


def read_opening(answer):
    """`opening <ECO> <name>` as JSON ({eco, name}), or None for `opening none`, an
    error or an answer of another shape."""
    if not answer or "error" in answer:
        return None
    eco, name = answer.get("eco"), answer.get("name")
    if isinstance(eco, str) and isinstance(name, str):
        return f"{eco} {name}"
    return None


class ArbiterGone(Exception):
    """Arbiter has exited, is being restarted, or has not answered in time."""


class Batch:
    """Lines written to arbiter at once, for one game; done when the last is answered
    (answers come in the order of the lines)."""

    def __init__(self, game, ids, kind):
        self.game = game
        self.ids = ids
        self.kind = kind  # "change": the first line is an action, the rest the snapshot
        self.answers = {}
        self.done = threading.Event()
        self.sent = time.monotonic()


class Page:
    """One open event stream: the updates waiting for it, bounded."""

    def __init__(self, game, seat):
        self.game = game
        self.seat = seat
        self.items = deque()
        self.overflowed = False
        self.ready = threading.Condition()

    def put(self, event, data):
        """Queues an event; `data` is its JSON text (made once for every page)."""
        with self.ready:
            if len(self.items) >= QUEUE_LIMIT:
                self.overflowed = True  # the page reconnects and gets a whole snapshot
            else:
                self.items.append((event, data))
            self.ready.notify()

    def take(self, timeout):
        with self.ready:
            if not self.items and not self.overflowed:
                self.ready.wait(timeout)
            if self.overflowed:
                return "overflow", None
            return self.items.popleft() if self.items else (None, None)


class Game:
    """What the bridge holds of one game besides arbiter's: seats, clocks, pages."""

    def __init__(self, name, white, black, control, state=None, clock=None, last_activity=None):
        self.name = name
        self.white = white
        self.black = black
        self.control = control  # [base seconds, increment seconds] or None
        self.state = state
        self.opening = None
        base = control[0] if control else None
        self.clock = clock or {"white": base, "black": base, "running": None}
        self.since = time.monotonic()
        self.open = False  # open in the running arbiter
        self.pages = set()
        self.last_activity = last_activity or time.time()
        self.flagged = None  # the version a timeout was sent at
        self.lock = threading.Lock()  # opening it in arbiter

    def seat_of(self, token):
        if isinstance(token, str) and token:
            for seat, secret in (("white", self.white), ("black", self.black)):
                if secrets.compare_digest(token.encode(), secret.encode()):
                    return seat
        return None

    def clocks(self):
        """The clocks as a page shows them: seconds left now, and the side whose ticks."""
        if not self.control:
            return None
        left = dict(self.clock)
        running = left["running"]
        if running:
            left[running] = max(0.0, left[running] - (time.monotonic() - self.since))
        return {"white": left["white"], "black": left["black"], "running": running, "control": control_text(self.control)}

    def advance_clock(self, state):
        """Charges the time since the last change to the side whose clock ran, adds the
        increment for a move, and starts the clock of the side to move (none before the
        first move nor after the result)."""
        if not self.control:
            return
        now = time.monotonic()
        running = self.clock["running"]
        before = len(self.state["moves"]) if self.state else 0
        if running:
            self.clock[running] -= now - self.since
            if state["turn"] != running and len(state["moves"]) > before:
                self.clock[running] += self.control[1]
        over = state["status"].get("state") not in ("active", "check")
        self.clock["running"] = None if over or not state["moves"] else state["turn"]
        self.since = now

    def stored_clock(self):
        clock = dict(self.clock)
        running = clock["running"]
        if running:
            clock[running] -= time.monotonic() - self.since
        return clock

    def update(self):
        return {"game": self.name, "state": self.state, "clocks": self.clocks(), "opening": self.opening}


def control_text(control):
    base, increment = control
    return f"{base:g}s+{increment:g}" if base < 60 or base % 60 else f"{base / 60:g}+{increment:g}"


def parse_control(text):
    """`5+3` (minutes and seconds of increment) or `10s+0` (seconds): [base, increment]
    in seconds, or None when it does not read."""
    found = TIME_CONTROL.fullmatch(text) if isinstance(text, str) else None
    if not found:
        return None
    base = float(found.group(1)) * (1 if found.group(2) else 60)
    return [base, float(found.group(3))] if 0 < base <= 3 * 3600 else None


class Store:
    """The games in SQLite: one row a game, written whole in one transaction after each
    accepted change."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.lock = threading.Lock()
        with self.lock:
            if path != ":memory:":
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS games (name TEXT PRIMARY KEY, white TEXT NOT NULL, "
                "black TEXT NOT NULL, control TEXT, state TEXT NOT NULL, clock TEXT NOT NULL, "
                "open INTEGER NOT NULL, last_activity REAL NOT NULL)"
            )

    def save(self, game):
        row = (game.name, game.white, game.black, json.dumps(game.control), json.dumps(game.state),
               json.dumps(game.stored_clock()), int(game.open), game.last_activity)
        with self.lock:
            self.db.execute("BEGIN")
            self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
            self.db.execute("COMMIT")

    def mark_closed(self, name):
        with self.lock:
            self.db.execute("UPDATE games SET open = 0 WHERE name = ?", (name,))

    def load(self, name):
        with self.lock:
            row = self.db.execute("SELECT * FROM games WHERE name = ?", (name,)).fetchone()
        return self.game(row) if row else None

    def open_names(self, limit):
        with self.lock:
            rows = self.db.execute(
                "SELECT name FROM games WHERE open = 1 ORDER BY last_activity DESC LIMIT ?", (limit,)
            ).fetchall()
        return [name for (name,) in rows]

    @staticmethod
    def game(row):
        name, white, black, control, state, clock, _open, last_activity = row
        return Game(name, white, black, json.loads(control), json.loads(state), json.loads(clock), last_activity)


class Arbiter:
    """The arbiter process, its pipe and the requests waiting for answers; restarted
    (and every open game restored) when it exits or stops answering."""

    def __init__(self, protocol, bridge):
        self.protocol = protocol
        self.bridge = bridge
        self.ids = itertools.count(1)
        self.lock = threading.Lock()  # the pipe and pending
        self.pending = {}
        self.process = None
        self.alive = False
        self.generation = 0

    def start(self):
        process = subprocess.Popen(self.protocol.argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True, encoding="utf-8", bufsize=1)
        with self.lock:
            self.process = process
            self.alive = True
            self.generation += 1
        threading.Thread(target=self.read, args=(process,), daemon=True).start()

    def send(self, game, commands, kind=None, timeout=None):
        """Writes the commands for one game (None: the default game) and waits for their
        answers: a list with an answer (a dict) or None (silent) per command."""
        with self.lock:
            if not self.alive:
                raise ArbiterGone("arbiter is being restarted: try again")
            ids = [str(next(self.ids)) for _ in commands]
            batch = Batch(game, ids, kind)
            for rid in ids:
                self.pending[rid] = batch
            lines = "".join(self.protocol.line(rid, game, command) for rid, command in zip(ids, commands))
            try:
                self.process.stdin.write(lines)
                self.process.stdin.flush()
            except OSError:
                for rid in ids:
                    self.pending.pop(rid, None)
                raise ArbiterGone("arbiter has exited: try again") from None
        if not batch.done.wait(timeout or self.bridge.timeout):
            raise ArbiterGone("arbiter did not answer in time: try again")
        if ids[-1] not in batch.answers:
            raise ArbiterGone("arbiter exited before answering: try again")
        return [batch.answers.get(rid) for rid in ids]

    def oldest_wait(self):
        with self.lock:
            return min((b.sent for b in self.pending.values()), default=None)

    def kill(self):
        with self.lock:
            process = self.process
        if process and process.poll() is None:
            process.send_signal(signal.SIGKILL)

    def read(self, process):
        # Answers come in the order of the lines, so the bridge takes each change in
        # the order arbiter made it, whichever HTTP thread sent it, even one that has
        # stopped waiting.
        for line in process.stdout:
            try:
                answer = json.loads(line)
            except ValueError:
                answer = {}
            with self.lock:
                batch = self.pending.pop(answer.get("id"), None)
            if batch is None:
                print(f"serve.py: an answer nobody asked for: {line.strip()}", file=sys.stderr)
                continue
            batch.answers[answer["id"]] = answer
            if answer["id"] == batch.ids[-1]:
                with self.lock:  # the ids of silent commands, answered by nothing
                    for rid in batch.ids:
                        self.pending.pop(rid, None)
                if batch.kind == "change":
                    self.bridge.changed(batch.game, [batch.answers.get(rid) for rid in batch.ids])
                batch.done.set()
        process.wait()
        with self.lock:
            if self.process is not process:
                return
            self.alive = False
            stranded = set(self.pending.values())
            self.pending.clear()
        for batch in stranded:
            batch.done.set()
        self.bridge.arbiter_exited(process.returncode)


class RateLimit:
    """At most `count` events per `period` seconds per key (a sliding window)."""

    def __init__(self, count, period):
        self.count, self.period = count, period
        self.seen = {}
        self.lock = threading.Lock()

    def allow(self, key):
        now = time.monotonic()
        with self.lock:
            if len(self.seen) > 10000:
                self.seen = {k: v for k, v in self.seen.items() if v and v[-1] > now - self.period}
            times = self.seen.setdefault(key, deque())
            while times and times[0] <= now - self.period:
                times.popleft()
            if len(times) >= self.count:
                return False
            times.append(now)
            return True


class Refused(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Bridge:
    """The games, their pages and clocks, between the HTTP handlers and arbiter."""

    def __init__(self, args, protocol):
        self.protocol = protocol
        self.timeout = args.timeout
        self.restart_after = args.restart_after
        self.max_games = args.max_games
        self.idle = args.idle
        self.streams_per_game = args.streams_per_game
        self.streams_total = args.streams
        self.store = Store(args.db)
        self.games = {}  # name -> Game, those the bridge has loaded
        self.lock = threading.RLock()  # games, pages, streams
        self.streams = 0
        self.creations = RateLimit(args.games_per_minute, 60)
        self.service = "ok"  # or "stalled", "restarting"
        self.arbiter = Arbiter(protocol, self)
        self.restarts = []  # when arbiter was restarted, in the last minute
        self.stopping = False

    # -- arbiter's life ---------------------------------------------------------------

    def start(self):
        self.arbiter.start()
        self.prepare()
        for name in self.store.open_names(self.max_games):
            try:
                self.ensure_open(name)
            except (ArbiterGone, Refused) as error:
                print(f"serve.py: game {name} not restored: {error}", file=sys.stderr)
        threading.Thread(target=self.watch, daemon=True).start()

    def prepare(self):
        self.protocol.prepared(self.arbiter.send(None, Protocol.prepare(self.max_games)))

    def arbiter_exited(self, status):
        if self.stopping:
            return
        print(f"serve.py: arbiter exited (status {status}); restarting it", file=sys.stderr)
        threading.Thread(target=self.restart, daemon=True).start()

    def restart(self):
        with self.lock:
            self.service = "restarting"
            was_open = [game.name for game in self.games.values() if game.open]
            for game in self.games.values():
                game.open = False
                game.flagged = None
        self.tell_all("service", {"status": "restarting", "message": "arbiter is being restarted"})
        now = time.monotonic()
        self.restarts = [t for t in self.restarts if t > now - 60] + [now]
        if len(self.restarts) > 3:
            time.sleep(2)  # an arbiter that keeps dying is not restarted in a busy loop
        self.arbiter.start()
        try:
            self.prepare()
            for name in was_open:
                self.ensure_open(name)
        except (ArbiterGone, Refused) as error:
            print(f"serve.py: restoring after a restart failed: {error}", file=sys.stderr)
            return
        with self.lock:
            self.service = "ok"
            games = [game for game in self.games.values() if game.pages and game.open]
        self.tell_all("service", {"status": "ok", "message": ""})
        for game in games:
            self.publish(game)

    def watch(self):
        """Every quarter second: arbiter stalled or stopped, flags fallen, idle games."""
        last_idle_check = 0.0
        while True:
            time.sleep(0.25)
            oldest = self.arbiter.oldest_wait()
            waited = time.monotonic() - oldest if oldest else 0.0
            if waited > self.restart_after:
                print(f"serve.py: arbiter has not answered for {waited:.1f} s; restarting it", file=sys.stderr)
                self.arbiter.kill()
                continue
            stalled = waited > self.timeout
            if stalled != (self.service == "stalled") and self.service != "restarting":
                self.service = "stalled" if stalled else "ok"
                message = "arbiter is not answering: waiting for it" if stalled else ""
                self.tell_all("service", {"status": self.service, "message": message})
            if stalled or self.service == "restarting":
                continue
            self.flags()
            if time.monotonic() - last_idle_check > min(5.0, self.idle / 2):
                last_idle_check = time.monotonic()
                self.close_idle()

    def flags(self):
        with self.lock:
            fallen = [
                game for game in self.games.values()
                if game.open and game.control and game.clock["running"]
                and game.flagged != game.state["version"]
                and game.clock[game.clock["running"]] - (time.monotonic() - game.since) <= 0
            ]
            for game in fallen:
                game.flagged = game.state["version"]
        for game in fallen:
            command = Protocol.guarded(game.state["version"], Protocol.timeout(game.clock["running"]))
            threading.Thread(target=self.quietly, args=(game.name, command), daemon=True).start()

    def quietly(self, name, command):
        try:
            self.arbiter.send(name, [command] + self.protocol.snapshot(), "change")
        except ArbiterGone:
            pass

    def close_idle(self):
        now = time.time()
        with self.lock:
            idle = [g for g in self.games.values() if g.open and not g.pages and now - g.last_activity > self.idle]
        for game in idle:
            self.close(game)
        with self.lock:  # games neither open nor watched need not stay in memory
            for name in [n for n, g in self.games.items() if not g.open and not g.pages]:
                del self.games[name]

    def close(self, game):
        try:
            answers = self.arbiter.send(game.name, Protocol.close())
        except ArbiterGone:
            return
        if error_code(answers[0]) in (None, "unknown-game"):
            with self.lock:
                game.open = False
            self.store.mark_closed(game.name)

    def make_room(self):
        """Closes the least recently active game without pages when arbiter holds
        --max-games (it stays in SQLite)."""
        with self.lock:
            opened = [g for g in self.games.values() if g.open]
            if len(opened) < self.max_games:
                return
            idle = sorted((g for g in opened if not g.pages), key=lambda g: g.last_activity)
        if idle:
            self.close(idle[0])

    # -- games ------------------------------------------------------------------------

    def create(self, client, control, fen):
        if not self.creations.allow(client):
            raise Refused(429, "rate-limited", f"at most {self.creations.count} new games a minute from one address")
        name = secrets.token_urlsafe(9)
        game = Game(name, secrets.token_urlsafe(24), secrets.token_urlsafe(24), control)
        self.make_room()
        answers = self.send(name, [self.protocol.create(fen)] + self.protocol.snapshot())
        if error_code(answers[0]):
            raise Refused(503 if error_code(answers[0]) == "too-many-games" else 400,
                          error_code(answers[0]), answers[0]["error"]["message"])
        state, game.opening = self.protocol.read_snapshot(answers[1:])
        if state is None:
            raise Refused(503, "bridge", "arbiter did not describe the new game")
        game.state = state
        game.open = True
        with self.lock:
            self.games[name] = game
        self.store.save(game)
        return game

    def find(self, name):
        """The game of that name, loaded from SQLite if need be, or a 404."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise Refused(404, "no-such-game", "no game of that name")
        with self.lock:
            game = self.games.get(name)
        if game is None:
            loaded = self.store.load(name)
            if loaded is None:
                raise Refused(404, "no-such-game", "no game of that name")
            with self.lock:
                game = self.games.setdefault(name, loaded)
        return game

    def ensure_open(self, name):
        """The game, open in arbiter: restored from its last stored state if it is not."""
        game = self.find(name)
        with game.lock:
            if game.open:
                return game
            self.make_room()
            answers = self.send(name, [self.protocol.restore(game.state)] + self.protocol.snapshot())
            if error_code(answers[0]):
                code = error_code(answers[0])
                raise Refused(503 if code == "too-many-games" else 500, code, answers[0]["error"]["message"])
            state, game.opening = self.protocol.read_snapshot(answers[1:])
            if state is None:
                raise Refused(500, "bridge", "arbiter did not describe the restored game")
            with self.lock:
                game.state = state
                game.open = True
                game.since = time.monotonic()
            self.store.save(game)
        self.publish(game)
        return game

    def send(self, name, commands, kind=None):
        try:
            return self.arbiter.send(name, commands, kind)
        except ArbiterGone as gone:
            raise Refused(503, "try-again", str(gone)) from None

    def act(self, name, token, action, arg, version):
        game = self.find(name)
        seat = game.seat_of(token)
        if seat is None:
            raise Refused(403, "wrong-token", "this link may watch the game but not act in it")
        if action == "abort" and game.state and len(game.state["moves"]) >= 2:
            raise Refused(409, "too-late", "a game can be aborted only before both sides have moved")
        command = Protocol.action(action, seat, arg)
        if command is None:
            raise Refused(400, "bad-request", f"no such action: {action}")
        for attempt in range(2):
            self.ensure_open(name)
            answers = self.send(name, [Protocol.guarded(version, command)] + self.protocol.snapshot(), "change")
            if error_code(answers[0]) != "unknown-game" or attempt:
                return answers[0]
            with self.lock:
                game.open = False  # closed in arbiter behind the bridge's back: restore it
        return answers[0]

    def changed(self, name, answers):
        """Arbiter's answers to an action and the snapshot after it, in arbiter's order
        (called from the reader): an accepted change is stored and pushed."""
        if error_code(answers[0]):
            return
        with self.lock:
            game = self.games.get(name)
            if game is None:
                return
            state, opening = self.protocol.read_snapshot(answers[1:])
            if state is None:
                return
            game.advance_clock(state)
            game.state = state
            game.opening = opening
            game.last_activity = time.time()
        self.store.save(game)
        self.publish(game)

    def pgn(self, name):
        game = self.ensure_open(name)
        [answer] = self.send(game.name, [Protocol.pgn()])
        return Protocol.pgn_text(answer)

    # -- pages ------------------------------------------------------------------------

    def join(self, name, token):
        game = self.ensure_open(name)
        with self.lock:
            if len(game.pages) >= self.streams_per_game:
                raise Refused(503, "too-many-streams", "this game has as many pages open as it may")
            if self.streams >= self.streams_total:
                raise Refused(503, "too-many-streams", "the bridge has as many pages open as it may")
            page = Page(game, game.seat_of(token) or "watch")
            game.pages.add(page)
            self.streams += 1
            page.put("hello", json.dumps({"seat": page.seat, "game": game.name}))
            page.put("update", json.dumps(game.update()))
            if self.service != "ok":
                page.put("service", json.dumps({"status": self.service, "message": "arbiter is not answering"}))
        return page

    def leave(self, page):
        with self.lock:
            if page in page.game.pages:
                page.game.pages.discard(page)
                self.streams -= 1
                page.game.last_activity = time.time()

    def publish(self, game):
        with self.lock:
            update = json.dumps(game.update())
            for page in game.pages:
                page.put("update", update)

    def tell_all(self, event, data):
        text = json.dumps(data)
        with self.lock:
            for game in self.games.values():
                for page in game.pages:
                    page.put(event, text)


def reply(handler, code, body, content_type="application/json", headers=()):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    handler.send_response(code)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(data)))
    handler.send_header("Cache-Control", "no-store")
    handler.send_header("X-Content-Type-Options", "nosniff")
    for name, value in headers:
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(data)


def refuse(handler, refused):
    headers = [("Retry-After", "60")] if refused.status == 429 else []
    if handler.command == "POST":
        handler.close_connection = True  # its body may not have been read
    reply(handler, refused.status, {"error": {"code": refused.code, "message": refused.message}}, headers=headers)


class Handler(BaseHTTPRequestHandler):
    bridge = None  # set by main
    hosts = ()  # the Host values a POST may carry
    timeout = 10  # seconds a socket may block: reading a request, writing to a page
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go in two writes

    def log_message(self, format, *args):
        pass  # a page asks several times a second; errors are reported to it instead

    def do_GET(self):
        url = urlparse(self.path)
        params = {key: values[0] for key, values in parse_qs(url.query).items()}
        if url.path in STATIC:
            name, content_type = STATIC[url.path]
            return reply(self, 200, (HERE / name).read_bytes(), content_type)
        try:
            if url.path == "/events":
                return self.events(params.get("game", ""), params.get("token", ""))
            if url.path == "/pgn":
                pgn = self.bridge.pgn(params.get("game", ""))
                if pgn is None:
                    raise Refused(500, "bridge", "arbiter did not give the PGN")
                return reply(self, 200, pgn.encode(), "application/vnd.chess-pgn; charset=utf-8")
            raise Refused(404, "not-found", f"no such page: {url.path}")
        except Refused as refused:
            return refuse(self, refused)

    def do_POST(self):
        try:
            path = urlparse(self.path).path
            if path not in ("/games", "/action"):
                raise Refused(404, "not-found", f"no such page: {path}")
            self.check_origin()
            body = self.body()
            if path == "/games":
                return self.create(body)
            return self.action(body)
        except Refused as refused:
            return refuse(self, refused)

    def check_origin(self):
        """A POST must come from a page of this server: its Host one of ours, its Origin
        (when sent, as browsers do) that host, and its body JSON (which a cross-site
        form cannot send without a preflight this server never grants)."""
        host = self.headers.get("Host", "")
        if host not in self.hosts:
            raise Refused(403, "cross-origin", f"requests for host {host!r} are not served here")
        origin = self.headers.get("Origin")
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            raise Refused(403, "cross-origin", "a page of another site may not act here")
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise Refused(403, "cross-origin", "a page of another site may not act here")
        if self.headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            raise Refused(415, "bad-content-type", "the body is JSON (Content-Type: application/json)")

    def body(self):
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") or length is None:
            raise Refused(411, "length-required", "a POST carries a Content-Length")
        if not length.isdigit():
            raise Refused(400, "bad-request", "Content-Length is not a number")
        if int(length) > BODY_LIMIT:
            raise Refused(413, "too-large", f"a body is at most {BODY_LIMIT} bytes")
        try:
            data = self.rfile.read(int(length))  # the socket's timeout bounds the wait
        except OSError:
            raise Refused(408, "timeout", "the body did not arrive in time") from None
        if len(data) < int(length):
            raise Refused(400, "bad-request", "the body ended early")
        try:
            body = json.loads(data) if data else {}
        except ValueError:
            raise Refused(400, "bad-request", "the body is not JSON") from None
        if not isinstance(body, dict):
            raise Refused(400, "bad-request", "the body is a JSON object")
        return body

    def create(self, body):
        control = None
        if body.get("time") not in (None, ""):
            control = parse_control(body["time"])
            if control is None:
                raise Refused(400, "bad-time", "a time control reads like 5+3 (minutes + seconds) or 30s+0")
        fen = body.get("fen")
        if fen is not None and not (isinstance(fen, str) and FEN.fullmatch(fen)):
            raise Refused(400, "bad-request", "a FEN is one line of letters, digits, '/', '-' and blanks")
        game = self.bridge.create(self.client_address[0], control, fen)
        reply(self, 201, {
            "game": game.name,
            "white": f"/?game={game.name}&token={game.white}",
            "black": f"/?game={game.name}&token={game.black}",
            "watch": f"/?game={game.name}",
        })

    def action(self, body):
        action, arg, version = body.get("action"), body.get("arg", ""), body.get("version")
        if not isinstance(action, str) or not isinstance(version, int) or isinstance(version, bool):
            raise Refused(400, "bad-request", "the body is {game, token, action, arg, version} as JSON")
        if action == "move" and not (isinstance(arg, str) and MOVE.fullmatch(arg)):
            raise Refused(400, "bad-request", "a move is one word")
        answer = self.bridge.act(body.get("game"), body.get("token"), action, arg, version)
        reply(self, 200, {"answer": answer})

    def events(self, name, token):
        page = self.bridge.join(name, token)
        try:
            # What the kernel holds for a page is bounded too: a page that stops reading
            # fills it, its queue overflows, and it is disconnected.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_BUFFER)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.close_connection = True
            self.wfile.write(b"retry: 1000\n\n")
            quiet = time.monotonic()
            while True:
                event, data = page.take(1)
                if event == "overflow" or self.gone():
                    return  # a page too slow reconnects and starts from a snapshot
                if event is not None:
                    self.wfile.write(f"event: {event}\ndata: {data}\n\n".encode())
                elif time.monotonic() - quiet > 15:
                    self.wfile.write(b": still here\n\n")  # keeps proxies from closing it
                else:
                    continue
                self.wfile.flush()
                quiet = time.monotonic()
        except OSError:
            pass  # the page went away, or stopped reading for longer than the timeout
        finally:
            self.bridge.leave(page)

    def gone(self):
        """Whether the page has closed its end (a page sends nothing on its stream)."""
        readable, _, _ = select.select([self.connection], [], [], 0)
        if not readable:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True


class Server(ThreadingHTTPServer):
    """A thread a connection, at most `connections` at once: past that a connection is
    closed at once (a page's browser tries again)."""

    request_queue_size = 128
    daemon_threads = True
    connections = 512

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.slots = threading.BoundedSemaphore(self.connections)

    def process_request(self, request, client_address):
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


def main():
    parser = argparse.ArgumentParser(description="A web board driven by arbiter.")
    parser.add_argument("--port", type=int, default=8080, help="port (0: any free one)")
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--host", action="append", default=[],
                        help="a host name pages reach this server by (behind a proxy), besides 127.0.0.1 and localhost")
    parser.add_argument("--arbiter", default=shutil.which("arbiter"), help="the arbiter binary (default: from PATH)")
    parser.add_argument("--db", default="arbiter-web.sqlite3", help="the SQLite file of the games (:memory: for none)")
    parser.add_argument("--max-games", type=int, default=1000, help="games open in arbiter at once")
    parser.add_argument("--idle", type=float, default=600, help="seconds after which a game without pages is closed in arbiter")
    parser.add_argument("--timeout", type=float, default=5, help="seconds to wait for an answer of arbiter")
    parser.add_argument("--restart-after", type=float, default=30, help="seconds without an answer before arbiter is restarted")
    parser.add_argument("--games-per-minute", type=int, default=20, help="games one client address may create a minute")
    parser.add_argument("--read-timeout", type=float, default=10,
                        help="seconds a connection may block reading a request or writing to a page")
    parser.add_argument("--connections", type=int, default=512, help="connections served at once (streams included)")
    parser.add_argument("--streams", type=int, default=256, help="event streams open at once")
    parser.add_argument("--streams-per-game", type=int, default=16, help="event streams open at once on one game")
    args = parser.parse_args()
    if not args.arbiter or not Path(args.arbiter).is_file():
        parser.error("no arbiter binary: put it on the PATH or give --arbiter PATH")

    Server.connections = args.connections
    server = Server((args.bind, args.port), Handler)
    port = server.server_address[1]
    Handler.hosts = {f"{name}:{port}" for name in ["127.0.0.1", "localhost", *args.host]} | set(args.host)
    bridge = Bridge(args, Protocol(args.arbiter))
    Handler.bridge = bridge
    Handler.timeout = args.read_timeout
    bridge.start()
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"serving http://127.0.0.1:{port}/ (arbiter pid {bridge.arbiter.process.pid})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    bridge.stopping = True
    bridge.arbiter.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
