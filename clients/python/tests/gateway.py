"""A reverse proxy in front of Ratchet, as a load balancer or ingress is: it answers chosen requests
with its own HTML error page (502, 503, 504) and forwards the rest."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = "<html><head><title>{status} Bad Gateway</title></head><body><h1>{status}</h1><hr>nginx</body></html>"


class Gateway:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.pages: list[int] = []
        self.served_pages: list[int] = []
        self.lock = threading.Lock()
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                gateway.handle(self)

            def do_POST(self) -> None:
                gateway.handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def fail_next(self, *statuses: int) -> None:
        """Answers the next requests with these statuses' HTML pages, one each, before forwarding again."""
        with self.lock:
            self.pages.extend(statuses)

    def handle(self, request: BaseHTTPRequestHandler) -> None:
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        with self.lock:
            status = self.pages.pop(0) if self.pages else None
            if status:
                self.served_pages.append(status)
        if status:
            page = PAGE.format(status=status).encode()
            request.send_response(status)
            request.send_header("Content-Type", "text/html")
            request.send_header("Content-Length", str(len(page)))
            request.end_headers()
            request.wfile.write(page)
            return
        headers = {k: v for k, v in request.headers.items() if k.lower() not in ("host", "content-length")}
        forwarded = urllib.request.Request(self.upstream + request.path, data=body or None, method=request.command,
                                           headers=headers)
        try:
            with urllib.request.urlopen(forwarded, timeout=120) as answer:
                status, content, kind = answer.status, answer.read(), answer.headers.get("Content-Type")
        except urllib.error.HTTPError as e:
            status, content, kind = e.code, e.read(), e.headers.get("Content-Type")
        request.send_response(status)
        request.send_header("Content-Type", kind or "application/json")
        request.send_header("Content-Length", str(len(content)))
        request.end_headers()
        request.wfile.write(content)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
