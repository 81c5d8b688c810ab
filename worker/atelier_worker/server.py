"""HTTP server for the atelier-worker/1 protocol (see PROTOCOL.md).

Standard library only: ``http.server.ThreadingHTTPServer`` answers requests on
threads; every ART call runs on one dedicated asyncio loop thread (ART's API is
async and its LocalBackend is not meant to be driven from several loops).
Training answers with ``application/x-ndjson`` over chunked transfer encoding.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import queue
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from . import PROTOCOL, __version__
from .protocol import (
    ProtocolError,
    dumps,
    model_ref,
    parse_json_object,
    validate_delete,
    validate_register,
    validate_train,
)
from .rollouts import describe, load_entrypoint, run_rollouts, validate_entrypoint, validate_rollout

# Defaults of the limits (flags and environment variables in __main__.py; PROTOCOL.md lists them).
MAX_BODY_BYTES = 128 * 1024 * 1024
MAX_CONNECTIONS = 32
SOCKET_TIMEOUT_SECONDS = 30.0
# What an unauthenticated request's body may be drained to keep its connection clean; larger ones are cut.
UNAUTHENTICATED_DRAIN_BYTES = 64 * 1024


class WorkerState:
    def __init__(
        self,
        driver: Any,
        *,
        token: str | None,
        heartbeat_seconds: float,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        self.driver = driver
        self.token = token or None
        self.heartbeat_seconds = heartbeat_seconds
        self.max_body_bytes = max_body_bytes
        self.loop = asyncio.new_event_loop()
        self.loop_thread = threading.Thread(target=self._run_loop, name="art-loop", daemon=True)
        # The user's rollouts run on their own loop: a rollout that blocks cannot stall a training stream.
        self.rollout_loop = asyncio.new_event_loop()
        self.rollout_thread = threading.Thread(target=self._run_rollout_loop, name="rollout-loop", daemon=True)
        self._busy: set[tuple[str, str]] = set()
        self._busy_lock = threading.Lock()

    def _run_loop(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def _run_rollout_loop(self) -> None:
        asyncio.set_event_loop(self.rollout_loop)
        self.rollout_loop.run_forever()

    def start(self) -> None:
        self.loop_thread.start()
        self.rollout_thread.start()

    def run(self, coro: Any) -> Any:
        """Run a coroutine on the ART loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def try_acquire(self, key: tuple[str, str]) -> bool:
        with self._busy_lock:
            if key in self._busy:
                return False
            self._busy.add(key)
            return True

    def release(self, key: tuple[str, str]) -> None:
        with self._busy_lock:
            self._busy.discard(key)


