"""A Node process (snowmint's zero-configuration nextId()) and servers
leasing from one lease directory at the same time never share a worker ID,
so their Snowflakes never collide, whichever of them starts first."""

import json
import os
import shutil
import subprocess
import unittest

import requests

from harness import Server, lease_dir

ENTRY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "npm", "entries", "node.js"))

# Mints 20,000 IDs, prints them with their worker ID, then holds its lease
# until its stdin closes.
MINT = """
import { nextId, decode } from %s;
const ids = [];
for (let i = 0; i < 20000; i++) ids.push(nextId());
console.log(JSON.stringify({ worker: decode(ids[0]).workerId, ids: ids.map(String) }));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
"""


def worker_of(flake):
    return (flake >> 12) & 1023


class NodeBeside(unittest.TestCase):
    def setUp(self):
        self.dir = lease_dir()

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def node(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SNOWMINT_")}
        env.update(SNOWMINT_LEASE="local", SNOWMINT_LEASE_DIR=self.dir)
        proc = subprocess.Popen(
            ["node", "--input-type=module", "-e", MINT % json.dumps(ENTRY)],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = proc.stdout.readline()
        if not line:
            proc.kill()
            raise AssertionError(f"node minted nothing: {proc.communicate()[1]}")
        return proc, json.loads(line)

    def stop(self, proc):
        _, err = proc.communicate(timeout=10)  # closes its stdin: it releases its lease and exits
        self.assertEqual(proc.returncode, 0, err)

    def server_ids(self, server):
        text = requests.get(server.url("/v1/next?n=20000"), timeout=10).text
        return [int(i) for i in text.split()]

    def check(self, node, server):
        self.assertNotIn(node["worker"], server.worker_ids)
        ids = self.server_ids(server)
        self.assertEqual({worker_of(i) for i in ids} & {node["worker"]}, set())
        self.assertEqual(set(ids) & {int(i) for i in node["ids"]}, set())

    def test_server_first_then_node(self):
        with Server("--lease", "local", lease_dir=self.dir) as server:
            proc, node = self.node()
            try:
                self.check(node, server)
            finally:
                self.stop(proc)

    def test_node_first_then_server(self):
        proc, node = self.node()
        try:
            with Server("--lease", "local", lease_dir=self.dir) as server:
                self.check(node, server)
        finally:
            self.stop(proc)


if __name__ == "__main__":
    unittest.main()
