// The start page: POST /games, POST /games/{id}/armies for each seat, then each seat's link and QR code.
// Army sources: the demo armies, pasted Unit JSON, or a roster file sent as it is (the service reads it).
import {make} from "./form.js";

const el = (id) => document.getElementById(id);

async function demoArmy(seat) {
  const armies = await (await fetch("/app/demo-armies.json")).json();
  return armies[seat];
}

function pastedArmy(seat, box) {
  let parsed;
  try { parsed = JSON.parse(box.value); } catch (error) { throw new Error(`seat ${seat}'s army is not JSON: ${error.message}`); }
  return Array.isArray(parsed) ? parsed : parsed.units;
}

function rosterFile(seat, block) {
  const file = block.querySelector(".army-file").files[0];
  if (!file) throw new Error(`choose seat ${seat}'s roster file`);
  return file;
}

// army source -> (seat, its block) -> the body POST /games/{id}/armies takes: JSON, or a roster file's bytes
const ARMY_SOURCES = {
  demo: async (seat) => ({json: {units: await demoArmy(seat)}}),
  json: async (seat, block) => ({json: {units: pastedArmy(seat, block.querySelector(".army-json"))}}),
  roster: async (seat, block) => ({file: rosterFile(seat, block), units: block.converted?.units || []}),
};

async function refusal(response) {
  const answer = await response.json().catch(() => null);
  const where = answer?.field ? ` [${answer.field}]` : "";
  return new Error(`${answer?.title || response.status}: ${answer?.detail || ""}${answer?.rule ? ` (${answer.rule})` : ""}${where}`);
}

async function muster(gameId, seat, army, token) {
  if (army.json) return post(`/games/${gameId}/armies`, army.json, token);
  const response = await fetch(`/games/${gameId}/armies`, {method: "POST", body: army.file,
    headers: {"Content-Type": army.file.type || "application/octet-stream", Authorization: `Bearer ${token}`}});
  if (!response.ok) throw await refusal(response);
  return response.json();
}

// the ruleset cards (radio inputs): the one checked, and checking one as a roster file sets it (no change event)
const rulesetInputs = () => [...el("ruleset").querySelectorAll('input[name="ruleset"]')];
// (before the cards are drawn from GET /rulesets, a roster file's ruleset waits in `pending` for them)
const chosenRuleset = () => rulesetInputs().find((input) => input.checked)?.value ?? el("ruleset").dataset.pending ?? null;
function checkRuleset(name) {
  el("ruleset").dataset.pending = name;
  for (const input of rulesetInputs()) input.checked = input.value === name;
}

// the ruleset a roster file is read as: the player's choice, else the one a roster already set, else none (the
// service answers the roster's own game system, and the page takes it as the game's ruleset)
function rosterRuleset() {
  const cards = el("ruleset");
  return cards.dataset.chosen || cards.dataset.fromRoster ? chosenRuleset() : null;
}

function unmappedList(unmapped) {
  if (!unmapped.length) return make("p", {class: "unmapped-none", text: "Everything in the file was mapped."});
  return make("details", {class: "unmapped", open: ""},
    make("summary", {text: `${unmapped.length} ${unmapped.length === 1 ? "entry" : "entries"} not mapped (or assumed)`}),
    make("ul", {}, ...unmapped.map((item) => make("li", {}, make("span", {text: item.what}), " ",
      make("code", {text: item.path})))));
}

function pointsLine(summary) {
  const stated = summary.stated_points === null || summary.stated_points === summary.points ? ""
    : ` (the roster states ${summary.stated_points})`;
  return `${summary.points} points${stated}`;
}

async function preview(block) {  // what the service makes of a roster file, before any game exists
  const out = block.querySelector(".army-preview");
  const file = block.querySelector(".army-file").files[0];
  out.hidden = !file;
  if (!file) return;
  out.textContent = "reading the roster…";
  block.converted = null;
  const ruleset = rosterRuleset();
  const response = await fetch(`/rosters/convert${ruleset ? `?ruleset=${encodeURIComponent(ruleset)}` : ""}`,
    {method: "POST", body: file, headers: {"Content-Type": file.type || "application/octet-stream"}});
  if (!response.ok) { out.textContent = (await refusal(response)).message; return; }
  const converted = await response.json();
  block.converted = converted;
  const models = (unit) => unit.models.reduce((sum, line) => sum + line.count, 0);
  const readAs = ruleset ? `read as ${converted.ruleset}`
    : `read as ${converted.ruleset}, the roster's own game system (choose another ruleset above to read it as that)`;
  if (!ruleset) {
    checkRuleset(converted.ruleset);
    el("ruleset").dataset.fromRoster = converted.ruleset;
  }
  out.replaceChildren(
    make("p", {class: "army-units", text: `${converted.units.length} units, ${pointsLine(converted.summary)}: ` +
      converted.units.map((unit) => `${unit.name} (${models(unit)})`).join(", ")}),
    make("p", {class: "army-ruleset", text: readAs}),
    unmappedList(converted.unmapped));
}

