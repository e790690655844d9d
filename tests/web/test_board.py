#!/usr/bin/env python3
"""The web board of examples/web, played in real browsers (headless Chromium driven by
Selenium): two seat windows and a watching one on one bridge, clicking and dragging
as people do. Saves a screenshot of the game in progress: to target/web-board.png, or to
the path in WEB_BOARD_SCREENSHOT (docs/web-board.png renews the README's picture).

    ARBITER_BIN=target/release/arbiter python3 tests/web/test_board.py [-v] [-k NAME]

Exits 77 (skipped) when Chromium, chromedriver or Selenium cannot be found (after the
tests of the bridge alone, which need none of them);
tests/web.rs runs this file from `cargo test` and turns that into a skip, or in CI a
failure.
"""

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "examples/web/serve.py"
# The README's picture is renewed on purpose only: a machine that renders fonts otherwise
# would show it modified after every test run.
SCREENSHOT = Path(os.environ.get("WEB_BOARD_SCREENSHOT") or ROOT / "target/web-board.png")
ARBITER = os.environ.get("ARBITER_BIN") or shutil.which("arbiter")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or shutil.which("chromedriver", path="/usr/lib/chromium")
SCHOLARS_MATE = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
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


def missing():
    if webdriver is None:
        return "selenium is not importable (pip install selenium)"
    if not CHROMIUM or not CHROMEDRIVER:
        return "chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
    if not ARBITER:
        return "no arbiter binary (set ARBITER_BIN)"
    return None


def arbiter_answers(*commands):
    """What arbiter itself answers, as JSON, to compare with what the page shows."""
    args = [ARBITER, "--json"] + [arg for command in commands for arg in ("-c", command)]
    run = subprocess.run(args, capture_output=True, text=True, timeout=10)
    return [json.loads(line) for line in run.stdout.splitlines()]


class Bridge:
    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, str(SERVE), "--port", "0", "--arbiter", ARBITER],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.process.stdout.readline()  # "serving http://127.0.0.1:PORT/?game=..."
        if not line.startswith("serving "):
            raise RuntimeError(f"serve.py did not start: {line}{self.process.stderr.read()}")
        self.url = line.split()[1].split("/?")[0]

    def arbiter_pid(self):
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text()
        return int(children.split()[0])

    def waiting_input(self):
        """The bytes written to arbiter's stdin that it has not read yet."""
        with open(f"/proc/{self.arbiter_pid()}/fd/0", "rb", buffering=0) as pipe:
            count = bytearray(4)
            fcntl.ioctl(pipe, termios.FIONREAD, count)
            return int.from_bytes(count, sys.byteorder)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=10)
        self.process.stdout.close()
        self.process.stderr.close()


