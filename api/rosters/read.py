"""Reading one profile's characteristics as a ruleset reads them: numbers out of "3+", '6"', "D3+1",
the older editions' columns, vehicles' armour and hull points, weapons' type lines and AP scales."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from warlog.domain import dice
from warlog.domain.rulings import Malformed

if TYPE_CHECKING:
    from warlog.api.rosters.mapping import Context

Node = dict[str, Any]


class Missing(Malformed):
    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"{path}: {detail}", field=path)


KINDS = {"unit": "statline", "profile": "statline", "operative": "statline", "model": "statline",
         "vehicle": "vehicle", "walker": "vehicle", "building": "vehicle", "flyer": "vehicle",
         "ranged weapons": "ranged", "ranged weapon": "ranged", "c'tan powers": "ranged",
         "melee weapons": "melee", "melee weapon": "melee", "weapon": "weapon", "weapons": "weapon",
         "transport": "transport", "abilities": "ability"}
OLDER_KINDS = ("rapid_fire", "heavy", "assault", "pistol", "salvo")


def text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


def type_name(profile: Node) -> str:
    return text(profile.get("typeName")) or "untyped"


def profile_kind(profile: Node) -> str:
    name = type_name(profile).lower()  # " Unit" (HH 2nd, older data): trimmed before matching
    if name in KINDS:
        return KINDS[name]
    if name.startswith("wound track"):
        return "wound track"
    if name.startswith("abilit"):
        return "ability"
    return shape_kind(chars(profile))


SAVE_NAMES = {"SAVE": "SV", "SAV": "SV", "LEADERSHIP": "LD", "MOVE": "M", "MOVEMENT": "M", "WOUNDS": "W",
              "TOUGHNESS": "T", "STRENGTH": "S", "ATTACKS": "A"}
STATLINE_SHAPES = ({"WS", "BS", "S", "T", "W", "A"},  # the older editions and the Horus Heresy (with I, Ld, Sv)
                   {"M", "T", "SV", "W", "LD", "OC"},  # 10th and 11th
                   {"M", "HEALTH", "SV", "CONTROL"})  # Age of Sigmar 4
VEHICLE_SHAPES = ({"FRONT", "SIDE", "REAR"}, {"FRONT ARMOUR", "SIDE ARMOUR", "REAR ARMOUR"}, {"ARMOUR VALUE", "HP"},
                  {"ARMOUR VALUE", "HULL POINTS"})


def shape_kind(c: dict[str, str]) -> str:
    """A profile whose type name says nothing known, known by its characteristics: a vehicle's statline
    (armour facings), a model's (the edition's set: WS BS S T W A, M T Sv W Ld OC …), a weapon (a range, a
    strength and an AP or damage), else "other". A Horus Heresy Knight's "Knights and Titans" is a statline."""
    names = {SAVE_NAMES.get(n, n) for n in c}
    if any(shape <= names for shape in VEHICLE_SHAPES):
        return "vehicle"
    if any(shape <= names for shape in STATLINE_SHAPES):
        return "statline"
    if names & {"RANGE", "R", "RNG"} and "S" in names and names & {"AP", "D", "DMG"}:
        return "weapon"
    return "other"


def chars(profile: Node) -> dict[str, str]:
    found = {}
    for item in profile.get("characteristics") or []:
        if isinstance(item, dict):
            found[text(item.get("name")).upper()] = text(item.get("$text"))  # New Recruit omits an empty $text
    return found


def number(selection: Node) -> int:
    try:
        return max(1, int(float(selection.get("number", 1))))
    except (TypeError, ValueError):
        return 1


def integer(value: str | None) -> int | None:
    """'6"' -> 6, "3+" -> 3, "4+* / 5+" -> 4, "-", "*", "N/A", "D6" -> None."""
    if not value:
        return None
    match = re.match(r"\s*(\d+)(?![dD\d])", value)
    return int(match.group(1)) if match else None


def first(c: dict[str, str], *names: str) -> tuple[str | None, str | None]:
    for name in names:
        if name in c:
            return name, c[name]
    return None, None