async function post(path, body, token) {
  const response = await fetch(path, {method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", ...(token ? {Authorization: `Bearer ${token}`} : {})}});
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error(`${answer?.title || response.status}: ${answer?.detail || ""}${answer?.rule ? ` (${answer.rule})` : ""}`);
  }
  return answer;
}

async function qrCode(link) {  // a POST: the link's token never rides in a URL the server could log
  const response = await fetch("/qr", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({data: link})});
  const img = make("img", {class: "qr", alt: "QR code of the link"});
  img.src = URL.createObjectURL(await response.blob());
  return img;
}

// the clipboard API is a secure context's (https, localhost): on a plain-HTTP LAN address the browser withholds it,
// so Copy selects the link and copies the selection (execCommand, still allowed on a tap), or leaves it selected
function copyButton(link) {
  const button = make("button", {type: "button", class: "copy", text: "Copy"});
  button.addEventListener("click", async () => {
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(link); button.textContent = "Copied"; return; } catch { /* below */ }
    }
    getSelection().selectAllChildren(button.previousSibling);
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    button.textContent = copied ? "Copied" : "Selected: copy it from the menu";
  });
  return button;
}

async function showLinks(created, names) {
  const origin = location.origin;
  const rows = [];
  for (const seat of ["A", "B"]) {
    const link = `${origin}/play/${created.game_id}#token=${created.tokens[seat]}&seat=${seat}`;
    rows.push(make("li", {"data-seat": seat}, make("strong", {text: `${names[seat]} (seat ${seat})`}),
      make("div", {class: "link-row"}, make("a", {href: link, class: "seat-link", text: link}), copyButton(link)),
      await qrCode(link)));
  }
  const overlay = `${origin}/games/${created.game_id}/overlay.html?token=${created.tokens.spectator}`;
  const watch = `${origin}/play/${created.game_id}#token=${created.tokens.spectator}`;
  rows.push(make("li", {"data-seat": "spectator"}, make("strong", {text: "Spectators: the overlay (a stream's browser source)"}),
    make("div", {class: "link-row"}, make("a", {href: overlay, class: "overlay-link", text: overlay}), copyButton(overlay))));
  rows.push(make("li", {"data-seat": "watch"}, make("strong", {text: "Spectators: the table, read only"}),
    make("div", {class: "link-row"}, make("a", {href: watch, class: "watch-link", text: watch}), copyButton(watch))));
  el("link-list").replaceChildren(...rows);
  el("links").hidden = false;
  el("links").dataset.gameId = created.game_id;
}

function gameOptions() {
  const options = {battle_rounds: Number(el("battle-rounds").value), spectator_delay_s: Number(el("spectator-delay").value)};
  const objectives = el("objectives").value.split(",").map((name) => name.trim()).filter(Boolean);
  if (objectives.length) options.objectives = objectives;
  if (el("clock-minutes").value) {
    options.clock_minutes = Number(el("clock-minutes").value);
    options.clock_loses = el("clock-loses").checked;
  }
  return options;
}

// the muster answer's `renamed` (a mirror match: ids the other army already used), said in words
function renamedSentence(seat, names, renamed, units) {
  const pairs = Object.entries(renamed || {});
  if (!pairs.length) return null;
  const named = (id) => units.find((unit) => unit.id === id)?.name || id;
  return `${names[seat]}'s army shares unit ids with the other army, so the service renamed ${pairs.length === 1 ?
    "one" : pairs.length} of ${names[seat]}'s: ` + pairs.map(([from, to]) => `${named(from)} (${from} is now ${to})`).join("; ") + ".";
}

async function create() {
  el("problem").hidden = true;
  el("create").disabled = true;
  try {
    const names = {A: el("name-A").value.trim() || "A", B: el("name-B").value.trim() || "B"};
    const armies = {};
    for (const block of el("armies").querySelectorAll("[data-seat]")) {
      const seat = block.dataset.seat;
      armies[seat] = await ARMY_SOURCES[block.querySelector(".army-source").value](seat, block);
    }
    const created = await post("/games", {ruleset: chosenRuleset(), dice: el("dice").value, options: gameOptions(),
      players: ["A", "B"].map((seat) => ({seat, name: names[seat]}))});
    const notes = [];
    for (const seat of ["A", "B"]) {
      const answer = await muster(created.game_id, seat, armies[seat], created.tokens[seat]);
      notes.push(renamedSentence(seat, names, answer.renamed, armies[seat].json?.units || armies[seat].units));
    }
    el("renamed").replaceChildren(...notes.filter(Boolean).map((note) => make("p", {text: note})));
    el("renamed").hidden = !notes.some(Boolean);
    await showLinks(created, names);
    remember(created, names, chosenRuleset());
  } catch (error) {
    el("problem").hidden = false;
    el("problem").textContent = error.message;
  } finally {
    el("create").disabled = false;
  }
}

