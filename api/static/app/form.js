// A form for any schema of the contract's JSON Schema subset (CONTRACT.md, "Legal actions").
// It knows no rule: every choice, bound and count comes from the schema the service offered.
// field(schema, name) -> {el, read()} where read() gives {present, value}; an optional field left
// alone is absent, never a default the player did not choose.

import {dieChoice} from "./dice.js";

let context = {};  // what a form is drawn against: {lastRoll, units, seat, unit} (a die's choice as the roll's dice)

function make(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (value !== undefined && value !== null && value !== false) el.setAttribute(key, value === true ? "" : value);
  }
  el.append(...children.filter(Boolean));
  return el;
}
export { make };

const isMap = (schema) => schema.type === "object" && schema.properties &&
  Object.keys(schema.properties).length > 0 && !(schema.required || []).length;
// A choice: an enum, or a oneOf of {const, title} (CONTRACT.md "In the players' words": what a player reads
// is the title, what is sent the const); `format` says what it names (unit, weapon, seat, objective, ...). The
// service titles every choice and field it offers; a schema without titles shows its values and names as they
// are, never words made of them here.
const isChoice = (schema) => "enum" in (schema || {}) || "oneOf" in (schema || {});
const options = (schema) => (schema.oneOf
  ? schema.oneOf.map((entry) => ({value: entry.const, text: entry.title ?? String(entry.const)}))
  : schema.enum.map((value) => ({value, text: String(value)})));
const isDice = (schema) => schema.type === "array" && schema.items?.type === "integer" &&
  ("minItems" in schema || "maxItems" in schema) && !isChoice(schema.items);

function label(schema, name) {
  return schema.title || name;
}

// An optional field: a switch in front of it says whether it is sent at all.
function optional(inner, schema, name) {
  const use = make("input", {type: "checkbox", class: "use", "aria-label": `send ${label(schema, name)}`});
  const row = make("div", {class: "field optional", "data-field": name}, make("label", {class: "use-label"}, use,
    make("span", {text: label(schema, name)})), inner.el);
  inner.el.classList.add("off");
  // choosing a value is choosing to send it
  inner.el.addEventListener("input", () => { use.checked = true; row.classList.add("on"); inner.el.classList.remove("off"); });
  inner.el.addEventListener("click", (e) => { if (e.target.closest("button")) { use.checked = true; row.classList.add("on"); inner.el.classList.remove("off"); } });
  use.addEventListener("change", () => { row.classList.toggle("on", use.checked); inner.el.classList.toggle("off", !use.checked); });
  return {el: row, read: () => (use.checked ? inner.read() : {present: false})};
}

// An optional yes/no: two buttons, neither chosen at first (so nothing is sent); tapping the chosen one clears it.
function yesNo(schema, name) {
  let chosen;
  const group = make("div", {class: "choices", role: "radiogroup", "data-field": name, "aria-label": label(schema, name)});
  for (const [option, text] of [[true, "yes"], [false, "no"]]) {
    const button = make("button", {type: "button", class: "choice", role: "radio", "data-value": String(option),
      "aria-checked": "false", text});
    button.addEventListener("click", () => {
      chosen = chosen === option ? undefined : option;
      for (const other of group.children) other.setAttribute("aria-checked", String(other.dataset.value === String(chosen)));
    });
    group.append(button);
  }
  return {el: make("div", {class: "field optional-choice", "data-field": name}, make("span", {class: "field-label", text: `${label(schema, name)} (optional)`}), group),
    read: () => (chosen === undefined ? {present: false} : {present: true, value: chosen})};
}

function choices(schema, name) {
  const offered = options(schema);
  const format = schema.format || schema.items?.format;
  const named = label(schema, name);
  if (format === "die") return dieChoice(offered, context.lastRoll, name);  // tap the die itself
  if (format === "unit" && context.units) {  // a card a unit, whatever their number
    return cardChoices(offered, name, named, "unit", (value, text) => unitCard(context.units[value], text));
  }
  if (format === "weapon" && context.units) {  // a card a weapon: its profile as the unit's datasheet gives it
    return cardChoices(offered, name, named, "weapon", (value, text) => weaponCard(wielded(value), text));
  }
  if (offered.length <= 4) {  // a few: buttons, one tap each
    return cardChoices(offered, name, named, format, (value, text) => ({children: [text]}));
  }
  const select = make("select", {"data-field": name, "data-format": format, "aria-label": named},
    make("option", {value: "", text: "— choose —"}),
    ...offered.map(({value, text}, i) => make("option", {value: String(i), "data-value": String(value), text})));
  return {el: select, read: () => (select.value === "" ? {present: false, missing: name}
    : {present: true, value: offered[Number(select.value)].value})};
}

