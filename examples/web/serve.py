#!/usr/bin/env python3
"""A web board for arbiter: one `arbiter --json` process behind a small HTTP server.

    python3 examples/web/serve.py [--port 8080] [--arbiter PATH]

then open http://127.0.0.1:8080/?game=g1&seat=white in one window and
http://127.0.0.1:8080/?game=g1&seat=black in another (seat=watch to follow a game).

This bridge knows the protocol's framing and nothing of chess: it turns a page's action
into one arbiter command, adds `game <name>`, `as <seat>` (or the seat as the colour of
`resign` and `draw`) and `if <version>`, and relays arbiter's answer. Whether a move is
legal, whose turn it is and whether the page acted on the current position are arbiter's
to say. Each action is written together with the queries a page draws from (fen, status,
history, dests, pgn), so that no other client's line can come between them, and their
answers are pushed to every page of the game by Server-Sent Events, in the order arbiter
gave them. Seats are taken from the URL on trust: this is an example, not a game server
with accounts.
"""

import argparse
import itertools
import json
import queue
import re
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

HERE = Path(__file__).resolve().parent
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/board.css": ("board.css", "text/css; charset=utf-8"),
}
# What a page may ask, as arbiter commands; {seat} is the page's seat, {arg} its argument.
ACTIONS = {
    "move": "move {arg} as {seat}",
    "undo": "undo",
    "resign": "resign {seat}",
    "offer": "draw offer {seat}",
    "accept": "draw accept {seat}",
    "decline": "draw decline {seat}",
    "claim": "claim",
    "fen": "position fen {arg}",
}
# The queries whose answers are the state a page draws (the keys of a pushed update).
SNAPSHOT = ["fen", "status", "history", "dests", "pgn"]
SEATS = ("white", "black")
ANSWER_TIMEOUT = 10.0
# A name, a move or a FEN becomes part of a command line: a line break would start
# another command and a blank in a one-word argument would add words to this one.
ONE_WORD = re.compile(r"[^\s\x00-\x1f\x7f]{1,100}")
TEXT = re.compile(r"[^\x00-\x1f\x7f]{1,200}")


class ArbiterGone(Exception):
    """Arbiter has exited, or has not answered within ANSWER_TIMEOUT."""


class Batch:
    """Lines written to arbiter at once; done when the last one is answered (it is
    always a query: a silent command that succeeds answers nothing)."""

    def __init__(self, ids, publish):
        self.ids = ids
        self.publish = publish  # None, or the queues to push the snapshot to
        self.answers = {}
        self.done = threading.Event()


class Arbiter:
    def __init__(self, path, on_exit):
        self.process = subprocess.Popen(
            [path, "--json"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.on_exit = on_exit
        self.ids = itertools.count(1)
        self.lock = threading.Lock()  # the pipe, pending and watchers
        self.join_lock = threading.Lock()
        self.pending = {}  # request id -> Batch
        self.watchers = {}  # game name -> set of queues of its pages' event streams
        self.alive = True
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, game, commands, publish=None):
        """Writes the commands for one game, then waits for their answers: a list with
        an answer (a dict) or None (silent) per command."""
        prefix = f"game {game} "
        with self.lock:
            if not self.alive:
                raise ArbiterGone()
            ids = [str(next(self.ids)) for _ in commands]
            batch = Batch(ids, publish)
            for rid in ids:
                self.pending[rid] = batch
            lines = "".join(f"@{rid} {prefix}{command}\n" for rid, command in zip(ids, commands))
            try:
                self.process.stdin.write(lines)
                self.process.stdin.flush()
            except OSError:
                self.alive = False
                raise ArbiterGone() from None
        if not batch.done.wait(ANSWER_TIMEOUT) or ids[-1] not in batch.answers:
            raise ArbiterGone()
        return [batch.answers.get(rid) for rid in ids]

    def act(self, game, command, version):
        """An action and the snapshot after it, pushed to every page of the game."""
        with self.lock:
            watching = set(self.watchers.get(game, ()))
        answers = self.send(game, [f"if {version} {command}"] + SNAPSHOT, watching)
        return answers[0]

    def join(self, game, events):
        """Opens the game if no one has (a page's first visit starts it), then pushes
        its state to this page."""
        with self.join_lock:
            [answer] = self.send(game, ["version"])
            if answer.get("error", {}).get("code") == "unknown-game":
                self.send(game, ["position startpos", "version"])
            with self.lock:
                self.watchers.setdefault(game, set()).add(events)
        self.send(game, SNAPSHOT, {events})

    def leave(self, game, events):
        with self.lock:
            self.watchers.get(game, set()).discard(events)

    def read(self):
        # Answers come in the order of the lines, so snapshots reach the pages in the
        # order arbiter took them, whichever HTTP thread sent them.
        for line in self.process.stdout:
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
                if batch.publish:
                    update = dict(zip(SNAPSHOT, (batch.answers.get(i) for i in batch.ids[-len(SNAPSHOT):])))
                    for events in batch.publish:
                        events.put(update)
                batch.done.set()
        with self.lock:
            self.alive = False
            stranded = set(self.pending.values())
            self.pending.clear()
            streams = [events for pages in self.watchers.values() for events in pages]
        for batch in stranded:
            batch.done.set()
        status = self.process.wait()
        for events in streams:
            events.put(None)
        self.on_exit(status)


def reply(handler, code, body, content_type="application/json"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    handler.send_response(code)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(data)))
    handler.send_header("Cache-Control", "no-store")
    handler.end_headers()
    handler.wfile.write(data)


