"""Which encoding a roster body is in, and its bytes unwrapped: `.rosz` (a zip holding one `.ros`, known by
its `PK` magic whatever the name or Content-Type), `.ros` (XML), New Recruit / ListForge JSON."""
from __future__ import annotations

import io
import zipfile
from typing import Any

from warlog.domain.rulings import Malformed

ZIP_MAGIC = b"PK\x03\x04"
MAX_MEMBERS = 8  # a BattleScribe .rosz holds one .ros; a few stray entries (folders, macOS forks) are tolerated
MAX_MEMBER_BYTES = 16 * 1024 * 1024  # the largest real roster is some 250 KB of XML; this refuses zip bombs


def encoding(raw: bytes) -> str | None:
    """"rosz", "ros" or "json" when the bytes look like a roster encoding; None otherwise."""
    if raw.startswith(ZIP_MAGIC):
        return "rosz"
    head = raw[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return "ros"
    if head.startswith((b"{", b"[")):  # a list is JSON too, and is told it is not a roster by what it is
        return "json"
    return None


def unzip(raw: bytes) -> bytes:
    """The one `.ros` inside a `.rosz`, read with a size limit that holds whatever the zip's directory claims."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, ValueError, EOFError) as error:
        raise Malformed(f"the .rosz is not a readable zip: {error}", field="rosz") from None
    if len(members) > MAX_MEMBERS:
        raise Malformed(f"the .rosz holds {len(members)} files; a roster holds one .ros", field="rosz")
    rosters = [m for m in members if m.filename.lower().endswith(".ros")] or members
    if len(rosters) != 1:
        raise Malformed("the .rosz must hold exactly one .ros file", field="rosz")
    member = rosters[0]
    if member.file_size > MAX_MEMBER_BYTES:
        raise Malformed(f"the .ros inside is {member.file_size} bytes; at most {MAX_MEMBER_BYTES} are read",
                        field=f"rosz/{member.filename}")
    try:
        with archive.open(member) as stream:
            data = stream.read(MAX_MEMBER_BYTES + 1)  # the stated size may lie: never inflate past the limit
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, OSError, EOFError) as error:
        raise Malformed(f"the .ros inside the .rosz cannot be read: {error}", field=f"rosz/{member.filename}") from None
    if len(data) > MAX_MEMBER_BYTES:
        raise Malformed(f"the .ros inside inflates past {MAX_MEMBER_BYTES} bytes", field=f"rosz/{member.filename}")
    return data


def read(raw: bytes) -> tuple[str, dict[str, Any]]:
    """(format, the roster as one tree of plain dicts and lists, shaped like New Recruit's JSON)."""
    from warlog.api.rosters import json_reader, xml_reader

    kind = encoding(raw)
    if kind == "rosz":
        inner = unzip(raw)
        if encoding(inner) != "ros":
            raise Malformed("the file inside the .rosz is not XML", field="rosz")
        return "rosz", xml_reader.read(inner)
    if kind == "ros":
        return "ros", xml_reader.read(raw)
    if kind == "json":
        return "json", json_reader.read(raw)
    raise Malformed("not a roster: send a .rosz, a .ros (XML) or a New Recruit JSON file")  # the whole body
