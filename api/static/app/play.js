// The table app: the moment, the units, the legal actions as forms, the log, live from the event feed.
// What may be sent comes only from the state's "actions" and "anytime" (CONTRACT.md, "Legal actions").
import {Client} from "./client.js";
import {commandForm, field, hasChoices, make, words} from "./form.js";

const el = (id) => document.getElementById(id);
const put = (id, text) => { el(id).textContent = text; };
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token") || "";
const title = (text) => words(text).replace(/\b\w/g, (c) => c.toUpperCase());
const sentence = (type) => String(type).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

const LOG_LINES = 300;  // the newest; a long game's whole log stays a tap away in each event's audit
const app = {state: null, undo: null, events: new Map(), lastSeq: 0, undone: new Set(), source: null, refreshing: null};
const client = new Client(gameId, token, {onAnswer: answered, onQueue: queued});

// -- the moment ---------------------------------------------------------------------------

function whoseGo(state) {
  if (state.status === "ended") {
    const winner = state.result?.winner;
    return winner ? `${state.players[winner]} wins` : "Game over";
  }
  const {seat, action} = state.awaiting || {};
  if (!action || action === "none") return "";
  const who = seat ? `${state.players[seat]}'s go` : "Either player";
  return `${who} · ${words(action)}`;
}

function showMoment(state) {
  put("round", state.status === "setup" ? "Setting up" : `Round ${state.battle_round} of ${state.options?.battle_rounds ?? "?"}`);
  put("phase", title(state.phase || ""));
  put("sub-phase", state.sub_phase ? `· ${title(state.sub_phase)}` : "");
  put("whose-go", whoseGo(state));
  for (const seat of ["A", "B"]) {
    put(`name-${seat}`, `${state.players[seat]} (${seat})`);
    put(`pp-${seat}`, String(state.pass_points?.[seat] ?? 0));
    put(`cp-${seat}`, String(state.cp?.[seat] ?? 0));
    put(`vp-${seat}`, state.vp ? String(state.vp[seat] ?? 0) : "–");
    put(`done-${seat}`, state.declared_done?.[seat] ? "declared done" : "");
    el(`seat-${seat}`).classList.toggle("to-act", state.awaiting?.seat === seat);
    el(`seat-${seat}`).classList.toggle("me", fragment.get("seat") === seat);
  }
}

function showUnits(state) {
  const cards = Object.entries(state.units || {}).map(([id, unit]) => make("article",
    {class: `unit owner-${unit.owner} ${unit.strength}${unit.eligible ? " eligible" : ""}`, "data-unit": id},
    make("h3", {text: unit.name || id}),
    make("div", {class: "unit-id", text: `${id} · ${state.players[unit.owner] ?? unit.owner}`}),
    make("div", {class: "models", text: `${unit.models_alive} / ${unit.starting_strength}`}),
    make("div", {class: "band", text: words(unit.strength)}),
    unit.statuses?.length ? make("div", {class: "statuses", text: unit.statuses.map(words).join(", ")}) : null,
    unit.embarked_in ? make("div", {class: "statuses", text: `embarked in ${unit.embarked_in}`}) : null,
    make("div", {class: "flags", text: [unit.eligible && "eligible", unit.selected && "selected"].filter(Boolean).join(" · ")})));
  el("units").replaceChildren(...cards);
}

// the newest roll still standing, from the log: every roll event carries spec, faces, total and purpose
function lastRoll() {
  const rolls = [...app.events.values()].filter((e) => Array.isArray(e.data?.faces) && !app.undone.has(e.seq));
  const newest = rolls.sort((a, b) => b.seq - a.seq)[0];
  return newest && {seq: newest.seq, purpose: newest.data.purpose, unit: newest.data.unit, faces: newest.data.faces,
    total: newest.data.total, seat: newest.data.seat ?? newest.by};
}

