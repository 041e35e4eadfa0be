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
  roster: async (seat, block) => ({file: rosterFile(seat, block)}),
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

async function preview(block) {  // what the service makes of a roster file, before any game exists
  const out = block.querySelector(".army-preview");
  const file = block.querySelector(".army-file").files[0];
  out.hidden = !file;
  if (!file) return;
  out.textContent = "reading the roster…";
  const response = await fetch(`/rosters/convert?ruleset=${encodeURIComponent(el("ruleset").value)}`,
    {method: "POST", body: file, headers: {"Content-Type": file.type || "application/octet-stream"}});
  if (!response.ok) { out.textContent = (await refusal(response)).message; return; }
  const converted = await response.json();
  const models = (unit) => unit.models.reduce((sum, line) => sum + line.count, 0);
  out.textContent = `${converted.units.length} units: ` +
    converted.units.map((unit) => `${unit.name} (${models(unit)})`).join(", ") +
    (converted.unmapped.length ? `; ${converted.unmapped.length} entries not mapped (listed in the import answer)` : "");
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

function copyButton(link) {
  const button = make("button", {type: "button", class: "copy", text: "Copy"});
  button.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link); button.textContent = "Copied"; } catch {
      // no clipboard outside a secure context: select the link instead, for a long press
      getSelection().selectAllChildren(button.previousSibling); button.textContent = "Selected";
    }
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
    const options = {battle_rounds: Number(el("battle-rounds").value), spectator_delay_s: Number(el("spectator-delay").value)};
    const created = await post("/games", {ruleset: el("ruleset").value, dice: el("dice").value, options,
      players: ["A", "B"].map((seat) => ({seat, name: names[seat]}))});
    for (const seat of ["A", "B"]) await muster(created.game_id, seat, armies[seat], created.tokens[seat]);
    await showLinks(created, names);
  } catch (error) {
    el("problem").hidden = false;
    el("problem").textContent = error.message;
  } finally {
    el("create").disabled = false;
  }
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
el("ruleset").addEventListener("change", () => {
  for (const block of el("armies").querySelectorAll("[data-seat]")) {
    if (block.querySelector(".army-source").value === "roster") preview(block);
  }
});
el("create").addEventListener("click", create);