class BoundedServer(ThreadingHTTPServer):
    """A thread per connection, at most ``max_connections`` at once: the next one is answered 503 and closed
    from the accepting thread, so a flood of idle or half-sent connections cannot hold every thread."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], max_connections: int) -> None:
        super().__init__(address, handler)
        self.max_connections = max_connections
        self._slots = threading.BoundedSemaphore(max_connections)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            body = dumps({"error": {"code": "too_many_connections",
                                    "message": f"the worker serves at most {self.max_connections} connections at once "
                                               "(--max-connections, ATELIER_WORKER_MAX_CONNECTIONS)"}})
            try:
                request.settimeout(1.0)
                request.sendall(
                    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
                    + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
                )
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def make_handler(state: WorkerState, *, socket_timeout: float = SOCKET_TIMEOUT_SECONDS) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = f"atelier-worker/{__version__}"
        # Every read and write on the socket: an idle keep-alive connection, a request sent half-way or a
        # client that stops reading a training stream is dropped after this long without progress.
        timeout = socket_timeout

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            sys.stderr.write(f"[atelier-worker] {self.address_string()} {format % args}\n")

        # -- plumbing ----------------------------------------------------------

        def _send_json(self, status: int, body: Any) -> None:
            data = dumps(body)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_error(self, err: ProtocolError) -> None:
            self._send_json(err.status, err.body())

        def _body_length(self) -> int:
            """The declared body length, checked against the cap before a byte of the body is read."""
            length = self.headers.get("Content-Length")
            if length is None:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    self.close_connection = True
                    raise ProtocolError(411, "length_required", "body: send a Content-Length header")
                return 0
            try:
                n = int(length)
            except ValueError:
                self.close_connection = True
                raise ProtocolError(400, "invalid_request", "Content-Length: not an integer") from None
            if n < 0 or n > state.max_body_bytes:
                self.close_connection = True  # the body is never read: the connection cannot be reused
                raise ProtocolError(
                    413, "too_large",
                    f"body: {n} bytes exceed the limit of {state.max_body_bytes} "
                    "(--max-body-bytes, ATELIER_WORKER_MAX_BODY_BYTES)",
                )
            return n

        def _read_body(self) -> bytes:
            n = self._body_length()
            try:
                return self.rfile.read(n)
            except (TimeoutError, socket.timeout):
                self.close_connection = True
                raise ProtocolError(
                    408, "timeout",
                    f"body: not received within {socket_timeout:g} s "
                    "(--socket-timeout-seconds, ATELIER_WORKER_SOCKET_TIMEOUT_SECONDS)",
                ) from None

        def _refuse_unauthenticated(self) -> None:
            """401 from the headers alone. A small body is drained so the connection stays usable; a larger
            one is never read: the connection is closed instead."""
            length = self.headers.get("Content-Length", "0")
            n = int(length) if length.isdigit() else -1
            if 0 <= n <= UNAUTHENTICATED_DRAIN_BYTES and "chunked" not in self.headers.get("Transfer-Encoding", "").lower():
                try:
                    self.rfile.read(n)
                except OSError:
                    self.close_connection = True
            else:
                self.close_connection = True
            raise ProtocolError(401, "unauthorized", "Authorization: a valid bearer token is required")

        def _authorized(self) -> bool:
            if state.token is None:
                return True
            header = self.headers.get("Authorization", "")
            scheme, _, value = header.partition(" ")
            return scheme.lower() == "bearer" and hmac.compare_digest(value.strip(), state.token)

        # -- routing -----------------------------------------------------------

        def do_GET(self) -> None:  # noqa: N802
            if self.path == "/v1/health":
                self._send_json(
                    200,
                    {
                        "status": "ok",
                        "protocol": PROTOCOL,
                        "art_version": state.driver.version(),
                        "worker_version": __version__,
                        "gradient_step_metrics": state.driver.observes_gradient_steps,
                        "rollouts": True,
                        "training": getattr(state.driver, "trains", True),
                    },
                )
                return
            self._route_error("GET")

        def do_POST(self) -> None:  # noqa: N802
            routes = {
                "/v1/models/register": self._register,
                "/v1/models/step": self._step,
                "/v1/models/train": self._train,
                "/v1/models/delete_checkpoints": self._delete,
                "/v1/rollouts/check": self._rollout_check,
                "/v1/rollouts": self._rollouts,
            }
            handler = routes.get(self.path)
            if handler is None:
                self._route_error("POST")
                return
            try:
                # Who is calling is decided from the headers, before any of the body is read.
                if not self._authorized():
                    self._refuse_unauthenticated()
                body = parse_json_object(self._read_body())
                handler(body)
            except ProtocolError as err:
                self._send_error(err)
            except RecursionError:
                # A body that parses but nests too deeply for what is done with it is the caller's mistake.
                self._send_error(ProtocolError(400, "too_deep", "body: nested too deeply"))
            except Exception as exc:  # ART failed: report it, keep serving
                self.log_message("error: %s", repr(exc))
                self._send_json(500, {"error": {"code": "art_error", "message": f"{type(exc).__name__}: {exc}"}})

        def _route_error(self, method: str) -> None:
            known = {"/v1/health", "/v1/models/register", "/v1/models/step", "/v1/models/train",
                     "/v1/models/delete_checkpoints", "/v1/rollouts/check", "/v1/rollouts"}
            if self.path in known:
                self.close_connection = True
                self._send_json(405, {"error": {"code": "method_not_allowed", "message": f"{method} {self.path} is not part of {PROTOCOL}"}})
            else:
                self.close_connection = True
                self._send_json(404, {"error": {"code": "not_found", "message": f"{method} {self.path} is not part of {PROTOCOL}"}})

        # -- endpoints ---------------------------------------------------------

        def _register(self, body: dict[str, Any]) -> None:
            req = validate_register(body)
            if not state.try_acquire(req.ref.key):
                raise ProtocolError(409, "busy", f"model {req.ref.project}/{req.ref.name} is training or being registered")
            try:
                result = state.run(state.driver.register(req))
            finally:
                state.release(req.ref.key)  # before answering: the client may train right away
            self._send_json(200, result)

        def _step(self, body: dict[str, Any]) -> None:
            ref = model_ref(body)
            self._send_json(200, state.run(state.driver.step(ref.project, ref.name)))

        def _delete(self, body: dict[str, Any]) -> None:
            req = validate_delete(body)
            state.driver.lookup(req.ref.project, req.ref.name)
            if not state.try_acquire(req.ref.key):
                raise ProtocolError(409, "busy", f"model {req.ref.project}/{req.ref.name} is training; delete checkpoints after it finishes")
            try:
                result = state.run(state.driver.delete_checkpoints(req))
            finally:
                state.release(req.ref.key)
            self._send_json(200, result)

        def _train(self, body: dict[str, Any]) -> None:
            req = validate_train(body)
            driver = state.driver
            reg = driver.lookup(req.ref.project, req.ref.name)
            mode, options = driver.train_options(req.config)
            groups = driver.build_groups(req)
            key = req.ref.key
            if not state.try_acquire(key):
                raise ProtocolError(409, "busy", f"model {req.ref.project}/{req.ref.name} is already training")

            events: queue.Queue[tuple[str, Any]] = queue.Queue()

            async def run() -> dict[str, Any]:
                try:
                    return await driver.train(
                        reg, groups, mode, options, req.log,
                        lambda metrics: events.put(("step", metrics)),
                    )
                finally:
                    state.release(key)

            future = asyncio.run_coroutine_threadsafe(run(), state.loop)
            future.add_done_callback(lambda f: events.put(("end", f)))

            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()

            step_index = 0
            connected = True
            last_sent = time.monotonic()
            while True:
                try:
                    kind, payload = events.get(timeout=max(0.05, state.heartbeat_seconds - (time.monotonic() - last_sent)))
                except queue.Empty:
                    connected = connected and self._write_line({"type": "heartbeat"})
                    last_sent = time.monotonic()
                    continue
                if kind == "step":
                    line = {"type": "gradient_step", "step_index": step_index, "metrics": payload}
                    step_index += 1
                    connected = connected and self._write_line(line)
                    last_sent = time.monotonic()
                    continue
                fut = payload
                exc = fut.exception()
                if exc is None:
                    final = fut.result()
                    final["gradient_steps"] = step_index
                elif isinstance(exc, ProtocolError):
                    final = {"type": "error", "code": exc.code, "message": exc.message}
                else:
                    self.log_message("training failed: %s", repr(exc))
                    final = {"type": "error", "code": "art_error", "message": f"{type(exc).__name__}: {exc}"}
                if connected and self._write_line(final):
                    self._write_chunk(b"")
                self.close_connection = True
                return

        # -- rollouts (PROTOCOL.md, "Rollouts") ----------------------------------

        def _rollout_check(self, body: dict[str, Any]) -> None:
            entry = load_entrypoint(validate_entrypoint(body))
            self._send_json(200, describe(entry))

        def _client_gone(self) -> bool:
            """The client closed its connection (cancel): readable with nothing to read."""
            try:
                readable, _, _ = select.select([self.connection], [], [], 0)
                if not readable:
                    return False
                return self.connection.recv(1, socket.MSG_PEEK) == b""
            except (OSError, ValueError):
                return True

        def _rollouts(self, body: dict[str, Any]) -> None:
            req = validate_rollout(body)
            entry = load_entrypoint(req.entrypoint)  # 422 naming the module, before anything streams
            events: queue.Queue[tuple[str, Any]] = queue.Queue()
            future = asyncio.run_coroutine_threadsafe(
                run_rollouts(state.driver.art, req, entry, lambda line: events.put(("line", line))),
                state.rollout_loop,
            )
            future.add_done_callback(lambda f: events.put(("end", f)))

            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.close_connection = True
            last_sent = time.monotonic()
            while True:
                try:
                    kind, payload = events.get(timeout=min(0.2, max(0.01, state.heartbeat_seconds - (time.monotonic() - last_sent))))
                except queue.Empty:
                    if self._client_gone():
                        self.log_message("rollout cancelled: the client closed the connection")
                        future.cancel()
                        return
                    if time.monotonic() - last_sent >= state.heartbeat_seconds:
                        if not self._write_line({"type": "heartbeat"}):
                            future.cancel()
                            return
                        last_sent = time.monotonic()
                    continue
                if kind == "line":
                    if not self._write_line(payload):
                        future.cancel()
                        return
                    last_sent = time.monotonic()
                    continue
                fut = payload
                if fut.cancelled():
                    return
                exc = fut.exception()
                if exc is None:
                    final = fut.result()
                else:
                    self.log_message("rollout failed: %s", repr(exc))
                    final = {"type": "error", "code": "rollout_error", "message": f"{type(exc).__name__}: {exc}"}
                if self._write_line(final):
                    self._write_chunk(b"")
                return

        def _write_chunk(self, data: bytes) -> bool:
            try:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
                return True
            except (BrokenPipeError, ConnectionResetError, OSError):
                self.log_message("client went away; training continues on the GPU box")
                return False

        def _write_line(self, obj: dict[str, Any]) -> bool:
            return self._write_chunk(dumps(obj) + b"\n")

    return Handler


def serve(
    driver: Any,
    *,
    host: str,
    port: int,
    token: str | None,
    heartbeat_seconds: float,
    max_body_bytes: int = MAX_BODY_BYTES,
    max_connections: int = MAX_CONNECTIONS,
    socket_timeout: float = SOCKET_TIMEOUT_SECONDS,
) -> None:
    state = WorkerState(driver, token=token, heartbeat_seconds=heartbeat_seconds, max_body_bytes=max_body_bytes)
    state.start()
    httpd = BoundedServer((host, port), make_handler(state, socket_timeout=socket_timeout), max_connections)
    bound_host, bound_port = httpd.server_address[:2]
    print(
        json.dumps(
            {
                "event": "listening",
                "url": f"http://{bound_host}:{bound_port}",
                "port": bound_port,
                "protocol": PROTOCOL,
                "art_version": driver.version(),
                "auth": state.token is not None,
            }
        ),
        flush=True,
    )
    try:
        httpd.serve_forever()
    finally:
        httpd.server_close()
        try:
            state.run(driver.close())
        except Exception as exc:  # best effort on shutdown
            sys.stderr.write(f"[atelier-worker] closing ART failed: {exc!r}\n")
        state.loop.call_soon_threadsafe(state.loop.stop)
