#!/usr/bin/env python3
"""Writes the shared test vectors (tests/vectors/*.json).

The JSON files are the source of truth and are committed; this script only
documents where every value comes from and derives the dependent fields
(timestamps, ISO strings, bit fields, alternate spellings) with plain
integer arithmetic, independently of the Rust core. The primary values
(IDs, fields, documented times) are copied from the cited sources.

Run: python3 tests/vectors/generate.py   (rewrites the JSON next to it)
"""

import datetime
import hashlib
import json
import os
import uuid as pyuuid

HERE = os.path.dirname(os.path.abspath(__file__))

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

RFC9562 = "https://www.rfc-editor.org/rfc/rfc9562#appendix-A"
RFC9562_B = "https://www.rfc-editor.org/rfc/rfc9562#appendix-B"
MS_GUID_BYTES = "https://learn.microsoft.com/dotnet/api/system.guid.tobytearray"
ULID_SPEC = "https://github.com/ulid/spec"
KSUID_README = "https://github.com/segmentio/ksuid#inspect-the-components-of-a-ksuid"
DISCORD_DOCS = "https://discord.com/developers/docs/reference#snowflakes"
TWITTER_TWEET_OBJECT = "https://developer.twitter.com/en/docs/twitter-api/v1/data-dictionary/object-model/tweet"
TWITTER_V2_PAYLOADS = "https://developer.twitter.com/en/docs/twitter-api/data-dictionary/example-payloads"
INSTAGRAM_BLOG = "https://instagram-engineering.com/sharding-ids-at-instagram-1cf5a71e5a5c"
TWITTER_SNOWFLAKE = "https://github.com/twitter-archive/snowflake/tree/snowflake-2010"
SONYFLAKE_SRC = "https://github.com/sony/sonyflake/blob/master/sonyflake.go"
MASTODON_SRC = "https://github.com/mastodon/mastodon/blob/main/lib/mastodon/snowflake.rb"
MASTODON_STATUS = "https://docs.joinmastodon.org/entities/Status/"
MONGO_GETTIMESTAMP = "https://www.mongodb.com/docs/manual/reference/method/ObjectId.getTimestamp/"
MONGO_OBJECTID = "https://www.mongodb.com/docs/manual/reference/method/ObjectId/"
DESIGN = "snowmint human form (tests/vectors/README.md)"

GREGORIAN_OFFSET = 0x01B21DD213814000


def iso(ms):
    """Unix ms as JavaScript's Date.prototype.toISOString() writes it."""
    days, rem = divmod(ms, 86_400_000)
    # Howard Hinnant's civil_from_days.
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y += m <= 2
    year = f"{y:04d}" if 0 <= y <= 9999 else f"{'+' if y > 0 else '-'}{abs(y):06d}"
    h, rem = divmod(rem, 3_600_000)
    mi, rem = divmod(rem, 60_000)
    s, msr = divmod(rem, 1000)
    return f"{year}-{m:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{msr:03d}Z"


def time_fields(ms):
    return {"timestamp_ms": ms, "iso": iso(ms)}


def b32(value, digits):
    return "".join(CROCKFORD[(value >> (5 * i)) & 31] for i in reversed(range(digits)))


def b32_decode(text):
    v = 0
    for c in text.upper():
        v = v << 5 | CROCKFORD.index(c)
    return v


def b62(value):
    out = ""
    for _ in range(27):
        value, r = divmod(value, 62)
        out = BASE62[r] + out
    return out


def uuid_text(v):
    h = f"{v:032x}"
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def human(value, digits, groups=None):
    text = b32(value, digits).lower()
    chunks = []
    while text:
        chunks.insert(0, text[-4:])
        text = text[:-4]
    if groups is not None:
        chunks = chunks[-groups:]
    return "-".join(chunks)


def dec(n):
    return str(n)


# ---------------------------------------------------------------- UUID
def uuid_entry(name, text, source, fields=None, ms=None, inputs=None):
    v = int(text.replace("-", ""), 16)
    e = {
        "name": name,
        "source": source,
        "text": uuid_text(v),
        "inputs": inputs if inputs is not None else [text],
        "version": (v >> 76) & 0xF,
        "rfc_variant": (v >> 62) & 0b11 == 0b10,
    }
    e.update(time_fields(ms) if ms is not None else {"timestamp_ms": None, "iso": None})
    e["fields"] = {k: dec(f) for k, f in (fields or {}).items()}
    e["ulid"] = b32(v, 26)
    return e


def v1_fields(v):
    ticks = ((v >> 64) & 0xFFF) << 48 | ((v >> 80) & 0xFFFF) << 32 | (v >> 96)
    return ticks, (v >> 48) & 0x3FFF, v & 0xFFFFFFFFFFFF


def v6_fields(v):
    ticks = (v >> 96) << 28 | ((v >> 80) & 0xFFFF) << 12 | ((v >> 64) & 0xFFF)
    return ticks, (v >> 48) & 0x3FFF, v & 0xFFFFFFFFFFFF


def gregorian_entry(name, text, split):
    v = int(text.replace("-", ""), 16)
    ticks, seq, node = split(v)
    ms = (ticks - GREGORIAN_OFFSET) // 10_000
    return uuid_entry(
        name,
        text,
        RFC9562,
        {"gregorian_ticks": ticks, "clock_seq": seq, "node": node},
        ms,
    )


def name_based_entry(name, version, namespace, text):
    """RFC 9562 A.2 / A.4, checked against Python's uuid module (not snowmint)."""
    ns = {"DNS": pyuuid.NAMESPACE_DNS, "URL": pyuuid.NAMESPACE_URL}[namespace]
    derived = (pyuuid.uuid3 if version == 3 else pyuuid.uuid5)(ns, text)
    e = uuid_entry(name, str(derived), RFC9562)
    e["name_based"] = {"namespace": namespace, "name": text}
    return e