const DICE = {  // what each dice mode means for the players at the table (how the service works, no rule)
  server: "The service rolls every die and publishes a commitment to its seed first, so anyone can check the rolls afterwards.",
  table: "The players roll real dice at the table and enter the faces; the service records them and applies the rules.",
};
function explainDice() { el("dice-explained").textContent = DICE[el("dice").value]; }

// the rulesets as the service's registry describes them (GET /rulesets), a card each: its title names the game it
// models and a line says how it plays; the page restates none of it
async function describeRulesets() {
  const response = await fetch("/rulesets").catch(() => null);
  const {rulesets} = response?.ok ? await response.json() : {rulesets: []};
  if (!rulesets.length) {  // the page names no ruleset itself: the service's registry is the one list of them
    el("ruleset-cards").replaceChildren(make("p", {class: "hint", role: "alert",
      text: "The rulesets could not be read from the service: reload the page."}));
    return;
  }
  const chosen = chosenRuleset();  // read now: a roster file may have set it while the list was on its way
  el("ruleset-cards").replaceChildren(...rulesets.map((ruleset) => make("label", {class: "ruleset-card", "data-ruleset": ruleset.name},
    make("input", {type: "radio", name: "ruleset", value: ruleset.name}),
    make("span", {class: "card-title", text: ruleset.title}), make("span", {class: "card-summary", text: ruleset.summary}))));
  checkRuleset(rulesets.some((ruleset) => ruleset.name === chosen) ? chosen : rulesets[0].name);
}

// "your games": the games made on this device, kept in its storage (with their links: a link is its seat)
const GAMES_KEY = "warlog:games";
const myGames = () => { try { return JSON.parse(localStorage.getItem(GAMES_KEY)) || []; } catch { return []; } };

function remember(created, names, ruleset) {
  const seatLink = (seat) => `/play/${created.game_id}#token=${created.tokens[seat]}&seat=${seat}`;
  const game = {game_id: created.game_id, ruleset, names, made: new Date().toISOString(),
    links: {A: seatLink("A"), B: seatLink("B"), watch: `/play/${created.game_id}#token=${created.tokens.spectator}`}};
  localStorage.setItem(GAMES_KEY, JSON.stringify([game, ...myGames().filter((g) => g.game_id !== game.game_id)].slice(0, 20)));
  showMyGames();
}

function showMyGames() {
  const games = myGames();
  el("my-games").hidden = !games.length;
  el("my-game-list").replaceChildren(...games.map((game) => make("li", {"data-game-id": game.game_id},
    make("span", {class: "my-game-title", text: `${game.names.A} v ${game.names.B}, ${game.ruleset}, ` +
      new Date(game.made).toLocaleString()}),
    make("span", {class: "my-game-links"},
      make("a", {href: game.links.A, "data-seat": "A", text: `resume as ${game.names.A}`}), " · ",
      make("a", {href: game.links.B, "data-seat": "B", text: `resume as ${game.names.B}`}), " · ",
      make("a", {href: game.links.watch, "data-seat": "watch", text: "watch"})))));
}

for (const block of el("armies").querySelectorAll("[data-seat]")) {
  const source = block.querySelector(".army-source");
  source.addEventListener("change", () => {
    block.querySelector(".army-json").hidden = source.value !== "json";
    block.querySelector(".army-file").hidden = source.value !== "roster";
    block.querySelector(".army-preview").hidden = source.value !== "roster" || !block.querySelector(".army-file").files[0];
  });
  block.querySelector(".army-file").addEventListener("change", () => preview(block));
}
el("ruleset").addEventListener("change", () => {  // a card checked (a radio's change bubbles up to its fieldset)
  el("ruleset").dataset.chosen = chosenRuleset();  // the player's choice: a roster file no longer sets it
  for (const block of el("armies").querySelectorAll("[data-seat]")) {
    if (block.querySelector(".army-source").value === "roster") preview(block);
  }
});
el("create").addEventListener("click", create);
el("dice").addEventListener("change", explainDice);
explainDice();
describeRulesets();
showMyGames();
