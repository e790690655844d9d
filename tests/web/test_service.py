#!/usr/bin/env python3
"""The bridge of examples/web as a service, over HTTP and without a browser: seats by
token, what it refuses, what it bounds, what survives arbiter's death and its own
restart. Everything listens on 127.0.0.1 only.

    ARBITER_BIN=target/release/arbiter python3 tests/web/test_service.py [-v] [-k NAME]

tests/web.rs runs this file from `cargo test`. The test marked `needs_safe` is skipped
(and named on stderr) while arbiter lacks `--safe`.
"""

import json
import os
import select
import signal
import socket
import sqlite3
import sys
import threading
import time
import unittest
from concurrent.futures import ThreadPoolExecutor

from harness import (ARBITER, Bridge, arbiter_answers, needs_safe, run, wait_until)

FIRST_MOVES = ["e2e4", "e7e5", "g1f3", "b8c6"]


def stored(bridge, name):
    """The game's row in the bridge's database, as a dict."""
    with sqlite3.connect(bridge.db) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM games WHERE name = ?", (name,)).fetchone()
    return dict(row) if row else None


@unittest.skipIf(not ARBITER, "no arbiter binary (set ARBITER_BIN)")
class Service(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bridge = Bridge("--read-timeout", "1", "--streams-per-game", "3", "--timeout", "2")

    @classmethod
    def tearDownClass(cls):
        cls.bridge.close()

    def play(self, game, moves, events=None):
        """Plays the moves by the right seats, each against the version last seen."""
        watcher = events or self.bridge.events(game["game"])
        state = (watcher.last or watcher.until(lambda u: True, "the first update"))["state"]
        for move in moves:
            token = game["white_token"] if state["turn"] == "white" else game["black_token"]
            status, reply = self.bridge.act(game["game"], token, "move", state["version"], move)
            self.assertEqual(status, 200, reply)
            self.assertNotIn("error", reply["answer"])
            state = watcher.until(lambda u: u["state"]["moves"][-1:] == [move], f"{move} pushed")["state"]
        if events is None:
            watcher.close()
        return state

    @staticmethod
    def opened(events):
        if events.status == 200:
            return events
        events.close()
        return None

    def test_a_new_game_answers_three_links_the_players_with_tokens_of_their_own(self):
        game = self.bridge.create()
        name = game["game"]
        self.assertEqual(game["watch"], f"/?game={name}")
        self.assertRegex(game["white"], rf"^/\?game={name}&token=[A-Za-z0-9_-]{{32}}$")
        self.assertRegex(game["black"], rf"^/\?game={name}&token=[A-Za-z0-9_-]{{32}}$")
        self.assertNotEqual(game["white_token"], game["black_token"])
        self.assertNotEqual(self.bridge.create()["game"], name)

    def test_each_link_is_told_its_seat_by_its_token(self):
        game = self.bridge.create()
        for token, seat in ((game["white_token"], "white"), (game["black_token"], "black"), ("", "watch"), ("forged", "watch")):
            # (this bridge allows 3 streams a game: a closed one is freed within a second)
            events = wait_until(lambda: self.opened(self.bridge.events(game["game"], token)), "a free stream", timeout=5)
            self.assertEqual(events.next(), ("hello", {"seat": seat, "game": game["game"]}))
            events.close()

    def test_the_players_move_by_their_tokens_and_every_page_sees_the_moves(self):
        game = self.bridge.create()
        state = self.play(game, FIRST_MOVES)
        self.assertEqual(state["san"], ["e4", "e5", "Nf3", "Nc6"])
        *_, fen = arbiter_answers("position startpos moves " + " ".join(FIRST_MOVES), "fen")
        self.assertEqual(state["fen"], fen["fen"])

    def test_a_wrong_token_or_a_watchers_link_is_refused_and_changes_nothing(self):
        game = self.bridge.create()
        events = self.bridge.events(game["game"])
        before = events.until(lambda u: True, "the first update")
        for token in ("", "not-a-token", game["white_token"][:-1], None, 7):
            status, reply = self.bridge.act(game["game"], token, "resign", before["state"]["version"])
            self.assertEqual((status, reply["error"]["code"]), (403, "wrong-token"), token)
        status, reply = self.bridge.act(game["game"], game["black_token"], "move", before["state"]["version"], "e2e4")
        self.assertEqual(reply["answer"]["error"]["code"], "not-your-turn")
        self.assertEqual(json.loads(stored(self.bridge, game["game"])["state"]), before["state"])
        events.close()

    def test_a_time_control_is_kept_and_shown_and_a_bad_one_refused(self):
        game = self.bridge.create(time="5+3")
        events = self.bridge.events(game["game"])
        update = events.until(lambda u: True, "the first update")
        self.assertEqual(update["clocks"], {"white": 300.0, "black": 300.0, "running": None, "control": "5+3"})
        events.close()
        game = self.bridge.create(time="30s+2")
        events = self.bridge.events(game["game"])
        self.assertEqual(events.until(lambda u: True, "the first update")["clocks"]["control"], "30s+2")
        events.close()
        for bad in ("5", "5+", "fast", "0+1", 5):
            status, reply = self.bridge.request("POST", "/games", {"time": bad})
            self.assertEqual((status, reply["error"]["code"]), (400, "bad-time"), bad)

    def test_the_clock_of_the_side_to_move_runs_from_the_first_move(self):
        game = self.bridge.create(time="5+3")
        events = self.bridge.events(game["game"])
        state = self.play(game, ["e2e4"], events)
        clocks = events.last["clocks"]
        self.assertEqual(clocks["running"], "black")
        self.assertEqual(clocks["white"], 300.0)  # white's clock did not run before the first move
        self.play(game, ["e7e5"], events)
        clocks = events.last["clocks"]
        self.assertEqual(clocks["running"], "white")
        self.assertTrue(300.0 < clocks["black"] <= 303.0, clocks)  # the increment, less the thinking time
        del state
        events.close()

    def test_an_unknown_game_is_not_found_and_not_created(self):
        for path in ("/events?game=nosuchgame", "/events?game=a%0Ab", "/pgn?game=nosuchgame"):
            status, reply = self.bridge.request("GET", path)
            self.assertEqual((status, reply["error"]["code"]), (404, "no-such-game"), path)
        status, reply = self.bridge.act("nosuchgame", "x", "resign", 0)
        self.assertEqual((status, reply["error"]["code"]), (404, "no-such-game"))

    def test_a_cross_origin_post_is_refused_and_changes_nothing(self):
        game = self.bridge.create()
        resign = {"game": game["game"], "token": game["white_token"], "action": "resign", "version": 0}
        for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                        {"Host": "evil.example", "Origin": None}, {"Sec-Fetch-Site": "cross-site"}):
            status, reply = self.bridge.request("POST", "/action", resign, headers)
            self.assertEqual((status, reply["error"]["code"]), (403, "cross-origin"), headers)
        status, reply = self.bridge.request("POST", "/action", resign, {"Content-Type": "text/plain"})
        self.assertEqual((status, reply["error"]["code"]), (415, "bad-content-type"))
        status, reply = self.bridge.request("POST", "/games", {}, {"Origin": "http://evil.example"})
        self.assertEqual(status, 403)
        events = self.bridge.events(game["game"])
        self.assertEqual(events.until(lambda u: True, "the update")["state"]["status"]["state"], "active")
        events.close()

    def test_a_body_over_the_cap_is_refused_with_413_unread(self):
        status, reply = self.bridge.request("POST", "/games", raw=b"{" + b" " * 5000 + b"}")
        self.assertEqual((status, reply["error"]["code"]), (413, "too-large"))
        # A claimed 200 MB body is refused from its header, before anything is read.
        sock = socket.create_connection(("127.0.0.1", self.bridge.port), timeout=5)
        sock.sendall(f"POST /games HTTP/1.1\r\nHost: {self.bridge.host}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: 200000000\r\n\r\n".encode())
        self.assertIn(b" 413 ", sock.recv(4096))
        sock.close()

    def test_a_negative_or_missing_length_is_refused_at_once(self):
        for length in ("-1", "0x10", "1e3"):
            status, reply = self.bridge.request("POST", "/games", raw=b"{}", headers={"Content-Length": length})
            self.assertEqual((status, reply["error"]["code"]), (400, "bad-request"), length)

    def test_a_body_that_never_comes_is_given_up_after_the_read_timeout(self):
        sock = socket.create_connection(("127.0.0.1", self.bridge.port), timeout=10)
        sock.sendall(f"POST /games HTTP/1.1\r\nHost: {self.bridge.host}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: 100\r\n\r\n{{".encode())
        started = time.monotonic()
        answer = sock.recv(4096)
        self.assertLess(time.monotonic() - started, 5)  # --read-timeout 1
        self.assertIn(b" 408 ", answer)
        sock.close()

    def test_streams_per_game_are_capped(self):
        game = self.bridge.create()
        streams = [self.bridge.events(game["game"]) for _ in range(3)]
        self.assertEqual([s.status for s in streams], [200] * 3)
        extra = self.bridge.events(game["game"])
        self.assertEqual(extra.status, 503)
        extra.close()
        streams.pop().close()
        wait_until(lambda: self.bridge.events(game["game"]).status == 200, "a stream freed", timeout=5)
        for stream in streams:
            stream.close()

    def test_the_pgn_of_a_game(self):
        game = self.bridge.create()
        self.play(game, FIRST_MOVES)
        status, pgn = self.bridge.request("GET", f"/pgn?game={game['game']}")
        *_, expected = arbiter_answers("position startpos moves " + " ".join(FIRST_MOVES), "pgn")
        self.assertEqual((status, pgn), (200, expected["pgn"]))

    def test_every_accepted_change_is_stored_with_the_tokens(self):
        game = self.bridge.create(time="5+3")
        events = self.bridge.events(game["game"])
        self.play(game, ["e2e4"], events)
        row = stored(self.bridge, game["game"])
        self.assertEqual((row["white"], row["black"], row["open"]), (game["white_token"], game["black_token"], 1))
        self.assertEqual(json.loads(row["state"]), events.last["state"])
        self.assertEqual(json.loads(row["clock"])["running"], "black")
        events.close()

    @needs_safe
    def test_arbiter_runs_in_safe_mode(self):
        args = open(f"/proc/{self.bridge.arbiter_pid()}/cmdline", "rb").read().split(b"\0")
        self.assertIn(b"--safe", args)

    def test_the_takeback_cycle(self):
        game = self.bridge.create()
        events = self.bridge.events(game["game"])
        state = self.play(game, ["e2e4", "e7e5"], events)
        white, black = game["white_token"], game["black_token"]
        status, reply = self.bridge.act(game["game"], white, "offer-takeback", state["version"])
        self.assertNotIn("error", reply["answer"])
        state = events.until(lambda u: u["state"]["offers"]["takeback"], "the offer")["state"]
        self.assertEqual(state["offers"]["takeback"]["by"], "white")
        _, reply = self.bridge.act(game["game"], black, "decline-takeback", state["version"])
        state = events.until(lambda u: not u["state"]["offers"]["takeback"], "the offer declined")["state"]
        self.assertEqual(state["moves"], ["e2e4", "e7e5"])
        self.bridge.act(game["game"], white, "offer-takeback", state["version"])
        state = events.until(lambda u: u["state"]["offers"]["takeback"], "the offer again")["state"]
        _, reply = self.bridge.act(game["game"], white, "accept-takeback", state["version"])
        self.assertIn("error", reply["answer"])  # one's own offer
        _, reply = self.bridge.act(game["game"], black, "accept-takeback", state["version"])
        self.assertNotIn("error", reply["answer"])
        state = events.until(lambda u: len(u["state"]["moves"]) < 2, "the takeback")["state"]
        self.assertEqual(state["moves"], [])  # white to move again: two plies back
        events.close()

    def test_every_update_names_the_opening_as_arbiter_does(self):
        game = self.bridge.create()
        events = self.bridge.events(game["game"])
        first = events.until(lambda u: True, "the first update")
        self.assertIsNone(first["opening"])  # the start position is named by no line
        state = self.play(game, ["e2e4", "c7c5"], events)
        [named] = arbiter_answers("position startpos moves e2e4 c7c5", "opening")
        self.assertEqual(named, {"answer": "opening", "eco": "B20", "name": "Sicilian Defense"})
        self.assertEqual(events.last["opening"], "B20 Sicilian Defense")
        # A takeback back to the start: no opening again, not the last one kept.
        white, black = game["white_token"], game["black_token"]
        self.bridge.act(game["game"], white, "offer-takeback", state["version"])
        state = events.until(lambda u: u["state"]["offers"]["takeback"], "the offer")["state"]
        self.bridge.act(game["game"], black, "accept-takeback", state["version"])
        update = events.until(lambda u: u["state"]["moves"] == [], "the takeback")
        self.assertIsNone(update["opening"])
        events.close()

    def test_a_flag_falls_on_a_one_second_clock_and_the_right_side_wins(self):
        game = self.bridge.create(time="1s+0")
        events = self.bridge.events(game["game"])
        self.play(game, ["e2e4"], events)
        update = events.until(lambda u: u["state"]["status"]["state"] == "timeout", "black's flag", timeout=10)
        self.assertEqual(update["state"]["status"]["winner"], "white")
        self.assertEqual(update["state"]["result"], "1-0")
        self.assertEqual(update["clocks"]["running"], None)
        events.close()

    def test_a_flag_fall_against_a_bare_king_is_a_draw(self):
        game = self.bridge.create(time="1s+0", fen="4k3/q7/8/8/8/8/8/4K3 w - - 0 1")
        events = self.bridge.events(game["game"])
        self.play(game, ["e1d1"], events)
        update = events.until(lambda u: u["state"]["status"]["state"] != "active", "black's flag", timeout=10)
        self.assertEqual(update["state"]["status"]["state"], "draw")
        self.assertEqual(update["state"]["status"]["reason"], "timeout-vs-insufficient-material")
        events.close()

    def test_an_abort_before_both_sides_moved_and_not_after(self):
        game = self.bridge.create()
        events = self.bridge.events(game["game"])
        state = self.play(game, ["e2e4"], events)
        _, reply = self.bridge.act(game["game"], game["black_token"], "abort", state["version"])
        self.assertNotIn("error", reply["answer"])
        self.assertEqual(events.until(lambda u: u["state"]["status"]["state"] == "aborted", "the abort")["state"]["result"], "*")
        game = self.bridge.create()
        state = self.play(game, ["e2e4", "e7e5"], events=None)
        status, reply = self.bridge.act(game["game"], game["white_token"], "abort", state["version"])
        self.assertEqual((status, reply["error"]["code"]), (409, "too-late"))
        events.close()