STATLINE = {"M": ("M", "MOVE"), "WS": ("WS",), "BS": ("BS",), "T": ("T",), "W": ("W", "HEALTH", "WOUNDS"),
            "I": ("I",), "A": ("A",), "Ld": ("LD",), "Sv": ("SAVE", "SV", "SAV"), "InSv": ("INV", "INSV"),
            "OC": ("OC", "CONTROL")}
BOUNDS = {"M": (0, 100), "T": (1, 30), "Sv": (1, 7), "InSv": (1, 7), "W": (1, 100), "Ld": (1, 12), "OC": (0, 20),
          "BS": (1, 10), "WS": (1, 10), "I": (1, 10), "A": (0, 20)}
READ = {"M", "MOVE", "WS", "BS", "S", "T", "W", "HEALTH", "WOUNDS", "I", "A", "LD", "SAVE", "SV", "SAV", "INV",
        "INSV", "OC", "CONTROL", "UNIT TYPE", "TYPE", "FRONT", "SIDE", "REAR", "FRONT ARMOUR", "SIDE ARMOUR",
        "REAR ARMOUR", "ARMOUR VALUE", "HP", "HULL POINTS", "TRANSPORT CAPACITY", "ACCESS POINTS", "FIRE POINTS"}


def wound_track_top(selection: Node, statline: dict[str, str]) -> dict[str, str]:
    """The healthiest row of the unit's wound track (it may sit on the unit or on its model), by the
    statline's own names ("M", "BS") or, for "Characteristic 1..3", by the order of its `*` columns."""
    from warlog.api.rosters.mapping import listed

    tracks, stack = [], [selection]
    while stack:
        node = stack.pop()
        tracks += [p for p in listed(node, "profiles") if profile_kind(p) == "wound track"]
        stack += listed(node, "selections")
    if not tracks:
        return {}
    row = chars(max(tracks, key=lambda p: max([int(n) for n in re.findall(r"\d+", chars(p).get("REMAINING W", ""))]
                                              or [0])))
    starred = [name for name, value in statline.items() if value.strip() == "*"]
    out = {}
    for name, value in row.items():
        if name.startswith("CHARACTERISTIC "):
            index = integer(name.rsplit(" ", 1)[-1])
            if index and index <= len(starred):
                out[starred[index - 1]] = value
        else:
            out[name] = value
    return out


CONVENTIONS = {"M": "the edition's move is assumed (listed below)", "W": "1 is assumed (listed below)"}


def empty_statline(c: dict[str, str], where: str, name: str, ctx: Context) -> None:
    """A characteristic the file states with no value: where the contract has a convention (Movement, W) it
    is assumed and listed; otherwise it is listed by model and characteristic, never silently null."""
    for field, names in STATLINE.items():
        column, value = first(c, *names)
        if column is not None and not (value or "").strip():
            what = CONVENTIONS.get(field, "no convention: left unstated")
            ctx.note(f"{where}/characteristics/{column}", f"{name}: {column} is empty in this file: {what}")


WEAPON_EMPTY = {"A": "1 attack assumed", "D": "1 damage assumed", "AP": "no AP assumed", "S": "left unstated",
                "RANGE": "left unstated", "BS": "the model's skill is used", "WS": "the model's skill is used"}


def empty_weapon(c: dict[str, str], where: str, name: str, ctx: Context) -> None:
    """A weapon's characteristic stated with no value, listed by weapon and characteristic with what is used."""
    for column, what in WEAPON_EMPTY.items():
        if column in c and not c[column].strip():
            ctx.note(f"{where}/characteristics/{column}", f"{name}: {column} is empty in this file: {what}")


def unit_type_keywords(value: str) -> list[str]:
    """HH "Unit Type": "Infantry (Character)", "Vehicle (Tank, Transport)" -> INFANTRY, CHARACTER, …"""
    return [w.strip().upper() for w in re.split(r"[(),/]", value) if w.strip() and w.strip() != "-"]