let shownRoll = null;
function showRoll(roll) {
  el("roll").hidden = !roll;
  if (!roll || roll.seq === shownRoll) return;
  shownRoll = roll.seq;
  put("roll-what", `${title(roll.purpose)}${roll.unit ? ` (${roll.unit})` : ""}${roll.seat ? ` · ${app.state.players[roll.seat] ?? roll.seat}` : ""}`);
  el("roll-faces").replaceChildren();
  roll.faces.forEach((face, i) => setTimeout(() => {  // faces appear one by one, as dice land
    if (shownRoll === roll.seq) el("roll-faces").append(make("span", {class: "die fresh", text: String(face)}));
  }, i * 90));
  put("roll-total", roll.total == null ? "" : `= ${roll.total}`);
}

// -- what this seat may send --------------------------------------------------------------

function actionCard(action) {
  const form = commandForm(action.schema);
  const send = make("button", {type: "submit", class: "send", "data-action": action.type, text: action.title || title(action.type)});
  const card = make("form", {class: "action", "data-action": action.type, novalidate: true},
    make("div", {class: "summary", text: action.summary}), make("div", {class: "rule", text: action.rule}),
    hasChoices(action.schema) ? form.el : null, send);
  card.addEventListener("submit", (event) => {
    event.preventDefault();
    const got = form.read();
    if (!got.present) return showProblem({title: "Not sent", detail: `${words(got.missing)} is needed`});
    client.send("/commands", got.value, action.summary);
  });
  return card;
}

const ANYTIME = {  // the anytime entries that need no form: the endpoint each taps
  undo: ["/undo", "Undo", null], redo: ["/redo", "Redo", null],
  approve: ["/undo/approve", "Approve undo", null], reject: ["/undo/reject", "Reject undo", null],
  withdraw: ["/undo/withdraw", "Withdraw undo request", null],
  concede: ["/commands", "Concede", {type: "concede"}],
};

function freeRollForm(state) {
  const spec = field({type: "string", minLength: 1, maxLength: 20, title: "dice", description: "e.g. 2D6"}, "spec");
  const purpose = field({type: "string", minLength: 1, maxLength: 80, title: "for", description: "what it decides"}, "purpose");
  const table = state.dice === "table";
  // in table dice the faces are the players' own: how many a spec needs is the service's to say (422 if not)
  const faces = table ? field({type: "string", minLength: 1, maxLength: 60, title: "faces", description: "as rolled: 4 2"}, "dice") : null;
  const form = make("form", {class: "action free-roll", "data-action": "free_roll", novalidate: true},
    make("div", {class: "summary", text: "a recorded roll for anything else"}), spec.el, purpose.el, faces?.el,
    make("button", {type: "submit", class: "send", "data-action": "free_roll", text: "Roll"}));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = {type: "free_roll"};
    for (const [name, f] of [["spec", spec], ["purpose", purpose], ["dice", faces]]) {
      if (!f) continue;
      const got = f.read();
      if (!got.present) return showProblem({title: "Not sent", detail: `${name} is needed`});
      body[name] = name === "dice" ? got.value.trim().split(/[\s,]+/).map(Number) : got.value;
    }
    client.send("/commands", body, `free roll ${body.spec}`);
  });
  return form;
}

function showActions(state) {
  const actions = state.actions || [];
  const anytime = state.anytime || [];
  const spectator = !actions.length && !anytime.length;
  document.body.classList.toggle("spectator", spectator);
  el("actions-card").hidden = spectator;
  el("anytime-card").hidden = spectator;
  // redrawn only when what is offered changes: the other player's moves must not wipe a half-filled form
  if (spectator) return;
  const offer = JSON.stringify([actions, state.status]);
  if (offer !== app.offer) drawActions(state, actions);
  app.offer = offer;
  const open = JSON.stringify(anytime);
  if (open !== app.open) drawAnytime(state, anytime);
  app.open = open;
  const records = JSON.stringify(state.records || []);
  if (records !== app.records) el("records").replaceChildren(...(state.records || []).map(actionCard));
  app.records = records;
  el("records-card").hidden = !(state.records || []).length;
}