@unittest.skipIf(not ARBITER, "no arbiter binary (set ARBITER_BIN)")
class Faults(unittest.TestCase):
    """Arbiter killed or stopped, the bridge restarted: each with a bridge of its own."""

    def setUp(self):
        self.bridge = None

    def tearDown(self):
        if self.bridge:
            pid = self.bridge.arbiter_pid()
            if pid:
                os.kill(pid, signal.SIGCONT)
            self.bridge.close()

    def move(self, game, watcher, move):
        state = watcher.last["state"]
        token = game["white_token"] if state["turn"] == "white" else game["black_token"]
        return self.bridge.act(game["game"], token, "move", state["version"], move)

    def test_arbiter_killed_between_two_moves_the_next_plays_after_the_restore(self):
        self.bridge = Bridge("--timeout", "2")
        game = self.bridge.create()
        watcher = self.bridge.events(game["game"])
        watcher.until(lambda u: True, "the first update")
        self.move(game, watcher, "e2e4")
        watcher.until(lambda u: u["state"]["moves"] == ["e2e4"], "e4")
        old = self.bridge.arbiter_pid()
        os.kill(old, signal.SIGKILL)
        wait_until(lambda: self.bridge.arbiter_pid() not in (None, old), "a new arbiter")
        event = wait_until(lambda: watcher.next(), "news of the restart")
        self.assertEqual(event, ("service", {"status": "restarting", "message": "arbiter is being restarted"}))
        restored = watcher.until(lambda u: True, "the restored game")
        self.assertEqual(restored["state"]["moves"], ["e2e4"])
        status, reply = self.move(game, watcher, "e7e5")
        self.assertEqual(status, 200, reply)
        self.assertNotIn("error", reply["answer"])
        self.assertEqual(watcher.until(lambda u: len(u["state"]["moves"]) == 2, "e5")["state"]["san"], ["e4", "e5"])
        late = self.bridge.events(game["game"])  # a page opened now sees the whole history
        self.assertEqual(late.until(lambda u: True, "the snapshot")["state"]["moves"], ["e2e4", "e7e5"])
        late.close()
        watcher.close()

    def test_arbiter_stopped_past_the_timeout_pages_are_told_and_no_move_plays_twice(self):
        self.bridge = Bridge("--timeout", "1", "--restart-after", "60")
        game = self.bridge.create()
        watcher = self.bridge.events(game["game"])
        shown = watcher.until(lambda u: True, "the first update")["state"]["version"]
        arbiter = self.bridge.arbiter_pid()
        os.kill(arbiter, signal.SIGSTOP)
        status, reply = self.move(game, watcher, "e2e4")
        self.assertEqual((status, reply["error"]["code"]), (503, "try-again"))
        event = wait_until(lambda: watcher.next(), "news of the stall")
        self.assertEqual(event[0], "service")
        self.assertEqual(event[1]["status"], "stalled")
        os.kill(arbiter, signal.SIGCONT)
        # The move reached arbiter and was played: the late answer is stored and pushed.
        self.assertEqual(watcher.until(lambda u: u["state"]["moves"], "e4")["state"]["moves"], ["e2e4"])
        # The page tries again with the version it showed: refused, not played twice.
        status, reply = self.bridge.act(game["game"], game["white_token"], "move", shown, "e2e4")
        self.assertEqual(reply["answer"]["error"]["code"], "stale-version")
        check = self.bridge.events(game["game"])
        self.assertEqual(check.until(lambda u: True, "the snapshot")["state"]["moves"], ["e2e4"])
        check.close()
        watcher.close()

    def test_arbiter_stopped_past_restart_after_is_restarted_and_the_move_not_half_done(self):
        self.bridge = Bridge("--timeout", "1", "--restart-after", "2")
        game = self.bridge.create()
        watcher = self.bridge.events(game["game"])
        watcher.until(lambda u: True, "the first update")
        old = self.bridge.arbiter_pid()
        os.kill(old, signal.SIGSTOP)
        status, reply = self.move(game, watcher, "e2e4")
        self.assertEqual((status, reply["error"]["code"]), (503, "try-again"))
        wait_until(lambda: self.bridge.arbiter_pid() not in (None, old), "a new arbiter", timeout=15)
        restored = watcher.until(lambda u: True, "the restored game")
        self.assertEqual(restored["state"]["moves"], [])  # the move died with the stopped process
        status, reply = self.move(game, watcher, "e2e4")
        self.assertNotIn("error", reply["answer"])
        self.assertEqual(watcher.until(lambda u: u["state"]["moves"], "e4")["state"]["moves"], ["e2e4"])
        watcher.close()

    def test_an_arbiter_that_answers_is_never_restarted(self):
        self.bridge = Bridge("--timeout", "1", "--restart-after", "2", "--max-games", "1", "--idle", "1")
        arbiter = self.bridge.arbiter_pid()
        first = self.bridge.create()  # creating, closing and restoring games: lines
        self.bridge.create()  # that are silent without issue 33's `ok`
        watcher = self.bridge.events(first["game"])
        watcher.until(lambda u: True, "the restored game")
        time.sleep(3)
        self.assertEqual(self.bridge.arbiter_pid(), arbiter)
        self.assertEqual("".join(self.bridge.stderr), "")
        watcher.close()

    def test_the_bridge_restarted_every_game_comes_back_from_sqlite(self):
        self.bridge = Bridge()
        games = [self.bridge.create(time="5+3") for _ in range(3)]
        for game, moves in zip(games, (["e2e4"], ["d2d4", "d7d5"], [])):
            watcher = self.bridge.events(game["game"])
            watcher.until(lambda u: True, "the first update")
            for move in moves:
                self.move(game, watcher, move)
                watcher.until(lambda u: u["state"]["moves"][-1:] == [move], move)
            game["moves"] = moves
            game["clocks"] = watcher.last["clocks"]
            watcher.close()
        self.bridge.restart()
        for game in games:
            watcher = self.bridge.events(game["game"], game["white_token"])
            self.assertEqual(watcher.next()[1]["seat"], "white")  # the tokens came back too
            update = watcher.until(lambda u: True, "the restored game")
            self.assertEqual(update["state"]["moves"], game["moves"])
            self.assertEqual(update["clocks"]["running"], game["clocks"]["running"])
            self.assertAlmostEqual(update["clocks"]["white"], game["clocks"]["white"], delta=1.0)
            watcher.close()

    def test_the_bridge_restarted_keeps_versions_and_offers(self):
        self.bridge = Bridge()
        game = self.bridge.create(time="5+3")
        watcher = self.bridge.events(game["game"])
        watcher.until(lambda u: True, "the first update")
        self.move(game, watcher, "e2e4")
        state = watcher.until(lambda u: u["state"]["moves"], "e4")["state"]
        self.bridge.act(game["game"], game["white_token"], "offer-draw", state["version"])
        self.bridge.act(game["game"], game["white_token"], "offer-takeback",
                        watcher.until(lambda u: u["state"]["offers"]["draw"], "the draw offer")["state"]["version"])
        before = watcher.until(lambda u: u["state"]["offers"]["takeback"], "the takeback offer")
        watcher.close()
        self.bridge.restart()
        watcher = self.bridge.events(game["game"])
        after = watcher.until(lambda u: True, "the restored game")
        self.assertEqual(after["state"], before["state"])
        watcher.close()

    def test_a_game_idle_past_its_time_is_closed_in_arbiter_and_restored_on_the_next_visit(self):
        self.bridge = Bridge("--idle", "1")
        game = self.bridge.create()
        watcher = self.bridge.events(game["game"])
        watcher.until(lambda u: True, "the first update")
        self.move(game, watcher, "e2e4")
        watcher.until(lambda u: u["state"]["moves"], "e4")
        watcher.close()
        wait_until(lambda: stored(self.bridge, game["game"])["open"] == 0, "the idle game closed", timeout=15)
        watcher = self.bridge.events(game["game"])
        self.assertEqual(watcher.until(lambda u: True, "the restored game")["state"]["moves"], ["e2e4"])
        self.assertEqual(stored(self.bridge, game["game"])["open"], 1)
        status, reply = self.move(game, watcher, "e7e5")
        self.assertNotIn("error", reply["answer"])
        watcher.close()

    def test_past_max_games_the_least_recently_used_idle_game_is_closed(self):
        self.bridge = Bridge("--max-games", "2")
        first, second = self.bridge.create(), self.bridge.create()
        third = self.bridge.create()
        self.assertEqual([stored(self.bridge, g["game"])["open"] for g in (first, second, third)], [0, 1, 1])
        watcher = self.bridge.events(first["game"])  # played again: restored, another closed
        watcher.until(lambda u: True, "the restored game")
        status, reply = self.move(first, watcher, "e2e4")
        self.assertNotIn("error", reply["answer"])
        self.assertEqual(sum(stored(self.bridge, g["game"])["open"] for g in (first, second, third)), 2)
        watcher.close()

    def test_too_many_games_is_shown_as_such_when_none_can_be_closed(self):
        self.bridge = Bridge("--max-games", "1")
        game = self.bridge.create()
        watcher = self.bridge.events(game["game"])  # a game with a page is not closed
        status, reply = self.bridge.request("POST", "/games", {})
        self.assertEqual((status, reply["error"]["code"]), (503, "too-many-games"))
        watcher.close()


