// The board of one game served by examples/web/serve.py. What it shows is arbiter's
// answers, pushed by the bridge after every action; what it sends (a move, undo, resign,
// a draw offer, a FEN) arbiter judges. The page knows how to read a FEN and PGN
// movetext, and none of the rules: a target outside `dests` is sent all the same, so
// that arbiter says why it is refused, and a promotion is asked for when arbiter answers
// `promotion-required`.
"use strict";

const params = new URLSearchParams(location.search);
const game = params.get("game") || "g1";
const seat = ["white", "black"].includes(params.get("seat")) ? params.get("seat") : "watch";
const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const DRAWN = {
  agreement: "by agreement", threefold: "by threefold repetition", "fifty-move": "by the fifty-move rule",
  fivefold: "by fivefold repetition", "seventy-five-move": "by the seventy-five-move rule",
  "insufficient-material": "by insufficient material",
};
const $ = (id) => document.getElementById(id);
const white = (letter) => letter === letter.toUpperCase();

let state = null; // the last update: arbiter's answers to fen, status, history, dests, pgn
let pieces = {}; // square name -> FEN letter
let selected = null; // the square of the picked piece
let drag = null; // {from, x, y, ghost} while the pointer holds a piece
let flipped = seat === "black";
let live = true; // false once arbiter or the bridge has gone

function readFen(fen) {
  const [placement, turn] = fen.split(" ");
  const map = {};
  placement.split("/").forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else map["abcdefgh"[file++] + (8 - i)] = ch;
    }
  });
  return { map, turn: turn === "w" ? "white" : "black" };
}

// PGN movetext as rows of a move number and its SANs ("1..." starts with black's move).
function moveRows(pgn) {
  const rows = [];
  for (const token of pgn.slice(pgn.indexOf("\n\n") + 2).split(/\s+/)) {
    const number = token.match(/^(\d+)\.(\.\.)?$/);
    if (number) rows.push({ number: number[1], sans: number[2] ? ["\u2026"] : [] });
    else if (token && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(token)) rows.at(-1).sans.push(token);
  }
  return rows;
}

function describe(status, turn) {
  const other = status.winner === "white" ? "black" : "white";
  const text = {
    checkmate: `checkmate, ${status.winner} wins`,
    stalemate: "stalemate, a draw",
    draw: `draw ${DRAWN[status.reason] || status.reason}`,
    resigned: `${other} resigned, ${status.winner} wins`,
    check: `check, ${turn} to move`,
    active: `${turn} to move`,
  }[status.state];
  const offer = status.offer ? ` \u00b7 ${status.offer} offers a draw` : "";
  const claim = status.claimable.length ? ` \u00b7 ${status.claimable.join(" or ")} may be claimed` : "";
  return text + offer + claim;
}

const playing = () => live && state && seat !== "watch" && ["active", "check"].includes(state.status.state);
const targetsOf = (square) => (square && state.dests.dests[square]) || [];

function render() {
  const { status, history } = state;
  const { map, turn } = readFen(state.fen.fen);
  pieces = map;
  const last = history.moves.at(-1) || "";
  const king = ["check", "checkmate"].includes(status.state) ? (turn === "white" ? "K" : "k") : null;
  const targets = targetsOf(selected);
  const board = $("board");
  board.dataset.fen = state.fen.fen;
  board.dataset.version = status.version;
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
  const going = ["active", "check"].includes(status.state);
  $("banner").textContent = describe(status, turn);
  $("banner").classList.toggle("over", !going);
  $("moves").replaceChildren(...moveRows(state.pgn.pgn).map((row) => {
    const li = document.createElement("li");
    li.append(span("num", `${row.number}.`), ...row.sans.map((san) => span("san", san)));
    return li;
  }));
  $("moves").scrollTop = $("moves").scrollHeight;
  // Buttons that arbiter would refuse are greyed out; arbiter still has the last word.
  const player = live && seat !== "watch";
  const offered = player && going && status.offer && status.offer !== seat;
  enable({
    undo: player && history.moves.length > 0,
    resign: player && going,
    offer: player && going && !status.offer,
    accept: offered,
    decline: offered,
    claim: player && going && status.claimable.length > 0,
    fen: player,
    "set-fen": player,
  });
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

function say(error) {
  $("message").textContent = error ? `${error.code}: ${error.message}` : "";
}

// Sends an action with the version this page shows; answers arbiter's error, if any.
async function act(action, arg = "") {
  say(null);
  try {
    const response = await fetch(`/action?game=${encodeURIComponent(game)}&seat=${seat}`, {
      method: "POST",
      body: JSON.stringify({ action, arg, version: state.status.version }),
    });
    const reply = await response.json();
    return reply.error || (reply.answer && reply.answer.error) || null;
  } catch (e) {
    return { code: "bridge", message: "the bridge does not answer" };
  }
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

function stop(why) {
  live = false;
  if (state) render();
  $("banner").textContent = why;
  $("banner").classList.add("over");
}

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
  if (state) render();
};
$("download").onclick = () => {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([state.pgn.pgn], { type: "application/vnd.chess-pgn" }));
  link.download = `${game}.pgn`;
  link.click();
};
$("fen-form").onsubmit = async (ev) => {
  ev.preventDefault();
  say(await act("fen", $("fen").value.trim()));
};
$("title").textContent = document.title = `${game} \u00b7 ${seat === "watch" ? "watching" : `playing ${seat}`}`;

const events = new EventSource(`/events?game=${encodeURIComponent(game)}`);
events.onmessage = (ev) => {
  const update = JSON.parse(ev.data);
  const failed = Object.values(update).find((answer) => answer.error);
  if (failed) return say(failed.error);
  if (!state || update.fen.fen !== state.fen.fen) selected = null;
  state = update;
  render();
};
events.addEventListener("gone", () => {
  events.close();
  stop("arbiter has exited: this board is stopped");
});
events.onerror = () => {
  if (live) $("message").textContent = "the bridge does not answer (retrying)";
};
