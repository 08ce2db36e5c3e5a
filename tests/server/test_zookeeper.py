"""Servers leasing their worker IDs from a real ZooKeeper (`--lease zk://`,
a server built with the feature `zookeeper`): three servers at once get
distinct worker IDs and mint over many connections without a duplicate,
and a Node process's zookeeperLease on the same ZooKeeper never shares a
worker ID with them."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

from harness import ENTRY, LEASE, Server, free_port, node_beside, run_load, worker_of

TTL_MS = "2000"


def srvr(port):
    with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
        s.sendall(b"srvr")
        reply = b""
        while chunk := s.recv(4096):
            reply += chunk
        return reply.decode()


class ZookeeperServer:
    """A standalone ZooKeeper of the test's own (Debian's jars, as tests/lease/servers.js runs it)."""

    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="snowmint-server-zk-")
        cfg = os.path.join(self.dir, "zoo.cfg")
        with open(cfg, "w") as f:
            f.write(
                f"tickTime=500\ndataDir={os.path.join(self.dir, 'data')}\nclientPort={self.port}\n"
                "clientPortAddress=127.0.0.1\nmaxClientCnxns=0\nforceSync=no\n"
                "admin.enableServer=false\n4lw.commands.whitelist=srvr\n"
            )
        self.proc = subprocess.Popen(
            ["java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
             "-cp", "/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-nop.jar",
             "org.apache.zookeeper.server.ZooKeeperServerMain", cfg],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 90
        while True:
            try:
                if "Mode: standalone" in srvr(self.port):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("ZooKeeper did not come up")
            time.sleep(0.05)
        self.hosts = f"127.0.0.1:{self.port}"
        self.url = f"zk://{self.hosts}/snowmint"

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def server(z, *args):
    return Server("--lease", z.url, "--lease-ttl-ms", TTL_MS, *args)


class ZookeeperLease(unittest.TestCase):
    def setUp(self):
        self.zk = ZookeeperServer()

    def tearDown(self):
        self.zk.close()

    def test_three_servers_get_distinct_worker_ids_and_never_a_duplicate(self):
        with server(self.zk) as a, server(self.zk) as b, server(self.zk) as c:
            ids = a.worker_ids + b.worker_ids + c.worker_ids
            self.assertEqual(len(set(ids)), 6, ids)
            for s in (a, b, c):
                s.wait(s.ready, what="ready on its ZooKeeper lease")
            got, failures = run_load([a, b, c], 1.5, per_server=4)
        self.assertEqual(failures, [])
        self.assertGreater(len(got), 200_000)
        self.assertEqual(len(got), len(set(got)), "a duplicate across three servers")
        self.assertEqual({worker_of(i) for i in got}, set(ids))

    def test_a_node_zookeeper_lease_and_a_server_share_no_worker_id(self):
        code = f"""
import zookeeper from 'node-zookeeper-client';
import {{ zookeeperLease }} from {json.dumps(LEASE)};
import {{ Snowflake }} from {json.dumps(ENTRY)};
const lease = await zookeeperLease(() => zookeeper.createClient({json.dumps(self.zk.hosts)}, {{ sessionTimeout: {TTL_MS} }}), {{ ttlMs: {TTL_MS} }});
const sf = new Snowflake({{ lease }});
const ids = Array.from({{ length: 5000 }}, () => sf.next());
console.log(JSON.stringify({{ worker: lease.workerId, ids: ids.map(String) }}));
await new Promise((resolve) => process.stdin.on('end', resolve).resume());
await lease.release();
"""
        node_beside(self, code, lambda: server(self.zk))


if __name__ == "__main__":
    unittest.main()