function drawActions(state, actions) {
  el("actions").replaceChildren(...(actions.length ? actions.map(actionCard)
    : [make("p", {class: "hint", text: state.status === "ended" ? "The game has ended." : "Nothing for you to do: the other player's go."})]));
}

function drawAnytime(state, anytime) {
  const buttons = anytime.filter((type) => ANYTIME[type]).map((type) => {
    const [path, text, body] = ANYTIME[type];
    const button = make("button", {type: "button", class: `anytime ${type}`, "data-anytime": type, text});
    button.addEventListener("click", () => {
      if (type === "concede" && !confirm("Concede the game? This ends it.")) return;
      client.send(path, body, text);
    });
    return button;
  });
  app.freeRoll ??= freeRollForm(state);  // made once: an undo or redo coming and going keeps what is typed
  app.freeRoll.hidden = !anytime.includes("free_roll");
  el("anytime").replaceChildren(make("div", {class: "buttons"}, ...buttons), app.freeRoll);
}

function showConsent(undo, state) {
  const pending = undo?.pending_request;
  el("consent").hidden = !pending;
  if (!pending) return;
  const who = state.players[pending.requested_by] ?? pending.requested_by;
  const what = pending.seqs.map((seq) => app.events.get(seq)).filter(Boolean).map((e) => sentence(e.type)).join(", ");
  const children = [make("h2", {text: "Undo asked"}),
    make("p", {text: `${who} asks to undo ${what || `events ${pending.seqs.join(", ")}`}.`})];
  const anytime = state.anytime || [];
  if (pending.you_answer && (anytime.includes("approve") || anytime.includes("reject"))) {
    children.push(make("div", {class: "buttons"}, ...["approve", "reject"].filter((t) => anytime.includes(t)).map((type) => {
      const button = make("button", {type: "button", class: `anytime ${type}`, "data-consent": type, text: title(type)});
      button.addEventListener("click", () => client.send(ANYTIME[type][0], null, ANYTIME[type][1]));
      return button;
    })));
  } else {
    children.push(make("p", {class: "hint", text: "Waiting for the other player's answer."}));
  }
  el("consent").replaceChildren(...children);
}

// -- answers and refusals -----------------------------------------------------------------

function showProblem(problem) {
  const box = el("problem");
  box.hidden = !problem;
  if (!problem) return;
  box.replaceChildren(make("strong", {text: problem.title || "Refused"}), make("span", {text: ` ${problem.detail || ""}`}),
    problem.rule ? make("span", {class: "rule", text: ` (${problem.rule})`}) : null);
}

function answered(item, status, body) {
  if (status >= 400) showProblem(body || {title: `HTTP ${status}`});
  else showProblem(null);
  refresh();
}

function queued(items, offline) {
  const text = offline ? `offline — ${items.length} waiting to send` : items.length ? `sending ${items.length}…` : "";
  put("connection", text || (document.body.dataset.connection === "live" ? "" : "connecting…"));
  document.body.classList.toggle("offline", offline);
}

// -- the log ------------------------------------------------------------------------------

function logLine(event) {
  const by = event.by ? ` · ${app.state?.players?.[event.by] ?? event.by}` : "";
  const data = event.data || {};
  const detail = data.faces ? ` ${data.spec || ""} → ${data.faces.join(" ")}${data.purpose ? ` (${data.purpose})` : ""}`
    : data.unit ? ` ${data.unit}` : "";
  const line = make("li", {"data-seq": String(event.seq), class: app.undone.has(event.seq) ? "undone" : ""},
    make("span", {class: "seq", text: `#${event.seq}`}), make("span", {class: "what", text: sentence(event.type) + detail + by}),
    make("span", {class: "rule", text: event.rule || ""}));
  line.addEventListener("click", () => openAudit(event.seq));
  return line;
}

function remember(event) {
  if (app.events.has(event.seq)) return false;
  app.events.set(event.seq, event);
  client.saw(event);
  app.lastSeq = Math.max(app.lastSeq, event.seq);
  if (event.undone) app.undone.add(event.seq);
  for (const seq of event.type === "ActionUndone" ? event.data.seqs : []) app.undone.add(seq);
  for (const seq of event.type === "ActionRedone" ? event.data.seqs : []) app.undone.delete(seq);
  return true;
}

