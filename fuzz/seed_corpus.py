#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target>/ with every text from the shared vectors, so
that each fuzzer starts from valid IDs and near misses (corpus/ is ignored)."""

import hashlib
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent
VECTORS = ROOT.parent / "tests" / "vectors"
TARGETS = ["ulid", "uuid", "ksuid", "objectid", "typeid", "human", "snowflake", "any_id", "bytes", "validate"]
KEYS = ("text", "id", "human", "typeid", "input", "ulid", "uuid")


def texts(value):
    """Every string under the keys above, and under `inputs` lists."""
    if isinstance(value, list):
        for v in value:
            yield from texts(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in KEYS and isinstance(v, str):
                yield v
            elif k in ("inputs", "short") or isinstance(v, (list, dict)):
                yield from texts(v)
    elif isinstance(value, str):
        yield value


def main():
    seeds = set()
    for path in VECTORS.rglob("*.json"):
        if "jsontestsuite" in path.parts:
            continue  # JSON parser cases (many are not JSON at all), no IDs
        seeds.update(texts(json.loads(path.read_text(encoding="utf-8"))))
    for target in TARGETS:
        out = ROOT / "corpus" / target
        out.mkdir(parents=True, exist_ok=True)
        for seed in seeds:
            data = seed.encode()
            # any_id and validate read their first byte as a kind selector (>= 7: detect).
            variants = [bytes([k]) + data for k in range(8)] if target in ("any_id", "validate") else [data]
            for v in variants:
                (out / hashlib.sha1(v).hexdigest()).write_bytes(v)
    print(f"{len(seeds)} seeds per target")


if __name__ == "__main__":
    main()
