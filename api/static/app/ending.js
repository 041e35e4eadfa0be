// The end of the game: who won (or a draw), the score, how it was decided in words and the rule that decided
// it, from `state.result`; the summary's sentence (GET /summary `text`) and its charts, drawn by the service
// (GET /games/{id}/charts/{chart}, SVG) and shown from blobs, so the seat's token never sits in a URL.
import {make} from "./form.js";

const el = (id) => document.getElementById(id);

export const CHARTS = [["vp", "Victory points by battle round"], ["losses", "Units and models lost by battle round"],
  ["luck", "Dice luck (50 is average)"]];

let drawnFor = null;

export function showResult(state, client) {
  const box = el("result");
  const result = state.status === "ended" ? state.result : null;
  box.hidden = !result;
  document.body.classList.toggle("ended", Boolean(result));
  if (!result) { drawnFor = null; return; }
  if (drawnFor === state.version) return;
  drawnFor = state.version;
  const name = (seat) => state.players?.[seat] ?? "";
  const headline = result.draw || !result.winner ? "A draw" : `${name(result.winner)} wins`;
  const score = make("p", {class: "score", id: "result-score"},
    make("span", {class: "seat-a", text: `${name("A")} ${result.score?.A ?? 0}`}), make("span", {text: " – "}),
    make("span", {class: "seat-b", text: `${result.score?.B ?? 0} ${name("B")}`}));
  const summary = make("p", {id: "result-text", class: "result-text"});
  const charts = make("div", {class: "charts", id: "result-charts"});
  const exportLink = make("a", {id: "result-export", href: "#", text: "Download the game's log (NDJSON)"});
  exportLink.addEventListener("click", (event) => { event.preventDefault(); download(client, exportLink); });
  box.replaceChildren(make("h2", {id: "result-heading", text: "Game over"}),
    make("p", {class: "headline", id: "result-headline", text: headline}), score,
    make("p", {id: "result-how", text: `${result.how} (${result.rule})`}), summary, charts, make("p", {}, exportLink));
  fill(client, state.version, summary, charts);
}

async function fill(client, version, summary, charts) {
  try {
    const read = await client.get("/summary");
    if (drawnFor === version) summary.textContent = read.text;
  } catch (error) {
    summary.textContent = `The summary could not be read: ${error.message}`;
  }
  for (const [chart, label] of CHARTS) {
    try {
      const svg = await client.blob(`/charts/${chart}`);
      if (drawnFor !== version) return;
      charts.append(make("figure", {class: "chart", "data-chart": chart},  // the chart's own title is its caption
        make("img", {src: URL.createObjectURL(svg), alt: label})));
    } catch (error) {
      charts.append(make("p", {class: "hint", text: `${label}: could not be drawn (${error.message})`}));
    }
  }
}

async function download(client, link) {
  const file = await client.blob("/export?format=ndjson");
  const saved = make("a", {href: URL.createObjectURL(file), download: `${client.gameId}-events.ndjson`});
  document.body.append(saved);
  saved.click();
  saved.remove();
  link.textContent = "Downloaded the game's log (NDJSON)";
}
