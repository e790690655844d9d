// The board of one game served by examples/web/serve.py. Without `?game=` in its address
// the page is the lobby: "new game" asks the bridge for a game and shows its three links.
// With it, the page shows arbiter's `state` of the game, pushed by the bridge after every
// change, and sends the player's actions with the token of its link (a watcher's link
// has none and its page offers no action). The page knows how to read a FEN and none of
// the rules: a target outside `dests` is sent all the same, so that arbiter says why it
// is refused, and a promotion is asked for when arbiter answers `promotion-required`.
"use strict";

const params = new URLSearchParams(location.search);
const game = params.get("game");
const token = params.get("token") || "";
const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const DRAWN = {
  agreement: "by agreement", threefold: "by threefold repetition", "fifty-move": "by the fifty-move rule",
  fivefold: "by fivefold repetition", "seventy-five-move": "by the seventy-five-move rule",
  "insufficient-material": "by insufficient material",
  "timeout-vs-insufficient-material": "on time: the flag fell but the other side cannot mate",
};
const $ = (id) => document.getElementById(id);
const white = (letter) => letter === letter.toUpperCase();
const other = (colour) => (colour === "white" ? "black" : "white");

let seat = "watch"; // told by the bridge from the token
let update = null; // the last update: {game, state, clocks, opening}
let received = 0; // performance.now() when it came, for the clocks
let pieces = {}; // square name -> FEN letter
let selected = null; // the square of the picked piece
let drag = null; // {from, x, y, ghost} while the pointer holds a piece
let flipped = false;

function readFen(fen) {
  const [placement] = fen.split(" ");
  const map = {};
  placement.split("/").forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else map["abcdefgh"[file++] + (8 - i)] = ch;
    }
  });
  return map;
}

const going = () => update && ["active", "check"].includes(update.state.status.state);
const playing = () => going() && seat !== "watch";
const targetsOf = (square) => (square && update.state.dests[square]) || [];

function describe(state) {
  const { status, turn, offers } = state;
  const text = {
    checkmate: `checkmate, ${status.winner} wins`,
    stalemate: "stalemate, a draw",
    draw: `draw ${DRAWN[status.reason] || status.reason}`,
    resigned: `${other(status.winner)} resigned, ${status.winner} wins`,
    timeout: `${other(status.winner)} lost on time, ${status.winner} wins`,
    aborted: "the game was aborted",
    check: `check, ${turn} to move`,
    active: `${turn} to move`,
  }[status.state] || status.state;
  const draw = offers.draw ? ` \u00b7 ${offers.draw.by} offers a draw` : "";
  const takeback = offers.takeback ? ` \u00b7 ${offers.takeback.by} asks for a takeback` : "";
  const claimable = claims(state);
  const claim = claimable.length ? ` \u00b7 ${claimable.join(" or ")} may be claimed` : "";
  return text + draw + takeback + claim;
}

// The draws that may be claimed: a list in the status (where `state` puts it, as
// `status` does) or beside it.
const claims = (state) => state.status.claimable || state.claimable || [];

