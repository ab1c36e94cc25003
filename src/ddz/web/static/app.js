// The page of `python -m ddz serve`: asks the server, shows what it answers.
// The server draws the table (SVG, from your seat) and checks every action; this script
// only sends what you click and shows the answer, an error's reason included.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null; // the last state the server sent
let options = { agents: ["greedy", "random"], uno_agents: ["greedy", "random"] };

async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Error("the server does not answer (is python -m ddz serve still running?)");
  }
  let data;
  try {
    data = await response.json();
  } catch (error) {
    data = { error: `the server answered ${response.status}` };
  }
  if (!response.ok) {
    const error = new Error(data.error || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function say(text, kind) {
  const message = $("message");
  message.textContent = text;
  message.className = kind || "";
}

async function attempt(work) {
  try {
    await work();
  } catch (error) {
    say(error.message, "error");
  }
}

// --- showing a state -------------------------------------------------------------------------

function button(label, onClick, className, key) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (className) element.className = className;
  if (key) {
    element.title = `key ${key}`;
    element.setAttribute("aria-keyshortcuts", key);
  }
  element.addEventListener("click", onClick);
  return element;
}

function ownText(action) {
  // UNO actions read "2: play R7"; on your own buttons the seat goes without saying
  return action.replace(/^\d+:\s*/, "");
}

function show(state) {
  current = state;
  $("main").hidden = false; // nothing to show before the first game or replay
  // from now on the message (your turn, an error's reason) sits next to the buttons
  if ($("message").parentElement !== $("dock")) $("outcome").after($("message"));
  // a count of the states shown: lets a test (or anyone) wait for the next one
  document.body.dataset.shown = String(Number(document.body.dataset.shown || 0) + 1);
  $("table").innerHTML = state.svg;
  $("text").textContent = state.text;
  $("colours").hidden = true;
  showFinished(state);
  showOutcome(state);
  if (state.replay) {
    showReplay(state);
    return;
  }
  $("stepper").hidden = true;
  $("verdicts").hidden = true;
  $("log-intro").textContent = state.intro;
  const log = $("log");
  log.start = state.log_start;
  log.replaceChildren(...state.log.map((line, index) => logLine(state.log_start + index, line)));
  log.scrollTop = log.scrollHeight;
  showControls(state);
  if (state.over) {
    say(`Game over: ${state.result}`, "done");
  } else if (state.legal.length === 0) {
    say("The agents are playing...");
  } else if (state.may_pass) {
    say("Not your turn, but you may act now (or let it pass).", "turn");
  } else {
    say("Your turn.", "turn");
  }
}

function logLine(number, line) {
  // the ply number is written out (not a list marker): a marker's digits from 100 up are
  // cut off by the list's indent
  const item = document.createElement("li");
  const ply = document.createElement("span");
  ply.className = "ply";
  ply.textContent = `${number}.`;
  item.append(ply, ` ${line}`);
  return item;
}

function showOutcome(state) {
  // the end from your side: won or lost, and your points
  const outcome = !state.replay && state.over ? state.outcome : null;
  $("outcome").hidden = !outcome;
  if (!outcome) return;
  $("outcome").className = outcome.won === true ? "won" : outcome.won === false ? "lost" : "";
  $("outcome-headline").textContent = outcome.headline;
  $("outcome-detail").textContent = outcome.detail;
}

function showFinished(state) {
  // a finished game offers its record: replay it here, or save it to load again later
  const finished = !state.replay && state.over && Boolean(state.record);
  $("finished").hidden = !finished;
  if (!finished) return;
  const link = $("save-record");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([state.record], { type: "application/json" }));
  link.download = `ddz-${state.game}-seed-${JSON.parse(state.record).seed}.json`;
}

function replayFinished() {
  if (!current || !current.record) return;
  $("record").value = current.record;
  switchTab(true);
  loadReplay();
}

