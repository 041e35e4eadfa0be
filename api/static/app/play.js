// The table app: the moment, the units, the legal actions as forms, the log, live from the event feed.
// What may be sent comes only from the state's "actions" and "anytime" (CONTRACT.md, "Legal actions").
import {Client} from "./client.js";
import {datasheet} from "./datasheet.js";
import {drawRoll} from "./dice.js";
import {commandForm, field, hasChoices, make} from "./form.js";
import {showMoment} from "./moment.js";
import {showResult} from "./ending.js";

const el = (id) => document.getElementById(id);
const put = (id, text) => { el(id).textContent = text; };
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token") || "";
const sentence = (type) => String(type).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

const LOG_LINES = 300;  // read at first: the newest; earlier ones a page at a time, on a tap (a long game opens fast)
const app = {state: null, events: new Map(), lastSeq: 0, undone: new Set(), source: null, refreshing: null};
const client = new Client(gameId, token, {onAnswer: answered, onQueue: queued});

// -- the moment, the units, the roll ----------------------------------------------------------

const mySeat = fragment.get("seat");
const unitName = (id) => app.state?.units?.[id]?.name || id;

function showUnits(state) {
  const cards = Object.entries(state.units || {}).map(([id, unit]) => make("article",
    {class: `unit owner-${unit.owner} ${unit.strength}${unit.eligible ? " eligible" : ""}`, "data-unit": id},
    make("h3", {}, make("button", {type: "button", class: "sheet-open", "data-sheet": id, text: unit.name,
      "aria-label": `${unit.name}: open the datasheet`})),
    make("div", {class: "unit-id", text: state.players[unit.owner] ?? ""}),
    make("div", {class: "models", text: `${unit.models_alive} / ${unit.starting_strength}`}),
    make("div", {class: "band", text: unit.strength_title}),  // the service's words: "below half strength"
    unit.status_details?.length ? make("div", {class: "statuses", text: unit.status_details.map((s) => `${s.title} (${s.until})`).join(", ")}) : null,
    unit.embarked_in ? make("div", {class: "statuses", text: `embarked in ${unitName(unit.embarked_in)}`}) : null,
    make("div", {class: "flags", text: [unit.eligible && "eligible", unit.selected && "selected"].filter(Boolean).join(" · ")})));
  el("units").replaceChildren(...cards);
  for (const button of el("units").querySelectorAll("button.sheet-open")) button.addEventListener("click", () => openSheet(button.dataset.sheet));
}

function openSheet(id) {  // the unit's datasheet, from the state shown (it follows the game while open)
  app.sheet = id;
  const unit = app.state?.units?.[id];
  if (!unit) return;
  el("datasheet-body").replaceChildren(...datasheet(id, unit, app.state));
  if (!el("datasheet").open) el("datasheet").showModal();
}

// the newest roll standing: the state's `last_roll`, or a newer free roll from the log (the state leaves those out;
// a free roll is for what its player wrote)
function lastRoll(state) {
  const free = [...app.events.values()].filter((e) => e.type === "DiceRolled" && e.data?.free && !app.undone.has(e.seq))
    .sort((a, b) => b.seq - a.seq)[0];
  const roll = state.last_roll;
  if (free && (!roll || free.seq > roll.seq)) {
    return {seq: free.seq, purpose: free.data.purpose, purpose_title: free.data.purpose, unit: free.data.unit, seat: free.by, faces: free.data.faces,
      total: free.data.total, needed: free.data.needed, outcomes: free.data.outcomes, successes: free.data.successes,
      text: free.data.text ?? free.text};
  }
  return roll;
}

let shownRoll = null;
function showRoll(roll) {
  el("roll").hidden = !roll;
  const key = roll && JSON.stringify([roll.seq, roll.faces, roll.outcomes]);
  if (!roll || key === shownRoll) return;
  shownRoll = key;
  drawRoll(el("roll-body"), roll, app.state);
}

// -- what this seat may send --------------------------------------------------------------