def model_line(profile: Node, where: str, name: str, count: int, selection: Node, ctx: Context
               ) -> tuple[dict[str, Any], list[str]]:
    c = chars(profile)
    track = wound_track_top(selection, c) if any(v == "*" for v in c.values()) else {}
    line: dict[str, Any] = {"name": name[:200], "count": min(count, 500)}
    empty_statline(c, where, name, ctx)
    keywords: list[str] = []
    for field, names in STATLINE.items():
        column, value = first(c, *names)
        if column is None or value is None:
            continue
        if value == "*" and column in track:
            value = track[column]
            ctx.note(f"{where}/characteristics/{column}", f"{column} '*' read from the wound track's top row")
        number = integer(value)
        low, high = BOUNDS[field]
        if number is not None and not low <= number <= high:
            ctx.note(f"{where}/characteristics/{column}", f"{column} {number} is not from {low} to {high}: not read")
            number = None
        elif number is None and value not in ("", "-", "–"):
            ctx.note(f"{where}/characteristics/{column}", f"{column} {value[:12]!r} is not a number: not read")
        elif number is not None and not re.fullmatch(r"\d+\+?\s*(\"|''|”)?", value.strip()):
            ctx.note(f"{where}/characteristics/{column}", f"{column} {value[:16]!r}: {number} read, the rest "
                                                          "(a condition or a second value) is not")
        line[field] = number
    armour = {}
    for side in ("FRONT", "SIDE", "REAR"):
        _, value = first(c, side, f"{side} ARMOUR", "ARMOUR VALUE")
        if integer(value) is not None:
            armour[side.lower()] = integer(value)
    if len(armour) == 3:
        line["armour"] = armour
    _, hull = first(c, "HP", "HULL POINTS")
    hull_points = integer(hull)
    if hull_points:
        line["hull_points"] = min(hull_points, 100)
        line["W"] = line.get("W") or line["hull_points"]
    kind = type_name(profile).strip().upper()
    if profile_kind(profile) == "vehicle":
        keywords += ["VEHICLE"] + ([kind] if kind in ("WALKER", "BUILDING") else [])
    _, unit_type = first(c, "UNIT TYPE", "TYPE")
    if unit_type:
        keywords += unit_type_keywords(unit_type)
    if line.get("W") is None:
        line["W"] = 1
        ctx.note(where, "no W stated: 1 assumed")
    if line.get("M") is None:
        vehicle = "VEHICLE" in keywords or "VEHICLE" in [k.upper() for k in category_names(selection)]
        what = "building" if "BUILDING" in keywords else "walker" if "WALKER" in keywords else \
            "vehicle" if vehicle else "infantry"
        line["M"] = {"building": 0, "walker": 6, "vehicle": 12, "infantry": 6}[what]
        ctx.note(where, f"no Movement stated: {line['M']}\" assumed (the older editions' {what} move)")
    unread = [n for n in c if n not in READ]
    if unread:
        ctx.note(where, f"characteristics not read by the {ctx.ruleset} ruleset: {', '.join(unread)}")
    return {k: v for k, v in line.items() if v is not None or k in ("Sv",)}, keywords


def category_names(selection: Node) -> list[str]:
    from warlog.api.rosters.mapping import listed
    return [text(c.get("name")).rstrip(":").strip() for c in listed(selection, "categories")]


def keywords(selection: Node) -> list[str]:
    out: list[str] = []
    for name in category_names(selection):
        word = re.sub(r"\s+", " ", name).upper()
        if word and word not in out:
            out.append(word)
    return out


# -- weapons ---------------------------------------------------------------------------------------------

def dice_text(value: str, column: str | None, where: str, ctx: Context) -> str:
    cleaned = value.strip().upper().replace(" ", "")
    try:
        return str(dice.parse(cleaned))
    except (dice.DiceSpecError, ValueError):
        ctx.note(f"{where}/characteristics/{column}", f"{column} {value[:12]!r} is no dice expression: 1 assumed")
        return "1"


