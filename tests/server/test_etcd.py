"""Servers leasing their worker IDs from a real etcd (`--lease etcd://`):
three servers at once get distinct worker IDs and mint ten million IDs
over twelve connections without a duplicate, and a Node
process's etcdLease on the same etcd never shares a worker ID with them."""

import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import requests

from harness import ENTRY, LEASE, Server, free_port, mint_until, node_beside, worker_of

TTL_MS = "2000"


class EtcdServer:
    """A one-member etcd of the test's own, on free loopback ports, in a temp directory."""

    def __init__(self):
        self.port, peer = free_port(), free_port()
        self.dir = tempfile.mkdtemp(prefix="snowmint-server-etcd-")
        client, peer_url = f"http://127.0.0.1:{self.port}", f"http://127.0.0.1:{peer}"
        self.proc = subprocess.Popen(
            ["etcd", "--name", "lease-test", "--data-dir", os.path.join(self.dir, "data"),
             "--listen-client-urls", client, "--advertise-client-urls", client,
             "--listen-peer-urls", peer_url, "--initial-advertise-peer-urls", peer_url,
             "--initial-cluster", f"lease-test={peer_url}", "--log-level", "error"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                if requests.get(f"{client}/health", timeout=1).json().get("health") == "true":
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("etcd did not come up")
            time.sleep(0.05)
        self.http = client
        self.url = f"etcd://127.0.0.1:{self.port}"

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def server(e, *args):
    return Server("--lease", e.url, "--lease-ttl-ms", TTL_MS, *args)


class EtcdLease(unittest.TestCase):
    def setUp(self):
        self.etcd = EtcdServer()

    def tearDown(self):
        self.etcd.close()

    def test_three_servers_get_distinct_worker_ids_and_ten_million_ids_no_duplicate(self):
        with server(self.etcd) as a, server(self.etcd) as b, server(self.etcd) as c:
            ids = a.worker_ids + b.worker_ids + c.worker_ids
            self.assertEqual(len(set(ids)), 6, ids)
            for s in (a, b, c):
                s.wait(s.ready, what="ready on its etcd lease")
            got, failures = mint_until([a, b, c], 10_000_000)
        self.assertEqual(failures, [])
        self.assertGreaterEqual(len(got), 10_000_000)
        self.assertEqual(len(got), len(set(got)), "a duplicate across three servers")
        self.assertEqual({worker_of(i) for i in got}, set(ids))

    def test_a_node_etcd_lease_and_a_server_share_no_worker_id(self):
        code = f"""
import {{ Etcd3 }} from 'etcd3';
import {{ etcdLease }} from {json.dumps(LEASE)};
import {{ Snowflake }} from {json.dumps(ENTRY)};
const client = new Etcd3({{ hosts: {json.dumps(self.etcd.http)} }});
const lease = await etcdLease(client, {{ ttlMs: {TTL_MS} }});
const sf = new Snowflake({{ lease }});
const ids = Array.from({{ length: 5000 }}, () => sf.next());
console.log(JSON.stringify({{ worker: lease.workerId, ids: ids.map(String) }}));
await new Promise((resolve) => process.stdin.on('end', resolve).resume());
await lease.release();
client.close();
"""
        node_beside(self, code, lambda: server(self.etcd))


if __name__ == "__main__":
    unittest.main()
