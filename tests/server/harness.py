"""Starts and stops snowmint-server processes for the tests.

Each server listens on free loopback ports (it is given port 0 and prints
the ports it got) and leases worker IDs in a directory of the test's own.
The binary is $SNOWMINT_SERVER_BIN (scripts/test.d/90-server.sh builds it).
"""

import os
import json
import re
import sys
import threading
from array import array
import resource
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

import requests

BIN = os.environ.get("SNOWMINT_SERVER_BIN") or os.path.join(
    os.path.dirname(__file__), "..", "..", "target", "debug", "snowmint-server"
)
LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
# Many connections: this process and the servers it starts (which inherit
# the limit) may open as many files as the hard limit allows.
_, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if _hard != resource.RLIM_INFINITY:
    resource.setrlimit(resource.RLIMIT_NOFILE, (_hard, _hard))
HARD_NOFILE = 1 << 20 if _hard == resource.RLIM_INFINITY else _hard
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ENTRY = os.path.join(ROOT, "npm", "entries", "node.js")
LEASE = os.path.join(ROOT, "npm", "src", "lease", "index.js")
BIN_ACCEPT = {"Accept": "application/octet-stream"}
LINE = re.compile(r"listening: http=(\S+) resp=(\S+) preset=(\S+) worker_ids=(\S+)")


def lease_dir():
    """A fresh lease directory (mode 0700, as the lease checks want)."""
    return tempfile.mkdtemp(prefix="snowmint-server-test-")


class Server:
    """One snowmint-server process."""

    def __init__(self, *args, lease_dir=None, env=None, faketime_file=None, workers=2):
        self.own_dir = lease_dir is None
        self.lease_dir = lease_dir or globals()["lease_dir"]()
        e = {k: v for k, v in os.environ.items() if not k.startswith("SNOWMINT_")}
        e["SNOWMINT_LEASE_DIR"] = self.lease_dir
        if faketime_file is not None:
            # Only the wall clock moves: an NTP step does not touch CLOCK_MONOTONIC.
            e.update(
                LD_PRELOAD=LIBFAKETIME,
                FAKETIME_TIMESTAMP_FILE=faketime_file,
                FAKETIME_NO_CACHE="1",
                FAKETIME_DONT_FAKE_MONOTONIC="1",
            )
        e.update(env or {})
        # workers=None: the arguments say how many.
        argv = [BIN, "--http", "127.0.0.1:0", "--resp", "127.0.0.1:0", *(["--workers", str(workers)] if workers else []), *args]
        self.proc = subprocess.Popen(
            argv, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        line = self.proc.stdout.readline()
        m = LINE.search(line)
        if not m:
            self.proc.kill()
            _, err = self.proc.communicate()
            if self.own_dir:
                shutil.rmtree(self.lease_dir, ignore_errors=True)
            raise RuntimeError(f"server did not start: {line!r} {err!r}")
        http, resp, self.preset, ids = m.groups()
        self.http = f"http://{http}"
        self.resp_host, port = resp.rsplit(":", 1)
        self.resp_port = int(port)
        self.worker_ids = [int(i) for i in ids.split(",")]

    def url(self, path):
        return self.http + path

    def ready(self):
        try:
            return requests.get(self.url("/readyz"), timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def wait(self, predicate, seconds=10, what="condition"):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if predicate():
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out after {seconds} s waiting for {what}")

    def metric(self, name):
        text = requests.get(self.url("/metrics"), timeout=5).text
        total = 0.0
        for line in text.splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                total += float(line.rsplit(" ", 1)[1])
        return total

    def terminate(self, timeout=15):
        """SIGTERM; returns (exit code, stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
            raise AssertionError(f"no exit within {timeout} s of SIGTERM: {err}")
        return self.proc.returncode, err

    def kill9(self):
        self.proc.kill()
        self.proc.communicate()

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()
        if self.own_dir:
            shutil.rmtree(self.lease_dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def mint_until(servers, total, per_server=4, n=50_000):
    """Snowflakes from every server over `per_server` connections each, in
    binary batches of `n`, until `total` are in hand. Returns (the IDs as an
    array of 64-bit ints, the non-200 replies)."""
    lock = threading.Lock()
    got, failures = [], []
    asked = [0]  # IDs asked for so far, by every connection

    def fetch(srv):
        mine = array("Q")
        with requests.Session() as sess:
            while True:
                with lock:
                    if asked[0] >= total or failures:
                        break
                    asked[0] += n
                resp = sess.get(
                    srv.url(f"/v1/next?n={n}"), headers={"Accept": "application/octet-stream"}, timeout=30
                )
                if resp.status_code != 200:
                    with lock:
                        failures.append((resp.status_code, resp.text))
                    break
                batch = array("Q", resp.content)
                if sys.byteorder == "little":
                    batch.byteswap()  # the wire is big-endian
                mine.extend(batch)
        with lock:
            got.append(mine)

    threads = [threading.Thread(target=fetch, args=(s,)) for s in servers for _ in range(per_server)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out = array("Q")
    for part in got:
        out.extend(part)
    return out, failures


def run(argv, timeout=120, **kw):
    """Runs a client command; returns CompletedProcess (text)."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kw)


# Servers on a coordinator's lease (test_redis.py, test_etcd.py).


def worker_of(flake):
    """The worker ID of a Twitter-layout Snowflake."""
    return (flake >> 12) & 1023


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load(srv, stop, out, failures, n=2000):
    """Fetches Snowflake batches until `stop` is set or the server dies."""
    with requests.Session() as sess:
        while not stop.is_set():
            try:
                resp = sess.get(srv.url(f"/v1/next?n={n}"), headers=BIN_ACCEPT, timeout=5)
            except requests.RequestException:
                return
            if resp.status_code == 200:
                out.extend(struct.unpack(f">{len(resp.content) // 8}Q", resp.content))
            else:
                failures.append((resp.status_code, resp.text))


def run_load(servers, seconds, per_server=3):
    """`per_server` connections to each server for `seconds`: (every ID, failures)."""
    stop = threading.Event()
    outs, failures, threads = [], [], []
    for srv in servers:
        for _ in range(per_server):
            out = []
            outs.append(out)
            t = threading.Thread(target=load, args=(srv, stop, out, failures))
            t.start()
            threads.append(t)
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    return [i for out in outs for i in out], failures


def node_beside(test, code, make_server):
    """Runs `code` (a Node module that leases a worker ID, mints, prints
    {worker, ids} and releases at the end of stdin), then a server from
    `make_server()` beside it: no worker ID and no ID in common."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SNOWMINT_")}
    node = subprocess.Popen(
        ["node", "--input-type=module", "-e", code],
        cwd=os.path.dirname(ENTRY), env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        line = node.stdout.readline()
        test.assertTrue(line, node.stderr.read() if node.poll() is not None else "node printed nothing")
        mine = json.loads(line)
        with make_server() as s:
            test.assertNotIn(mine["worker"], s.worker_ids)
            s.wait(s.ready, what="ready beside Node")
            got, failures = run_load([s], 1)
        test.assertEqual(failures, [])
        test.assertNotIn(mine["worker"], {worker_of(i) for i in got})
        test.assertEqual(set(got) & {int(i) for i in mine["ids"]}, set())
    finally:
        _, err = node.communicate(timeout=20)
    test.assertEqual(node.returncode, 0, err)