def relative(value: str, base: int | None, column: str | None, where: str, ctx: Context) -> int | None:
    """A value the older editions write against the model's own: "User", "S", "A", "+1", "x2"."""
    value = value.strip()
    if integer(value) is not None and not value.startswith("+"):
        return integer(value)
    if base is None:
        ctx.note(f"{where}/characteristics/{column}", f"{column} {value[:12]!r} is relative to a characteristic "
                                                       "the model does not state: not read")
        return None
    if value.upper() in ("USER", "S", "A", "I", "AS USER"):
        return base
    if m := re.fullmatch(r"\+(\d+)", value):
        return base + int(m.group(1))
    if m := re.fullmatch(r"-(\d+)", value):
        return max(1, base - int(m.group(1)))
    if m := re.fullmatch(r"[xX×](\d+)", value):
        return base * int(m.group(1))
    ctx.note(f"{where}/characteristics/{column}", f"{column} {value[:12]!r} is not a number: not read")
    return None


MODIFIER_TO_OLDER = {0: None, -1: 5, -2: 4, -3: 3, -4: 2}


def armour_penetration(value: str, older_scale: bool, column: str, where: str, ctx: Context) -> int | None:
    """AP as the ruleset reads it: `reference` a modifier (0, -1 …); `alternating`/`heresy` 1-6 (null: none)."""
    value = value.strip().replace("–", "-").replace("−", "-")
    wants_older = ctx.reads_older_ap
    if value in ("", "-"):
        return None if wants_older else 0
    if not re.fullmatch(r"[+-]?\d+", value):
        ctx.note(f"{where}/characteristics/{column}", f"{column} {value[:12]!r} is not a number: none assumed")
        return None if wants_older else 0
    amount = int(value)
    if older_scale == wants_older:
        return (amount if 1 <= amount <= 6 else None) if older_scale else max(-10, min(0, -abs(amount)))
    if wants_older:  # a modifier, asked for on the older scale
        older = MODIFIER_TO_OLDER.get(-abs(amount), 1)
        if older is not None:
            ctx.note(f"{where}/characteristics/{column}", f"AP {value} (a modifier) read as AP {older} on the "
                                                           "older 1-6 scale (assumed)")
        return older
    modifier = -max(0, 6 - amount) if 1 <= amount <= 6 else 0  # the older 1-6, asked for as a modifier
    ctx.note(f"{where}/characteristics/{column}", f"AP {value} (older 1-6 scale) read as a modifier of "
                                                   f"{modifier} (assumed)")
    return modifier


def clean_name(name: str) -> str:
    name = re.sub(r"^[\s➤⚔⌖]+", "", name).strip()
    return (name or "Weapon")[:200]


def keyword_list(value: str) -> list[str]:
    if value.strip() in ("", "-", "–"):
        return []
    return [re.sub(r"\s+", " ", part.strip().strip("[]").strip()).upper()
            for part in value.strip().strip("[]").split(",") if part.strip().strip("[]").strip()]


WEAPON_READ = {"RANGE", "R", "RNG", "A", "FP", "ATK", "AM", "BS", "WS", "WS/BS", "HIT", "S", "STRENGTH", "RS", "SM",
               "AP", "RND", "D", "DMG", "KEYWORDS", "TYPE", "SPECIAL RULES", "TRAITS", "ABILITY", "ABILITIES", "SR"}


def weapons(profile: Node, where: str, kind: str, base: dict[str, str], ctx: Context,
            older_ap: bool) -> list[dict[str, Any]]:
    """A weapon profile as the contract's weapon: its kind and range, its attacks (`attacks`), its numbers
    (`numbers`) and its keywords (`weapon_keywords`), each noted where it is not read."""
    c = chars(profile)
    name = text(profile.get("name"))
    _, range_text = first(c, "RANGE", "R", "RNG")
    _, type_text = first(c, "TYPE")
    type_parts = [p.strip() for p in (type_text or "").split(",") if p.strip()]
    if kind == "weapon":
        melee = (range_text or "").lower() == "melee" or (type_parts[:1] and type_parts[0].lower().startswith("melee")) \
            or name.lstrip().startswith("⚔")
        kind = "melee" if melee else "ranged"
    weapon: dict[str, Any] = {"name": clean_name(name), "type": kind, "keywords": []}
    if kind == "ranged":
        weapon["range"] = integer(range_text)
        if range_text and weapon["range"] is None and range_text not in ("-",):
            ctx.note(f"{where}/characteristics/RANGE", f"Range {range_text[:12]!r} is not a number: not read")
    type_parts = attacks(weapon, c, type_parts, integer(base.get("A")), where, ctx)
    numbers(weapon, c, integer(base.get("S")), where, ctx, older_ap)
    weapon_keywords(weapon, c, type_parts, where, ctx)
    empty_weapon(c, where, weapon["name"], ctx)
    return [weapon]


