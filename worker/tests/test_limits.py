"""The worker under hostile or broken clients (issue #23 item 6), end to end against the real worker
process: a caller without a token is refused from its headers, before its body is read; a body over
--max-body-bytes is refused from its Content-Length; a body nested 100,000 deep is a 400; an idle or
half-sent connection is closed after --socket-timeout-seconds; past --max-connections a connection
is answered 503 and closed. No assertion is about how fast: each waits for the worker's answer or
its close (with a generous guard so a failure cannot hang the suite)."""

import json
import socket
import time
import unittest

from .test_server import REF, REGISTER, Worker, group

TOKEN = "s3cret-token"
GUARD_SECONDS = 15  # only so that a failing test cannot hang: nothing asserts on time


def raw_connection(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=GUARD_SECONDS)
    return s


def read_response(sock):
    """Reads until the worker closes the connection or a whole response (headers + Content-Length) is in."""
    data = b""
    while True:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if sep:
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if len(rest) >= length:
                status = int(head.split(b" ")[1])
                return status, json.loads(rest[:length]) if length else None
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed without a whole answer: {data[:200]!r}")
        data += chunk


def closed_by_peer(sock):
    """True once the worker closed the connection (EOF or reset); a guard timeout raises."""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return True
    except ConnectionResetError:
        return True


class LimitTests(unittest.TestCase):
    def worker(self, **env):
        w = Worker(token=TOKEN, env={k: str(v) for k, v in env.items()})
        self.addCleanup(w.stop)
        return w

    def test_unauthenticated_request_is_refused_from_its_headers_without_reading_the_body(self):
        w = self.worker()
        for auth in ("", "Authorization: Bearer wrong\r\n"):
            with raw_connection(w.port) as s:
                # Announces 300 MB and sends none of it: the answer must come from the headers alone.
                s.sendall(
                    (f"POST /v1/models/train HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{auth}"
                     f"Content-Length: {300 * 1024 * 1024}\r\n\r\n").encode()
                )
                status, body = read_response(s)
                self.assertEqual((status, body["error"]["code"]), (401, "unauthorized"))
                self.assertTrue(closed_by_peer(s))  # its body was never read: the connection is not reused
        # A small unauthenticated body is drained: the client gets a clean 401 and the worker keeps serving.
        self.assertEqual(w.post("/v1/models/register", REGISTER)[0], 401)
        self.assertEqual(w.post("/v1/models/register", REGISTER, token=TOKEN)[0], 200)

    def test_body_over_the_limit_is_refused_from_content_length(self):
        w = self.worker(ATELIER_WORKER_MAX_BODY_BYTES=64 * 1024)
        with raw_connection(w.port) as s:
            s.sendall(
                (f"POST /v1/models/train HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n").encode()
            )
            status, body = read_response(s)
        self.assertEqual((status, body["error"]["code"]), (413, "too_large"))
        self.assertIn("ATELIER_WORKER_MAX_BODY_BYTES", body["error"]["message"])
        self.assertIn("65536", body["error"]["message"])
        # Under the limit, as before.
        self.assertEqual(w.post("/v1/models/register", REGISTER, token=TOKEN)[0], 200)

    def test_brackets_nested_100000_deep_answer_400(self):
        w = self.worker()
        for body in (b"[" * 100_000, b'{"a":' * 100_000 + b"1" + b"}" * 100_000):
            c = w.conn()
            c.request("POST", "/v1/models/train", body=body,
                      headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
            r = c.getresponse()
            answer = json.loads(r.read())
            c.close()
            self.assertEqual(r.status, 400, answer)
            self.assertIn(answer["error"]["code"], ("too_deep", "invalid_json"))
        self.assertEqual(w.request("GET", "/v1/health")[0], 200)

    def test_idle_and_half_sent_connections_are_closed(self):
        w = self.worker(ATELIER_WORKER_SOCKET_TIMEOUT_SECONDS=0.5)
        with raw_connection(w.port) as idle, raw_connection(w.port) as half_headers, raw_connection(w.port) as half_body:
            half_headers.sendall(b"POST /v1/models/register HTTP/1.1\r\nHost: x\r\n")
            half_body.sendall(
                (f"POST /v1/models/register HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":").encode()
            )
            status, body = read_response(half_body)
            self.assertEqual((status, body["error"]["code"]), (408, "timeout"))
            self.assertIn("ATELIER_WORKER_SOCKET_TIMEOUT_SECONDS", body["error"]["message"])
            for sock in (idle, half_headers, half_body):
                self.assertTrue(closed_by_peer(sock))
        # A training stream is not cut by the timeout: the socket is only waited on while reading or writing.
        w.post("/v1/models/register", REGISTER, token=TOKEN)
        status, _, lines = w.train(dict(REF, trajectory_groups=[group()], config={"learning_rate": 1e-5}), token=TOKEN)
        self.assertEqual((status, lines[-1]["type"]), (200, "done"))

    def test_connections_over_the_limit_are_answered_503(self):
        w = self.worker(ATELIER_WORKER_MAX_CONNECTIONS=3, ATELIER_WORKER_SOCKET_TIMEOUT_SECONDS=60)
        held = [raw_connection(w.port) for _ in range(3)]
        try:
            # The three held connections are served (each has a thread) before the next one is accepted.
            for sock in held:
                sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
                self.assertEqual(read_response(sock)[0], 200)
            with raw_connection(w.port) as extra:
                status, body = read_response(extra)
                self.assertEqual((status, body["error"]["code"]), (503, "too_many_connections"))
                self.assertIn("ATELIER_WORKER_MAX_CONNECTIONS", body["error"]["message"])
        finally:
            for sock in held:
                sock.close()
        # Once they are gone, connections are served again.
        deadline = time.monotonic() + GUARD_SECONDS
        while w.request("GET", "/v1/health")[0] != 200:
            self.assertLess(time.monotonic(), deadline, "the worker never served again")
            time.sleep(0.05)


if __name__ == "__main__":
    unittest.main()
