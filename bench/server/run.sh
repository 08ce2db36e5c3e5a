#!/usr/bin/env bash
# The ID service's benchmark, run once by hand (not in CI):
#   bash bench/server/run.sh
# - RESP: redis-benchmark against snowmint-server (INCR snowflake) and
#   against redis-server (INCR counter), same client, connections and
#   pipeline depth, not pipelined and -P 16;
# - HTTP: h2load, single-ID requests on 64 connections, h2c and HTTP/1.1;
# - batches: IDs/s through /v1/next?n=... (bytes);
# - latency: p50/p99 at half of the HTTP peak (h2load --rps, per-request log).
# Prints a Markdown table. The load generator runs on the same machine as
# the servers (and shares its cores): say so beside the numbers.
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"
command -v redis-benchmark >/dev/null && command -v h2load >/dev/null && command -v redis-server >/dev/null \
  || { bash scripts/setup.d/90-server.sh; apt_install redis-server; }
cargo build --release -p snowmint-server >&2
BIN="$ROOT/target/release/snowmint-server"
N=${N:-1000000}
work=$(mktemp -d)
chmod 700 "$work"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
RPORT=$(free_port) HPORT=$(free_port) SPORT=$(free_port)
redis-server --port "$SPORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no --dir "$work" >"$work/redis.log" 2>&1 &
pids+=($!)
SNOWMINT_LEASE_DIR="$work" "$BIN" --http "127.0.0.1:$HPORT" --resp "127.0.0.1:$RPORT" >"$work/server.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  redis-cli -p "$SPORT" ping >/dev/null 2>&1 && redis-cli -p "$RPORT" ping >/dev/null 2>&1 && break
  sleep 0.1
done

# redis-benchmark --csv: "test","rps","avg","min","p50","p95","p99","max"
rb() { redis-benchmark -h 127.0.0.1 -p "$1" -n "$N" -c 50 --csv "${@:2}" | tail -1 | tr -d '"'; }
field() { cut -d, -f"$1" <<<"$2"; }
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }

echo "| what | snowmint-server | redis-server | ratio | goal |"
echo "|---|---|---|---|---|"
for pipe in 1 16; do
  s=$(rb "$RPORT" -P "$pipe" INCR snowflake)
  r=$(rb "$SPORT" -P "$pipe" INCR counter)
  echo "| RESP \`INCR\`, 50 connections, pipeline $pipe (req/s; p50/p99 ms) | $(field 2 "$s") ($(field 5 "$s")/$(field 7 "$s")) | $(field 2 "$r") ($(field 5 "$r")/$(field 7 "$r")) | $(ratio "$(field 2 "$s")" "$(field 2 "$r")") | >= 1.0 |"
done

# h2load: "finished in Xs, Y req/s"; the log's third column is µs per request.
h2() { h2load "$@" 2>&1; }
rps_of() { sed -n 's/.*finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' <<<"$1"; }
ok_of() { sed -n 's/.*requests: .* \([0-9]*\) succeeded.*/\1/p' <<<"$1"; }
url="http://127.0.0.1:$HPORT/v1/next"
out=$(h2 -n "$N" -c 64 -t 1 "$url")
h2c=$(rps_of "$out")
echo "| HTTP h2c, single IDs, 64 connections (req/s) | $h2c ($(ok_of "$out") ok of $N) | | | >= 100k |"
out=$(h2 -n "$N" -c 64 -t 1 --h1 "$url")
h1=$(rps_of "$out")
echo "| HTTP/1.1, single IDs, 64 connections (req/s) | $h1 ($(ok_of "$out") ok of $N) | | | >= 100k |"
for kind in snowflake ulid uuidv7; do
  out=$(h2 -n 2000 -c 4 -t 1 -H "accept: application/octet-stream" "$url?kind=$kind&n=100000")
  rps=$(rps_of "$out")
  echo "| batches of 100,000 $kind, bytes, 4 connections (IDs/s) | $(python3 -c "print(f'{$rps*100000/1e6:.1f}M')") | | | >= 20M |"
done

# Snowflakes are bounded by the layout: 4,096 per ms per worker ID, so 2
# worker IDs cap at 8.19M/s; a server with 8 worker threads (8 worker IDs
# on the same 2 cores) shows what minting itself costs.
P8=$(free_port)
SNOWMINT_LEASE_DIR="$work" "$BIN" --http "127.0.0.1:$P8" --resp off --workers 8 >"$work/server8.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$P8/readyz" >/dev/null && break; sleep 0.1; done
out=$(h2 -n 2000 -c 8 -t 1 -H "accept: application/octet-stream" "http://127.0.0.1:$P8/v1/next?n=100000")
rps=$(rps_of "$out")
echo "| batches of 100,000 snowflake, bytes, 8 connections, --workers 8 (IDs/s) | $(python3 -c "print(f'{$rps*100000/1e6:.1f}M')") | | | >= 20M |"

# Half of the h2c peak, spread over 64 connections, 10 s.
half=$(python3 -c "print(max(1, int($h2c / 2 / 64)))")
h2 -D 10 -c 64 -t 1 --rps "$half" --log-file "$work/lat.log" "$url" >/dev/null
python3 - "$work/lat.log" "$half" <<'PY'
import sys
us = sorted(int(l.split("\t")[2]) for l in open(sys.argv[1]) if l.strip())
p = lambda q: us[min(len(us) - 1, int(q * len(us)))] / 1000
print(f"| HTTP h2c at half of peak ({int(sys.argv[2]) * 64} req/s offered; p50/p99 ms) | {p(0.5):.3f}/{p(0.99):.3f} | | | p99 < 1 ms |")
PY
# The server's own share: its histogram of the time to mint and encode
# each request's IDs (no network, no scheduling of the client).
curl -s "http://127.0.0.1:$HPORT/metrics" | python3 -c '
import sys
b = [(l.split("le=\"")[1].split("\"")[0], float(l.split()[-1])) for l in sys.stdin if l.startswith("snowmint_request_duration_seconds_bucket")]
total = b[-1][1]
q = lambda f: next(le for le, n in b if n >= f * total)
print(f"| server-side mint + encode per request, all runs above (p50/p99 bucket, s) | <= {q(0.5)} / <= {q(0.99)} | | | |")
'