@unittest.skipIf(not ARBITER, "no arbiter binary (set ARBITER_BIN)")
class Abuse(unittest.TestCase):
    def setUp(self):
        self.bridge = Bridge("--read-timeout", "1")

    def tearDown(self):
        self.bridge.close()

    def test_a_page_that_never_reads_its_stream_is_disconnected_and_memory_stays_flat(self):
        game = self.bridge.create()
        watcher = self.bridge.events(game["game"])
        version = watcher.until(lambda u: True, "the first update")["state"]["version"]
        sleeper = socket.socket()
        sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sleeper.connect(("127.0.0.1", self.bridge.port))
        sleeper.sendall(f"GET /events?game={game['game']} HTTP/1.1\r\nHost: {self.bridge.host}\r\n\r\n".encode())
        rss = self.bridge.rss_kib()
        white, black = game["white_token"], game["black_token"]
        for _ in range(400):  # 800 updates of about 1 KB each
            self.bridge.act(game["game"], white, "offer-draw", version)
            version = watcher.until(lambda u: u["state"]["offers"]["draw"], "the offer")["state"]["version"]
            self.bridge.act(game["game"], black, "decline-draw", version)
            version = watcher.until(lambda u: not u["state"]["offers"]["draw"], "the decline")["state"]["version"]
        grown = self.bridge.rss_kib() - rss
        self.assertLess(grown, 8 * 1024, f"the bridge grew by {grown} KiB")
        # The bridge has closed the sleeper's stream: what it holds ends.
        sleeper.settimeout(10)
        received = 0
        while chunk := sleeper.recv(65536):
            received += len(chunk)
        self.assertLess(received, 800 * 1024)  # not every update: it was cut off
        sleeper.close()
        watcher.close()

    def test_ten_thousand_creations_from_one_client_do_not_deny_service_to_an_existing_game(self):
        game = self.bridge.create()
        watcher = self.bridge.events(game["game"])
        watcher.until(lambda u: True, "the first update")
        codes = {}
        lock = threading.Lock()

        def attempt(_):
            status, _reply = self.bridge.request("POST", "/games", {})
            with lock:
                codes[status] = codes.get(status, 0) + 1

        latencies, failures = [], []
        stop = threading.Event()

        def player():
            moves = ["g1f3", "g8f6", "f3g1", "f6g8"]
            for ply in range(12):
                if stop.is_set():
                    return
                started = time.monotonic()
                status, reply = self.move(game, watcher, moves[ply % 4])
                if status != 200 or "error" in reply["answer"]:
                    failures.append(reply)
                    return
                watcher.until(lambda u: len(u["state"]["moves"]) == ply + 1, "the move pushed")
                latencies.append(time.monotonic() - started)

        playing = threading.Thread(target=player)
        playing.start()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(attempt, range(10000)))
        stop.set()
        playing.join()
        self.assertEqual(codes.get(201, 0), 19)  # the limit is 20 a minute; one was the game above
        self.assertEqual(codes.get(429, 0), 10000 - 19)
        self.assertEqual(failures, [])
        self.assertGreaterEqual(len(latencies), 1)
        self.assertLess(max(latencies), 2.0, latencies)
        watcher.close()

    def move(self, game, watcher, move):
        state = watcher.last["state"]
        token = game["white_token"] if state["turn"] == "white" else game["black_token"]
        return self.bridge.act(game["game"], token, "move", state["version"], move)

    def test_idle_connections_past_the_cap_are_closed_and_free_their_slots_after_the_read_timeout(self):
        self.bridge.close()
        self.bridge = Bridge("--read-timeout", "1", "--connections", "5")
        idle = [socket.create_connection(("127.0.0.1", self.bridge.port), timeout=5) for _ in range(8)]
        time.sleep(0.5)  # well within the read timeout
        readable, _, _ = select.select(idle, [], [], 0)
        self.assertEqual(len(readable), 3)
        self.assertEqual([sock.recv(1) for sock in readable], [b""] * 3)  # the five held are dropped by the read timeout, later
        time.sleep(1.5)
        status, _ = self.bridge.request("POST", "/games", {})
        self.assertEqual(status, 201)
        for sock in idle:
            sock.close()


if __name__ == "__main__":
    sys.exit(0 if run("__main__") else 1)