function render() {
  const { state } = update;
  pieces = readFen(state.fen);
  const last = state.moves.at(-1) || "";
  const king = ["check", "checkmate"].includes(state.status.state) ? (state.turn === "white" ? "K" : "k") : null;
  const targets = targetsOf(selected);
  const board = $("board");
  board.dataset.fen = state.fen;
  board.dataset.version = state.version;
  [...board.children].forEach((el, i) => {
    const [row, col] = [Math.floor(i / 8), i % 8];
    const name = "abcdefgh"[flipped ? 7 - col : col] + (flipped ? row + 1 : 8 - row);
    const letter = pieces[name];
    el.dataset.square = name;
    el.className = `square ${(row + col) % 2 ? "dark" : "light"}`;
    el.classList.toggle("last", name === last.slice(0, 2) || name === last.slice(2, 4));
    el.classList.toggle("selected", name === selected);
    el.classList.toggle("target", targets.includes(name));
    el.classList.toggle("occupied", Boolean(letter));
    el.classList.toggle("check", Boolean(king) && letter === king);
    el.innerHTML = "";
    if (letter) el.append(span(`piece ${white(letter) ? "w" : "b"}`, GLYPH[letter.toLowerCase()]));
    if (row === 7) el.append(span("coord file", name[0]));
    if (col === 0) el.append(span("coord rank", name[1]));
  });
  $("banner").textContent = describe(state);
  $("banner").classList.toggle("over", !going());
  $("opening").textContent = update.opening || "";
  // The move list: a row per move number; a game from a position with black to move
  // starts its first row with "...".
  const first = Number(state.start.split(" ")[5] || 1);
  const blackFirst = state.start.split(" ")[1] === "b";
  const sans = blackFirst ? ["\u2026", ...state.san] : state.san;
  const rows = [];
  for (let i = 0; i < sans.length; i += 2) {
    const li = document.createElement("li");
    li.append(span("num", `${first + i / 2}.`), ...sans.slice(i, i + 2).map((san, j) => span(san === "\u2026" ? "skip" : "san", san)));
    rows.push(li);
  }
  $("moves").replaceChildren(...rows);
  $("moves").scrollTop = $("moves").scrollHeight;
  // Buttons that arbiter (or the bridge) would refuse are greyed out; they still have
  // the last word.
  const player = seat !== "watch";
  const on = player && going();
  const { draw, takeback } = state.offers;
  enable({
    resign: on,
    abort: on && state.moves.length < 2,
    "offer-draw": on && !draw,
    "accept-draw": on && draw && draw.by !== seat,
    "decline-draw": on && draw && draw.by !== seat,
    claim: on && claims(state).length > 0,
    "offer-takeback": on && !takeback && state.moves.length > 0,
    "accept-takeback": on && takeback && takeback.by !== seat,
    "decline-takeback": on && takeback && takeback.by !== seat,
  });
  tick();
}

// The clocks: the bridge's seconds left when the update came, less the time since for
// the side whose clock runs. The bridge decides when a flag has fallen.
function tick() {
  const clocks = update && update.clocks;
  const [top, bottom] = flipped ? ["white", "black"] : ["black", "white"];
  for (const [id, colour] of [["clock-top", top], ["clock-bottom", bottom]]) {
    const el = $(id);
    if (!clocks) {
      el.textContent = "";
      continue;
    }
    const running = clocks.running === colour && going();
    const left = Math.max(0, clocks[colour] - (running ? (performance.now() - received) / 1000 : 0));
    el.textContent = `${colour} ${format(left)}`;
    el.dataset.colour = colour;
    el.classList.toggle("running", running);
    el.classList.toggle("fallen", left <= 0);
  }
}

function format(seconds) {
  const tenths = seconds < 10;
  const whole = tenths ? Math.floor(seconds * 10) / 10 : Math.ceil(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole - minutes * 60;
  return `${minutes}:${tenths ? rest.toFixed(1).padStart(4, "0") : String(rest).padStart(2, "0")}`;
}

function span(className, text) {
  const el = document.createElement("span");
  el.className = className;
  el.textContent = text;
  return el;
}

function enable(buttons) {
  for (const [id, on] of Object.entries(buttons)) $(id).disabled = !on;
}

function say(error, where = "message") {
  $(where).textContent = error ? `${error.code}: ${error.message}` : "";
}

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return await response.json();
  } catch (e) {
    return { error: { code: "bridge", message: "the bridge does not answer: try again" } };
  }
}

// Sends an action with the version this page shows; answers the error, if any.
async function act(action, arg = "") {
  say(null);
  const reply = await post("/action", { game, token, action, arg, version: update.state.version });
  return reply.error || (reply.answer && reply.answer.error) || null;
}

async function play(from, to, promotion = "") {
  selected = null;
  render();
  const error = await act("move", from + to + promotion);
  if (error && error.code === "promotion-required") choose(from, to);
  else say(error);
}

function choose(from, to) {
  const box = $("chooser");
  box.replaceChildren(...[..."qrbn"].map((letter) => {
    const button = document.createElement("button");
    button.dataset.piece = letter;
    button.append(span(`piece ${white(pieces[from]) ? "w" : "b"}`, GLYPH[letter]));
    button.onclick = (ev) => {
      ev.stopPropagation();
      box.hidden = true;
      play(from, to, letter);
    };
    return button;
  }));
  box.onclick = () => (box.hidden = true);
  box.hidden = false;
}

