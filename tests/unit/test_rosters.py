"""Roster import from files the tests write: the same list in all three encodings gives the same units."""
import io
import zipfile

import pytest

from tests.support.rosters import (
    as_json,
    as_ros,
    as_rosz,
    heresy_squad,
    profile,
    ranged,
    roster,
    selection,
    tenth_list,
    tenth_unit,
)
from warlog.api.rosters import convert, sniff
from warlog.domain.rulings import Malformed

ENCODINGS = {"json": as_json, "ros": as_ros, "rosz": as_rosz}


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_tenth_edition_list_reads_the_same_in_every_encoding(encoding):
    converted = convert(ENCODINGS[encoding](tenth_list()), "reference")
    assert converted["format"] == encoding
    squad, captain, rhino = converted["units"]
    assert [(m["name"], m["count"], m["W"]) for m in squad["models"]] == [
        ("Intercessor Sergeant", 1, 2), ("Intercessor", 4, 2)]
    assert (squad["models"][1]["M"], squad["models"][1]["Sv"], squad["models"][1]["Ld"]) == (6, 3, 6)
    bolt = next(w for w in squad["weapons"] if w["name"] == "Bolt rifle")
    assert (bolt["type"], bolt["range"], bolt["A"], bolt["skill"], bolt["AP"]) == ("ranged", 24, "2", 3, -1)
    assert bolt["keywords"] == ["ASSAULT", "HEAVY", "SUSTAINED HITS 1"]
    fist = next(w for w in squad["weapons"] if w["name"] == "Power fist")
    assert (fist["type"], fist["D"], fist["keywords"]) == ("melee", "D3+1", ["ANTI-INFANTRY 4+"])
    assert captain["leader_of"] == squad["id"]
    assert captain["models"][0]["InSv"] == 4 and "FEEL NO PAIN 5+" in captain["abilities"]
    assert rhino["transport"] == {"capacity": 12, "fire_points": 0} and "VEHICLE" in rhino["keywords"]
    assert {"path": "roster/forces/0/selections/0", "what": "upgrade 'Detachment': army configuration "
            "(detachment, battle size, warlord …), not a unit"} in converted["unmapped"]
    assert all(uid.count("-") >= 1 for uid in (squad["id"], captain["id"], rhino["id"]))