function drawLog() {
  const newest = [...app.events.values()].sort((a, b) => b.seq - a.seq).slice(0, LOG_LINES);
  el("log").replaceChildren(...newest.map(logLine));
  if (app.state) showRoll(lastRoll());
}

async function openAudit(seq) {
  const body = el("audit-body");
  body.replaceChildren(make("p", {text: "reading…"}));
  el("audit").showModal();
  try {
    const audit = await client.get(`/audit/${seq}`);
    const rule = audit.rule;
    body.replaceChildren(make("h2", {text: `#${seq} ${sentence(audit.event.type)}`}),
      rule ? make("p", {class: "rule-text"}, make("strong", {text: rule.id}), make("span", {text: ` ${rule.summary ?? "(no summary)"}`})) : make("p", {text: "No rule: a record only."}),
      audit.sent ? make("p", {text: `Sent by ${audit.sent.by ?? "the service"}: ${audit.sent.command?.type ?? audit.sent.endpoint ?? ""}`}) : null,
      audit.dice ? make("p", {text: `Dice: ${JSON.stringify(audit.dice.faces ?? audit.dice)}`}) : null,
      ...(audit.causes || []).map((cause) => make("p", {class: "hint", text: `because of #${cause.seq} ${sentence(cause.type)}: ${cause.why}`})),
      ...(audit.undo_history || []).map((entry) => make("p", {class: "hint", text: `#${entry.seq}: ${entry.why}`})));
  } catch (error) {
    body.replaceChildren(make("p", {text: `Could not read the audit: ${error.message}`}));
  }
}

// -- live ---------------------------------------------------------------------------------

function refresh() {  // re-read the state (and what undo would do) after each event; one read at a time
  if (app.refreshing) { app.refreshAgain = true; return app.refreshing; }
  app.refreshing = (async () => {
    try {
      const [state, undo] = await Promise.all([client.get("/state"), client.get("/undo")]);
      app.state = state; app.undo = undo;
      showMoment(state); showUnits(state); showActions(state); showRoll(lastRoll()); showConsent(undo, state);
      document.body.dataset.version = String(state.version);
    } catch (error) {
      if (error.status) showProblem(error.body);
    } finally {
      app.refreshing = null;
      if (app.refreshAgain) { app.refreshAgain = false; refresh(); }
    }
  })();
  return app.refreshing;
}

async function catchUp() {
  for (;;) {
    const page = await client.get(`/events?after=${app.lastSeq}&limit=1000`);
    page.events.forEach(remember);
    if (!page.events.length || app.lastSeq >= page.last_seq) break;
  }
  drawLog();
}

function follow() {  // the feed from the last seq seen: after a lost connection it resumes, no reload
  if (app.source) app.source.close();
  const url = `${client.base}/events/stream?token=${encodeURIComponent(token)}&after=${app.lastSeq}`;
  const source = app.source = new EventSource(url);
  source.onopen = () => { document.body.dataset.connection = "live"; queued(client.queue(), client.offline); };
  source.onmessage = (message) => {
    if (remember(JSON.parse(message.data))) { drawLog(); refresh(); }
  };
  source.onerror = () => {
    document.body.dataset.connection = "lost";
    put("connection", "connection lost — reconnecting…");
    source.close();
    setTimeout(() => { if (app.source === source) follow(); }, 1000);
  };
}

async function main() {
  el("audit-close").addEventListener("click", () => el("audit").close());
  // a phone that changes network can keep a dead stream open for minutes: start again from the last seq seen
  addEventListener("online", () => { follow(); refresh(); });
  if (!token) { showProblem({title: "No token", detail: "open this page from a seat's link (…#token=…)"}); return; }
  await refresh();
  await catchUp();
  follow();
  client.flush();  // whatever an earlier visit left waiting
}

main();