def attacks(weapon: dict[str, Any], c: dict[str, str], type_parts: list[str], base_a: int | None, where: str,
            ctx: Context) -> list[str]:
    """Its attacks (`A`), from a column or an older edition's type ("Rapid Fire 2", which also gives its
    `kind` and a keyword); a melee weapon without any has the model's. The type's other parts are returned."""
    kind = weapon["type"]
    column, count = first(c, "A", "FP", "ATK", "AM")
    older_kind = None
    if type_parts and kind == "ranged":
        m = re.fullmatch(r"(rapid fire|heavy|assault|pistol|salvo|grenade|macro|ordnance)\s*(\S+)?", type_parts[0],
                         re.IGNORECASE)
        if m:
            word = m.group(1).lower().replace(" ", "_")
            older_kind = word if word in OLDER_KINDS else None
            count = count or m.group(2) or "1"
            column = column or "TYPE"
            weapon["keywords"].append(type_parts[0].upper())
            type_parts = type_parts[1:]
    if count is None and kind == "melee":
        count, column = (str(base_a) if base_a is not None else None), "A"
        if count is None:
            ctx.note(where, "no attacks stated on the weapon or the model: 1 assumed")
    elif count is not None and column == "AM":
        value = relative(count, base_a, column, where, ctx)
        count = str(value) if value else None
    weapon["A"] = dice_text(count, column, where, ctx) if count else "1"
    if kind == "ranged" and count is None and older_kind is None:
        ctx.note(where, "no shots stated: 1 assumed")
    weapon["kind"] = older_kind
    return type_parts


def numbers(weapon: dict[str, Any], c: dict[str, str], base_s: int | None, where: str, ctx: Context,
            older_ap: bool) -> None:
    """Its hit skill, strength (a "User"/"+1" one the model's), AP (as the ruleset reads it) and damage."""
    skill_column, skill = first(c, "BS" if weapon["type"] == "ranged" else "WS", "WS/BS", "HIT")
    if skill is not None:
        weapon["skill"] = integer(skill)
        if weapon["skill"] is None or not 1 <= weapon["skill"] <= 10:
            weapon["skill"] = None
            ctx.note(f"{where}/characteristics/{skill_column}",
                     f"{skill_column} {skill[:12]!r}: no hit roll stated (the model's skill is used)")
    s_column, strength = first(c, "S", "STRENGTH", "RS", "SM")
    if strength is not None and strength not in ("-", ""):
        value = relative(strength, base_s, s_column, where, ctx)
        weapon["S"] = value if value is None or 1 <= value <= 30 else None
    ap_column, ap = first(c, "AP", "RND")
    if ap_column == "RND" and ap and re.fullmatch(r"\d+", ap.strip()):
        ap = f"-{ap.strip()}"  # rend is a modifier written without its sign
    weapon["AP"] = armour_penetration(ap or "", older_ap and ap_column == "AP", ap_column or "AP", where, ctx)
    d_column, damage = first(c, "D", "DMG")
    if damage and "/" in damage:
        ctx.note(f"{where}/characteristics/{d_column}", "critical damage (after the '/') is not read")
        damage = damage.split("/", 1)[0]
    weapon["D"] = dice_text(damage, d_column, where, ctx) if damage and damage not in ("-",) else "1"


