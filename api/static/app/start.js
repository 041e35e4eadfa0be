// The start page: POST /games, POST /games/{id}/armies for each seat, then each seat's link and QR code.
// Roster files (.rosz, .ros, New Recruit JSON) are the next army source: ARMY_SOURCES is where it plugs in.
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

// army source -> (seat, its textarea) -> the body POST /games/{id}/armies takes
const ARMY_SOURCES = {
  demo: async (seat) => ({units: await demoArmy(seat)}),
  json: async (seat, box) => ({units: pastedArmy(seat, box)}),
};

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
      armies[seat] = await ARMY_SOURCES[block.querySelector(".army-source").value](seat, block.querySelector(".army-json"));
    }
    const options = {battle_rounds: Number(el("battle-rounds").value), spectator_delay_s: Number(el("spectator-delay").value)};
    const created = await post("/games", {ruleset: el("ruleset").value, dice: el("dice").value, options,
      players: ["A", "B"].map((seat) => ({seat, name: names[seat]}))});
    for (const seat of ["A", "B"]) await post(`/games/${created.game_id}/armies`, armies[seat], created.tokens[seat]);
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
  source.addEventListener("change", () => { block.querySelector(".army-json").hidden = source.value !== "json"; });
}
el("create").addEventListener("click", create);
