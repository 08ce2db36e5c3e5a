"""HTTP/1.1 and h2c, through curl, Python's requests and h2load."""

import json
import re
import struct
import unittest

import requests

from harness import Server, run

ULID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")
UUID7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


class Http(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Server("--preset", "discord")

    @classmethod
    def tearDownClass(cls):
        cls.s.close()

    def curl(self, *args):
        r = run(["curl", "-sS", "--max-time", "10", *args])
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_text_json_and_binary_by_accept(self):
        text = self.curl(self.s.url("/v1/next?n=5"))
        ids = [int(x) for x in text.splitlines()]
        self.assertEqual(len(ids), 5)
        self.assertEqual(ids, sorted(set(ids)), "one connection's Snowflakes increase")
        body = self.curl("-H", "Accept: application/json", self.s.url("/v1/next?kind=ulid&n=3"))
        doc = json.loads(body)
        self.assertEqual(doc["kind"], "ulid")
        self.assertTrue(all(ULID.match(u) for u in doc["ids"]), doc)
        # 64-bit IDs travel as strings in JSON.
        doc = requests.get(self.s.url("/v1/next?n=2"), headers={"Accept": "application/json"}).json()
        self.assertTrue(all(isinstance(i, str) and i.isdigit() for i in doc["ids"]), doc)
        r = requests.get(self.s.url("/v1/next?n=4"), headers={"Accept": "application/octet-stream"})
        self.assertEqual(r.headers["content-type"], "application/octet-stream")
        self.assertEqual(len(r.content), 32)
        flakes = struct.unpack(">4Q", r.content)
        self.assertEqual(list(flakes), sorted(set(flakes)))
        r = requests.get(self.s.url("/v1/next?kind=uuidv7&n=3"), headers={"Accept": "application/octet-stream"})
        self.assertEqual(len(r.content), 48)
        self.assertTrue(all(r.content[i * 16 + 6] >> 4 == 7 for i in range(3)))
        # The highest q wins; */* is text.
        r = requests.get(self.s.url("/v1/next"), headers={"Accept": "text/plain;q=0.5, application/json"})
        self.assertEqual(r.headers["content-type"], "application/json")
        self.assertTrue(self.curl("-H", "Accept: */*", self.s.url("/v1/next")).strip().isdigit())

    def test_every_kind_decodes_to_its_kind(self):
        for kind, want in [
            ("snowflake", "snowflake"),
            ("ulid", "ulid"),
            ("uuidv7", "uuid"),
            ("uuidv4", "uuid"),
            ("ksuid", "ksuid"),
            ("objectid", "objectid"),
            ("typeid&prefix=user", "typeid"),
        ]:
            ident = self.curl(self.s.url(f"/v1/next?kind={kind}")).strip()
            rec = requests.get(self.s.url(f"/v1/decode/{ident}")).json()
            self.assertEqual(rec["kind"], want, (kind, ident, rec))
        ident = self.curl(self.s.url("/v1/next")).strip()
        rec = requests.get(self.s.url(f"/v1/decode/{ident}")).json()
        self.assertIn(rec["workerId"], self.s.worker_ids)
        self.assertEqual(rec["id"], ident)
        self.assertIn("worker", rec["parts"])  # Discord splits its worker field
        self.assertTrue(UUID7.match(self.curl(self.s.url("/v1/next?kind=uuidv7")).strip()))
        # Discord's documented example ID.
        rec = requests.get(self.s.url("/v1/decode/175928847299117063?preset=discord")).json()
        self.assertEqual(
            (rec["timestamp"], rec["workerId"], rec["sequence"], rec["parts"]),
            (1462015105796, 32, 7, {"worker": 1, "process": 0}),
        )
        self.assertEqual(rec["date"], "2016-04-30T11:18:25.796Z")

    def test_malformed_requests_get_400_naming_the_problem(self):
        for query, code, words in [
            ("kind=snowflak", "ERR_INVALID_ARG_VALUE", "unknown kind 'snowflak'"),
            ("n=0", "ERR_INVALID_COUNT", "n = 0"),
            ("n=100001", "ERR_INVALID_COUNT", "give 1 to 100000"),
            ("n=-1", "ERR_INVALID_COUNT", "n = '-1'"),
            ("n=1e3", "ERR_INVALID_COUNT", "n = '1e3'"),
            ("count=3", "ERR_INVALID_OPTION", "unknown parameter 'count'"),
            ("n=1&n=2", "ERR_INVALID_OPTION", "given twice"),
            ("kind=typeid&prefix=User", "ERR_PARSE", "TypeID prefix"),
            ("kind=ulid&prefix=user", "ERR_INVALID_OPTION", "typeid only"),
        ]:
            r = requests.get(self.s.url("/v1/next?" + query))
            self.assertEqual(r.status_code, 400, query)
            self.assertEqual(r.json()["code"], code, query)
            self.assertIn(words, r.json()["message"], query)
        # (requests would re-quote the bad escape: curl sends it as is.)
        body = json.loads(self.curl(self.s.url("/v1/next?kind=%zz")))
        self.assertEqual(body["code"], "ERR_INVALID_ARG_VALUE")
        self.assertIn("bad %-escape", body["message"])
        r = requests.get(self.s.url("/v1/decode/not-an-id"))
        self.assertEqual((r.status_code, r.json()["code"]), (400, "ERR_PARSE"))
        r = requests.get(self.s.url("/v1/decode/1?preset=twit"))
        self.assertEqual(r.status_code, 400)
        self.assertEqual(requests.get(self.s.url("/v2/next")).status_code, 404)
        self.assertEqual(requests.post(self.s.url("/v1/next")).status_code, 405)
        r = requests.get(self.s.url("/v1/next"), headers={"Accept": "image/png"})
        self.assertEqual(r.status_code, 406)
        # A request line hyper cannot read at all.
        r = run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
                 "-H", "Bad Header: x", self.s.url("/healthz")])
        self.assertEqual(r.stdout, "400")

    def test_probes_and_metrics(self):
        self.assertEqual(self.curl(self.s.url("/healthz")), "ok\n")
        self.assertEqual(self.curl(self.s.url("/readyz")), "ready\n")
        before = self.s.metric('snowmint_ids_total{kind="ksuid"}')
        requests.get(self.s.url("/v1/next?kind=ksuid&n=7"))
        self.assertEqual(self.s.metric('snowmint_ids_total{kind="ksuid"}'), before + 7)
        text = requests.get(self.s.url("/metrics")).text
        for name in [
            "snowmint_batch_size_bucket",
            "snowmint_request_duration_seconds_bucket",
            "snowmint_clock_backward_events_total",
            "snowmint_exhaustion_waits_total",
            "snowmint_lease_renew_failures_total",
            "snowmint_lease_seconds_left{worker_id=",
        ]:
            self.assertIn(name, text)

    def test_h2c_with_h2load(self):
        before = self.s.metric('snowmint_ids_total{kind="snowflake"}')
        r = run(["h2load", "-n", "4000", "-c", "8", "-m", "8", self.s.url("/v1/next")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"requests: 4000 total, 4000 started, 4000 done, 4000 succeeded")
        self.assertRegex(r.stdout, r"status codes: 4000 2xx")
        self.assertGreaterEqual(self.s.metric('snowmint_ids_total{kind="snowflake"}'), before + 4000)
        out = self.curl("--http2-prior-knowledge", "-w", "\n%{http_version}", self.s.url("/v1/next?kind=ulid"))
        lines = out.split("\n")
        ident, version = lines[0], lines[-1]
        self.assertTrue(ULID.match(ident))
        self.assertEqual(version, "2")


class Auth(unittest.TestCase):
    def test_bearer_token_guards_v1_not_the_probes(self):
        with Server("--token", "s3cret") as s:
            self.assertEqual(requests.get(s.url("/v1/next")).status_code, 401)
            r = requests.get(s.url("/v1/next"), headers={"Authorization": "Bearer wrong"})
            self.assertEqual((r.status_code, r.json()["code"]), (401, "ERR_UNAUTHORIZED"))
            r = requests.get(s.url("/v1/next"), headers={"Authorization": "Bearer s3cret"})
            self.assertEqual(r.status_code, 200)
            self.assertTrue(r.text.strip().isdigit())
            self.assertEqual(requests.get(s.url("/readyz")).status_code, 200)


if __name__ == "__main__":
    unittest.main()