def test_unit_ids_are_slugs_with_a_counter_and_two_like_units_stay_apart():
    tree = roster("Warhammer 40,000 10th Edition", *[tenth_unit("Striking Scorpions", sid=f"s{n}", models=[
        ("Striking Scorpion", 5, {})]) for n in (1, 2)])
    assert [u["id"] for u in convert(as_json(tree))["units"]] == ["striking-scorpions-1", "striking-scorpions-2"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_heresy_squad_rides_in_the_rhino_bought_inside_it(encoding):
    converted = convert(ENCODINGS[encoding](heresy_squad()))
    assert converted["ruleset"] == "heresy"
    squad, rhino = converted["units"]
    assert [(m["name"], m["count"], m["Ld"], m["A"]) for m in squad["models"]] == [
        ("Legionary", 9, 8, 1), ("Sergeant", 1, 9, 2)]
    assert squad["embarked_in"] == rhino["id"]
    model = rhino["models"][0]
    assert model["armour"] == {"front": 11, "side": 11, "rear": 10} and model["hull_points"] == 3
    assert rhino["transport"] == {"capacity": 10, "fire_points": 2} and "VEHICLE" in rhino["keywords"]
    sword = next(w for w in squad["weapons"] if w["name"] == "Power Sword")
    assert (sword["type"], sword["S"], sword["AP"]) == ("melee", 4, 3)  # "User" is the model's S; AP on 1-6
    bolter = rhino["weapons"][0]
    assert (bolter["kind"], bolter["AP"]) == ("rapid_fire", 5)
    assumed = [u for u in converted["unmapped"] if "no Movement stated" in u["what"]]
    assert assumed and all(u["path"].startswith("roster/forces/0/selections/0") for u in assumed)


def test_an_older_ap_is_a_modifier_when_the_list_plays_as_reference():
    converted = convert(as_ros(heresy_squad()), "reference")
    sword = next(w for w in converted["units"][0]["weapons"] if w["name"] == "Power Sword")
    assert sword["AP"] == -3
    assert any("read as a modifier" in u["what"] for u in converted["unmapped"])


def test_a_unit_without_leadership_is_refused_for_alternating_naming_its_path():
    tree = roster("Warhammer 40,000 9th Edition", selection("Boyz", "unit", selections=[
        selection("Boy", "model", 10, profiles=[profile("Boy", "Unit", M='5"', WS="3+", BS="5+", S="4", T="4",
                                                        W="1", A="2", Ld="-", Save="6+")])]))
    with pytest.raises(Malformed) as refused:
        convert(as_ros(tree), "alternating")
    assert refused.value.field == "roster/forces/0/selections/0" and "Ld" in refused.value.detail


def test_melee_and_na_become_sensible_values_and_are_listed():
    tree = roster("Warhammer 40,000 10th Edition", tenth_unit("Flamers", models=[("Flamer", 3, {})], weapons=[
        ranged("Flamer", 3, Range='12"', A="D6", BS="N/A", S="4", AP="0", D="1", Keywords="Ignores Cover, Torrent")]))
    converted = convert(as_json(tree))
    flamer = converted["units"][0]["weapons"][0]
    assert (flamer["A"], flamer["skill"], flamer["keywords"]) == ("D6", None, ["IGNORES COVER", "TORRENT"])
    assert any(u["path"].endswith("characteristics/BS") for u in converted["unmapped"])


@pytest.mark.parametrize("raw, field", [
    (b"PK\x03\x04 not really a zip", "rosz"),
    (b"<roster><forces>", "roster"),
    (b'<?xml version="1.0"?><html><body/></html>', "roster"),
    (b'{"roster": [1, 2]}', "roster"),
    (b'{"units": []}', "roster"),
    (b"hello", None),  # the whole body: no one field
])
def test_a_broken_file_or_one_that_is_not_a_roster_is_refused_naming_where(raw, field):
    with pytest.raises(Malformed) as refused:
        convert(raw)
    assert refused.value.field == field


def test_a_roster_with_no_forces_is_refused():
    with pytest.raises(Malformed) as refused:
        convert(as_ros({"roster": {"name": "x", "gameSystemName": "Warhammer 40,000 10th Edition"}}))
    assert refused.value.field == "roster/forces"


def test_entity_expansion_is_refused_not_expanded():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
            b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&b;"/>')
    with pytest.raises(Malformed) as refused:
        convert(bomb)
    assert refused.value.field == "roster" and "DTD" in refused.value.detail


def test_a_zip_bomb_is_refused_before_it_inflates():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.ros", b"<" + b" " * (sniff.MAX_MEMBER_BYTES + 10))
    assert len(buffer.getvalue()) < 100_000
    with pytest.raises(Malformed) as refused:
        convert(buffer.getvalue())
    assert refused.value.field == "rosz/bomb.ros"


def test_a_zip_lying_about_its_size_is_cut_off_at_the_limit(monkeypatch):
    monkeypatch.setattr(sniff, "MAX_MEMBER_BYTES", 1000)
    with pytest.raises(Malformed) as refused:
        sniff.unzip(as_rosz(heresy_squad()))
    assert "bytes" in refused.value.detail


def test_a_zip_of_many_files_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for n in range(sniff.MAX_MEMBERS + 1):
            archive.writestr(f"{n}.ros", b"<roster/>")
    with pytest.raises(Malformed) as refused:
        convert(buffer.getvalue())
    assert refused.value.field == "rosz"


def test_an_unknown_ruleset_is_refused():
    with pytest.raises(Malformed) as refused:
        convert(as_json(tenth_list()), "chess")
    assert refused.value.field == "ruleset"


def test_xml_nested_deeper_than_any_roster_is_refused_not_a_crash():
    deep = b"<roster><forces><force>" + b"<selections><selection>" * 5000 + b"</selection></selections>" * 5000 \
        + b"</force></forces></roster>"
    with pytest.raises(Malformed) as refused:
        convert(deep)
    assert refused.value.field == "roster" and "deep" in refused.value.detail