function showControls(state) {
  const controls = $("controls");
  const actions = $("actions");
  const all = $("all-actions");
  actions.replaceChildren();
  all.replaceChildren();
  controls.hidden = state.over;
  $("hint").textContent = state.legal.length ? state.hint : "";
  const selecting = state.kind === "doudizhu" && state.phase === "play" && state.legal.length > 0;
  $("selection-bar").hidden = !selecting;
  $("selection").textContent = "";
  $("more-actions").hidden = true;
  if (state.kind === "doudizhu" && state.phase === "play") {
    if (state.legal.includes("pass")) {
      actions.append(button("pass", () => act({ action: "pass" }), "", "N"));
    }
    if (state.legal.length) {
      $("more-actions").hidden = false;
      for (const action of state.legal) {
        if (action !== "pass") all.append(button(action, () => act({ action }), "small"));
      }
    }
  } else {
    for (const action of state.legal) {
      const own = ownText(action);
      actions.append(button(own, () => act({ action: own }), "", own === "draw" ? "D" : ""));
    }
  }
  if (state.may_pass) actions.append(button("let it pass", () => act({ action: "none" }), "quiet", "N"));
  showHand(state);
  wireCards(state);
  keepFocus(state);
}

function keepFocus(state) {
  // after an action its button is gone: the keys go on from your hand (or, bidding, the
  // first bid button); focus in a form field or on a button still shown stays there
  const now = document.activeElement;
  // free: nothing, a card, or a button gone or hidden now (a colour's, an action's)
  const free = now === null || now === document.body || !document.contains(now) ||
    now.getClientRects().length === 0 || now.classList.contains("hcard") || now.tagName === "g";
  if (!free) return;
  if (state.over) {
    if (!$("finished").hidden) $("replay-this").focus({ preventScroll: true });
    return;
  }
  if (!state.legal.length) return;
  if (state.kind === "doudizhu" && state.phase === "bidding") {
    const first = $("actions").querySelector("button");
    if (first) first.focus({ preventScroll: true });
  } else {
    focusCard(focusAt, false);
  }
}

// --- your hand: the table's cards (SVG) and, on a phone, big cards below it -------------------
// Both show the same hand; the one on screen takes the clicks and the keys. A selection is
// kept by position in the hand, so the two always agree.

let selected = new Set(); // positions in the hand selected (Dou Dizhu)
let focusAt = 0; // the card the arrow keys are on

function myCards() {
  return Array.from($("table").querySelectorAll(`g.card[data-seat="${current.you}"]`));
}

function phoneCards() {
  return Array.from($("hand").querySelectorAll(".hcard"));
}

function onPhone() {
  return getComputedStyle($("hand")).display !== "none";
}

function handCards() {
  // the cards you operate: the big ones when shown (a phone), else the table's
  return onPhone() ? phoneCards() : myCards();
}

function handSymbols() {
  return myCards().map((card) => card.dataset.card);
}

function cardName(symbol) {
  if (current.kind === "uno") return symbol;
  return { T: "T (ten)", X: "X (small joker)", D: "D (big joker)" }[symbol] || symbol;
}

function showHand(state) {
  selected = new Set();
  const live = !state.over && state.legal.length > 0;
  const symbols = state.replay ? [] : handSymbols();
  $("hand").replaceChildren(...symbols.map((symbol, index) => {
    const card = document.createElement("span");
    card.className = `hcard ${state.kind}`;
    if (state.kind === "uno") card.classList.add(`colour-${symbol[0]}`);
    card.dataset.card = symbol;
    card.dataset.index = String(index);
    card.textContent = symbol;
    if (symbol === "X" || symbol === "D") {
      const word = document.createElement("small");
      word.textContent = "joker";
      card.append(word);
    }
    return card;
  }));
  $("hand").hidden = symbols.length === 0 || !live;
  focusAt = live ? Math.min(focusAt, Math.max(0, symbols.length - 1)) : 0;
}

