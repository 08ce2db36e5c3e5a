"""Servers leasing their worker IDs from a real Redis (`--lease redis://`):
three servers at once get distinct worker IDs and mint ten million IDs
over twelve connections without a duplicate, a FLUSHALL under load makes a server unready and
refuse until its lease holds again, a clock 3 s off from Redis's makes it
unready and refuse (and a start on it fails), a server killed with -9 mid-load and started again
never repeats one, and a Node process's redisLease on the same Redis never
shares a worker ID with them."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import unittest

import redis
import requests

from harness import ENTRY, LEASE, Server, free_port, load, mint_until, node_beside, run_load, worker_of

TTL_MS = "2000"


class RedisServer:
    """A redis-server of the test's own, on a free loopback port, with no persistence."""

    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="snowmint-server-redis-")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        self.client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.url = f"redis://127.0.0.1:{self.port}"

    def close(self):
        self.client.close()
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def server(r, *args):
    return Server("--lease", r.url, "--lease-ttl-ms", TTL_MS, *args)


class RedisLease(unittest.TestCase):
    def setUp(self):
        self.redis = RedisServer()

    def tearDown(self):
        self.redis.close()

    def test_three_servers_get_distinct_worker_ids_and_ten_million_ids_no_duplicate(self):
        with server(self.redis) as a, server(self.redis) as b, server(self.redis) as c:
            ids = a.worker_ids + b.worker_ids + c.worker_ids
            self.assertEqual(len(set(ids)), 6, ids)
            for s in (a, b, c):
                s.wait(s.ready, what="ready on its Redis lease")
            got, failures = mint_until([a, b, c], 10_000_000)
        self.assertEqual(failures, [])
        self.assertGreaterEqual(len(got), 10_000_000)
        self.assertEqual(len(got), len(set(got)), "a duplicate across three servers")
        self.assertTrue({worker_of(i) for i in got} <= set(ids))

    def test_flushall_under_load_gives_unready_and_errors_never_a_duplicate(self):
        with server(self.redis) as s:
            s.wait(s.ready, what="ready on its Redis lease")
            stop = threading.Event()
            got, failures = [], []
            t = threading.Thread(target=load, args=(s, stop, got, failures))
            t.start()
            time.sleep(0.5)
            self.redis.client.flushall()  # every lease key and bound gone
            s.wait(lambda: not s.ready(), what="unready once the lease finds its key gone")
            s.wait(s.ready, seconds=15, what="ready again after one TTL")
            time.sleep(0.5)
            stop.set()
            t.join()
        self.assertEqual(len(got), len(set(got)), "a duplicate across the data loss")
        self.assertTrue(all(code == 503 for code, _ in failures), failures[:3])

    def test_kill_9_mid_load_then_a_restart_repeats_no_id(self):
        first = server(self.redis)
        try:
            before, failures = run_load([first], 1.5)
            self.assertEqual(failures, [])
            first.kill9()
        finally:
            first.close()
        # Its worker IDs stay claimed until their TTL runs out: the new
        # server takes others, or the same ones after their high-water mark.
        with server(self.redis) as again:
            again.wait(again.ready, what="ready after the kill")
            after, failures = run_load([again], 1.5)
        self.assertEqual(failures, [])
        self.assertTrue(before and after)
        self.assertEqual(set(before) & set(after), set())

    def test_a_clock_off_from_redis_gives_unready_and_refusals_never_a_duplicate(self):
        fake = tempfile.NamedTemporaryFile("w", delete=False, suffix=".faketime")
        fake.write("+0\n")
        fake.close()
        try:
            # A TTL of 10 s: a step of 3 s leaves the lease within it (a step
            # past what is left of it fences the lease: ERR_LEASE_LOST).
            s = Server("--lease", self.redis.url, faketime_file=fake.name)
            with s:
                s.wait(s.ready, what="ready on its Redis lease")
                stop = threading.Event()
                got, failures = [], []
                t = threading.Thread(target=load, args=(s, stop, got, failures, 200))
                t.start()
                time.sleep(0.3)
                with open(fake.name, "w") as f:
                    f.write("+3\n")  # 3 s ahead of Redis's clock (the limit is 1 s)
                s.wait(lambda: not s.ready(), what="unready once a renewal measures the skew")
                self.assertIn("ERR_CLOCK_SKEW", requests.get(s.url("/readyz"), timeout=5).text)
                with open(fake.name, "w") as f:
                    f.write("+0\n")  # corrected: its IDs are 3 s ahead, so it waits for them
                s.wait(s.ready, seconds=15, what="ready again once the clock is back")
                time.sleep(0.3)
                stop.set()
                t.join()
                self.assertTrue(s.proc.poll() is None, "it kept running")
            # A start on a clock 3 s ahead claims nothing: it says why and exits.
            with open(fake.name, "w") as f:
                f.write("+3\n")
            with self.assertRaises(RuntimeError) as e:
                Server("--lease", self.redis.url, faketime_file=fake.name)
            self.assertIn("ERR_CLOCK_SKEW", str(e.exception))
        finally:
            os.unlink(fake.name)
        self.assertGreater(len(got), 0)
        self.assertEqual(len(got), len(set(got)), "a duplicate across the clock steps")
        codes = {(code, json.loads(text)["code"]) for code, text in failures}
        self.assertTrue(codes, "no request was refused while the clock was off")
        self.assertLessEqual(codes, {(503, "ERR_CLOCK_SKEW"), (503, "ERR_CLOCK_BACKWARDS")}, codes)

    def test_the_kubernetes_deployment_environment_leases_from_redis(self):
        # server/k8s/deployment-redis.yaml's SNOWMINT_* entries, with this
        # test's Redis and a shorter TTL (a fresh prefix waits one TTL).
        manifest = os.path.join(os.path.dirname(__file__), "..", "..", "server", "k8s", "deployment-redis.yaml")
        with open(manifest) as f:
            text = f.read()
        env = dict(re.findall(r'- name: (SNOWMINT_LEASE\w*)\n\s+value: "([^"]*)"', text))
        self.assertEqual(sorted(env), ["SNOWMINT_LEASE", "SNOWMINT_LEASE_PREFIX", "SNOWMINT_LEASE_TTL_MS"])
        env["SNOWMINT_LEASE"] = env["SNOWMINT_LEASE"].replace("redis:6379", f"127.0.0.1:{self.redis.port}")
        env["SNOWMINT_LEASE_TTL_MS"] = TTL_MS
        args = json.loads(re.search(r"args: (\[.*\])", text).group(1))
        with Server(*args, env=env, workers=None) as s:
            s.wait(s.ready, what="ready on the manifest's Redis lease")
            held = {int(k.split(b":")[-1]) for k in self.redis.client.keys(f"{{{env['SNOWMINT_LEASE_PREFIX']}}}:worker:*")}
            self.assertEqual(held, set(s.worker_ids))

    def test_a_node_redis_lease_and_a_server_share_no_worker_id(self):
        code = f"""
import {{ createClient }} from 'redis';
import {{ redisLease }} from {json.dumps(LEASE)};
import {{ Snowflake, decode }} from {json.dumps(ENTRY)};
const client = createClient({{ url: {json.dumps(self.redis.url)} }});
await client.connect();
const lease = await redisLease(client, {{ ttlMs: {TTL_MS} }});
const sf = new Snowflake({{ lease }});
const ids = Array.from({{ length: 5000 }}, () => sf.next());
console.log(JSON.stringify({{ worker: lease.workerId, ids: ids.map(String) }}));
await new Promise((resolve) => process.stdin.on('end', resolve).resume());
await lease.release();
await client.quit();
"""
        node_beside(self, code, lambda: server(self.redis))


if __name__ == "__main__":
    unittest.main()