// A press on a square: the target of the picked piece, or a piece to pick (and drag).
// A square holding a piece of the picked piece's side picks it instead, unless arbiter
// lists it as a target (the rook a king castles onto).
function press(ev) {
  if (!playing()) return;
  ev.preventDefault();
  const square = ev.currentTarget.dataset.square;
  const piece = pieces[square];
  const repick = piece && selected && white(piece) === white(pieces[selected]) && !targetsOf(selected).includes(square);
  if (selected && square !== selected && !repick) return play(selected, square);
  selected = piece ? square : null;
  render();
  if (piece) drag = { from: square, x: ev.clientX, y: ev.clientY, ghost: null };
}

document.addEventListener("pointermove", (ev) => {
  if (!drag) return;
  if (!drag.ghost) {
    const piece = document.querySelector(`[data-square="${drag.from}"] .piece`);
    if (!piece || Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 4) return;
    drag.ghost = Object.assign(piece.cloneNode(true), { className: `${piece.className} ghost` });
    document.body.append(drag.ghost);
    piece.classList.add("dragging");
  }
  drag.ghost.style.left = `${ev.clientX}px`;
  drag.ghost.style.top = `${ev.clientY}px`;
});

document.addEventListener("pointerup", (ev) => {
  const held = drag;
  drag = null;
  if (!held || !held.ghost) return;
  held.ghost.remove();
  const under = document.elementFromPoint(ev.clientX, ev.clientY);
  const square = under && under.closest("[data-square]");
  if (square && square.dataset.square !== held.from) play(held.from, square.dataset.square);
  else render();
});

function service(text) {
  $("service").textContent = text;
  $("service").hidden = !text;
}

function lobby() {
  $("lobby").hidden = false;
  $("new-game").onsubmit = async (ev) => {
    ev.preventDefault();
    say(null, "lobby-message");
    const time = $("time").value.trim();
    const reply = await post("/games", time ? { time } : {});
    if (reply.error) return say(reply.error, "lobby-message");
    for (const seat of ["white", "black", "watch"]) {
      const link = $(`link-${seat}`);
      link.href = reply[seat];
      link.textContent = new URL(reply[seat], location.href).href;
      link.target = "_blank";
    }
    $("links").hidden = false;
  };
}

function table() {
  $("table").hidden = false;
  for (let i = 0; i < 64; i++) {
    const square = document.createElement("div");
    square.addEventListener("pointerdown", press);
    $("board").append(square);
  }
  document.querySelectorAll("[data-action]").forEach((button) => {
    button.onclick = async () => say(await act(button.dataset.action));
  });
  $("flip").onclick = () => {
    flipped = !flipped;
    if (update) render();
  };
  $("download").onclick = () => {
    const link = document.createElement("a");
    link.href = `/pgn?game=${encodeURIComponent(game)}`;
    link.download = `${game}.pgn`;
    link.click();
  };
  setInterval(tick, 100);

  const query = `game=${encodeURIComponent(game)}` + (token ? `&token=${encodeURIComponent(token)}` : "");
  const events = new EventSource(`/events?${query}`);
  events.addEventListener("hello", (ev) => {
    const hello = JSON.parse(ev.data);
    seat = hello.seat;
    flipped = seat === "black";
    $("title").textContent = document.title = `${game} \u00b7 ${seat === "watch" ? "watching" : `playing ${seat}`}`;
  });
  events.addEventListener("update", (ev) => {
    const next = JSON.parse(ev.data);
    if (!update || next.state.fen !== update.state.fen) selected = null;
    update = next;
    received = performance.now();
    service("");
    render();
  });
  events.addEventListener("service", (ev) => {
    const news = JSON.parse(ev.data);
    service(news.status === "ok" ? "" : news.status === "restarting" ? "reconnecting: arbiter is being restarted" : news.message);
  });
  events.onerror = () => service("reconnecting to the bridge\u2026");
  events.onopen = () => service("");
}

if (game) table();
else lobby();