// One tap a choice: a button for each (a card where `draw` gives it more than its title), one of them chosen
function cardChoices(offered, name, named, format, draw) {
  let chosen = offered.length === 1 ? offered[0].value : undefined;
  const cards = format === "unit" || format === "weapon";
  const group = make("div", {class: cards ? `choices ${format}-cards` : "choices", role: "radiogroup", "data-field": name,
    "data-format": format, "aria-label": named});
  for (const {value, text} of offered) {
    const {card = "", children} = draw(value, text);
    const button = make("button", {type: "button", class: cards ? `choice ${format}-card${card}` : "choice", role: "radio",
      "data-value": String(value), "aria-checked": String(value === chosen)}, ...children);
    button.addEventListener("click", () => {
      chosen = value;
      for (const other of group.children) other.setAttribute("aria-checked", String(other === button));
      group.dispatchEvent(new Event("input", {bubbles: true}));
    });
    group.append(button);
  }
  return {el: group, read: () => (chosen === undefined ? {present: false, missing: name} : {present: true, value: chosen})};
}

// A unit's card: its title as the service gives it ("Assault Squad (8 of 10)") and its statline, from the state
const STATS = ["M", "T", "Sv", "InSv", "W", "Ld", "OC"];
function statline(unit) {
  const line = unit?.models?.find((model) => (model.alive ?? model.count) > 0) || unit?.models?.[0];
  return line ? STATS.filter((key) => line[key] != null).map((key) => `${key} ${line[key]}`).join(" · ") : "";
}

function unitCard(unit, text) {
  return {card: unit ? ` owner-${unit.owner}` : "",
    children: [make("span", {class: "card-title", text}), make("span", {class: "card-stats", text: statline(unit)})]};
}

// The weapon a choice names, read off the unit the form is for (else off this seat's units), as the state's
// datasheet gives it: its name, its `profile` (Range, A, BS or WS, S, AP, D, in the service's notation) and keywords
function wielded(name) {
  const units = context.unit ? [context.units[context.unit]]
    : Object.values(context.units).filter((unit) => unit.owner === context.seat);
  return units.flatMap((unit) => unit?.weapons || []).find((weapon) => weapon.name === name);
}

function weaponCard(weapon, text) {
  if (!weapon?.profile) return {children: [make("span", {class: "card-title", text})]};  // no profile: its title
  const stats = Object.entries(weapon.profile).map(([key, value]) => make("span", {class: "stat"},
    make("span", {class: "stat-key", text: key}), " ", make("span", {class: "stat-value", text: String(value)})));
  return {children: [make("span", {class: "card-title", text: weapon.name}), make("span", {class: "card-stats"}, ...stats),
    weapon.keywords?.length ? make("span", {class: "card-keywords", text: weapon.keywords.join(", ")}) : null].filter(Boolean)};
}

function dicePad(schema, name) {
  const low = schema.minItems ?? 0, high = schema.maxItems ?? Infinity;
  const sides = schema.items.maximum ?? 6, lowest = schema.items.minimum ?? 1;
  const faces = [];
  const shown = make("div", {class: "faces", "aria-live": "polite"});
  const pad = make("div", {class: "pad"});
  const counter = make("span", {class: "count"});
  const draw = () => {
    shown.replaceChildren(...faces.map((face) => make("span", {class: "die", text: String(face)})));
    counter.textContent = high === Infinity ? `${faces.length} dice` : `${faces.length} of ${high === low ? high : `${low}–${high}`}`;
  };
  for (let face = lowest; face <= sides; face += 1) {
    const key = make("button", {type: "button", class: "face", "data-face": String(face), text: String(face)});
    key.addEventListener("click", () => { if (faces.length < high) { faces.push(face); draw(); } });
    pad.append(key);
  }
  const clear = make("button", {type: "button", class: "clear", text: "⌫"});
  clear.addEventListener("click", () => { faces.pop(); draw(); });
  pad.append(clear);
  draw();
  return {el: make("div", {class: "dice-pad", "data-field": name, "data-min-items": String(low)}, make("div", {class: "dice-head"}, shown, counter), pad),
    read: () => (faces.length < low ? {present: false, missing: `${name} (${low} dice)`} : {present: true, value: [...faces]})};
}

function checkboxes(schema, name) {
  const boxes = options(schema.items).map(({value: option, text}) => ({option, text,
    box: make("input", {type: "checkbox", value: String(option)})}));
  const el = make("div", {class: "checks", "data-field": name, "data-min-items": String(schema.minItems ?? 0),
    "data-format": schema.items.format},
    ...boxes.map(({text, box}) => make("label", {class: "check"}, box, make("span", {text}))));
  return {el, read: () => {
    const value = boxes.filter(({box}) => box.checked).map(({option}) => option);
    if (value.length < (schema.minItems ?? 0)) return {present: false, missing: name};
    return {present: true, value};
  }};
}

