// tafel's web app: the table view, a seat page, the lobby, the history and the board's health.
// Plain JavaScript served by the board itself: no build step, nothing fetched from the internet.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const path = location.pathname;
const seatToken = path.startsWith("/seat/") ? path.slice(6) : null;
const pageName = seatToken ? "table" : ({"/lobby": "lobby", "/history": "history", "/health": "health"}[path] || "table");
const watching = path === "/watch";  // a spectator: sees the public table, sends nothing
let seatLinks = null;     // the seat links, once this page proved the table PIN

let socket = null;
let view = null;          // the latest table (or seat) message
let nextId = 1;
const waiting = new Map(); // message id -> callback(reply)
let picked = null;        // sim: the field a piece is taken from

// --- the WebSocket ------------------------------------------------------------------------------
function connect(query) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws${query}`);
  socket.onopen = () => setLink("connected");
  socket.onclose = (event) => {
    if (event.code === 4404) { setLink("this link is not for the game on the board"); return; }
    setLink("reconnecting…");
    setTimeout(() => connect(query), 1000);
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
}

function setLink(text) { $("link-state").textContent = text; }

function send(message, done) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { notice("not connected to the board"); return; }
  message.id = nextId++;
  if (done) waiting.set(message.id, done);
  socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "reply" || message.type === "error") {
    const done = waiting.get(message.id);
    waiting.delete(message.id);
    if (done) done(message); else notice(message.message, message.type === "error", pageName === "table" ? "notice" : `${pageName}-notice`);
    return;
  }
  if (message.type === "table") { view = message; drawTable(message); }
  if (message.type === "health") drawHealth(message);
}

function notice(text, bad, where) {
  const box = $(where || "notice");
  box.textContent = text || "";
  box.classList.toggle("bad", !!bad);
}

const answer = (where) => (reply) => {
  notice(reply.message, reply.type === "error", where);
  if (reply.choices) showChoices(reply.choices);
};

// --- the board ------------------------------------------------------------------------------------
function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function drawBoard(svg, board, led, pieces, options) {
  svg.replaceChildren();
  if (!board) return;
  const hex = board.shape === "hex";
  const xs = board.cells.map((c) => c.x), ys = board.cells.map((c) => c.y);
  const pad = 0.7;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", `${minX} ${minY} ${Math.max(...xs) - minX + pad} ${Math.max(...ys) - minY + pad}`);
  for (const cell of board.cells) {
    const g = el("g", {"data-field": cell.name, class: "field"}, svg);
    const colour = led[cell.name] || "#000000";
    if (hex) {
      const pts = [...Array(6).keys()].map((i) => {
        const a = Math.PI / 180 * (60 * i - 30);
        return `${cell.x + 0.56 * Math.cos(a)},${cell.y + 0.56 * Math.sin(a)}`;
      }).join(" ");
      el("polygon", {points: pts, class: "cell"}, g);
    } else {
      el("rect", {x: cell.x - 0.48, y: cell.y - 0.48, width: 0.96, height: 0.96, rx: 0.1, class: "cell"}, g);
    }
    el("circle", {cx: cell.x, cy: cell.y, r: 0.44, fill: colour, class: "led" + (options.hints && options.hints[cell.name] ? " hint" : "")}, g);
    const stack = pieces[cell.name];
    if (stack && stack.length) {
      const top = stack[stack.length - 1];
      const colourOf = options.seatColour || (() => "#dddddd");
      const p = el("circle", {cx: cell.x, cy: cell.y, r: 0.3, class: "piece", fill: colourOf(top.owner)}, g);
      p.setAttribute("data-kind", top.kind);
      const label = el("text", {x: cell.x, y: cell.y + 0.12, class: "piece-label"}, g);
      label.textContent = (stack.length > 1 ? stack.length : "") + top.kind.replace(/[0-9]+$/, "").slice(0, 1).toUpperCase();
      const title = el("title", {}, g);
      title.textContent = `${cell.name}: ${stack.map((s) => s.kind).join(", ")}`;
    } else {
      const title = el("title", {}, g);
      title.textContent = cell.name;
    }
    if (options.marked && options.marked.includes(cell.name)) g.classList.add("marked");
    if (picked === cell.name) g.classList.add("picked");
    if (options.onClick) g.addEventListener("click", () => options.onClick(cell.name, !!stack));
  }
}

function seatColour(message) {
  const colours = message.seats.map((s) => s.colour);
  return (owner) => (owner === null || owner === undefined ? "#d9d4c7" : colours[owner] || "#aaaaaa");
}

// --- the table view and a seat page ----------------------------------------------------------------
let marked = [];

function drawTable(message) {
  if (!window.tafelDrawn) window.tafelDrawn = performance.now() || 1;  // when the board was first drawn
  document.title = `tafel: ${message.game.title}`;
  $("title").textContent = message.game.title + (message.you ? ` — ${message.you.name}` : "");
  $("offer-draw").hidden = $("resign").hidden = !message.remote || message.terminal;
  if (message.remote) {
    const boards = message.remote.boards.map((b) => `${b.name}${b.online ? "" : " (offline)"}`);
    $("title").textContent += ` · across boards: ${boards.join(", ")}`;
  }
  const turn = $("turn");
  if (message.terminal) { turn.textContent = message.result; turn.style.borderColor = "#888"; }
  else {
    const seat = message.seats[message.turn];
    turn.textContent = `${message.turn_name} to move` + (seat.player !== "human" ? ` (${seat.player} bot)` : "")
      + (message.last_move ? ` — last move ${message.last_move}` : "");
    turn.style.borderColor = seat.colour;
  }
  $("board").classList.toggle("blinking", message.blinking);
  drawBoard($("board"), message.board, message.led, message.pieces, {
    hints: message.hints, marked, seatColour: seatColour(message), onClick: message.sim ? clickField : null,
  });
  const troubles = message.troubles.map((line) => { const item = li(line); item.className = "trouble"; return item; });
  $("waiting").replaceChildren(...troubles, ...message.waiting.map((line) => li(line)));
  drawCandidates(message);
  $("moves").replaceChildren(...message.moves.map((m) => {
    const item = li(m.text);
    item.style.borderLeftColor = (message.seats[m.seat] || {}).colour || "#888";
    return item;
  }));
  $("moves").scrollTop = $("moves").scrollHeight;
  $("seats").replaceChildren(...message.seats.map((s) => seatItem(s, message)));
  $("links-button").hidden = !message.hidden_hands || !!message.you || watching;
  $("undo").disabled = !message.can_undo;
  $("public").textContent = JSON.stringify(message.public, null, 1);
  if (message.notices.length) notice(message.notices[message.notices.length - 1]);
  drawYou(message.you);
}

function li(text) { const item = document.createElement("li"); item.textContent = text; return item; }

function seatItem(seat, message) {
  const item = document.createElement("li");
  item.style.borderLeftColor = seat.colour;
  item.append(`${seat.name}: ${seat.player === "human" ? "a person" : seat.player + " bot"} `);
  const known = seatLinks && seatLinks.game_id === message.game_id ? seatLinks.links.find((l) => l.seat === seat.seat) : null;
  if (known && message.hidden_hands && seat.player === "human" && (!seat.joined || message.hotseat)) {
    const link = document.createElement("a");
    link.href = known.link;
    link.textContent = "join this seat";
    link.className = "seat-link";
    const qr = document.createElement("img");
    qr.src = `/api/qr.svg?link=${encodeURIComponent(known.link)}`;
    qr.alt = `QR code to join as ${seat.name}`;
    qr.className = "qr";
    item.append(link, qr);
  } else if (seat.joined) {
    item.append("(joined)");
  }
  return item;
}

function drawCandidates(message) {
  const box = $("candidates");
  box.hidden = !message.candidates.length;
  box.replaceChildren();
  if (!message.candidates.length) { marked = []; return; }
  const head = document.createElement("p");
  const mine = message.candidates.some((c) => c.action);
  head.textContent = mine
    ? "Which move? Tap it to see it on the board, then tap again to confirm."
    : "The board asks which move it was; the player who made it answers on their own page.";
  box.append(head);
  for (const candidate of message.candidates) {
    const button = document.createElement("button");
    button.className = "candidate" + (message.previewed === candidate.text ? " previewed" : "");
    button.textContent = candidate.text;
    if (candidate.action) button.dataset.action = candidate.action;
    button.addEventListener("click", () => {
      if (button.classList.contains("chosen") && candidate.action && !watching) {
        send({type: "declare", action: candidate.action}, answer());
        return;
      }
      for (const other of box.querySelectorAll(".candidate")) other.classList.remove("chosen");
      button.classList.add("chosen");
      marked = candidate.fields;
      drawBoard($("board"), message.board, message.led, message.pieces, {
        hints: message.hints, marked, seatColour: seatColour(message), onClick: message.sim ? clickField : null,
      });
    });
    box.append(button);
  }
}

function showChoices(choices) {
  const box = $("choices");
  box.hidden = false;
  box.replaceChildren(li("That can be several moves; which one?"));
  for (const text of choices) {
    const button = document.createElement("button");
    button.textContent = text;
    button.addEventListener("click", () => { box.hidden = true; send({type: "play", action: text}, answer()); });
    box.append(button);
  }
}

function clickField(name, occupied) {
  if (picked === null) {
    if (!occupied) { notice("tap a piece first, then the field it goes to"); return; }
    picked = name;
    notice(`${name}: now tap where it goes`);
  } else if (picked === name) {
    picked = null;
    notice("");
  } else {
    const from = picked;
    picked = null;
    send({type: "play", from, to: name}, answer());
  }
  if (view) drawTable(view);
}

function drawYou(you) {
  const box = $("you");
  box.hidden = !you;
  if (!you) return;
  $("you-name").textContent = `You play ${you.name}` + (you.on_turn ? " — your turn" : "");
  const hand = $("hand");
  hand.replaceChildren();
  for (const card of you.hand || []) {
    const button = document.createElement("button");
    button.className = "card";
    button.textContent = card;
    button.dataset.card = card;
    button.disabled = !you.on_turn;
    button.addEventListener("click", () => send({type: "card", card}, answer()));
    hand.append(button);
  }
  if (!you.hand || !you.hand.length) hand.textContent = "No cards in your hand.";
  $("actions-wrap").hidden = !you.on_turn;
  drawActions(you);
}

function drawActions(you) {
  const filter = $("action-filter").value.trim();
  const box = $("actions");
  box.replaceChildren();
  for (const text of you.actions.filter((a) => !filter || a.includes(filter)).slice(0, 120)) {
    const button = document.createElement("button");
    button.textContent = text;
    button.dataset.action = text;
    button.addEventListener("click", () => {
      const kind = view && view.sim ? "play" : "declare";
      send({type: kind, action: text}, answer());
    });
    box.append(button);
  }
}

// --- the lobby -------------------------------------------------------------------------------------
let lobby = null;

async function loadLobby() {
  lobby = await (await fetch("/api/lobby")).json();
  const select = $("lobby-game");
  select.replaceChildren(...lobby.games.filter((g) => g.fits).map((g) => new Option(g.title, g.name)));
  if (lobby.current) {
    select.value = lobby.current.game;
    $("lobby-current").textContent = lobby.current.terminal
      ? `The last game of ${lobby.current.title} is over.`
      : `${lobby.current.title} is in progress (${lobby.current.moves} moves).`;
    $("lobby-abandon-label").hidden = lobby.current.terminal || !lobby.current.moves;
  }
  lobbyGame();
  drawRemote(lobby.remote);
  $("lobby-resumable").replaceChildren(...lobby.resumable.map((record) => {
    const item = li(`${record.title}, ${record.players} players: ${record.result} (${record.ended}) `);
    const button = document.createElement("button");
    button.textContent = "Resume";
    button.addEventListener("click", () => send(
      {type: "resume", game_id: record.id, pin: $("lobby-pin").value, abandon: $("lobby-abandon").checked},
      answer("lobby-notice")));
    item.append(button);
    return item;
  }));
}

// The boards online and the invitations change while the page is open (another board comes online,
// invites this one): the lobby asks the board again every few seconds and redraws that part only,
// keeping what the person has chosen.
function drawRemote(remote) {
  $("lobby-remote").hidden = !remote;
  if (remote) {
    $("lobby-remote-status").textContent = remote.waiting_for.length
      ? `This board (${remote.me}) waits for board ${remote.waiting_for.join(", board ")} to accept.`
      : `This board is ${remote.me}; online now: ${remote.online.join(", ") || "no other board"}.`;
    $("lobby-invitations").replaceChildren(...remote.invitations.map((invitation) => {
      const item = li(`Board ${invitation.board} invites this board to ${invitation.game}, ${invitation.players} players (seat ${invitation.seats.join(", ")}) `);
      for (const accept of [true, false]) {
        const button = document.createElement("button");
        button.textContent = accept ? "Accept" : "Decline";
        button.addEventListener("click", () => send(
          {type: "invitation", board: invitation.board, accept, pin: $("lobby-pin").value, abandon: $("lobby-abandon").checked},
          answer("lobby-notice")));
        item.append(button);
      }
      return item;
    }));
  }
}

let remoteShown = null;
async function refreshRemote() {
  let fresh;
  try { fresh = await (await fetch("/api/lobby")).json(); } catch (error) { return; } // away: the link state says so
  const key = JSON.stringify(fresh.remote);
  if (key === remoteShown) return;
  remoteShown = key;
  lobby.remote = fresh.remote;
  drawRemote(fresh.remote);
  const boards = fresh.remote ? fresh.remote.online : [];
  for (const select of $("lobby-seats").querySelectorAll("select")) {
    for (const option of [...select.options]) {
      const board = option.value.startsWith("board:") ? option.value.slice(6) : null;
      if (board !== null && !boards.includes(board) && !option.selected) option.remove();
    }
    for (const board of boards) {
      if (![...select.options].some((o) => o.value === `board:${board}`)) {
        select.append(new Option(`someone on board ${board}`, `board:${board}`));
      }
    }
  }
}

function lobbyGame() {
  const game = lobby.games.find((g) => g.name === $("lobby-game").value);
  if (!game) return;
  const players = $("lobby-players");
  const before = Number(players.value) || (lobby.current && lobby.current.game === game.name ? lobby.current.players : game.players[0]);
  players.replaceChildren(...game.players.map((n) => new Option(String(n), String(n))));
  players.value = String(game.players.includes(before) ? before : game.players[0]);
  lobbySeats();
  const options = $("lobby-options");
  options.replaceChildren();
  for (const option of game.options) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = option.name;
    if (option.choices) {
      const select = document.createElement("select");
      select.name = option.name;
      select.replaceChildren(...option.choices.map((name) => new Option(name, name)));
      label.append(`${option.name} `, select);
      const doc = document.createElement("small");
      doc.textContent = option.doc;
      label.append(doc);
      options.append(label);
      continue;
    }
    if (typeof option.default === "boolean") { input.type = "checkbox"; input.checked = option.default; }
    else if (typeof option.default === "number") { input.type = "number"; input.value = option.default; }
    else { input.value = option.default === null ? "" : option.default; input.placeholder = "none"; }
    label.append(`${option.name} `, input);
    const doc = document.createElement("small");
    doc.textContent = option.doc;
    label.append(doc);
    options.append(label);
  }
}

function lobbySeats() {
  const count = Number($("lobby-players").value);
  const box = $("lobby-seats");
  box.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const select = document.createElement("select");
    select.replaceChildren(...lobby.bots.map((b) => new Option(b === "human" ? "a person" : `${b} bot`, b)));
    for (const board of (lobby.remote ? lobby.remote.online : [])) {
      select.append(new Option(`someone on board ${board}`, `board:${board}`));
    }
    const label = document.createElement("label");
    label.append(`Seat ${seat + 1} `, select);
    box.append(label);
  }
}

function lobbyOptions() {
  const game = lobby.games.find((g) => g.name === $("lobby-game").value);
  const values = {};
  for (const input of $("lobby-options").querySelectorAll("input")) {
    const option = game.options.find((o) => o.name === input.name);
    if (input.type === "checkbox") { if (input.checked !== option.default) values[input.name] = input.checked; }
    else if (input.type === "number") { if (input.value === "") continue; if (Number(input.value) !== option.default) values[input.name] = Number(input.value); }
    else if (input.value !== "" && input.value !== option.default) values[input.name] = input.value;
  }
  for (const select of $("lobby-options").querySelectorAll("select")) {
    const option = game.options.find((o) => o.name === select.name);
    if (select.value !== option.default) values[select.name] = select.value;  // a file, by its name
  }
  return values;
}

// --- the history ---------------------------------------------------------------------------------
async function loadHistory() {
  const data = await (await fetch("/api/history")).json();
  $("history-list").replaceChildren(...data.games.map((record) => {
    const held = record.held ? " — not saved yet: the board's storage would not take it, and a restart loses it" : "";
    const item = li(`${record.title}, ${record.players} players, ${record.moves} moves: ${record.result} (${record.ended})${held} `);
    for (const [label, href] of [["JSON", `/api/history/${record.id}.json`], ["notation", `/api/history/${record.id}.txt`]]) {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = label;
      link.setAttribute("download", "");
      item.append(link, " ");
    }
    const button = document.createElement("button");
    button.textContent = "Replay";
    button.addEventListener("click", () => replay(record.id));
    item.append(button);
    return item;
  }));
  if (!data.games.length) $("history-list").replaceChildren(li("No finished or abandoned games yet."));
}

async function replay(id) {
  const response = await fetch(`/api/history/${id}/replay`);
  if (!response.ok) { $("replay").hidden = false; $("replay-title").textContent = await response.text(); return; }
  const data = await response.json();
  $("replay").hidden = false;
  $("replay-title").textContent = `${data.summary.title}: ${data.summary.result}`;
  const slider = $("replay-step");
  slider.max = data.steps.length - 1;
  const show = (index) => {
    slider.value = index;
    const step = data.steps[index];
    drawBoard($("replay-board"), data.board, step.led, step.pieces, {});
    $("replay-move").textContent = step.move || "the start";
  };
  slider.oninput = () => show(Number(slider.value));
  $("replay-back").onclick = () => show(Math.max(0, Number(slider.value) - 1));
  $("replay-next").onclick = () => show(Math.min(data.steps.length - 1, Number(slider.value) + 1));
  show(0);
}

// --- board health ------------------------------------------------------------------------------
let settingsShown = false;

function drawHealth(message) {
  $("health-summary").textContent =
    `Board ${message.board}: ${message.channels} sensor channels (${message.sensor_model}), ${message.leds} LEDs, ${message.scan_hz} scans/s.`;
  $("health-link").textContent = `Sensors ${message.devices.sensors}. LEDs ${message.devices.leds}.`
    + (message.link ? ` Scanner link: ${message.link.state} — ${message.link.detail}` : "");
  const faults = [...message.device_faults, ...message.sensor_faults.map(
    (f) => `sensor of ${f.field || "channel " + f.channel} reads ${f.reading}, expected ${f.expected}`)];
  $("health-faults").replaceChildren(...(faults.length ? faults : ["No faults."]).map((t) => li(t)));
  $("sensor-map").replaceChildren(...message.sensors.map((sensor) => {
    const cell = document.createElement("span");
    cell.className = "sensor" + (sensor.reading !== sensor.expected ? " differs" : sensor.reading ? " on" : "");
    cell.textContent = `${sensor.field} ${sensor.reading}`;
    cell.title = `channel ${sensor.channel}: reads ${sensor.reading}, the game expects ${sensor.expected}`;
    return cell;
  }));
  if (!settingsShown) {
    settingsShown = true;
    const s = message.settings;
    $("set-brightness").value = s.brightness ?? "";
    $("set-brightness").disabled = s.brightness === null;
    $("set-takeback").value = s.takeback;
    for (const name of ["debounce_ms", "settle_ms", "guide_after_ms"]) $(`set-${name}`).value = s[name];
  }
}

// --- wiring up ----------------------------------------------------------------------------------
function show(name) {
  for (const section of ["table", "lobby", "history", "health"]) $(`${section}-page`).hidden = section !== name;
  for (const link of document.querySelectorAll("#nav a")) link.classList.toggle("here", link.dataset.page === name);
}

function pinFor(action) {
  const pin = prompt(`Table PIN to ${action}:`);
  return pin === null ? null : pin;
}

const ENDING = {abandon: "abandon the game", draw: "agree a draw"};  // another board's requests whose yes ends it
$("confirm").addEventListener("click", () => {
  const asked = view && view.remote && view.remote.asked;
  if (asked && ENDING[asked.kind]) {  // accepting ends the game: the table PIN, as abandoning here
    const pin = pinFor(`accept: board ${asked.board} asks to ${ENDING[asked.kind]}`);
    if (pin !== null) send({type: "answer", accept: true, pin}, answer());
    return;
  }
  send({type: "press", button: "confirm"}, answer());
});
$("menu-button").addEventListener("click", () => send({type: "press", button: "menu"}, answer()));
$("undo").addEventListener("click", () => send({type: "press", button: "undo"}, answer()));
$("offer-draw").addEventListener("click", () => {
  const pin = pinFor("offer the other boards a draw");
  if (pin !== null) send({type: "ask", kind: "draw", pin}, answer());
});
$("resign").addEventListener("click", () => {
  if (!confirm("Resign this game across boards? The game is over on every board.")) return;
  const pin = pinFor("resign");
  if (pin !== null) send({type: "resign", pin}, answer());
});
$("abandon").addEventListener("click", () => {
  if (!confirm("Abandon this game? It stays in the history and can be resumed from the lobby.")) return;
  const pin = pinFor("abandon the game");
  if (pin !== null) send({type: "abandon", pin}, answer());
});
$("links-button").addEventListener("click", () => {
  const pin = pinFor("show the seat links");
  if (pin === null) return;
  send({type: "links", pin}, (reply) => {
    answer()(reply);
    if (reply.type === "reply" && view) { seatLinks = {game_id: view.game_id, links: reply.links}; drawTable(view); }
  });
});
$("show-pin").addEventListener("click", () => send({type: "show_pin"}, answer()));
$("action-filter").addEventListener("input", () => view && view.you && drawActions(view.you));
$("lobby-game").addEventListener("change", lobbyGame);
$("lobby-players").addEventListener("change", lobbySeats);
$("lobby-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const seats = [...$("lobby-seats").querySelectorAll("select")].map((s) => s.value);
  send({
    type: "new_game", game: $("lobby-game").value, players: Number($("lobby-players").value), seats,
    options: lobbyOptions(), pin: $("lobby-pin").value, abandon: $("lobby-abandon").checked,
    hotseat: $("lobby-hotseat").checked,
  }, (reply) => {
    answer("lobby-notice")(reply);
    if (reply.type === "reply") setTimeout(() => { location.href = "/"; }, 600);
  });
});
$("settings-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const message = {type: "settings", pin: $("settings-pin").value, takeback: $("set-takeback").value};
  for (const name of ["debounce_ms", "settle_ms", "guide_after_ms"]) message[name] = Number($(`set-${name}`).value);
  if (!$("set-brightness").disabled) message.brightness = Number($("set-brightness").value);
  send(message, answer("settings-notice"));
});

show(pageName);
if (seatToken) { $("nav").querySelector('[data-page="table"]').href = path; }
if (watching) { for (const node of document.querySelectorAll(".buttons, #seats-tools")) node.hidden = true; }
if (pageName === "table") connect(seatToken ? `?seat=${encodeURIComponent(seatToken)}` : watching ? "?view=watch" : "");
else if (pageName === "health") connect("?view=health");
else connect("");
if (pageName === "lobby") loadLobby().then(() => { remoteShown = JSON.stringify(lobby.remote); setInterval(refreshRemote, 2000); });
if (pageName === "history") loadHistory();
window.tafelReady = true;