class Page:
    """One browser window on the board."""

    def __init__(self):
        self.downloads = tempfile.mkdtemp(prefix="arbiter-web-")
        options = Options()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=940,800",
                    "--hide-scrollbars", "--force-device-scale-factor=1"):
            options.add_argument(arg)
        options.add_experimental_option("prefs", {"download.default_directory": self.downloads})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})

    def open(self, bridge, game, seat):
        self.driver.get(f"{bridge.url}/?game={game}&seat={seat}")
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
        return int(self.element("#board").get_attribute("data-version"))

    def sans(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#moves .san')].map(el => el.textContent)"
        )

    def rows(self):
        """The move list as it reads, a numbered row per move."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#moves li')].map(li => [...li.children].map(el => el.textContent).join(' '))"
        )

    def classes(self, square):
        return self.square(square).get_attribute("class").split()

    def corner(self):
        """The square drawn top left."""
        return self.element("#board > :first-child").get_attribute("data-square")

    def piece(self, square):
        """The piece drawn on a square: its class (`w`/`b`) and glyph, or None."""
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

    def set_fen(self, fen):
        box = self.element("#fen")
        box.clear()
        box.send_keys(fen)
        self.press("set-fen")


@unittest.skipIf(missing(), missing())
class WebBoard(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bridge = Bridge()
        cls.white, cls.black, cls.watcher = Page(), Page(), Page()

    @classmethod
    def tearDownClass(cls):
        for page in (cls.white, cls.black, cls.watcher):
            page.quit()
        cls.bridge.stop()

    def join(self, game, fen=None):
        """The three windows on a new game, from a FEN set in the white window if given."""
        self.white.open(self.bridge, game, "white")
        self.black.open(self.bridge, game, "black")
        self.watcher.open(self.bridge, game, "watch")
        if fen:
            self.white.set_fen(fen)
            self.everywhere(lambda page: page.fen() == fen, f"the position {fen}")

    def everywhere(self, condition, what):
        for page in (self.white, self.black, self.watcher):
            page.wait(lambda: condition(page), what)

    def play(self, page, origin, target, version):
        page.move(origin, target)
        self.everywhere(lambda p: p.version() == version, f"{origin}{target} on every board")

    def assert_nothing_changes(self, before):
        time.sleep(0.5)  # the state the bridge pushes after every action has come by now
        for page, drawing in zip((self.white, self.black, self.watcher), before):
            self.assertEqual(page.drawing(), drawing)

    def test_scholars_mate_by_clicks_seen_live_by_a_watcher(self):
        self.join("scholar")
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
        pgn = Path(self.watcher.downloads) / "scholar.pgn"
        self.watcher.wait(pgn.exists, "the PGN download")
        self.watcher.wait(lambda: pgn.read_text().endswith("1-0\n"), "the whole PGN")
        [expected] = arbiter_answers("position startpos moves " + " ".join(SCHOLARS_MATE), "pgn")
        self.assertEqual(pgn.read_text(), expected["pgn"])

    def test_a_move_through_another_piece_changes_nothing_and_shows_why(self):
        self.join("through")
        before = [page.drawing() for page in (self.white, self.black, self.watcher)]
        self.white.move("a1", "a3")
        [refused] = arbiter_answers("move a1a3")
        self.white.wait(lambda: self.white.text("message") != "", "the refusal")
        self.assertEqual(self.white.text("message"), f"illegal-move: {refused['error']['message']}")
        self.assert_nothing_changes(before)

    def test_a_move_that_leaves_the_king_in_check_changes_nothing_and_shows_why(self):
        self.join("check")
        self.play(self.white, "e2", "e4", 1)
        self.play(self.black, "f7", "f6", 2)
        self.play(self.white, "d1", "h5", 3)
        self.everywhere(lambda page: page.text("banner") == "check, black to move", "the check banner")
        self.assertIn("check", self.black.classes("e8"))
        before = [page.drawing() for page in (self.white, self.black, self.watcher)]
        self.black.move("a7", "a6")
        *_, refused = arbiter_answers("position startpos moves e4 f6 Qh5", "move a7a6")
        self.black.wait(lambda: self.black.text("message") != "", "the refusal")
        self.assertEqual(self.black.text("message"), f"illegal-move: {refused['error']['message']}")
        self.assert_nothing_changes(before)

    def test_a_move_by_the_side_not_to_move_changes_nothing_and_shows_why(self):
        self.join("turn")
        before = [page.drawing() for page in (self.white, self.black, self.watcher)]
        self.black.move("e7", "e5")
        self.black.wait(lambda: self.black.text("message") != "", "the refusal")
        self.assertTrue(self.black.text("message").startswith("not-your-turn: "), self.black.text("message"))
        self.assert_nothing_changes(before)

    def test_promotion_through_the_chooser(self):
        self.join("promotion", "k7/4P3/8/8/8/8/8/4K3 w - - 0 1")
        self.white.move("e7", "e8")
        self.white.wait(lambda: self.white.element("#chooser").is_displayed(), "the promotion chooser")
        self.assertEqual(self.white.text("message"), "")
        self.white.element('#chooser [data-piece="n"]').click()
        self.everywhere(lambda page: page.sans() == ["e8=N"], "the promotion in the move list")
        self.assertEqual(self.watcher.piece("e8"), ("w", "\u265E"))
        self.assertIsNone(self.watcher.piece("e7"))

    def test_castling_by_dragging_the_king_two_squares_and_onto_its_rook(self):
        self.join("castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        self.white.drag("e1", "g1")
        self.everywhere(lambda page: page.sans() == ["O-O"], "white's castling")
        self.black.drag("e8", "a8")
        self.everywhere(lambda page: page.sans() == ["O-O", "O-O-O"], "black's castling")
        self.assertEqual(self.watcher.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2")

    def test_en_passant(self):
        self.join("passant", "4k3/8/8/8/2p5/8/1P6/4K3 w - - 0 1")
        self.play(self.white, "b2", "b4", 1)
        self.black.move("c4", "b3")
        self.everywhere(lambda page: page.sans() == ["b4", "cxb3"], "the capture en passant")
        self.assertIsNone(self.watcher.piece("b4"))
        self.assertEqual(self.watcher.piece("b3"), ("b", "\u265F\uFE0E"))

    def test_a_refused_fen_shows_arbiters_error(self):
        self.join("fen")
        self.white.set_fen("8/8/8/8/8/8/8/8 w - - 0 1")
        [refused] = arbiter_answers("position fen 8/8/8/8/8/8/8/8 w - - 0 1")
        self.white.wait(lambda: self.white.text("message") != "", "the refusal")
        self.assertEqual(self.white.text("message"), f"bad-fen: {refused['error']['message']}")
        self.assertEqual(self.watcher.fen(), START)

    def test_moves_at_the_same_moment_for_the_same_version_play_one(self):
        self.join("race")
        # Arbiter is stopped while both windows click, so that both lines reach it (both
        # `if 0`) before it answers either: the same moment, as arbiter sees it.
        arbiter = self.bridge.arbiter_pid()
        os.kill(arbiter, signal.SIGSTOP)
        try:
            self.white.move("e2", "e4")
            self.black.move("e7", "e5")
            # Two batches are longer than one with the longest ids, whatever the ids are.
            queries = ("fen", "status", "history", "dests", "pgn")
            one = len("@1 game race if 0 move e2e4 as white\n") + sum(len(f"@1 game race {q}\n") for q in queries)
            self.white.wait(lambda: self.bridge.waiting_input() >= 2 * one, "both moves sent to arbiter")
        finally:
            os.kill(arbiter, signal.SIGCONT)
        self.black.wait(lambda: self.black.text("message") != "", "the loser's refusal")
        code = self.black.text("message").split(":")[0]
        self.assertIn(code, ("stale-version", "not-your-turn"))
        self.assertEqual(self.white.text("message"), "")
        self.everywhere(lambda page: page.sans() == ["e4"] and page.version() == 1, "only white's move, everywhere")

    def test_a_draw_offered_in_one_window_and_accepted_in_the_other(self):
        self.join("draw")
        self.play(self.white, "e2", "e4", 1)
        self.white.press("offer")
        self.everywhere(lambda page: page.text("banner").endswith("white offers a draw"), "the offer")
        self.assertFalse(self.white.element("#accept").is_enabled())
        self.black.press("accept")
        self.everywhere(lambda page: page.text("banner") == "draw by agreement", "the agreed draw")

    def test_a_draw_claimed_when_status_says_it_may_be(self):
        self.join("claim", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
        self.assertFalse(self.black.element("#claim").is_enabled())
        self.play(self.white, "a1", "a2", 1)
        self.everywhere(lambda page: page.text("banner").endswith("fifty-move may be claimed"), "the claimable draw")
        self.black.press("claim")
        self.everywhere(lambda page: page.text("banner") == "draw by the fifty-move rule", "the claimed draw")

    def test_resignation(self):
        self.join("resign")
        self.black.press("resign")
        self.everywhere(lambda page: page.text("banner") == "black resigned, white wins", "the resignation")
        self.assertFalse(self.white.element("#resign").is_enabled())

    def test_black_sees_the_board_from_its_side_until_flipped(self):
        self.join("flip")
        self.assertEqual((self.white.corner(), self.black.corner(), self.watcher.corner()), ("a8", "h1", "a8"))
        self.black.press("flip")
        self.black.wait(lambda: self.black.corner() == "a8", "the flipped board")
        self.assertEqual(self.black.piece("e1"), ("w", "\u265A"))

    def test_undo(self):
        self.join("undo")
        self.play(self.white, "e2", "e4", 1)
        self.white.press("undo")
        self.everywhere(lambda page: page.version() == 2 and page.fen() == START, "the move taken back")
        self.assertEqual(self.watcher.sans(), [])


@unittest.skipIf(not ARBITER, "no arbiter binary (set ARBITER_BIN)")
class BridgeRefusals(unittest.TestCase):
    """What the bridge refuses before arbiter sees it: no browser needed."""

    @classmethod
    def setUpClass(cls):
        cls.bridge = Bridge()

    @classmethod
    def tearDownClass(cls):
        cls.bridge.stop()

    def post(self, seat, body):
        request = urllib.request.Request(f"{self.bridge.url}/action?game=g&seat={seat}", json.dumps(body).encode())
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def test_a_watcher_may_not_act(self):
        status, reply = self.post("watch", {"action": "resign", "version": 0})
        self.assertEqual((status, reply["error"]["code"]), (403, "bridge"))

    def test_a_line_break_in_an_argument_is_refused(self):
        status, _ = self.post("white", {"action": "fen", "arg": "8/8/8/8/8/8/8/8 w - - 0 1\nquit", "version": 0})
        self.assertEqual(status, 400)

    def test_a_move_of_more_than_one_word_is_refused(self):
        status, _ = self.post("white", {"action": "move", "arg": "e7e5 as black", "version": 0})
        self.assertEqual(status, 400)

    def test_an_action_reaches_arbiter_with_the_game_and_seat(self):
        status, reply = self.post("white", {"action": "move", "arg": "e2e4", "version": 0})
        self.assertEqual((status, reply["answer"]["error"]["code"], reply["answer"]["game"]), (200, "unknown-game", "g"))


@unittest.skipIf(missing(), missing())
class ArbiterExit(unittest.TestCase):
    def test_the_pages_are_told_and_the_bridge_exits_with_an_error(self):
        bridge, page = Bridge(), Page()
        try:
            page.open(bridge, "g1", "watch")
            os.kill(bridge.arbiter_pid(), signal.SIGKILL)
            page.wait(lambda: "arbiter has exited" in page.text("banner"), "the page to be told")
            self.assertEqual(bridge.process.wait(timeout=10), 1)
            self.assertIn("arbiter exited", bridge.process.stderr.read())
        finally:
            page.quit()
            bridge.stop()


if __name__ == "__main__":
    if not unittest.main(exit=False).result.wasSuccessful():
        sys.exit(1)
    if missing():
        print(f"skipped: the browser tests, as {missing()}", file=sys.stderr)
        sys.exit(77)