function wireCards(state) {
  if (state.over || state.legal.length === 0) return;
  for (const views of [myCards(), phoneCards()]) {
    views.forEach((card, index) => {
      card.classList.add("clickable");
      card.setAttribute("tabindex", "-1");
      card.setAttribute("role", "option");
      card.setAttribute("aria-selected", "false");
      card.setAttribute("aria-label", cardName(card.dataset.card));
      card.addEventListener("click", () => {
        focusAt = index;
        chooseCard(index);
      });
      card.addEventListener("keydown", (event) => cardKey(event, index));
    });
  }
  const cards = handCards();
  if (cards.length) cards[Math.min(focusAt, cards.length - 1)].setAttribute("tabindex", "0");
}

function focusCard(index, scroll = true) {
  const cards = handCards();
  if (!cards.length) return;
  focusAt = Math.max(0, Math.min(cards.length - 1, index));
  for (const card of cards) card.setAttribute("tabindex", "-1");
  const card = cards[focusAt];
  card.setAttribute("tabindex", "0");
  card.focus({ preventScroll: !scroll });
}

function cardKey(event, index) {
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, ArrowUp: index - 1,
    ArrowDown: index + 1, Home: 0, End: handCards().length - 1 };
  if (event.key in moves) {
    event.preventDefault();
    focusCard(moves[event.key]);
  } else if (event.key === " " || event.key === "Enter") {
    event.preventDefault();
    chooseCard(index);
  }
}

function setSelected(index, on) {
  if (on) selected.add(index); else selected.delete(index);
  for (const view of [myCards(), phoneCards()]) {
    const card = view[index];
    if (!card) continue;
    card.classList.toggle("selected", on);
    card.setAttribute("aria-selected", String(on));
  }
  const symbols = handSymbols();
  $("selection").textContent = [...selected].sort((a, b) => a - b).map((i) => symbols[i]).join("");
}

function chooseCard(index) {
  const symbol = handSymbols()[index];
  if (symbol === undefined) return;
  if (current.kind === "uno") {
    if (symbol.startsWith("W")) {
      $("wild-card").textContent = symbol;
      $("colours").dataset.card = symbol;
      $("colours").hidden = false;
      $("colours").querySelector("button").focus();
      return;
    }
    act({ card: symbol });
    return;
  }
  if (current.phase !== "play") {
    say("Bid first: choose pass or a bid below.", "error");
    return;
  }
  setSelected(index, !selected.has(index));
}

function playSelected() {
  if (!current || current.replay || current.kind !== "doudizhu" || current.phase !== "play" ||
      !current.legal.length) return;
  const symbols = handSymbols();
  const cards = [...selected].sort((a, b) => a - b).map((i) => symbols[i]).join("");
  if (!cards) {
    // the hint fits the moment: a lead must play, a follower may pass instead
    say(current.leading ? "You lead: select the cards to play first (a lead cannot pass)." :
      "Select the cards to play first, or pass.", "error");
    return;
  }
  act({ cards });
}

function clearSelection() {
  for (const index of [...selected]) setSelected(index, false);
}

function pressAction(...labels) {
  // the first action button with one of these labels, as if clicked
  const found = Array.from($("actions").querySelectorAll("button"))
    .find((b) => labels.includes(b.textContent));
  if (found) found.click();
  return Boolean(found);
}

function gameKey(event) {
  // P play, N pass (or let it pass), D draw, C clear: anywhere but in a text field
  if (!current || current.replay || current.over || !current.legal.length) return;
  const key = event.key.toLowerCase();
  if (key === "p") playSelected();
  else if (key === "n") pressAction("pass", "let it pass");
  else if (key === "d") pressAction("draw");
  else if (key === "c") clearSelection();
  else return;
  event.preventDefault();
}

async function act(body) {
  await attempt(async () => {
    show(await call("POST", `/api/games/${current.id}/act`, body));
  });
}

// --- replays ---------------------------------------------------------------------------------

