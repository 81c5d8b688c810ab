"""A simulated OpenAI-compatible inference server for the rollout tests (stdlib only): it answers
``POST /v1/chat/completions`` as a function-calling model served by vLLM does — a request with tools gets
tool calls (``calculate`` for the first turns, then ``submit_answer`` with the last tool result), every
answer carries token logprobs (with ``top_logprobs``, as vLLM sends them) — and records what it was sent."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOL_TURNS = 3


def _logprobs(text: str) -> dict:
    tokens = re.findall(r"\S+|\s+", text) or [""]
    return {"content": [{"token": f"token_id:{100 + i}", "logprob": -0.1 * (i % 5 + 1), "bytes": list(t.encode()),
                         "top_logprobs": []} for i, t in enumerate(tokens)], "refusal": None}


class InferenceSim:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self._seq = 0
        self._lock = threading.Lock()
        sim = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_):
                pass

            def do_POST(self):  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                with sim._lock:
                    sim.requests.append({"path": self.path, "body": body,
                                         "authorization": self.headers.get("Authorization")})
                    sim._seq += 1
                    seq = sim._seq
                data = json.dumps(sim.answer(body, seq)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def answer(self, body: dict, seq: int) -> dict:
        messages = body["messages"]
        tools = body.get("tools") or []
        turn = sum(1 for m in messages if m["role"] == "assistant")
        user = next(m["content"] for m in reversed(messages) if m["role"] == "user")
        last_tool = next((m["content"] for m in reversed(messages) if m["role"] == "tool"), "")
        message: dict = {"role": "assistant", "content": None, "refusal": None}
        if tools and turn < TOOL_TURNS:
            expression = re.search(r"[\d(][\d\s+\-*/().]*[\d)]", user)
            args = {"expression": expression.group(0).strip() if expression else "0"}
            message["tool_calls"] = [{"id": f"call_{seq}", "type": "function",
                                      "function": {"name": "calculate", "arguments": json.dumps(args)}}]
            finish, text = "tool_calls", json.dumps(args)
        elif tools:
            number = re.search(r"-?\d+(?:\.\d+)?", last_tool)
            args = {"answer": float(number.group(0)) if number else 0}
            message["tool_calls"] = [{"id": f"call_{seq}", "type": "function",
                                      "function": {"name": "submit_answer", "arguments": json.dumps(args)}}]
            finish, text = "tool_calls", json.dumps(args)
        else:
            message["content"] = text = f"answer {seq}"
            finish = "stop"
        return {
            "id": f"chatcmpl-sim{seq}", "object": "chat.completion", "created": int(time.time()),
            "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": finish,
                         "logprobs": _logprobs(text) if body.get("logprobs") else None}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