def refused(handler, code, message):
    reply(handler, code, {"error": {"code": "bridge", "message": message}})


class Handler(BaseHTTPRequestHandler):
    arbiter = None  # set by main

    def log_message(self, format, *args):
        pass  # a page asks several times a second; errors are reported to it instead

    def query(self):
        url = urlparse(self.path)
        params = {key: values[0] for key, values in parse_qs(url.query).items()}
        return url.path, params

    def do_GET(self):
        path, params = self.query()
        if path in STATIC:
            name, content_type = STATIC[path]
            return reply(self, 200, (HERE / name).read_bytes(), content_type)
        if path == "/events":
            return self.events(params.get("game", ""))
        refused(self, 404, f"no such page: {path}")

    def do_POST(self):
        path, params = self.query()
        if path != "/action":
            return refused(self, 404, f"no such page: {path}")
        game, seat = params.get("game", ""), params.get("seat", "")
        try:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            action, arg, version = request["action"], request.get("arg", ""), request["version"]
        except (ValueError, KeyError, TypeError):
            return refused(self, 400, "the body is {action, arg, version} as JSON")
        if not ONE_WORD.fullmatch(game):
            return refused(self, 400, "a game is named by one word")
        if seat not in SEATS:
            return refused(self, 403, "only the players (seat=white or seat=black) may act")
        if action not in ACTIONS or not isinstance(version, int):
            return refused(self, 400, f"no such action: {action}")
        if "{arg}" in ACTIONS[action] and not (ONE_WORD if action == "move" else TEXT).fullmatch(str(arg)):
            return refused(self, 400, f"{action} needs an argument on one line")
        command = ACTIONS[action].format(seat=seat, arg=arg)
        try:
            answer = self.arbiter.act(game, command, version)
        except ArbiterGone:
            return refused(self, 503, "arbiter has exited")
        reply(self, 200, {"answer": answer})

    def events(self, game):
        if not ONE_WORD.fullmatch(game):
            return refused(self, 400, "a game is named by one word")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        events = queue.Queue()
        try:
            self.arbiter.join(game, events)
            while True:
                try:
                    update = events.get(timeout=15)
                except queue.Empty:
                    self.wfile.write(b": still here\n\n")  # finds pages that have gone
                    self.wfile.flush()
                    continue
                if update is None:
                    raise ArbiterGone()
                self.wfile.write(f"data: {json.dumps(update)}\n\n".encode())
                self.wfile.flush()
        except ArbiterGone:
            try:
                self.wfile.write(b'event: gone\ndata: "arbiter has exited"\n\n')
                self.wfile.flush()
            except OSError:
                pass
        except OSError:
            pass  # the page went away
        finally:
            self.arbiter.leave(game, events)


def main():
    parser = argparse.ArgumentParser(description="A web board driven by arbiter.")
    parser.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--arbiter", default=shutil.which("arbiter"), help="the arbiter binary (default: from PATH)")
    args = parser.parse_args()
    if not args.arbiter or not Path(args.arbiter).is_file():
        parser.error("no arbiter binary: put it on the PATH or give --arbiter PATH")

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    exit_status = []

    def on_exit(status):
        exit_status.append(status)
        threading.Thread(target=server.shutdown).start()

    Handler.arbiter = Arbiter(args.arbiter, on_exit)
    print(f"serving http://127.0.0.1:{server.server_address[1]}/?game=g1&seat=white", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        Handler.arbiter.process.terminate()
        return 0
    # Arbiter exited: give the event streams a moment to tell their pages, then go.
    threading.Event().wait(0.5)
    print(f"serve.py: arbiter exited (status {exit_status[0]}); stopping", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
