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
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
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

function button(label, onClick, className) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (className) element.className = className;
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
  // a count of the states shown: lets a test (or anyone) wait for the next one
  document.body.dataset.shown = String(Number(document.body.dataset.shown || 0) + 1);
  $("table").innerHTML = state.svg;
  $("text").textContent = state.text;
  $("colours").hidden = true;
  showFinished(state);
  if (state.replay) {
    showReplay(state);
    return;
  }
  $("stepper").hidden = true;
  $("log-intro").textContent = state.intro;
  const log = $("log");
  log.start = state.log_start;
  log.replaceChildren(...state.log.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
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
    if (state.legal.includes("pass")) actions.append(button("pass", () => act({ action: "pass" })));
    if (state.legal.length) {
      $("more-actions").hidden = false;
      for (const action of state.legal) {
        if (action !== "pass") all.append(button(action, () => act({ action }), "small"));
      }
    }
  } else {
    for (const action of state.legal) {
      actions.append(button(ownText(action), () => act({ action: ownText(action) })));
    }
  }
  if (state.may_pass) actions.append(button("let it pass", () => act({ action: "none" }), "quiet"));
  wireCards(state);
}

function myCards() {
  return Array.from($("table").querySelectorAll(`g.card[data-seat="${current.you}"]`));
}

function wireCards(state) {
  if (state.over || state.legal.length === 0) return;
  for (const card of myCards()) {
    card.classList.add("clickable");
    card.addEventListener("click", () => clickCard(card));
  }
}

function selectedCards() {
  return myCards().filter((card) => card.classList.contains("selected"));
}

function clickCard(card) {
  const symbol = card.dataset.card;
  if (current.kind === "uno") {
    if (symbol.startsWith("W")) {
      $("wild-card").textContent = symbol;
      $("colours").dataset.card = symbol;
      $("colours").hidden = false;
      return;
    }
    attempt(() => act({ card: symbol }));
    return;
  }
  if (current.phase !== "play") {
    say("Bid first: choose pass or a bid below.", "error");
    return;
  }
  card.classList.toggle("selected");
  $("selection").textContent = selectedCards().map((c) => c.dataset.card).join("");
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
  const slider = $("ply");
  slider.max = String(state.plies);
  slider.value = String(state.ply);
  $("ply-label").textContent = `ply ${state.ply} of ${state.plies}`;
  $("log-intro").textContent = "";
  const log = $("log");
  log.start = 1;
  log.replaceChildren(...state.moves.map((move, index) => {
    const item = document.createElement("li");
    item.textContent = move;
    item.className = index < state.ply ? "step done" : "step";
    if (index === state.ply - 1) item.classList.add("now");
    item.addEventListener("click", () => goTo(index + 1));
    return item;
  }));
  const now = log.querySelector(".now");
  if (now) now.scrollIntoView({ block: "nearest" });
  const whose = state.you === null || state.you === undefined ? "" :
    `Seat ${state.you}'s view (the other hands were never sent). `;
  say(whose + (state.ply === 0 ? "The deal. Step forward with > or the arrow keys." :
    `After ${state.moves[state.ply - 1]}` + (state.over && state.ply === state.plies ? " (the end)" : "")));
}

function goTo(ply) {
  if (!current || !current.replay) return;
  const target = Math.max(0, Math.min(current.plies, ply));
  attempt(async () => show(await call("GET", `/api/replays/${current.id}?ply=${target}`)));
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
  attempt(async () => show(await call("POST", "/api/games", body)));
}

function loadReplay() {
  const record = $("record").value;
  attempt(async () => show(await call("POST", "/api/replays", { record })));
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
  $("play-selected").addEventListener("click", () => {
    const cards = selectedCards().map((card) => card.dataset.card).join("");
    if (!cards) {
      say("Click your cards first (or pass).", "error");
      return;
    }
    act({ cards });
  });
  $("clear-selected").addEventListener("click", () => {
    for (const card of selectedCards()) card.classList.remove("selected");
    $("selection").textContent = "";
  });
  for (const colour of document.querySelectorAll("#colours button")) {
    colour.addEventListener("click", () => {
      act({ action: `play ${$("colours").dataset.card} ${colour.dataset.colour}` });
    });
  }
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(current.ply - 1));
  $("forward").addEventListener("click", () => goTo(current.ply + 1));
  $("last").addEventListener("click", () => goTo(current.plies));
  $("ply").addEventListener("change", () => goTo(Number($("ply").value)));
  document.addEventListener("keydown", (event) => {
    if (!current || !current.replay || event.target.tagName === "TEXTAREA") return;
    if (event.key === "ArrowRight") goTo(current.ply + 1);
    if (event.key === "ArrowLeft") goTo(current.ply - 1);
  });
  attempt(async () => {
    options = await call("GET", "/api/options");
    fillAgents();
  });
  fillAgents();
  say("Choose a game and press New game, or load a record to replay.");
});
