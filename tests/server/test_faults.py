"""Faults: kill -9 mid-load and a restart, a wall clock stepped back under
libfaketime, SIGTERM, and the worker-ID sources (fixed, ordinal, local,
Redis, etcd and ZooKeeper in test_redis.py, test_etcd.py, test_zookeeper.py)."""

import os
import shutil
import struct
import tempfile
import threading
import time
import unittest

import redis
import requests

from harness import Server, lease_dir, run

BIN_ACCEPT = {"Accept": "application/octet-stream"}


def worker_of(flake):
    return (flake >> 12) & 1023


def load(server, stop, out, failures):
    """Fetches Snowflake batches over HTTP until `stop` is set or the server dies."""
    with requests.Session() as sess:
        while not stop.is_set():
            try:
                r = sess.get(server.url("/v1/next?n=2000"), headers=BIN_ACCEPT, timeout=5)
            except requests.RequestException:
                return
            if r.status_code == 200:
                out.extend(struct.unpack(f">{len(r.content) // 8}Q", r.content))
            else:
                failures.append((r.status_code, r.text))


class Faults(unittest.TestCase):
    def test_kill_9_mid_load_then_restart_gives_no_duplicate(self):
        d = lease_dir()
        try:
            before, after = [], []
            for out in (before, after):
                s = Server(lease_dir=d)
                stop, failures = threading.Event(), []
                threads = [threading.Thread(target=load, args=(s, stop, out, failures)) for _ in range(4)]
                for t in threads:
                    t.start()
                time.sleep(1.0)
                if out is before:
                    s.kill9()  # mid-load: no release, the kernel drops the locks
                stop.set()
                for t in threads:
                    t.join()
                s.close()
                self.assertEqual(failures, [])
                self.assertGreater(len(out), 10000)
            self.assertEqual(len(set(before) | set(after)), len(before) + len(after))
            # A successor of a worker ID starts after everything minted under it.
            for w in {worker_of(i) for i in after}:
                old = [i for i in before if worker_of(i) == w]
                if old:
                    self.assertGreater(min(i for i in after if worker_of(i) == w), max(old))
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def test_clock_stepped_back_gives_unready_and_refusals_never_a_duplicate(self):
        fake = tempfile.NamedTemporaryFile("w", delete=False, suffix=".faketime")
        fake.write("+0\n")
        fake.close()
        d = lease_dir()
        try:
            ids = []
            s = Server(lease_dir=d, faketime_file=fake.name)
            r = redis.Redis(host=s.resp_host, port=s.resp_port)
            ids += [r.incr("snowflake") for _ in range(200)]
            self.assertTrue(s.ready())
            with open(fake.name, "w") as f:
                f.write("-5\n")  # the wall clock steps 5 s back (maxBackwardsMs is 1,000)
            s.wait(lambda: not s.ready(), 5, "unready")
            self.assertIn("ERR_CLOCK_BACKWARDS", requests.get(s.url("/readyz")).text)
            resp = requests.get(s.url("/v1/next"))
            self.assertEqual((resp.status_code, resp.json()["code"]), (503, "ERR_CLOCK_BACKWARDS"))
            with self.assertRaises(redis.ResponseError) as e:
                r.incr("snowflake")
            self.assertIn("ERR_CLOCK_BACKWARDS", str(e.exception))
            self.assertGreaterEqual(s.metric("snowmint_clock_backward_events_total"), 1)
            self.assertGreaterEqual(s.metric("snowmint_requests_refused_total"), 2)
            self.assertTrue(requests.get(s.url("/healthz")).ok, "alive, only unready")
            with open(fake.name, "w") as f:
                f.write("+0\n")  # corrected
            s.wait(s.ready, 5, "ready again")
            ids += [r.incr("snowflake") for _ in range(200)]
            r.close()
            s.kill9()
            s.close()
            # A restart on a clock 3 s back, on the same lease directory:
            # the lease refuses to start (its lock files were written 3 s
            # "later"), then starts on the corrected clock after its bound.
            with open(fake.name, "w") as f:
                f.write("-3\n")
            with self.assertRaises(RuntimeError) as e:
                Server(lease_dir=d, faketime_file=fake.name)
            self.assertIn("ERR_CLOCK_SKEW", str(e.exception))
            with open(fake.name, "w") as f:
                f.write("+0\n")
            with Server(lease_dir=d, faketime_file=fake.name) as s2:
                r2 = redis.Redis(host=s2.resp_host, port=s2.resp_port)
                deadline = time.monotonic() + 8
                while time.monotonic() < deadline and len(ids) < 800:
                    try:
                        ids.append(r2.incr("snowflake"))
                    except redis.ResponseError as e:
                        self.assertIn("ERR_CLOCK_BACKWARDS", str(e))
                        time.sleep(0.05)
                r2.close()
            self.assertEqual(len(ids), 800)
            self.assertEqual(len(set(ids)), len(ids), "never a duplicate")
        finally:
            os.unlink(fake.name)
            shutil.rmtree(d, ignore_errors=True)

    def test_sigterm_finishes_in_flight_releases_the_lease_and_exits_0(self):
        d = lease_dir()
        try:
            s = Server("--worker-id", "7", lease_dir=d, workers=1)
            got, bad = [], []

            def pipelined():
                r = redis.Redis(host=s.resp_host, port=s.resp_port)
                try:
                    while True:
                        p = r.pipeline(transaction=False)
                        for _ in range(200):
                            p.incr("snowflake")
                        replies = p.execute()
                        bad.extend(x for x in replies if not isinstance(x, int))
                        got.extend(replies)
                except redis.ConnectionError:
                    pass  # closed between requests once draining
                finally:
                    r.close()

            t = threading.Thread(target=pipelined)
            t.start()
            time.sleep(0.5)
            code, err = s.terminate()
            t.join(10)
            self.assertFalse(t.is_alive())
            self.assertEqual(code, 0, err)
            self.assertIn("leases released", err)
            self.assertEqual(bad, [])
            self.assertGreater(len(got), 0)
            # Worker ID 7 is free at once, and its next holder starts after
            # the exact last ID (the release recorded it).
            with Server("--worker-id", "7", lease_dir=d, workers=1) as s2:
                nxt = redis.Redis(host=s2.resp_host, port=s2.resp_port).incr("snowflake")
                self.assertGreater(nxt, max(got))
                self.assertEqual(worker_of(nxt), 7)
        finally:
            shutil.rmtree(d, ignore_errors=True)