def v8_entry(name, text, given):
    """RFC 9562 B.1 / B.2: `given` is the 128 bits before the version and variant bits are set."""
    v = int(text.replace("-", ""), 16)
    g = int(given, 16)
    assert g & ~(0xF << 76 | 0b11 << 62) | 8 << 76 | 0b10 << 62 == v, name
    e = uuid_entry(name, text, RFC9562_B)
    e["v8_input"] = f"{g:032x}"
    return e


def uuids():
    v7 = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"
    v7v = int(v7.replace("-", ""), 16)
    v4 = "919108f7-52d1-4320-9bac-f847db4148a8"
    v4v = int(v4.replace("-", ""), 16)
    low = uuid_text(v7v)
    entries = uuid_list(v7, v7v, v4, v4v, low)
    # A.1 (v1) and A.5 (v6) hold the same time, clock sequence and node:
    # each is the other reordered (RFC 9562 §5.6).
    a1, a5 = entries[0], entries[2]
    assert v1_fields(int(a1["text"].replace("-", ""), 16)) == v6_fields(int(a5["text"].replace("-", ""), 16))
    a1["reordered"], a5["reordered"] = a5["text"], a1["text"]
    return entries


def uuid_list(v7, v7v, v4, v4v, low):
    return [
        gregorian_entry("rfc9562-a1-v1", "C232AB00-9414-11EC-B3C8-9F6BDECED846", v1_fields),
        uuid_entry(
            "rfc9562-a3-v4",
            v4,
            RFC9562,
            {
                "random_a": v4v >> 80,
                "random_b": (v4v >> 64) & 0xFFF,
                "random_c": v4v & ((1 << 62) - 1),
            },
        ),
        gregorian_entry("rfc9562-a5-v6", "1EC9414C-232A-6B00-B3C8-9F6BDECED846", v6_fields),
        uuid_entry(
            "rfc9562-a6-v7",
            v7,
            RFC9562,
            {
                "unix_ts_ms": v7v >> 80,
                "rand_a": (v7v >> 64) & 0xFFF,
                "rand_b": v7v & ((1 << 62) - 1),
            },
            v7v >> 80,
            inputs=[
                v7,
                low,
                low.replace("-", ""),
                "{" + low + "}",
                "urn:uuid:" + low,
                v7.replace("-", ""),
            ],
        ),
        name_based_entry("rfc9562-a2-v3", 3, "DNS", "www.example.com"),
        name_based_entry("rfc9562-a4-v5", 5, "DNS", "www.example.com"),
        # B.1: custom_a 0x2489E9AD2EE2, custom_b 0xE00, custom_c 0xEC932D5F69181C0.
        v8_entry("rfc9562-b1-v8-time-based", "2489E9AD-2EE2-8E00-8EC9-32D5F69181C0", "2489E9AD2EE20E000EC932D5F69181C0"),
        # B.2: the first 128 bits of SHA-256(DNS namespace bytes + "www.example.com").
        v8_entry(
            "rfc9562-b2-v8-name-based",
            "5C146B14-3C52-8AFD-938A-375D0DF1FBF6",
            hashlib.sha256(pyuuid.NAMESPACE_DNS.bytes + b"www.example.com").hexdigest()[:32],
        ),
        uuid_entry("nil", "00000000-0000-0000-0000-000000000000", RFC9562.replace("appendix-A", "section-5.9")),
        uuid_entry(
            "max",
            "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
            RFC9562.replace("appendix-A", "section-5.10"),
        ),
    ]


# ---------------------------------------------------------------- ULID
def ulid_entry(name, text, source, inputs=None):
    v = b32_decode(text)
    all_ones = v & ((1 << 80) - 1) == (1 << 80) - 1
    e = {
        "name": name,
        "source": source,
        "text": text.upper(),
        "inputs": inputs if inputs is not None else [text, text.lower()],
    }
    e.update(time_fields(v >> 80))
    e["random"] = dec(v & ((1 << 80) - 1))
    e["uuid"] = uuid_text(v)
    e["next"] = None if all_ones else b32(v + 1, 26)
    return e


