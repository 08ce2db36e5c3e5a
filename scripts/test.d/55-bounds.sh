#!/usr/bin/env bash
# minId/maxId against a real PostgreSQL cluster the test starts and stops
# itself (tests/bounds/): IDs of every time-ordered kind minted across a
# span, selected by their bounds, compared with the times decoded from them.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || bash scripts/setup.d/80-postgres.sh
node --test tests/bounds/