class Sources(unittest.TestCase):
    def start_fails(self, *args, env=None):
        e = {k: v for k, v in os.environ.items() if not k.startswith("SNOWMINT_")}
        d = lease_dir()
        e["SNOWMINT_LEASE_DIR"] = d
        e.update(env or {})
        try:
            from harness import BIN

            r = run([BIN, "--http", "127.0.0.1:0", "--resp", "off", *args], env=e, timeout=20)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        self.assertEqual(r.returncode, 2, r)
        return r.stderr

    def test_fixed_ordinal_and_local(self):
        with Server("--worker-id", "40", workers=2) as s:
            self.assertEqual(s.worker_ids, [40, 41])
            ident = requests.get(s.url("/v1/next")).text.strip()
            self.assertIn(requests.get(s.url(f"/v1/decode/{ident}")).json()["workerId"], (40, 41))
            # The same fixed ID twice on one host is refused.
            err = self.start_fails("--worker-id", "41", "--workers", "1", env={"SNOWMINT_LEASE_DIR": s.lease_dir})
            self.assertIn("ERR_WORKER_ID_IN_USE", err)
        with Server("--lease", "ordinal", workers=2, env={"HOSTNAME": "snowmint-3"}) as s:
            self.assertEqual(s.worker_ids, [6, 7])
        with Server("--lease", "ordinal", workers=1, env={"SNOWMINT_ORDINAL": "12", "HOSTNAME": "x"}) as s:
            self.assertEqual(s.worker_ids, [12])
        # An empty SNOWMINT_ORDINAL (a pod-index label the cluster lacks) falls back to POD_NAME.
        env = {"SNOWMINT_ORDINAL": "", "POD_NAME": "snowmint-2", "HOSTNAME": "x"}
        with Server("--lease", "ordinal", workers=2, env=env) as s:
            self.assertEqual(s.worker_ids, [4, 5])
        d = lease_dir()
        try:
            with Server(lease_dir=d) as a, Server(lease_dir=d) as b:
                self.assertEqual(len(set(a.worker_ids) | set(b.worker_ids)), 4, "local leases are distinct")
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def test_refusals_say_why(self):
        self.assertIn("--lease redis://127.0.0.1:1: ", self.start_fails("--lease", "redis://127.0.0.1:1"))
        self.assertIn("--lease etcd://127.0.0.1:1: ", self.start_fails("--lease", "etcd://127.0.0.1:1"))
        self.assertIn("TLS is not built in", self.start_fails("--lease", "etcds://127.0.0.1:2379"))
        # Built with the feature zookeeper: nothing listens there; without: the build says so.
        self.assertIn("--lease zk://127.0.0.1:1: ", self.start_fails("--lease", "zk://127.0.0.1:1"))
        self.assertIn("--lease 'mysql://x'", self.start_fails("--lease", "mysql://x"))
        self.assertIn("does not end in -N", self.start_fails("--lease", "ordinal", env={"HOSTNAME": "web"}))
        self.assertIn("do not fit", self.start_fails("--worker-id", "1023", "--workers", "2"))
        self.assertIn("unknown preset 'snow'", self.start_fails("--preset", "snow"))


if __name__ == "__main__":
    unittest.main()
