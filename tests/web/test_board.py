#!/usr/bin/env python3
"""The web board of examples/web, played in real browsers (headless Chromium driven by
Selenium): a game made from the page's "new game" form, its two players' windows and a
watcher's on one bridge, clicking and dragging as people do; then arbiter killed and
stopped, and the bridge restarted, under open pages. Saves a screenshot of the game in
progress: to target/web-board.png, or to the path in WEB_BOARD_SCREENSHOT
(docs/web-board.png renews the README's picture).

    ARBITER_BIN=target/release/arbiter python3 tests/web/test_board.py [-v] [-k NAME]

Exits 77 (skipped) when Chromium, chromedriver or Selenium cannot be found; tests/web.rs
runs this file from `cargo test` and turns that into a skip, or in CI a failure.
"""

import os
import signal
import sys
import time
import unittest
from pathlib import Path

from harness import (ROOT, START, Bridge, Page, arbiter_answers, browser_missing, run, wait_until)

SCREENSHOT = Path(os.environ.get("WEB_BOARD_SCREENSHOT") or ROOT / "target/web-board.png")
SCHOLARS_MATE = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]


@unittest.skipIf(browser_missing(), browser_missing())
class WebBoard(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bridge = Bridge()
        cls.white, cls.black, cls.watcher = Page(), Page(), Page()

    @classmethod
    def tearDownClass(cls):
        for page in (cls.white, cls.black, cls.watcher):
            page.quit()
        cls.bridge.close()

    def pages(self):
        return (self.white, self.black, self.watcher)

    def join(self, **body):
        """A new game (made over HTTP, with a FEN or a time control if given) and the
        three windows on its links."""
        self.game = self.bridge.create(**body)
        for page, seat in zip(self.pages(), ("white", "black", "watch")):
            page.open(self.bridge, self.game[seat])
        if "fen" in body:
            self.everywhere(lambda page: page.fen() == body["fen"], "the position")

    def everywhere(self, condition, what, timeout=20):
        for page in self.pages():
            page.wait(lambda: condition(page), what, timeout)

    def play(self, page, origin, target, plies):
        page.move(origin, target)
        self.everywhere(lambda p: len(p.sans()) == plies, f"{origin}{target} on every board")

    def assert_nothing_changes(self, before):
        time.sleep(0.5)  # an update the bridge pushed after the action has come by now
        for page, drawing in zip(self.pages(), before):
            self.assertEqual(page.drawing(), drawing)

    def test_a_new_game_from_the_form_gives_three_links_that_seat_each_window(self):
        self.white.open(self.bridge, "/")
        self.assertFalse(self.white.element("#links").is_displayed())
        self.assertFalse(self.white.element("#table").is_displayed())
        self.white.element("#time").send_keys("5+3")
        self.white.press("create")
        self.white.wait(lambda: self.white.element("#links").is_displayed(), "the three links")
        links = {seat: self.white.element(f"#link-{seat}").get_attribute("href") for seat in ("white", "black", "watch")}
        self.assertTrue(links["white"].startswith(self.bridge.url + "/?game="), links)
        self.assertIn("token=", links["black"])
        self.assertNotIn("token=", links["watch"])
        self.assertEqual(self.white.text("link-watch"), links["watch"])
        for page, seat in zip(self.pages(), ("white", "black", "watch")):
            page.open(self.bridge, links[seat][len(self.bridge.url):])
        self.assertFalse(self.watcher.element("#lobby").is_displayed())
        name = links["watch"].split("game=")[1]
        self.white.wait(lambda: self.white.text("title") == f"{name} \u00b7 playing white", "white's title")
        self.black.wait(lambda: self.black.text("title") == f"{name} \u00b7 playing black", "black's title")
        self.watcher.wait(lambda: self.watcher.text("title") == f"{name} \u00b7 watching", "the watcher's title")
        self.assertEqual(self.watcher.text("clock-bottom"), "white 5:00")
        self.assertEqual(self.watcher.text("clock-top"), "black 5:00")
        self.assertEqual((self.white.corner(), self.black.corner(), self.watcher.corner()), ("a8", "h1", "a8"))
        self.play(self.white, "e2", "e4", 1)
        self.watcher.wait(lambda: "running" in self.watcher.element("#clock-top").get_attribute("class"), "black's clock running")
        self.watcher.wait(lambda: self.watcher.text("clock-top") != "black 5:00", "black's clock ticking")

    def test_scholars_mate_by_clicks_seen_live_by_a_watcher(self):
        self.join()
        plies = [("e2", "e4"), ("e7", "e5"), ("d1", "h5"), ("b8", "c6"), ("f1", "c4"), ("g8", "f6"), ("h5", "f7")]
        for ply, (origin, target) in enumerate(plies, 1):
            mover = self.white if ply % 2 else self.black
            if ply == 7:
                mover.click(origin)  # the README's picture: the queen picked, her targets shown
                mover.wait(lambda: "target" in mover.classes("f7"), "the queen's targets")
                SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                SCREENSHOT.write_bytes(mover.element("main").screenshot_as_png)
                mover.click(target)
            else:
                mover.move(origin, target)
            self.watcher.wait(lambda: self.watcher.sans() == SCHOLARS_MATE[:ply], f"ply {ply} in the watcher's list")
            self.assertEqual(self.watcher.piece(target)[0], "w" if ply % 2 else "b")
            self.assertIsNone(self.watcher.piece(origin))
        self.everywhere(lambda page: page.text("banner") == "checkmate, white wins", "the checkmate banner")
        self.assertEqual(self.watcher.rows(), ["1. e4 e5", "2. Qh5 Nc6", "3. Bc4 Nf6", "4. Qxf7#"])
        self.assertIn("check", self.watcher.classes("e8"))
        self.assertEqual([s for s in ("h5", "f7", "e8") if "last" in self.watcher.classes(s)], ["h5", "f7"])

        self.watcher.press("download")
        pgn = Path(self.watcher.downloads) / f"{self.game['game']}.pgn"
        self.watcher.wait(pgn.exists, "the PGN download")
        self.watcher.wait(lambda: pgn.read_text().endswith("1-0\n"), "the whole PGN")
        *_, expected = arbiter_answers("position startpos moves " + " ".join(SCHOLARS_MATE), "pgn")
        self.assertEqual(pgn.read_text(), expected["pgn"])

    def test_the_opening_is_named_under_the_banner(self):
        self.join()
        self.everywhere(lambda page: page.text("banner") != "", "the banner")
        self.assertEqual(self.watcher.text("opening"), "")
        self.play(self.white, "e2", "e4", 1)
        self.play(self.black, "c7", "c5", 2)
        self.everywhere(lambda page: page.text("opening") == "B20 Sicilian Defense", "the opening's name")
        # Under the banner: the next element after it, and drawn below it.
        banner, opening = self.watcher.element("#banner"), self.watcher.element("#opening")
        self.assertEqual(self.watcher.element("#banner + p").get_attribute("id"), "opening")
        self.assertGreaterEqual(opening.location["y"], banner.location["y"] + banner.size["height"])

    def test_a_watcher_cannot_act_and_a_forged_token_is_refused(self):
        self.join()
        before = [page.drawing() for page in self.pages()]
        self.watcher.move("e2", "e4")  # the watcher's board takes no clicks
        for button in ("resign", "offer-draw", "offer-takeback", "abort"):
            self.assertFalse(self.watcher.enabled(button), button)
        # A request from the watcher's page with a made-up token, as a script would send.
        reply = self.watcher.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/action', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({game: arguments[0], token: arguments[1], action: 'move', arg: 'e2e4', version: arguments[2]})})"
            ".then(r => r.json().then(body => done([r.status, body])))",
            self.game["game"], "forged" + self.game["white_token"][6:], int(self.white.version()),
        )
        self.assertEqual(reply, [403, {"error": {"code": "wrong-token", "message": "this link may watch the game but not act in it"}}])
        self.assert_nothing_changes(before)

    def test_a_move_through_another_piece_changes_nothing_and_shows_why(self):
        self.join()
        before = [page.drawing() for page in self.pages()]
        self.white.move("a1", "a3")
        [refused] = arbiter_answers("move a1a3")
        self.white.wait(lambda: self.white.text("message") != "", "the refusal")
        self.assertEqual(self.white.text("message"), f"illegal-move: {refused['error']['message']}")
        self.assert_nothing_changes(before)

    def test_a_move_by_the_side_not_to_move_changes_nothing_and_shows_why(self):
        self.join()
        before = [page.drawing() for page in self.pages()]
        self.black.move("e7", "e5")
        self.black.wait(lambda: self.black.text("message") != "", "the refusal")
        self.assertTrue(self.black.text("message").startswith("not-your-turn: "), self.black.text("message"))
        self.assert_nothing_changes(before)

    def test_promotion_through_the_chooser(self):
        self.join(fen="k7/4P3/8/8/8/8/8/4K3 w - - 0 1")
        self.white.move("e7", "e8")
        self.white.wait(lambda: self.white.element("#chooser").is_displayed(), "the promotion chooser")
        self.assertEqual(self.white.text("message"), "")
        self.white.element('#chooser [data-piece="n"]').click()
        self.everywhere(lambda page: page.sans() == ["e8=N"], "the promotion in the move list")
        self.assertEqual(self.watcher.piece("e8"), ("w", "\u265E"))

    def test_castling_by_dragging_the_king_two_squares_and_onto_its_rook(self):
        self.join(fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        self.white.drag("e1", "g1")
        self.everywhere(lambda page: page.sans() == ["O-O"], "white's castling")
        self.black.drag("e8", "a8")
        self.everywhere(lambda page: page.sans() == ["O-O", "O-O-O"], "black's castling")
        self.assertEqual(self.watcher.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2")

    def test_moves_at_the_same_moment_for_the_same_version_play_one(self):
        self.join()
        # Arbiter is stopped while both windows click, so that both lines reach it (with
        # the same `if`) before it answers either: the same moment, as arbiter sees it.
        arbiter = self.bridge.arbiter_pid()
        os.kill(arbiter, signal.SIGSTOP)
        try:
            self.white.move("e2", "e4")
            self.black.move("e7", "e5")
            one = len(f"@1 game {self.game['game']} if 0 move e2e4 as white\n")
            wait_until(lambda: self.bridge.waiting_input() >= 2 * one, "both moves sent to arbiter", timeout=4)
        finally:
            os.kill(arbiter, signal.SIGCONT)
        self.black.wait(lambda: self.black.text("message") != "", "the loser's refusal")
        self.assertIn(self.black.text("message").split(":")[0], ("stale-version", "not-your-turn"))
        self.assertEqual(self.white.text("message"), "")
        self.everywhere(lambda page: page.sans() == ["e4"], "only white's move, everywhere")

    def test_a_draw_offered_in_one_window_and_accepted_in_the_other(self):
        self.join()
        self.play(self.white, "e2", "e4", 1)
        self.white.press("offer-draw")
        self.everywhere(lambda page: page.text("banner").endswith("white offers a draw"), "the offer")
        self.assertFalse(self.white.enabled("accept-draw"))
        self.black.press("accept-draw")
        self.everywhere(lambda page: page.text("banner") == "draw by agreement", "the agreed draw")

    def test_a_draw_claimed_when_status_says_it_may_be(self):
        self.join(fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
        self.assertFalse(self.black.enabled("claim"))
        self.play(self.white, "a1", "a2", 1)
        self.everywhere(lambda page: page.text("banner").endswith("fifty-move may be claimed"), "the claimable draw")
        self.black.press("claim")
        self.everywhere(lambda page: page.text("banner") == "draw by the fifty-move rule", "the claimed draw")

    def test_resignation(self):
        self.join()
        self.black.press("resign")
        self.everywhere(lambda page: page.text("banner") == "black resigned, white wins", "the resignation")
        self.assertFalse(self.white.enabled("resign"))

    def test_the_takeback_cycle(self):
        self.join()
        self.play(self.white, "e2", "e4", 1)
        self.white.press("offer-takeback")
        self.everywhere(lambda page: page.text("banner").endswith("white asks for a takeback"), "the request")
        self.assertFalse(self.white.enabled("accept-takeback"))
        self.black.press("decline-takeback")
        self.everywhere(lambda page: page.text("banner") == "black to move", "the request declined")
        self.white.press("offer-takeback")
        self.black.wait(lambda: self.black.enabled("accept-takeback"), "the request again")
        self.black.press("accept-takeback")
        self.everywhere(lambda page: page.sans() == [] and page.fen() == START, "the move taken back")

    def test_a_flag_falls_on_a_one_second_clock_and_the_right_side_wins(self):
        self.join(time="1s+0")
        self.play(self.white, "e2", "e4", 1)
        self.everywhere(lambda page: page.text("banner") == "black lost on time, white wins", "black's flag", timeout=10)
        self.assertEqual(self.watcher.text("clock-top"), "black 0:00.0")
        self.assertIn("fallen", self.watcher.element("#clock-top").get_attribute("class"))

    def test_a_flag_fall_against_a_bare_king_is_a_draw(self):
        self.join(time="1s+0", fen="4k3/q7/8/8/8/8/8/4K3 w - - 0 1")
        self.play(self.white, "e1", "d1", 1)
        self.everywhere(lambda page: page.text("banner").startswith("draw on time"), "the draw", timeout=10)

    def test_an_abort_before_both_sides_moved(self):
        self.join()
        self.play(self.white, "e2", "e4", 1)
        self.assertTrue(self.black.enabled("abort"))
        self.black.press("abort")
        self.everywhere(lambda page: page.text("banner") == "the game was aborted", "the abort")
        self.assertFalse(self.white.enabled("resign"))


@unittest.skipIf(browser_missing(), browser_missing())
class Faults(unittest.TestCase):
    """Arbiter killed or stopped, and the bridge restarted, under open pages."""

    @classmethod
    def setUpClass(cls):
        cls.white, cls.black, cls.watcher = Page(), Page(), Page()

    @classmethod
    def tearDownClass(cls):
        for page in (cls.white, cls.black, cls.watcher):
            page.quit()

    def setUp(self):
        self.bridge = Bridge("--timeout", "1", "--restart-after", "60")
        self.game = self.bridge.create(time="5+0")
        for page, seat in zip((self.white, self.black, self.watcher), ("white", "black", "watch")):
            page.open(self.bridge, self.game[seat])

    def tearDown(self):
        pid = self.bridge.arbiter_pid()
        if pid:
            os.kill(pid, signal.SIGCONT)
        self.bridge.close()

    def test_arbiter_killed_between_two_moves_the_next_plays_and_the_watcher_sees_all(self):
        self.white.move("e2", "e4")
        self.watcher.wait(lambda: self.watcher.sans() == ["e4"], "e4")
        old = self.bridge.arbiter_pid()
        os.kill(old, signal.SIGKILL)
        wait_until(lambda: self.bridge.arbiter_pid() not in (None, old), "a new arbiter")
        self.black.wait(lambda: self.black.service() == "", "the board back")
        self.black.move("e7", "e5")
        self.watcher.wait(lambda: self.watcher.sans() == ["e4", "e5"], "both moves in the watcher's list")
        self.assertEqual(self.black.text("message"), "")

    def test_arbiter_stopped_past_the_timeout_the_page_says_so_and_no_move_plays_twice(self):
        arbiter = self.bridge.arbiter_pid()
        os.kill(arbiter, signal.SIGSTOP)
        try:
            self.white.move("e2", "e4")
            self.white.wait(lambda: self.white.text("message").startswith("try-again"), "the request given up")
            self.watcher.wait(lambda: "not answering" in self.watcher.service(), "the watcher told")
            self.white.move("e2", "e4")  # the player tries again while arbiter is stopped
            self.white.wait(lambda: self.white.text("message").startswith("try-again"), "the second given up")
        finally:
            os.kill(arbiter, signal.SIGCONT)
        self.watcher.wait(lambda: self.watcher.sans() == ["e4"] and self.watcher.service() == "", "e4, once")
        time.sleep(0.5)
        self.assertEqual(self.watcher.sans(), ["e4"])
        self.assertEqual(self.watcher.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")

    def test_the_bridge_restarted_the_pages_reconnect_to_the_same_game(self):
        self.white.move("e2", "e4")
        self.watcher.wait(lambda: self.watcher.sans() == ["e4"], "e4")
        self.bridge.stop()
        self.watcher.wait(lambda: "reconnecting" in self.watcher.service(), "the reconnecting banner")
        self.bridge.start()
        self.watcher.wait(lambda: self.watcher.service() == "", "the page reconnected")
        self.assertEqual(self.watcher.sans(), ["e4"])
        self.assertEqual(self.watcher.text("clock-bottom"), "white 5:00")
        self.black.move("e7", "e5")
        self.watcher.wait(lambda: self.watcher.sans() == ["e4", "e5"], "the game going on")


if __name__ == "__main__":
    if not run("__main__"):
        sys.exit(1)
    if browser_missing():
        print(f"skipped: the browser tests, as {browser_missing()}", file=sys.stderr)
        sys.exit(77)