function showReplay(state) {
  $("controls").hidden = true;
  $("stepper").hidden = false;
  $("hand").replaceChildren();
  const slider = $("ply");
  slider.max = String(state.plies);
  slider.value = String(state.ply);
  $("ply-label").textContent = `ply ${state.ply} of ${state.plies}`;
  $("log-intro").textContent = "";
  const log = $("log");
  log.start = 1;
  log.replaceChildren(...state.moves.map((move, index) => {
    const item = logLine(index + 1, move);
    item.className = index < state.ply ? "step done" : "step";
    if (index === state.ply - 1) item.classList.add("now");
    item.addEventListener("click", () => goTo(index + 1));
    return item;
  }));
  const now = log.querySelector(".now");
  if (now) now.scrollIntoView({ block: "nearest" });
  else log.scrollTop = 0; // the deal: the first moves in view
  showVerdicts(state);
  const whose = state.you === null || state.you === undefined ? "" :
    `Seat ${state.you}'s view (the other hands were never sent). `;
  say(whose + (state.ply === 0 ? "The deal. Step forward with > or the arrow keys." :
    `After ${state.moves[state.ply - 1]}` + (state.over && state.ply === state.plies ? " (the end)" : "")));
}

// The verdict strip: a replay of a Dou Dizhu game with every hand open is reviewed once by
// the server (ddz.review): one cell a ply, the mover's verdict before the move (win, loss or
// unknown within the budget), a blunder (a won position turned into a lost one) marked, and
// the solver's best move in the cell's title. A bid has an empty cell; a click steps there.
let review = null; // { id, rows } of the replay shown, or { id } while on the way

function showVerdicts(state) {
  const strip = $("verdicts");
  if (state.kind !== "doudizhu" || (state.you !== null && state.you !== undefined)) {
    strip.hidden = true;
    return;
  }
  strip.hidden = false;
  if (!review || review.id !== state.id) {
    review = { id: state.id };
    strip.replaceChildren();
    strip.dataset.ready = "false";
    strip.setAttribute("aria-label", "reviewing with every hand open...");
    call("GET", `/api/replays/${state.id}/review`).then((answer) => {
      if (review && review.id === answer.id) {
        review.rows = answer.rows;
        review.summary = `${answer.plies} plies reviewed with every hand open: ` +
          `${answer.known} known, ${answer.blunders} blunder${answer.blunders === 1 ? "" : "s"}`;
        if (current && current.id === answer.id) drawVerdicts(current);
      }
    }).catch((error) => {
      strip.setAttribute("aria-label", `no review: ${error.message}`);
      strip.title = `no review: ${error.message}`;
      // busy (another review is running): ask again in two seconds while this replay shows
      if (error.status === 503 && review && review.id === state.id) {
        review = null;
        setTimeout(() => {
          if (!review && current && current.id === state.id) showVerdicts(current);
        }, 2000);
      }
    });
    return;
  }
  if (review.rows) drawVerdicts(state);
}

const VERDICT = { 1: "win", "-1": "loss", null: "unknown" };

function drawVerdicts(state) {
  const strip = $("verdicts");
  const rows = new Map(review.rows.map((row) => [row.ply, row]));
  strip.replaceChildren(...state.moves.map((move, index) => {
    const cell = document.createElement("span");
    const row = rows.get(index);
    cell.className = "verdict";
    cell.dataset.ply = String(index + 1);
    if (!row) {
      cell.classList.add("bid");
      cell.title = `${index + 1}. ${move}`;
    } else {
      const before = VERDICT[row.before], after = VERDICT[row.after];
      cell.classList.add(before);
      if (row.blunder) {
        cell.classList.add("blunder");
        cell.textContent = "!";
      }
      cell.title = `${index + 1}. ${move}: ${before} before, ${after} after` +
        (row.best === null ? "" : `; best ${row.best}`) + (row.blunder ? " (blunder)" : "");
    }
    if (index === state.ply - 1) cell.classList.add("now");
    cell.addEventListener("click", () => goTo(index + 1));
    return cell;
  }));
  strip.setAttribute("aria-label", review.summary);
  strip.title = review.summary;
  strip.dataset.ready = "true";
}

// Steps are queued, not dropped: each press moves the ply wanted, and one request at a time
// fetches it until the page shows it (keys pressed faster than the server answers add up).
let wanted = null; // the ply asked for, while on the way
let stepping = false;

