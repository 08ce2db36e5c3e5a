"""RESP2/3 through redis-cli, redis-benchmark and Python's redis."""

import re
import socket
import unittest

import redis

from harness import Server, run

ULID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


def raw(server, data, read=4096):
    """Sends bytes on a fresh connection; returns what came back before the server closed it (or 2 s)."""
    with socket.create_connection((server.resp_host, server.resp_port), timeout=2) as s:
        s.sendall(data)
        got = b""
        try:
            while chunk := s.recv(read):
                got += chunk
        except socket.timeout:
            return got, False
        return got, True


class Resp(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Server()
        cls.r = redis.Redis(host=cls.s.resp_host, port=cls.s.resp_port)

    @classmethod
    def tearDownClass(cls):
        cls.r.close()
        cls.s.close()

    def cli(self, *args):
        r = run(["redis-cli", "-h", self.s.resp_host, "-p", str(self.s.resp_port), *args])
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_redis_cli_commands_and_aliases(self):
        self.assertEqual(self.cli("PING"), "PONG\n")
        self.assertTrue(self.cli("INCR", "snowflake").strip().isdigit())
        self.assertTrue(ULID.match(self.cli("GET", "ulid").strip()))
        ids = self.cli("ID.BATCH", "snowflake", "5").split()
        self.assertEqual([int(i) for i in ids], sorted({int(i) for i in ids}))
        self.assertRegex(self.cli("ID.NEXT", "typeid", "user").strip(), r"^user_[0-9a-z]{26}$")
        self.assertRegex(self.cli("GET", "typeid:order").strip(), r"^order_[0-9a-z]{26}$")
        self.assertRegex(self.cli("ID.NEXT").strip(), r"^\d+$")
        hello = self.cli("-3", "HELLO", "3")
        self.assertIn("snowmint", hello)
        self.assertIn("proto 3", hello)
        self.assertIn("without any password configured", self.cli("AUTH", "x"))
        out = self.cli("INCR", "ulid")
        self.assertIn("INCR mints key 'snowflake' only", out)

    def test_python_redis_types_pipelines_and_resp3(self):
        n = self.r.incr("snowflake")
        self.assertIsInstance(n, int)
        self.assertTrue(ULID.match(self.r.get("ulid").decode()))
        batch = self.r.execute_command("ID.BATCH", "uuidv7", 100)
        self.assertEqual(len(batch), 100)
        self.assertEqual(batch, sorted(set(batch)), "one connection's UUIDv7s increase")
        # Pipelined: 1,000 requests in one write, answered in order.
        p = self.r.pipeline(transaction=False)
        for _ in range(1000):
            p.incr("snowflake")
        got = p.execute()
        self.assertEqual(got, sorted(set(got)))
        self.assertGreater(got[0], n)
        r3 = redis.Redis(host=self.s.resp_host, port=self.s.resp_port, protocol=3)
        self.assertIsInstance(r3.incr("snowflake"), int)
        self.assertEqual(len(r3.execute_command("ID.BATCH", "ksuid", 3)), 3)
        r3.close()

    def test_errors_name_what_was_wrong(self):
        for cmd, words in [
            (("ID.BATCH", "snowflake", 0), "ERR_INVALID_COUNT"),
            (("ID.BATCH", "snowflake", 100001), "give 1 to 100000"),
            (("ID.BATCH", "snowflake", "many"), "ID.BATCH n 'many'"),
            (("ID.NEXT", "snowflak"), "unknown kind 'snowflak'"),
            (("GET", "nope"), "unknown kind 'nope'"),
            (("ID.NEXT", "typeid", "Bad-Prefix"), "TypeID prefix"),
            (("ID.NEXT", "ulid", "x"), "typeid only"),
            (("INCR",), "wrong number of arguments for 'incr'"),
            (("FLUSHALL",), "unknown command 'FLUSHALL'"),
            (("INCRBY", "snowflake", 2), "INCRBY snowflake takes 1 only"),
            (("HELLO", "4"), "NOPROTO"),
        ]:
            with self.assertRaises(redis.ResponseError, msg=cmd) as e:
                self.r.execute_command(*cmd)
            self.assertIn(words, str(e.exception), cmd)
        self.assertTrue(self.r.ping())  # the connection survives request errors

    def test_oversized_requests_are_refused_and_closed(self):
        for data, words in [
            (b"*100\r\n", b"too many arguments: 100"),
            (b"*2\r\n$4\r\nINCR\r\n$100000000\r\n", b"invalid bulk length 100000000"),
            (b"x" * 70000, b"too big inline request"),
            (b"*1\r\n$4\r\nPINGxx", b"not followed by CRLF"),
        ]:
            got, closed = raw(self.s, data)
            self.assertTrue(got.startswith(b"-ERR Protocol error"), got)
            self.assertIn(words, got)
            self.assertTrue(closed, data[:20])
        # Pipelined inline commands, then QUIT: every answer, then the close.
        got, closed = raw(self.s, b"PING\r\nINCR snowflake\r\nQUIT\r\nPING\r\n")
        lines = got.split(b"\r\n")
        self.assertEqual(lines[0], b"+PONG")
        self.assertRegex(lines[1], rb"^:\d+$")
        self.assertEqual(lines[2], b"+OK")
        self.assertEqual(lines[3], b"")
        self.assertTrue(closed)

    def test_redis_benchmark_load_has_no_errors(self):
        before = self.s.metric('snowmint_ids_total{kind="snowflake"}')
        host, port = self.s.resp_host, str(self.s.resp_port)
        for extra in (["-c", "50"], ["-c", "20", "-P", "16"]):
            r = run(["redis-benchmark", "-h", host, "-p", port, "-n", "20000", "--csv", *extra,
                     "INCR", "snowflake"])
            # redis-benchmark exits 1 at the first error reply.
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertNotIn("Error", r.stderr)
            self.assertIn('"INCR snowflake"', r.stdout)
        r = run(["redis-benchmark", "-h", host, "-p", port, "-n", "5000", "-c", "10", "--csv",
                 "GET", "ulid"])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertGreaterEqual(self.s.metric('snowmint_ids_total{kind="snowflake"}'), before + 40000)


class RespAuth(unittest.TestCase):
    def test_auth_with_redis_cli_and_python(self):
        with Server("--token", "pw") as s:
            r = redis.Redis(host=s.resp_host, port=s.resp_port)
            with self.assertRaises(redis.AuthenticationError):
                r.incr("snowflake")
            with self.assertRaises(redis.AuthenticationError):
                redis.Redis(host=s.resp_host, port=s.resp_port, password="nope").incr("snowflake")
            good = redis.Redis(host=s.resp_host, port=s.resp_port, password="pw")
            self.assertIsInstance(good.incr("snowflake"), int)
            good3 = redis.Redis(host=s.resp_host, port=s.resp_port, password="pw", protocol=3)
            self.assertIsInstance(good3.incr("snowflake"), int)
            out = run(["redis-cli", "-p", str(s.resp_port), "--no-auth-warning", "-a", "pw", "INCR", "snowflake"])
            self.assertTrue(out.stdout.strip().isdigit(), out)
            for c in (r, good, good3):
                c.close()


if __name__ == "__main__":
    unittest.main()