function list(schema, name) {
  const items = [];
  const rows = make("div", {class: "rows"});
  const add = make("button", {type: "button", class: "add", text: `+ ${label(schema, name)}`});
  const grow = () => {
    if (items.length >= (schema.maxItems ?? Infinity)) return;
    const item = field(schema.items || {}, `${name}[${items.length}]`, true);
    items.push(item);
    rows.append(item.el);
  };
  add.addEventListener("click", grow);
  for (let i = 0; i < (schema.minItems ?? 0); i += 1) grow();
  return {el: make("div", {class: "list", "data-field": name}, rows, add), read: () => {
    const value = [];
    for (const item of items) {
      const got = item.read();
      if (!got.present) return {present: false, missing: got.missing || name};
      value.push(got.value);
    }
    return {present: true, value};
  }};
}

function object(schema, name) {
  const required = new Set(schema.required || []);
  const fields = Object.entries(schema.properties || {}).map(([key, sub]) => [key, field(sub, key, required.has(key))]);
  const el = make(name ? "fieldset" : "div", {class: isMap(schema) ? "object map" : "object", "data-field": name || null},
    name ? make("legend", {text: label(schema, name)}) : null,
    schema.description && name ? make("p", {class: "hint", text: schema.description}) : null,
    ...fields.map(([, f]) => f.el));
  return {el, read: () => {
    const value = {};
    for (const [key, f] of fields) {
      const got = f.read();
      if (got.present) value[key] = got.value;
      else if (required.has(key)) return {present: false, missing: got.missing || key};
    }
    return {present: true, value};
  }};
}

function input(schema, name) {
  const kind = schema.type;
  if (kind === "boolean") {
    const box = make("input", {type: "checkbox", role: "switch", class: "toggle", "data-field": name});
    return {el: make("label", {class: "toggle-row"}, box, make("span", {text: label(schema, name)})),
      read: () => ({present: true, value: box.checked})};
  }
  const numeric = kind === "integer" || kind === "number";
  const box = make("input", numeric
    ? {type: "number", inputmode: kind === "integer" ? "numeric" : "decimal", min: schema.minimum, max: schema.maximum,
       step: kind === "integer" ? "1" : "any", "data-field": name, "aria-label": label(schema, name)}
    : {type: "text", minlength: schema.minLength, maxlength: schema.maxLength, "data-field": name, "aria-label": label(schema, name),
       placeholder: schema.description || ""});
  return {el: box, read: () => {
    if (box.value === "" || !box.checkValidity()) return {present: false, missing: name};
    return {present: true, value: numeric ? Number(box.value) : box.value};
  }};
}

// One field of a schema; `required` says whether the command needs it (else it is optional and may be left out).
export function field(schema, name, required = true) {
  if ("const" in schema && schema.format === "unit" && context.units?.[schema.const]) {  // the form's own unit, shown
    const unit = context.units[schema.const];
    const {children} = unitCard(unit, `${unit.name} (${unit.models_alive} of ${unit.starting_strength})`);
    return {el: make("div", {class: `unit-card fixed owner-${unit.owner}`, "data-field": name, "data-value": String(schema.const)},
      ...children), read: () => ({present: true, value: schema.const})};
  }
  if ("const" in schema) return {el: make("span", {hidden: true}), read: () => ({present: true, value: schema.const})};
  if (!required && schema.type === "boolean") return yesNo(schema, name);
  let inner;
  if (isChoice(schema)) inner = choices(schema, name);
  else if (schema.type === "object") inner = object(schema, name);
  else if (isDice(schema)) inner = dicePad(schema, name);
  else if (schema.type === "array" && schema.uniqueItems && isChoice(schema.items)) inner = checkboxes(schema, name);
  else if (schema.type === "array") inner = list(schema, name);
  else inner = input(schema, name);
  if (!required) return optional(inner, schema, name);
  if (schema.type === "object" || schema.type === "boolean") return inner;
  return {el: make("div", {class: "field", "data-field": name}, make("span", {class: "field-label", text: label(schema, name)}), inner.el),
    read: inner.read};
}

// Does this schema ask for anything but its constants? (a command without a choice is one button)
export function hasChoices(schema) {
  return Object.values(schema.properties || {}).some((sub) => !("const" in sub));
}

export function commandForm(schema, drawnAgainst = {}) {
  // the unit the form is for, where it is fixed: the one whose weapons its weapon choice names
  const fixed = Object.values(schema.properties || {}).find((sub) => "const" in sub && sub.format === "unit");
  context = {...drawnAgainst, unit: fixed && drawnAgainst.units?.[fixed.const] ? fixed.const : null};
  try { return object(schema, ""); } finally { context = {}; }
}