def weapon_keywords(weapon: dict[str, Any], c: dict[str, str], type_parts: list[str], where: str,
                    ctx: Context) -> None:
    """Its keywords from every column that lists them and the rest of its type; free-text abilities and the
    characteristics not read are noted."""
    for column in ("KEYWORDS", "SPECIAL RULES", "TRAITS", "ABILITY"):
        if column in c:
            weapon["keywords"] += [k for k in keyword_list(c[column]) if k not in weapon["keywords"]]
    weapon["keywords"] += [k.upper() for k in type_parts if k.upper() not in weapon["keywords"]]
    weapon["keywords"] = [k for k in weapon["keywords"] if not k.startswith("MELEE")]
    if text(c.get("ABILITIES")) not in ("", "-"):
        ctx.note(f"{where}/characteristics/Abilities", "the weapon's abilities are free text: not applied")
    unread = [n for n in c if n not in WEAPON_READ and n != "!"]
    if unread or text(c.get("SR")) not in ("", "-") or text(c.get("!")) not in ("", "-"):
        ctx.note(where, f"weapon characteristics not read: {', '.join(unread + [n for n in ('SR', '!') if text(c.get(n)) not in ('', '-')])}")


# -- transports and abilities ------------------------------------------------------------------------------

def capacity(value: str | None, where: str, ctx: Context) -> int | None:
    match = re.search(r"\d+", value or "")
    if match is None:
        if value and value not in ("-",):
            ctx.note(where, "the transport capacity states no number: not a transport")
        return None
    return min(int(match.group()), 1000)


def transport(profile: Node, where: str, ctx: Context) -> dict[str, int] | None:
    c = chars(profile)
    amount = capacity(first(c, "CAPACITY", "TRANSPORT CAPACITY")[1], f"{where}/characteristics/Capacity", ctx)
    if amount is None:
        return None
    if re.search(r"\d+", c.get("CAPACITY", "")) and not re.fullmatch(r"\s*\d+\s*", c.get("CAPACITY", "")):
        ctx.note(f"{where}/characteristics/Capacity", f"capacity {amount} read from the text; which models may "
                                                      "embark is not checked")
    return {"capacity": amount, "fire_points": integer(c.get("FIRE POINTS")) or 0}


def transport_in_statline(profile: Node, where: str, ctx: Context) -> dict[str, int] | None:
    c = chars(profile)
    if "TRANSPORT CAPACITY" not in c:
        return None
    amount = capacity(c["TRANSPORT CAPACITY"], f"{where}/characteristics/Transport Capacity", ctx)
    return None if amount is None else {"capacity": amount, "fire_points": integer(c.get("FIRE POINTS")) or 0}


FNP = re.compile(r"feel no pain\s*\(?\s*([2-6])\+", re.IGNORECASE)
SAVE = re.compile(r"([2-6])\+")


CAPACITY_TEXT = re.compile(r"transport capacity of (\d+)", re.IGNORECASE)


def transport_ability(profile: Node) -> dict[str, int] | None:
    """10th edition writes a transport's capacity in its "Transport" ability's text."""
    found = CAPACITY_TEXT.search(" ".join(chars(profile).values()))
    return {"capacity": min(int(found.group(1)), 1000), "fire_points": 0} if found else None


def ability(profile: Node) -> tuple[str | None, int | None]:
    """(the ability's name for the unit's list, an invulnerable save it gives)."""
    name = text(profile.get("name"))
    description = " ".join(chars(profile).values())
    if "invulnerable" in name.lower():
        found = SAVE.search(name) or SAVE.search(description)
        if found:
            return None, int(found.group(1))
    if m := FNP.search(name) or FNP.search(description):
        return f"FEEL NO PAIN {m.group(1)}+", None
    return ability_name(name), None


def ability_name(name: str) -> str | None:
    if not name:
        return None
    if norm(name) in ("and they shall know no fear", "atsknf"):
        return "ATSKNF"
    if m := FNP.search(name):
        return f"FEEL NO PAIN {m.group(1)}+"
    return name[:200]