def ulids():
    return [
        # The spec encodes with Crockford's base32, whose decoding reads I and L
        # as 1 and O as 0 in any case (https://www.crockford.com/base32.html).
        ulid_entry(
            "spec-example",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            ULID_SPEC,
            inputs=["01ARZ3NDEKTSV4RRFFQ69G5FAV", "01arz3ndektsv4rrffq69g5fav", "OIARZ3NDEKTSV4RRFFQ69G5FAV", "olarz3ndektsv4rrffq69g5fav"],
        ),
        ulid_entry("spec-layout-example", "01AN4Z07BY79KA1307SR9X4MV3", ULID_SPEC),
        # The spec's monotonic example: ...VRZ + 1 = ...VS0 (the carry).
        ulid_entry("spec-monotonic-carry", "01BX5ZZKBKACTAV9WEVGEMMVRZ", ULID_SPEC + "#monotonicity"),
        # The spec's generator throws after this one; snowmint moves to the next ms.
        ulid_entry("spec-monotonic-last", "01BX5ZZKBKZZZZZZZZZZZZZZZZ", ULID_SPEC + "#monotonicity"),
        ulid_entry("nil", "00000000000000000000000000", ULID_SPEC),
        ulid_entry("max", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", ULID_SPEC + "#overflow-errors-when-parsing-base32-strings"),
        ulid_entry("rfc9562-a6-v7-as-ulid", b32(0x017F22E279B07CC398C4DC0C0C07398F, 26), RFC9562),
    ]


# ---------------------------------------------------------------- KSUID
def ksuid_entry(name, text, raw, source):
    v = int(raw, 16)
    assert b62(v) == text, (text, b62(v))
    ts = v >> 128
    e = {
        "name": name,
        "source": source,
        "text": text,
        "raw": raw.lower(),
        "timestamp": ts,
    }
    e.update(time_fields((ts + 1_400_000_000) * 1000))
    e["payload"] = f"{v & ((1 << 128) - 1):032x}"
    return e


def ksuids():
    return [
        ksuid_entry(
            "readme-inspect",
            "0ujtsYcgvSTl8PAuAdqWYSMnLOv",
            "0669F7EFB5A1CD34B5F99D1154FB6853345C9735",
            KSUID_README,
        ),
        ksuid_entry(
            "readme-generate-and-inspect",
            "0ujzPyRiIAffKhBux4PvQdDqMHY",
            "066A029C73FC1AA3B2446246D6E89FCD909E8FE8",
            KSUID_README,
        ),
        ksuid_entry("nil", "000000000000000000000000000", "00" * 20, "https://github.com/segmentio/ksuid/blob/master/ksuid.go"),
        ksuid_entry("max", "aWgEPTl1tmebfsQzFP4bxwgy80V", "FF" * 20, "https://github.com/segmentio/ksuid/blob/master/ksuid.go"),
    ]


# ---------------------------------------------------------------- Snowflake
PRESETS = {
    # time, worker, sequence, unit_ms, epoch_ms, order, split
    "twitter": (41, 10, 12, 1, 1288834974657, "worker-sequence", ("datacenter", "worker", 5)),
    # Discord documents a 42-bit timestamp (bits 63 to 22) of an unsigned 64-bit ID.
    "discord": (42, 10, 12, 1, 1420070400000, "worker-sequence", ("worker", "process", 5)),
    "instagram": (41, 13, 10, 1, 1314220021721, "worker-sequence", None),
    "sonyflake": (39, 16, 8, 10, 1409529600000, "sequence-worker", None),
    # lib/mastodon/snowflake.rb: 6 bytes of Unix ms, 2 bytes of "sequence data".
    "mastodon": (48, 0, 16, 1, 0, "worker-sequence", None),
}


def split_fields(layout, id_):
    tb, wb, sb, unit, epoch, order, split = layout
    tick = id_ >> (wb + sb)
    if order == "worker-sequence":
        worker, seq = (id_ >> sb) & ((1 << wb) - 1), id_ & ((1 << sb) - 1)
    else:
        worker, seq = id_ & ((1 << wb) - 1), (id_ >> wb) & ((1 << sb) - 1)
    f = {"tick": tick, "worker_id": worker, "sequence": seq}
    if split:
        hi, lo, lo_bits = split
        f[hi + "_part"] = worker >> lo_bits
        f[lo + "_part"] = worker & ((1 << lo_bits) - 1)
    return f, epoch + tick * unit


def compose(layout, tick, worker, seq):
    tb, wb, sb, unit, epoch, order, split = layout
    if order == "worker-sequence":
        return tick << (wb + sb) | worker << sb | seq
    return tick << (wb + sb) | seq << wb | worker


def documented_ms(text):
    """A documented time as (Unix ms, precision in ms)."""
    for fmt, precision in (
        ("%Y-%m-%d %H:%M:%S.%f UTC", 1),
        ("%a %b %d %H:%M:%S %z %Y", 1000),
        ("%Y-%m-%dT%H:%M:%S.%fZ", 1000),  # Twitter v2 writes whole seconds as .000
        ("%Y-%m-%dT%H:%M:%SZ", 1000),
    ):
        try:
            t = datetime.datetime.strptime(text, fmt).replace(tzinfo=datetime.timezone.utc)
        except ValueError:
            continue
        return round(t.timestamp() * 1000), precision
    raise ValueError(text)


def documented_fields(text):
    if text is None:
        return {"documented": None, "documented_ms": None, "documented_precision_ms": None}
    ms, precision = documented_ms(text)
    return {"documented": text, "documented_ms": ms, "documented_precision_ms": precision}


def snowflake_entry(name, preset, id_, source, documented=None, expect=None, layout=None):
    lay = PRESETS[preset] if preset else layout
    fields, ms = split_fields(lay, id_)
    if expect:
        for k, v in expect.items():
            assert fields[k] == v, (name, k, fields[k], v)
    e = {"name": name, "source": source, "preset": preset}
    if layout:
        tb, wb, sb, unit, epoch, order, _ = layout
        e["layout"] = {
            "time_bits": tb,
            "worker_bits": wb,
            "sequence_bits": sb,
            "unit_ms": unit,
            "epoch_ms": epoch,
            "order": order,
        }
    else:
        e["layout"] = None
    e["id"] = dec(id_)
    e.update(time_fields(ms))
    e.update(documented_fields(documented))
    e["fields"] = {k: dec(v) for k, v in fields.items()}
    return e


def snowflakes():
    discord_id = 175928847299117063
    assert (discord_id >> 22) + 1420070400000 == 1462015105796
    custom = (42, 8, 13, 1, 1700000000000, "worker-sequence", None)
    # Worker and sequence fill the low 32 bits exactly: no time bits there.
    custom_32 = (31, 16, 16, 1, 1700000000000, "worker-sequence", None)
    # Worker and sequence past the low 32 bits, sequence first.
    custom_wide = (20, 20, 23, 5, 1600000000000, "sequence-worker", None)
    # The Status example of Mastodon's API docs: created_at 2019-12-08T03:48:33.901Z,
    # which Rails sets 52 ms after the time PostgreSQL's timestamp_id() put in the ID
    # (so it is no `documented` time in this file's sense: the ID is not after it).
    mastodon_id = 103270115826048975
    assert 0 < documented_ms("2019-12-08T03:48:33.901Z")[0] - (mastodon_id >> 16) < 1000
    return [
        snowflake_entry(
            "discord-docs-example",
            "discord",
            discord_id,
            DISCORD_DOCS,
            documented="2016-04-30 11:18:25.796 UTC",
            expect={"worker_part": 1, "process_part": 0, "sequence": 7},
        ),
        snowflake_entry(
            "twitter-tweet-object-example",
            "twitter",
            1050118621198921728,
            TWITTER_TWEET_OBJECT,
            documented="Wed Oct 10 20:19:24 +0000 2018",
        ),
        snowflake_entry(
            "twitter-v2-example-payload",
            "twitter",
            1307025659294674945,
            TWITTER_V2_PAYLOADS,
            documented="2020-09-18T18:36:15.000Z",
        ),
        snowflake_entry(
            "instagram-blog-walkthrough-fields",
            "instagram",
            # The post's walkthrough: 1387263000 ms, shard 31341 % 2000 = 1341,
            # sequence 5001 % 1024 = 905 (read under the published epoch).
            compose(PRESETS["instagram"], 1387263000, 1341, 5001 % 1024),
            INSTAGRAM_BLOG,
        ),
        snowflake_entry(
            "instagram-next-id-shard-5",
            "instagram",
            compose(PRESETS["instagram"], 1_000_000_000_000, 5, 1023),
            INSTAGRAM_BLOG,
        ),
        snowflake_entry(
            "sonyflake-composed",
            "sonyflake",
            # toID(): elapsed << (8 + 16) | sequence << 16 | machine
            (300_000_000 << 24) | (0x2A << 16) | 0xBEEF,
            SONYFLAKE_SRC,
            expect={"tick": 300_000_000, "sequence": 0x2A, "worker_id": 0xBEEF},
        ),
        snowflake_entry("twitter-zero", "twitter", 0, TWITTER_SNOWFLAKE),
        snowflake_entry("discord-max-signed", "discord", (1 << 63) - 1, DISCORD_DOCS),
        # Discord IDs reach 2^63 in 2084 (tick 2^41) and go on to 2^64 - 1.
        snowflake_entry(
            "discord-first-unsigned", "discord", 1 << 63, DISCORD_DOCS, expect={"tick": 1 << 41, "worker_id": 0, "sequence": 0}
        ),
        snowflake_entry("discord-max", "discord", (1 << 64) - 1, DISCORD_DOCS, expect={"tick": (1 << 42) - 1}),
        snowflake_entry(
            "mastodon-docs-status-example",
            "mastodon",
            mastodon_id,
            MASTODON_STATUS,
            expect={"sequence": 40911},
        ),
        snowflake_entry("mastodon-composed", "mastodon", compose(PRESETS["mastodon"], 1_700_000_000_000, 0, 0xBEEF), MASTODON_SRC),
        snowflake_entry("mastodon-max", "mastodon", (1 << 64) - 1, MASTODON_SRC),
        snowflake_entry(
            "custom-layout-42-8-13",
            None,
            compose(custom, 123_456_789, 200, 8000),
            "snowmint custom layout",
            layout=custom,
        ),
        snowflake_entry(
            "custom-layout-31-16-16",
            None,
            compose(custom_32, (1 << 31) - 5, 0xBEEF, 0xCAFE),
            "snowmint custom layout",
            expect={"tick": (1 << 31) - 5, "worker_id": 0xBEEF, "sequence": 0xCAFE},
            layout=custom_32,
        ),
        snowflake_entry(
            "custom-layout-20-20-23-sequence-first",
            None,
            compose(custom_wide, 0xABCDE, 0xF1234, 0x7A5A5A),
            "snowmint custom layout",
            expect={"tick": 0xABCDE, "worker_id": 0xF1234, "sequence": 0x7A5A5A},
            layout=custom_wide,
        ),
    ]


# ---------------------------------------------------------------- ObjectId
def objectid_entry(name, text, source, documented=None):
    v = int(text, 16)
    secs = v >> 64
    e = {"name": name, "source": source, "text": text.lower(), "timestamp": secs}
    e.update(time_fields(secs * 1000))
    e.update(documented_fields(documented))
    e["random"] = f"{(v >> 24) & 0xFF_FFFF_FFFF:010x}"
    e["counter"] = (v & 0xFF_FFFF)
    return e


def objectids():
    return [
        objectid_entry("mongodb-gettimestamp-example", "507c7f79bcf86cd7994f6c0e", MONGO_GETTIMESTAMP, "2012-10-15T21:26:17Z"),
        objectid_entry("mongodb-objectid-example", "507f1f77bcf86cd799439011", MONGO_OBJECTID),
        objectid_entry("zero", "000000000000000000000000", MONGO_OBJECTID),
        objectid_entry("max", "ffffffffffffffffffffffff", MONGO_OBJECTID),
    ]


# ---------------------------------------------------------------- human form
def human_entry(name, kind, id_text, value, digits, aliases):
    full = human(value, digits)
    return {
        "name": name,
        "source": DESIGN,
        "kind": kind,
        "id": id_text,
        "digits": digits,
        "human": full,
        # Groups to keep, from the right; more than the ID has keeps all of them (a Snowflake has 4).
        "short": [{"groups": g, "text": human(value, digits, g)} for g in (1, 2, 3, 7)],
        # Refused (ERR_INVALID_ARG_VALUE) for every kind: 0 would keep nothing, a 128-bit ID has 7.
        "refusedGroups": [0, 8],
        "inputs": list(dict.fromkeys([full, full.upper(), full.replace("-", "")] + aliases)),
    }


def humans():
    ulid = "01HZ613S22K8NR6W6GRV1Y5C52"
    uv = b32_decode(ulid)
    sf = 175928847299117063
    return [
        human_entry(
            "ulid-design-example",
            "ulid",
            ulid,
            uv,
            26,
            ["O1-hz6I-3s22-k8nr-6w6g-rv1y-5c52", "o1hz6l3s22k8nr6w6grv1y5c52", "01-HZ61-3S22-K8NR-6W6G-RV1Y-5C52"],
        ),
        human_entry("ulid-max", "ulid", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", (1 << 128) - 1, 26, []),
        human_entry(
            "snowflake-discord-example",
            "snowflake",
            dec(sf),
            sf,
            13,
            ["O-4W86-BBOG-4OO7", "-0-4w86--bb0g-4007-"],
        ),
        human_entry("snowflake-one", "snowflake", "1", 1, 13, ["0-oooo-oooo-ooo1", "1", "000000000000l"]),
        human_entry("snowflake-max", "snowflake", dec((1 << 63) - 1), (1 << 63) - 1, 13, []),
        human_entry("snowflake-max-unsigned", "snowflake", dec((1 << 64) - 1), (1 << 64) - 1, 13, []),
    ]


# ---------------------------------------------------------------- bounds
KSUID_EPOCH = 1_400_000_000


def v6_value(ticks, clock_seq, node):
    """RFC 9562 5.6: time_high (32) | time_mid (16) | ver 6 | time_low (12) | var 10 | clock_seq (14) | node (48)."""
    return (ticks >> 28) << 96 | ((ticks >> 12) & 0xFFFF) << 80 | 6 << 76 | (ticks & 0xFFF) << 64 | 2 << 62 | clock_seq << 48 | node


def text_bounds(kind, ms, prefix=None):
    """The smallest and largest ID of `kind` whose time (at the kind's resolution) is `ms`."""
    if kind == "ulid":
        return b32(ms << 80, 26), b32(ms << 80 | (1 << 80) - 1, 26)
    if kind in ("uuidv7", "typeid"):
        low = ms << 80 | 7 << 76 | 2 << 62
        high = low | 0xFFF << 64 | (1 << 62) - 1
        if kind == "typeid":
            return f"{prefix}_{b32(low, 26).lower()}", f"{prefix}_{b32(high, 26).lower()}"
        return uuid_text(low), uuid_text(high)
    if kind == "uuidv6":
        ticks = ms * 10_000 + GREGORIAN_OFFSET
        return uuid_text(v6_value(ticks, 0, 0)), uuid_text(v6_value(ticks + 9_999, 0x3FFF, (1 << 48) - 1))
    if kind == "ksuid":
        secs = ms // 1000 - KSUID_EPOCH
        return b62(secs << 128), b62(secs << 128 | (1 << 128) - 1)
    if kind == "objectid":
        secs = ms // 1000
        return f"{secs << 64:024x}", f"{secs << 64 | (1 << 64) - 1:024x}"
    raise ValueError(kind)


def bound_entry(name, kind, ms, source, preset=None, prefix=None):
    e = {"name": name, "source": source, "kind": kind, "preset": preset, "prefix": prefix}
    e.update(time_fields(ms))
    if kind == "snowflake":
        tb, wb, sb, unit, epoch, order, split = PRESETS[preset]
        tick = (ms - epoch) // unit
        low = tick << (wb + sb)
        e["min"], e["max"] = dec(low), dec(low | (1 << (wb + sb)) - 1)
    else:
        e["min"], e["max"] = text_bounds(kind, ms, prefix)
    return e


def bounds():
    rfc_ms = 0x017F22E279B0  # the RFC 9562 v7 example's time
    mid_second = 1_700_000_000_999
    return [
        bound_entry("ulid-rfc-time", "ulid", rfc_ms, ULID_SPEC),
        bound_entry("ulid-zero", "ulid", 0, ULID_SPEC),
        bound_entry("ulid-last-ms", "ulid", (1 << 48) - 1, ULID_SPEC),
        bound_entry("uuidv7-rfc-time", "uuidv7", rfc_ms, RFC9562),
        bound_entry("uuidv6-rfc-time", "uuidv6", rfc_ms, RFC9562),
        bound_entry("typeid-rfc-time", "typeid", rfc_ms, "https://github.com/jetify-com/typeid/tree/main/spec", prefix="user"),
        bound_entry("ksuid-mid-second", "ksuid", mid_second, KSUID_README),
        bound_entry("objectid-mid-second", "objectid", mid_second, MONGO_OBJECTID),
        bound_entry("snowflake-discord-docs-time", "snowflake", 1462015105796, DISCORD_DOCS, preset="discord"),
        # Past 2^63: Discord's 42-bit time field.
        bound_entry("snowflake-discord-2090", "snowflake", 3_786_825_600_000, DISCORD_DOCS, preset="discord"),
        bound_entry("snowflake-twitter-tweet-time", "snowflake", 1539202764211, TWITTER_TWEET_OBJECT, preset="twitter"),
        # A 10 ms tick: the bounds of the tick the time falls in.
        bound_entry("snowflake-sonyflake-mid-tick", "snowflake", 1_700_000_000_007, SONYFLAKE_SRC, preset="sonyflake"),
        bound_entry("snowflake-mastodon-docs-time", "snowflake", 103270115826048975 >> 16, MASTODON_SRC, preset="mastodon"),
    ]


# ---------------------------------------------------------------- compare
def cmp_entry(name, a, b, result):
    return {"name": name, "a": a, "b": b, "result": result}


def compares():
    return [
        # Decimal Snowflakes compare by value, not as text ("9" > "10" as text).
        cmp_entry("snowflake-lengths", "9", "10", -1),
        cmp_entry("snowflake-leading-zero", "0175928847299117063", "175928847299117063", 0),
        cmp_entry("snowflake-20-digits", "18446744073709551615", "9223372036854775807", 1),
        cmp_entry("uuid-spellings", "{017F22E2-79B0-7CC3-98C4-DC0C0C07398F}", "017f22e279b07cc398c4dc0c0c07398f", 0),
        cmp_entry("uuid-order", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "1ec9414c-232a-6b00-b3c8-9f6bdeced846", -1),
        cmp_entry("ulid-case", "01arz3ndektsv4rrffq69g5fav", "01ARZ3NDEKTSV4RRFFQ69G5FAV", 0),
        cmp_entry("ulid-order", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FAW", -1),
        cmp_entry("ksuid-case-matters", "0ujtsYcgvSTl8PAuAdqWYSMnLOv", "0UJTSYCGVSTL8PAUADQWYSMNLOV", 1),
        cmp_entry("objectid-case", "507F1F77BCF86CD799439011", "507f1f77bcf86cd799439011", 0),
        cmp_entry("typeid-prefix-first", "a_01h455vb4pex5vsknk084sn02q", "ab_00000000000000000000000000", -1),
        cmp_entry("typeid-suffix", "user_01h455vb4pex5vsknk084sn02q", "user_01h455vb4pex5vsknk084sn02r", -1),
        # IDs of different kinds have no order: an error (ERR_INVALID_ARG_VALUE).
        cmp_entry("kinds-differ", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", None),
        cmp_entry("kinds-differ-snowflake", "175928847299117063", "507f1f77bcf86cd799439011", None),
    ]


# ---------------------------------------------------------------- bytes
def bytes_entry(name, source, kind, text, hex_, prefix=None, guid=None):
    e = {"name": name, "source": source, "kind": kind, "text": text, "hex": hex_, "prefix": prefix, "guid_hex": guid}
    return e


def byte_vectors():
    v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
    ms = "35918bc9-196d-40ea-9779-889d79b753f0"
    # Microsoft's Guid.ToByteArray() example prints these bytes for `ms`;
    # Python's uuid.bytes_le is the same order.
    ms_printed = "C9 8B 91 35 6D 19 EA 40 97 79 88 9D 79 B7 53 F0".replace(" ", "").lower()
    assert pyuuid.UUID(ms).bytes_le.hex() == ms_printed
    ulid_text = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
    typeid_uuid = "01890a5d-ac96-774b-bcce-b302099a8057"
    discord = 175928847299117063
    return [
        bytes_entry("rfc9562-a6-v7", RFC9562, "uuid", v7, pyuuid.UUID(v7).hex, guid=pyuuid.UUID(v7).bytes_le.hex()),
        bytes_entry("microsoft-guid-example", MS_GUID_BYTES, "uuid", ms, pyuuid.UUID(ms).hex, guid=ms_printed),
        bytes_entry("ulid-spec-example", ULID_SPEC + "#binary-layout-and-byte-order", "ulid", ulid_text, f"{b32_decode(ulid_text):032x}"),
        bytes_entry("ksuid-readme-inspect", KSUID_README, "ksuid", "0ujtsYcgvSTl8PAuAdqWYSMnLOv", "0669f7efb5a1cd34b5f99d1154fb6853345c9735"),
        bytes_entry("mongodb-objectid-example", MONGO_OBJECTID, "objectid", "507f1f77bcf86cd799439011", "507f1f77bcf86cd799439011"),
        bytes_entry("discord-docs-example", DISCORD_DOCS, "snowflake", dec(discord), f"{discord:016x}"),
        bytes_entry("snowflake-zero", DISCORD_DOCS, "snowflake", "0", "00" * 8),
        bytes_entry(
            "typeid-spec-example",
            "https://github.com/jetify-com/typeid/tree/main/spec",
            "typeid",
            "user_01h455vb4pex5vsknk084sn02q",
            pyuuid.UUID(typeid_uuid).hex,
            prefix="user",
        ),
    ]


# ---------------------------------------------------------------- validation
def case(name, input_, strict, lenient, kind=None, preset=None, version=None):
    return {"name": name, "kind": kind, "preset": preset, "version": version, "input": input_, "strict": strict, "lenient": lenient}


def validity():
    v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
    return [
        # UUID: canonical is hyphenated, hex in either case (RFC 9562: case-insensitive
        # on input); versions 1-8 with variant 10, or NIL/MAX.
        case("uuid-canonical", v7, True, True, "uuid"),
        case("uuid-detected", v7, True, True),
        case("uuid-uppercase", v7.upper(), True, True, "uuid"),
        case("uuid-simple", v7.replace("-", ""), False, True, "uuid"),
        case("uuid-braced", "{" + v7 + "}", False, True, "uuid"),
        case("uuid-urn", "urn:uuid:" + v7, False, True, "uuid"),
        case("uuid-nil", "00000000-0000-0000-0000-000000000000", True, True, "uuid"),
        case("uuid-max", "ffffffff-ffff-ffff-ffff-ffffffffffff", True, True, "uuid"),
        case("uuid-version-0", "017f22e2-79b0-0cc3-98c4-dc0c0c07398f", False, False, "uuid"),
        case("uuid-version-9", "017f22e2-79b0-9cc3-98c4-dc0c0c07398f", False, False, "uuid"),
        case("uuid-variant-microsoft", "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", False, False, "uuid"),
        case("uuid-variant-ncs", "017f22e2-79b0-7cc3-08c4-dc0c0c07398f", False, False, "uuid"),
        case("uuid-version-asked", v7, True, True, "uuid", version=7),
        case("uuid-other-version-asked", v7, False, False, "uuid", version=4),
        case("uuid-v3", "5df41881-3aed-3515-88a7-2f4a814cf09e", True, True, "uuid", version=3),
        case("uuid-bad-hex", "017f22e2-79b0-7cc3-98c4-dc0c0c07398g", False, False, "uuid"),
        case("uuid-as-ulid", v7, False, False, "ulid"),
        # ULID: canonical in either case (the spec: case-insensitive); Crockford's aliases are lenient.
        case("ulid-canonical", "01ARZ3NDEKTSV4RRFFQ69G5FAV", True, True, "ulid"),
        case("ulid-detected", "01ARZ3NDEKTSV4RRFFQ69G5FAV", True, True),
        case("ulid-lowercase", "01arz3ndektsv4rrffq69g5fav", True, True, "ulid"),
        case("ulid-aliases", "OIARZ3NDEKTSV4RRFFQ69G5FAV", False, True, "ulid"),
        case("ulid-letter-u", "01ARZ3NDEKTSV4RRFFQ69G5FAU", False, False, "ulid"),
        case("ulid-overflow", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", False, False, "ulid"),
        case("ulid-max", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", True, True, "ulid"),
        # Snowflake: decimal without leading zeros; a preset's layout must hold it.
        case("snowflake-canonical", "175928847299117063", True, True, "snowflake", "discord"),
        case("snowflake-detected", "175928847299117063", True, True),
        case("snowflake-zero", "0", True, True, "snowflake"),
        case("snowflake-leading-zero", "0175928847299117063", False, True, "snowflake"),
        case("snowflake-20-digits", "18446744073709551616", False, False, "snowflake"),
        case("snowflake-minus", "-1", False, False, "snowflake"),
        case("snowflake-empty", "", False, False, "snowflake"),
        # KSUID: base62 is case-sensitive, one spelling per value.
        case("ksuid-canonical", "0ujtsYcgvSTl8PAuAdqWYSMnLOv", True, True, "ksuid"),
        case("ksuid-overflow", "aWgEPTl1tmebfsQzFP4bxwgy80W", False, False, "ksuid"),
        # ObjectId: hex in either case.
        case("objectid-canonical", "507f1f77bcf86cd799439011", True, True, "objectid"),
        case("objectid-uppercase", "507F1F77BCF86CD799439011", True, True, "objectid"),
        case("objectid-short", "507f1f77bcf86cd79943901", False, False, "objectid"),
        # TypeID: one spelling.
        case("typeid-canonical", "user_01h455vb4pex5vsknk084sn02q", True, True, "typeid"),
        case("typeid-uppercase-suffix", "user_01H455VB4PEX5VSKNK084SN02Q", False, False, "typeid"),
        # Human form: the full groups are canonical; any case, dashes anywhere and aliases are lenient.
        case("human-canonical", "01-hz61-3s22-k8nr-6w6g-rv1y-5c52", True, True, "human"),
        case("human-no-dashes", "01hz613s22k8nr6w6grv1y5c52", False, True, "human"),
        case("human-short-snowflake", "1", False, True, "human"),
        case("human-snowflake-canonical", "0-0000-0000-0001", True, True, "human"),
        case("human-letter-u", "01-hz61-3s2u", False, False, "human"),
        # Kind detection finds nothing.
        case("unknown-kind", "hello", False, False),
        case("empty", "", False, False),
    ]


# ---------------------------------------------------------------- invalid
def bad(kind, name, text, error, position=None, preset=None):
    """`preset`: for a Snowflake, the layout the value must fit (the parser takes any u64)."""
    return {"name": name, "kind": kind, "preset": preset, "input": text, "error": error, "position": position}


def invalid():
    return [
        # Snowflake (decimal)
        bad("snowflake", "empty", "", "length"),
        bad("snowflake", "21-digits", "123456789012345678901", "length"),
        bad("snowflake", "two-to-the-64", "18446744073709551616", "overflow"),
        bad("snowflake", "all-nines", "99999999999999999999", "overflow"),
        # 63-bit layouts keep the sign bit 0 (Discord's and Mastodon's use all 64).
        bad("snowflake", "sign-bit-twitter", "9223372036854775808", "overflow", preset="twitter"),
        bad("snowflake", "max-u64-sonyflake", "18446744073709551615", "overflow", preset="sonyflake"),
        bad("snowflake", "minus", "-1", "character", 0),
        bad("snowflake", "plus", "+1", "character", 0),
        bad("snowflake", "leading-space", " 175928847299117063", "character", 0),
        bad("snowflake", "trailing-letter", "17592884729911706x", "character", 17),
        bad("snowflake", "decimal-point", "1.5", "character", 1),
        # ULID
        bad("ulid", "25-chars", "01ARZ3NDEKTSV4RRFFQ69G5FA", "length"),
        bad("ulid", "27-chars", "01ARZ3NDEKTSV4RRFFQ69G5FAVV", "length"),
        bad("ulid", "overflow-8", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "overflow"),
        bad("ulid", "overflow-Z", "ZZZZZZZZZZZZZZZZZZZZZZZZZZ", "overflow"),
        bad("ulid", "letter-U", "01ARZ3NDEKTSV4RRFFQ69G5FAU", "character", 25),
        bad("ulid", "letter-u-lowercase", "01arz3ndektsv4rrffq69g5fau", "character", 25),
        bad("ulid", "dash", "01ARZ3NDEK-SV4RRFFQ69G5FAV", "character", 10),
        # Non-ASCII: lengths and positions count characters, not UTF-8 bytes.
        bad("ulid", "non-ascii-26-characters", "01ARZ3NDEKTSV4RRFFQ69G5FA\u00e9", "character", 25),
        bad("ulid", "non-ascii-27-characters", "01ARZ3NDEKTSV4RRFFQ69G5FA\u00e9\u00e9", "length"),
        bad(None, "non-ascii-detected-by-character-count", "\u20ac1ARZ3NDEKTSV4RRFFQ69G5FAV", "character", 0),
        bad("typeid", "non-ascii-typeid-prefix", "us\u00e9r_01h455vb4pex5vsknk084sn02q", "character", 2),
        bad("human", "non-ascii-human", "01-hz61-3s2\u00fc", "character", 11),
        bad("ulid", "empty", "", "length"),
        # UUID: a length none of the forms has, or the first character that breaks the form
        bad("uuid", "35-chars", "017f22e2-79b0-7cc3-98c4-dc0c0c07398", "length"),
        bad("uuid", "bad-hex", "017f22e2-79b0-7cc3-98c4-dc0c0c07398g", "character", 35),
        bad("uuid", "misplaced-dash", "017f22e279b0-7cc3-98c4-dc0c0c07398f0", "character", 8),
        bad("uuid", "unclosed-brace", "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "length"),
        bad("uuid", "31-hex", "017f22e279b07cc398c4dc0c0c07398", "length"),
        bad("uuid", "empty", "", "length"),
        bad("uuid", "braced-no-close", "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f0", "character", 37),
        bad("uuid", "bad-urn", "urn:uuld:017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "character", 6),
        # KSUID
        bad("ksuid", "26-chars", "0ujtsYcgvSTl8PAuAdqWYSMnLO", "length"),
        bad("ksuid", "max-plus-one", "aWgEPTl1tmebfsQzFP4bxwgy80W", "overflow"),
        bad("ksuid", "all-z", "zzzzzzzzzzzzzzzzzzzzzzzzzzz", "overflow"),
        bad("ksuid", "dash", "0ujtsYcgvSTl8PAuAdqWYSMnLO-", "character", 26),
        bad("ksuid", "underscore", "0ujtsYcgvSTl8PAuAdqWY_MnLOv", "character", 21),
        # ObjectId
        bad("objectid", "23-digits", "507f1f77bcf86cd79943901", "length"),
        bad("objectid", "25-digits", "507f1f77bcf86cd7994390111", "length"),
        bad("objectid", "letter-g", "507f1f77bcf86cd79943901g", "character", 23),
        bad("objectid", "space", "507f1f77 cf86cd799439011", "character", 8),
        # TypeID (beyond the conformance suite: exact error kinds)
        bad("typeid", "uppercase-prefix", "PREFIX_00000000000000000000000000", "character", 0),
        bad("typeid", "separator-without-prefix", "_00000000000000000000000000", "prefix"),
        bad("typeid", "trailing-underscore-prefix", "prefix__00000000000000000000000000", "prefix"),
        bad("typeid", "prefix-64-chars", "a" * 64 + "_00000000000000000000000000", "prefix"),
        bad("typeid", "suffix-overflow", "prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz", "overflow"),
        bad("typeid", "suffix-uppercase", "prefix_0123456789ABCDEFGHJKMNPQRS", "character", 17),
        bad("typeid", "suffix-25-chars", "prefix_0000000000000000000000000", "length"),
        bad("typeid", "suffix-letter-u", "prefix_0000000000000000000000000u", "character", 32),
        # Human form
        bad("human", "empty", "", "length"),
        bad("human", "dashes-only", "--", "length"),
        bad("human", "letter-u", "01-hz61-3s2u", "character", 11),
        bad("human", "space", "01 hz61", "character", 2),
        bad("human", "overflow-8", "8zzzzzzzzzzzzzzzzzzzzzzzzz", "overflow"),
        bad("human", "27-digits", "0" * 27, "overflow"),
        # Kind detection (no kind given)
        bad(None, "empty", "", "unknown_kind"),
        bad(None, "21-digits", "123456789012345678901", "unknown_kind"),
        bad(None, "word", "hello", "unknown_kind"),
        bad(None, "25-chars", "01ARZ3NDEKTSV4RRFFQ69G5FA", "unknown_kind"),
        bad(None, "20-digit-overflow", "18446744073709551616", "overflow"),
        bad(None, "19-digit-sign-bit-twitter", "9223372036854775808", "overflow", preset="twitter"),
        bad(None, "26-char-overflow", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "overflow"),
        bad(None, "typeid-bad-prefix", "Pre_00000000000000000000000000", "character", 0),
        bad(None, "24-non-hex", "507f1f77bcf86cd79943901z", "unknown_kind"),
    ]


def main():
    files = {
        "uuid.json": uuids(),
        "ulid.json": ulids(),
        "ksuid.json": ksuids(),
        "snowflake.json": snowflakes(),
        "objectid.json": objectids(),
        "human.json": humans(),
        "invalid.json": invalid(),
        "bytes.json": byte_vectors(),
        "valid.json": validity(),
        "bounds.json": bounds(),
        "compare.json": compares(),
    }
    for name, data in files.items():
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, ensure_ascii=False)
            f.write("\n")
        print(f"{name}: {len(data)} vectors")


if __name__ == "__main__":
    main()