// Some actions' summaries still name a unit by its id ("select a-squad-1 to shoot"): read with its name instead
// (a service-side wording gap, reported; nothing is judged here, an id is only swapped for the unit's own name)
function named(text) {
  const units = app.state?.units || {};
  const ids = Object.keys(units).sort((x, y) => y.length - x.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (!ids.length || !text) return text || "";
  return String(text).replace(new RegExp(`(?<![\\w-])(${ids.join("|")})(?![\\w-])`, "g"), (id) => units[id]?.name || id);
}

// a form whose unit is fixed (one form a unit) still shows which unit it is for
const namesItsUnit = (schema) => Object.values(schema.properties || {}).some((sub) => "const" in sub && sub.format === "unit");

function actionCard(action) {
  const form = commandForm(action.schema, {lastRoll: app.state?.last_roll, units: app.state?.units, seat: mySeat});
  const send = make("button", {type: "submit", class: "send", "data-action": action.type, text: action.title});
  const card = make("form", {class: "action", "data-action": action.type, novalidate: true},
    make("div", {class: "summary", text: named(action.summary)}), make("div", {class: "rule", text: action.rule}),
    hasChoices(action.schema) || namesItsUnit(action.schema) ? form.el : null, send);
  card.addEventListener("submit", (event) => {
    event.preventDefault();
    const got = form.read();
    if (!got.present) return formProblem(card, {title: "Not sent", detail: `${action.schema.properties?.[got.missing]?.title ?? got.missing} is needed`, field: `/${got.missing}`});
    sendFrom(card, "/commands", got.value, action.summary);
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
      if (!got.present) return formProblem(form, {title: "Not sent", detail: `${name} is needed`, field: `/${name}`});
      body[name] = name === "dice" ? got.value.trim().split(/[\s,]+/).map(Number) : got.value;
    }
    sendFrom(form, "/commands", body, `free roll ${body.spec}`);
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
  if (spectator) {  // nothing offered (the game over, or a spectator's page): no form of play stays in the page
    if (app.offer !== undefined) el("actions").replaceChildren();
    app.offer = undefined;
    return;
  }
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
  const shown = el("actions").querySelector(".form-problem");  // a refusal at a form no longer offered: kept, on top
  if (shown?.problem) showProblem(shown.problem);
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

// An undo waiting for an answer (state.undo_request): the seat that asked waits, and may withdraw it; the other
// seat reads what would be undone, in the events' own words, and approves or rejects it.
function showConsent(state) {
  if (!state) return;
  const pending = state.undo_request;
  el("consent").hidden = !pending;
  if (!pending) return el("consent").replaceChildren();  // no answer left to tap once it is gone
  const asker = pending.requested_by, other = asker === "A" ? "B" : "A";
  const [askerName, otherName] = [state.players[asker] ?? "", state.players[other] ?? ""];
  const anytime = state.anytime || [];
  const undone = pending.seqs.map((seq) => app.events.get(seq)).filter(Boolean).map((e) => e.text || sentence(e.type));
  const button = (type, text) => {
    const tapped = make("button", {type: "button", class: `anytime ${type}`, "data-consent": type, text});
    tapped.addEventListener("click", () => client.send(ANYTIME[type][0], null, ANYTIME[type][1]));
    return tapped;
  };
  const what = make("ul", {class: "undo-what"}, ...(undone.length ? undone : [`${pending.seqs.length} earlier events`])
    .map((line) => make("li", {text: line})));
  const children = [make("h2", {text: "Undo asked"})];
  if (pending.you_answer) {
    children.push(make("p", {text: `${askerName} asks to undo:`}), what, make("div", {class: "buttons"},
      ...[["approve", "Approve"], ["reject", "Reject"]].filter(([type]) => anytime.includes(type)).map(([type, text]) => button(type, text))));
  } else if (anytime.includes("withdraw")) {
    children.push(make("p", {class: "waiting", text: `Waiting for ${otherName}`}), make("p", {class: "hint", text: "You asked to undo:"}), what,
      make("div", {class: "buttons"}, button("withdraw", "Withdraw")));
  } else {
    children.push(make("p", {text: `${askerName} asks to undo:`}), what, make("p", {class: "waiting", text: `Waiting for ${otherName}`}));
  }
  el("consent").replaceChildren(...children);
}

// -- answers and refusals -----------------------------------------------------------------

// A refusal is shown at the form that sent it, in the service's words, its field (`field`, a JSON pointer) marked
const sentFrom = new Map();  // a tap's Idempotency-Key -> the form it was sent from

function sendFrom(form, path, body, label) {
  clearFormProblem(form);
  sentFrom.set(client.send(path, body, label), form);
}

function clearFormProblem(form) {
  form.querySelector(".form-problem")?.remove();
  for (const marked of form.querySelectorAll(".at-fault")) { marked.classList.remove("at-fault"); marked.removeAttribute("aria-invalid"); }
}

// a rule ID as a link to its text on the rules page (GET /rules.html#ID), which every refusal, event and audit cites
function ruleLink(id, text = id) {
  const link = make("a", {class: "rule", href: `/rules.html#${encodeURIComponent(id)}`, target: "_blank",
    rel: "noopener", title: "what this rule says", text});
  link.addEventListener("click", (event) => event.stopPropagation());  // a log line's own tap opens its audit
  return link;
}

function formProblem(form, problem) {
  clearFormProblem(form);
  const name = String(problem.field || "").split("/").filter(Boolean)[0];
  const at = name && !/[^\w-]/.test(name) ? form.querySelector(`[data-field="${name}"]`) : null;
  if (at) { at.classList.add("at-fault"); at.setAttribute("aria-invalid", "true"); }
  const box = make("div", {class: "form-problem", role: "alert"}, make("strong", {text: problem.title || "Refused"}),
    make("span", {text: ` ${problem.detail || ""} `}), problem.rule ? ruleLink(problem.rule, `(${problem.rule})`) : null);
  box.problem = problem;
  form.insertBefore(box, form.querySelector("button.send"));
  box.scrollIntoView({block: "nearest"});
}

function showProblem(problem) {
  const box = el("problem");
  box.hidden = !problem;
  if (!problem) return;
  box.replaceChildren(make("strong", {text: problem.title || "Refused"}), make("span", {text: ` ${problem.detail || ""} `}),
    problem.rule ? ruleLink(problem.rule, `(${problem.rule})`) : null);
  box.scrollIntoView({block: "nearest"});
}

// A write's answer carries `view`, this seat's state right after it (CONTRACT.md "One request a tap"): shown as
// it is, with no read after the tap. Only an answer without one (a refusal) sends the page back to /state.
function answered(item, status, body) {
  const form = sentFrom.get(item.key);
  sentFrom.delete(item.key);
  if (status >= 400 && form?.isConnected) { showProblem(null); formProblem(form, body || {title: `HTTP ${status}`}); }
  else if (status >= 400) showProblem(body || {title: `HTTP ${status}`});
  else { showProblem(null); if (form) clearFormProblem(form); }
  const fresh = (body?.events || []).filter(remember);
  if (fresh.length) drawLog();
  if (body?.view) show(body.view);
  else refresh();
}

function queued(items, offline) {
  const text = offline ? `offline — ${items.length} waiting to send` : items.length ? `sending ${items.length}…` : "";
  put("connection", text || (document.body.dataset.connection === "live" ? "" : "connecting…"));
  document.body.classList.toggle("offline", offline);
}

// -- the log ------------------------------------------------------------------------------

function logLine(event) {
  const line = make("li", {"data-seq": String(event.seq), class: app.undone.has(event.seq) ? "undone" : ""},
    make("button", {type: "button", class: "seq", text: `#${event.seq}`, "aria-label": `#${event.seq}: open its audit`}),
    make("span", {class: "what", text: event.text || sentence(event.type)}),
    event.rule ? ruleLink(event.rule) : make("span", {class: "rule"}));
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
  const shown = [...app.events.values()].sort((a, b) => b.seq - a.seq);
  const oldest = shown.length ? shown[shown.length - 1].seq : 1;
  el("log").replaceChildren(...shown.map(logLine));
  el("log-earlier").hidden = oldest <= 1;
  el("log-earlier").textContent = `Show earlier events (${oldest - 1} more)`;
  if (app.state) showRoll(lastRoll(app.state));
}

async function readEarlier() {  // the page of events before the oldest shown
  const oldest = Math.min(...app.events.keys());
  const after = Math.max(0, oldest - 1 - LOG_LINES);
  const page = await client.get(`/events?after=${after}&limit=${oldest - 1 - after}`);
  page.events.forEach(remember);
  drawLog();
}

async function openAudit(seq) {
  const body = el("audit-body");
  body.replaceChildren(make("p", {text: "reading…"}));
  el("audit").showModal();
  try {
    const audit = await client.get(`/audit/${seq}`);
    const rule = audit.rule;
    body.replaceChildren(make("h2", {text: audit.event.text || `#${seq} ${sentence(audit.event.type)}`}),
      rule ? make("p", {class: "rule-text"}, make("strong", {}, ruleLink(rule.id)), make("span", {text: ` ${rule.summary ?? "(no summary)"}`})) : make("p", {text: "No rule: a record only."}),
      audit.sent ? make("p", {text: `Sent by ${audit.sent.by ?? "the service"}: ${audit.sent.command?.type ?? audit.sent.endpoint ?? ""}`}) : null,
      audit.dice ? make("p", {text: `Dice: ${JSON.stringify(audit.dice.faces ?? audit.dice)}`}) : null,
      ...(audit.causes || []).map((cause) => make("p", {class: "hint", text: `because of #${cause.seq} ${sentence(cause.type)}: ${cause.why}`})),
      ...(audit.undo_history || []).map((entry) => make("p", {class: "hint", text: `#${entry.seq}: ${entry.why}`})));
  } catch (error) {
    body.replaceChildren(make("p", {text: `Could not read the audit: ${error.message}`}));
  }
}

// -- live ---------------------------------------------------------------------------------

// A short buzz (and a beep) when it becomes this phone's go, if the player asked for it (kept on this device)
const BUZZ = "warlog:buzz";
let beeper = null;
function setUpBuzz() {
  const box = el("buzz");
  el("buzz-row").hidden = !["A", "B"].includes(mySeat);
  box.checked = localStorage.getItem(BUZZ) === "on";
  box.addEventListener("change", () => {
    localStorage.setItem(BUZZ, box.checked ? "on" : "off");
    if (box.checked && !beeper && window.AudioContext) beeper = new AudioContext();  // made on a tap, as browsers ask
  });
}

function buzz() {
  if (localStorage.getItem(BUZZ) !== "on") return;
  navigator.vibrate?.([120, 60, 120]);
  if (!beeper) return;
  const tone = beeper.createOscillator(), volume = beeper.createGain();
  volume.gain.value = 0.15;
  tone.frequency.value = 880;
  tone.connect(volume).connect(beeper.destination);
  tone.start();
  tone.stop(beeper.currentTime + 0.15);
}

// Everything the page shows of a state: from a read of /state, or from a write's `view`
function show(state) {
  if (app.state && state.version < app.state.version) return;  // an older answer overtaken by a newer one
  const mine = (s) => Boolean(s && s.status !== "ended" && s.awaiting?.seat && s.awaiting.seat === mySeat);
  if (app.state && !mine(app.state) && mine(state)) buzz();  // it has just become this phone's go
  app.state = state;
  showMoment(state, mySeat, () => app.state); showUnits(state); showActions(state); showRoll(lastRoll(state));
  showConsent(state); showResult(state, client);
  if (el("datasheet").open && app.sheet) openSheet(app.sheet);
  document.body.dataset.version = String(state.version);
}

function refresh() {  // re-read the state; one read at a time
  if (app.refreshing) { app.refreshAgain = true; return app.refreshing; }
  app.refreshing = (async () => {
    try {
      show(await client.get("/state"));
    } catch (error) {
      if (error.status) showProblem(error.body);
    } finally {
      app.refreshing = null;
      if (app.refreshAgain) { app.refreshAgain = false; refresh(); }
    }
  })();
  return app.refreshing;
}

// An event from the feed the state shown does not hold yet: the other phone's move (re-read /state), or this
// phone's own, whose answer (with its `view`) is on its way; a burst of events is one read.
function behind(seq) {
  app.wanted = Math.max(app.wanted || 0, seq);
  clearTimeout(app.behindTimer);
  app.behindTimer = setTimeout(() => {
    if ((app.state?.version ?? 0) >= app.wanted) return;
    if (client.sending) return behind(app.wanted);  // our own write is in flight: its answer brings the view
    refresh();
  }, 40);
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
    const event = JSON.parse(message.data);
    if (remember(event)) { drawLog(); showConsent(app.state); }
    behind(event.seq);
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
  el("datasheet-close").addEventListener("click", () => el("datasheet").close());
  setUpBuzz();
  // a phone that changes network can keep a dead stream open for minutes: start again from the last seq seen
  addEventListener("online", () => { follow(); refresh(); });
  // a page left (kept in the back-forward cache) must not hold its stream: a browser opens six connections to a
  // host, and pages left with their streams open starved the next page of its reads and writes
  addEventListener("pagehide", () => { const source = app.source; app.source = null; source?.close(); });
  addEventListener("pageshow", (event) => { if (event.persisted) { follow(); refresh(); } });
  if (!token) { showProblem({title: "No token", detail: "open this page from a seat's link (…#token=…)"}); return; }
  el("log-earlier").addEventListener("click", readEarlier);
  await refresh();
  app.lastSeq = Math.max(0, (app.state?.version ?? 0) - LOG_LINES);  // the newest events only, however long the game
  await catchUp();
  follow();
  client.flush();  // whatever an earlier visit left waiting
}

main();
