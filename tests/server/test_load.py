"""Load: millions of IDs over many connections with no duplicate, and
thousands of idle or half-sent connections that block no one."""

import socket
import struct
import threading
import time
import unittest

import redis
import requests

from harness import HARD_NOFILE, Server

# 5,000 per protocol (10,000 in all), or what the file limit leaves room
# for (each end of a loopback connection holds a descriptor, in this
# process and in the server).
IDLE = min(5000, (HARD_NOFILE - 100) // 2)


def worker_of(flake):
    """The Twitter layout's worker field."""
    return (flake >> 12) & 1023


class Load(unittest.TestCase):
    def test_two_million_ids_over_many_connections_are_unique_and_ordered_per_connection(self):
        with Server() as s:
            streams = []  # one list of IDs per connection, in the order received
            errors = []
            lock = threading.Lock()

            def http_conn(rounds):
                ids = []
                with requests.Session() as sess:
                    for _ in range(rounds):
                        r = sess.get(s.url("/v1/next?n=20000"), headers={"Accept": "application/octet-stream"})
                        if r.status_code != 200:
                            errors.append(r.text)
                            return
                        ids.extend(struct.unpack(f">{len(r.content) // 8}Q", r.content))
                with lock:
                    streams.append(ids)

            def resp_conn(rounds):
                r = redis.Redis(host=s.resp_host, port=s.resp_port)
                ids = []
                p = r.pipeline(transaction=False)
                for _ in range(rounds):
                    p.execute_command("ID.BATCH", "snowflake", 5000)
                for batch in p.execute():
                    ids.extend(int(x) for x in batch)
                # And single IDs through the integer alias, pipelined.
                for _ in range(rounds):
                    p.incr("snowflake")
                ids.extend(p.execute())
                r.close()
                with lock:
                    streams.append(ids)

            threads = [threading.Thread(target=http_conn, args=(5,)) for _ in range(16)]
            threads += [threading.Thread(target=resp_conn, args=(20,)) for _ in range(16)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(errors, [])
            total = sum(len(x) for x in streams)
            self.assertEqual(total, 16 * 5 * 20000 + 16 * 20 * 5001)
            seen = set()
            workers = set()
            for ids in streams:
                self.assertTrue(all(a < b for a, b in zip(ids, ids[1:])), "per-connection order")
                # A connection stays on one worker thread, so on one worker ID.
                self.assertEqual(len({worker_of(i) for i in ids}), 1)
                workers.add(worker_of(ids[0]))
                seen.update(ids)
            self.assertEqual(len(seen), total, "duplicates")
            self.assertEqual(workers, set(s.worker_ids), "both worker threads served")

    def test_ulids_and_uuidv7s_over_connections_are_unique(self):
        with Server() as s:
            out = []

            def conn(kind):
                r = redis.Redis(host=s.resp_host, port=s.resp_port)
                ids = []
                for _ in range(10):
                    ids.extend(r.execute_command("ID.BATCH", kind, 10000))
                out.append(ids)
                r.close()

            threads = [threading.Thread(target=conn, args=(k,)) for k in ("ulid", "uuidv7") for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for ids in out:
                self.assertEqual(ids, sorted(ids), "monotonic per connection")
            flat = [i for ids in out for i in ids]
            self.assertEqual(len(flat), 800000)
            self.assertEqual(len(set(flat)), len(flat))

    def test_thousands_of_idle_and_half_sent_connections_block_no_one(self):
        with Server() as s:
            idle = []
            try:
                self.assertGreaterEqual(IDLE, 400, "a file limit too low for this test")
                for i in range(IDLE):
                    for addr in ((s.resp_host, s.resp_port), s.http[len("http://"):].rsplit(":", 1)):
                        c = socket.create_connection((addr[0], int(addr[1])), timeout=5)
                        # A third of them send half a request and stall (slowloris).
                        if i % 3 == 0:
                            c.sendall(b"*2\r\n$4\r\nINCR\r\n$9\r\nsnow" if addr[1] == s.resp_port else b"GET /v1/next HTTP/1.1\r\nHost: x\r\n")
                        idle.append(c)
                t0 = time.monotonic()
                r = redis.Redis(host=s.resp_host, port=s.resp_port, socket_timeout=5)
                for _ in range(100):
                    self.assertIsInstance(r.incr("snowflake"), int)
                r.close()
                with requests.Session() as sess:
                    for _ in range(100):
                        self.assertEqual(sess.get(s.url("/v1/next"), timeout=5).status_code, 200)
                self.assertLess(time.monotonic() - t0, 5, f"200 requests beside {2 * IDLE} idle connections")
                self.assertTrue(s.ready())
            finally:
                for c in idle:
                    c.close()


if __name__ == "__main__":
    unittest.main()