function goTo(ply) {
  if (!current || !current.replay) return;
  wanted = Math.max(0, Math.min(current.plies, ply));
  if (!stepping) fetchWanted();
}

function stepBy(delta) {
  if (!current || !current.replay) return;
  goTo((wanted === null ? current.ply : wanted) + delta);
}

async function fetchWanted() {
  stepping = true;
  try {
    while (wanted !== null && current.replay && wanted !== current.ply) {
      const target = wanted;
      show(await call("GET", `/api/replays/${current.id}?ply=${target}`));
    }
  } catch (error) {
    say(error.message, "error");
  } finally {
    wanted = null;
    stepping = false;
  }
}

// --- the forms -------------------------------------------------------------------------------

function fillAgents() {
  const uno = $("game").value === "uno";
  const names = uno ? options.uno_agents : options.agents;
  const select = $("agents");
  const chosen = select.value || "greedy";
  select.replaceChildren(...names.map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    return option;
  }));
  select.value = names.includes(chosen) ? chosen : names[0];
  $("players-label").hidden = !uno;
  const seats = uno ? Number($("players").value) || 4 : $("game").value === "two-player" ? 2 : 3;
  $("seat").max = String(seats - 1);
}

function newGame() {
  const body = { game: $("game").value, seat: Number($("seat").value), agents: $("agents").value };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if (body.game === "uno") body.players = Number($("players").value);
  attempt(async () => {
    show(await call("POST", "/api/games", body));
    toTheTable();
  });
}

function toTheTable() {
  // a phone's screen is short: scroll the form away, the table, your hand and the buttons up
  if (window.matchMedia("(max-width: 700px)").matches) $("table").scrollIntoView();
}

function loadReplay() {
  const record = $("record").value;
  wanted = null;
  attempt(async () => {
    // a replay opens at the deal (ply 0), then steps forward
    show(await call("POST", "/api/replays", { record, ply: 0 }));
    $("record-box").open = false; // the record's text folds away under the board's form
    toTheTable();
  });
}

function switchTab(replay) {
  $("tab-play").classList.toggle("active", !replay);
  $("tab-replay").classList.toggle("active", replay);
  $("play-form").hidden = replay;
  $("replay-form").hidden = !replay;
}

document.addEventListener("DOMContentLoaded", () => {
  $("tab-play").addEventListener("click", () => switchTab(false));
  $("tab-replay").addEventListener("click", () => switchTab(true));
  $("game").addEventListener("change", fillAgents);
  $("players").addEventListener("change", fillAgents);
  $("new-game").addEventListener("click", newGame);
  $("load-replay").addEventListener("click", loadReplay);
  $("replay-this").addEventListener("click", replayFinished);
  $("record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) $("record").value = await file.text();
  });
  $("play-selected").addEventListener("click", playSelected);
  $("clear-selected").addEventListener("click", clearSelection);
  for (const colour of document.querySelectorAll("#colours button")) {
    colour.addEventListener("click", () => {
      act({ action: `play ${$("colours").dataset.card} ${colour.dataset.colour}` });
    });
  }
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => stepBy(-1));
  $("forward").addEventListener("click", () => stepBy(1));
  $("last").addEventListener("click", () => goTo(current.plies));
  $("ply").addEventListener("change", () => goTo(Number($("ply").value)));
  document.addEventListener("keydown", (event) => {
    if (!current || event.ctrlKey || event.metaKey || event.altKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    if (!current.replay) {
      gameKey(event);
      return;
    }
    if (event.key === "ArrowRight") stepBy(1);
    else if (event.key === "ArrowLeft") stepBy(-1);
    else if (event.key === "Home") goTo(0);
    else if (event.key === "End") goTo(current.plies);
    else return;
    event.preventDefault();
  });
  attempt(async () => {
    options = await call("GET", "/api/options");
    fillAgents();
  });
  fillAgents();
  say("Choose a game and press New game, or load a record to replay.");
});
