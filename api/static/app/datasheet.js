// A unit's datasheet as the state gives it (CONTRACT.md "Units as datasheets"): its model lines with models alive
// of their count and a wounded model's wounds left, its weapons with their profiles and keywords, abilities,
// keywords, the unit it leads or is led by, and each status with when it ends. Read, never worked out here.
import {make} from "./form.js";

const LINE_OWN = new Set(["name", "count", "alive", "wounds_left"]);

function table(caption, head, rows) {
  return make("table", {class: "sheet"}, make("caption", {text: caption}),
    make("thead", {}, make("tr", {}, ...head.map((cell) => make("th", {scope: "col", text: cell})))),
    make("tbody", {}, ...rows.map((row) => make("tr", {}, ...row.map((cell, i) => make(i ? "td" : "th", i ? {text: cell} : {scope: "row", text: cell}))))));
}

function modelLines(unit) {
  const lines = unit.models || [];
  const stats = [...new Set(lines.flatMap((line) => Object.keys(line).filter((key) => !LINE_OWN.has(key) && line[key] != null)))];
  return table("Models", ["Models", "Alive", ...stats], lines.map((line) => [line.name,
    `${line.alive ?? line.count} of ${line.count}${line.wounds_left != null ? ` (${line.wounds_left} W left on the wounded one)` : ""}`,
    ...stats.map((key) => (line[key] == null ? "–" : String(line[key])))]));
}

function weapons(unit) {
  const list = unit.weapons || [];
  const stats = [...new Set(list.flatMap((weapon) => Object.keys(weapon.profile || {})))];
  return table("Weapons", ["Weapon", ...stats, "Keywords"], list.map((weapon) => [weapon.name,
    ...stats.map((key) => weapon.profile?.[key] ?? "–"), (weapon.keywords || []).join(", ") || "–"]));
}

export function datasheet(id, unit, state) {
  const name = (other) => state.units?.[other]?.name || other;
  const facts = [
    ["Player", state.players?.[unit.owner] ?? ""],
    ["Models", `${unit.models_alive} of ${unit.starting_strength} (${unit.strength_title})`],
    unit.points != null ? ["Points", String(unit.points)] : null,
    unit.leader_of ? ["Leads", name(unit.leader_of)] : null,
    unit.led_by ? ["Led by", name(unit.led_by)] : null,
    unit.embarked_in ? ["Embarked in", name(unit.embarked_in)] : null,
    ["Keywords", (unit.keywords || []).join(", ") || "–"],
    ["Abilities", (unit.abilities || []).join(", ") || "–"],
  ].filter(Boolean);
  const statuses = unit.status_details?.length
    ? unit.status_details.map((status) => make("li", {text: `${status.title}: ${status.until} (${status.rule})`}))
    : [make("li", {text: "None"})];
  return [make("h2", {id: "datasheet-name", text: unit.name}),
    make("dl", {class: "facts"}, ...facts.flatMap(([term, value]) => [make("dt", {text: term}), make("dd", {text: value})])),
    modelLines(unit), weapons(unit), make("h3", {text: "Statuses"}), make("ul", {class: "statuses-list"}, ...statuses)];
}
