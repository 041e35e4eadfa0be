// Dice as dice: the last roll drawn face by face, each die coloured by what the service says it did
// (`outcomes`: success, critical, fail, rerolled, unused), its target (`needed`) and its successes in large
// type, and the service's sentence (`text`) beneath. Nothing here judges a die: the roll says what it means.
import {make} from "./form.js";

const OUTCOME_WORDS = {success: "success", critical: "critical", fail: "fail", rerolled: "re-rolled", unused: "not counted"};

// one die: its face, its outcome as a class and in words for a screen reader
export function dieFace(face, outcome, attrs = {}) {
  const said = OUTCOME_WORDS[outcome];
  return make(attrs.tag || "span", {class: `die${outcome ? ` ${outcome}` : ""}${attrs.class ? ` ${attrs.class}` : ""}`,
    "data-face": String(face), "data-outcome": outcome || null, title: attrs.title || null,
    "aria-label": attrs.label || (said ? `${face}, ${said}` : String(face)), type: attrs.type || null,
    role: attrs.role || (attrs.tag ? null : "img"), "aria-checked": attrs.checked ?? null}, make("span", {text: String(face), "aria-hidden": "true"}));
}

const unitName = (state, id) => state.units?.[id]?.name || id;

// the roll's heading: what it was for as the service says it (`purpose_title`: "a Desperate Escape"), whose unit,
// who rolled it; names, never ids
export function rollHeading(roll, state) {
  const purpose = roll.purpose_title || "";
  const what = purpose.charAt(0).toUpperCase() + purpose.slice(1);
  const unit = roll.unit ? unitName(state, roll.unit) : "";
  const seat = roll.seat ? state.players?.[roll.seat] ?? "" : "";
  return [what, unit, seat].filter(Boolean).join(" · ");
}

// the large figures: the target and the successes where the roll has them, else its total
export function rollFigures(roll) {
  const figures = [];
  if (roll.needed != null) figures.push(make("div", {class: "figure needed"}, make("span", {class: "big", text: `${roll.needed}+`}),
    make("span", {class: "small", text: "needed"})));
  if (roll.successes != null) figures.push(make("div", {class: "figure successes"},
    make("span", {class: "big", text: String(roll.successes)}), make("span", {class: "small", text: roll.successes === 1 ? "success" : "successes"})));
  else if (roll.total != null) figures.push(make("div", {class: "figure total"}, make("span", {class: "big", text: String(roll.total)}),
    make("span", {class: "small", text: "total"})));
  return figures;
}

// The roll card's contents; the faces land one by one, as dice do
export function drawRoll(box, roll, state) {
  const faces = make("div", {class: "faces", id: "roll-faces"});
  box.replaceChildren(make("div", {id: "roll-what", text: rollHeading(roll, state)}), faces,
    make("div", {class: "figures", id: "roll-figures"}, ...rollFigures(roll)),
    make("p", {id: "roll-text", text: roll.text || ""}));
  roll.faces.forEach((face, i) => setTimeout(() => {
    if (faces.isConnected) faces.append(dieFace(face, roll.outcomes?.[i], {class: "fresh"}));
  }, i * 60));
}

// A choice of a die of the last roll (`format: die`): the roll's dice, the offered ones to tap, the rest shown
// but not tappable. Each offered choice is {value, text}; value is the die's index in the roll as rolled.
export function dieChoice(offered, roll, name) {
  let chosen;
  const byIndex = new Map(offered.map((entry) => [Number(entry.value), entry]));
  const faces = roll?.faces || [];
  const indices = faces.length && offered.every((entry) => Number(entry.value) < faces.length)
    ? faces.map((_, i) => i) : offered.map((entry) => Number(entry.value));
  const group = make("div", {class: "choices dice-choice", role: "radiogroup", "data-field": name, "data-format": "die",
    "aria-label": "Die to re-roll"});
  const shown = make("p", {class: "hint chosen-die", "aria-live": "polite", text: "Tap the die to re-roll."});
  for (const index of indices) {
    const entry = byIndex.get(index);
    const face = faces[index] ?? (entry?.text.match(/(\d+)\s*$/) || [])[1] ?? "?";
    if (!entry) { group.append(dieFace(face, roll?.outcomes?.[index], {class: "idle"})); continue; }
    const button = dieFace(face, roll?.outcomes?.[index], {tag: "button", type: "button", class: "choice tap",
      role: "radio", checked: "false", label: entry.text, title: entry.text});
    button.dataset.value = String(entry.value);
    button.addEventListener("click", () => {
      chosen = entry.value;
      for (const other of group.querySelectorAll("button")) other.setAttribute("aria-checked", String(other === button));
      shown.textContent = `Re-roll ${entry.text}`;
      group.dispatchEvent(new Event("input", {bubbles: true}));
    });
    group.append(button);
  }
  return {el: make("div", {class: "dice-choose"}, group, shown),
    read: () => (chosen === undefined ? {present: false, missing: name} : {present: true, value: chosen})};
}
