"""A small Hugging Face hub on 127.0.0.1 for download tests, answering the calls huggingface_hub 2.4
makes the way huggingface.co does.

Two servers, like the real hub and its CDN (different origins, so the client treats the second as
a signed storage URL):

- hub: ``HEAD|GET /{owner}/{repo}/resolve/{revision}/{file}``. An LFS file answers 302 to the CDN
  with ``X-Repo-Commit``, ``X-Linked-Etag`` (the sha256 of the content, the LFS oid) and
  ``X-Linked-Size``; a small (non-LFS) file answers 200 with its git blob sha1 as ``ETag``. Errors
  carry ``X-Error-Code`` (``RepoNotFound``, ``RevisionNotFound``, ``EntryNotFound``) as the hub
  does. ``GET /api/models/{owner}/{repo}/tree/{revision}`` lists the files as JSON (``type``,
  ``oid``, ``size``, ``path``, ``lfs``).
- cdn: ``GET /cdn/{owner}/{repo}/{file}`` serves the bytes, honouring ``Range: bytes=N-`` with 206
  and ``Content-Range``. Tests can make it drop the connection part-way (:meth:`FakeHub.cut_once`)
  or answer an error status (:meth:`FakeHub.fail_next`).

Every request is recorded (server, method, path, Range header, body bytes sent).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote, unquote, urlsplit


@dataclass
class Served:
    content: bytes
    sha256: str  # the LFS oid the hub advertises (normally the content's sha256)
    lfs: bool = True

    @property
    def git_sha1(self) -> str:
        return hashlib.sha1(b"blob %d\0" % len(self.content) + self.content).hexdigest()


@dataclass
class Request:
    server: str  # "hub" | "cdn"
    method: str
    path: str
    range: str | None
    sent: int = 0  # body bytes written


class FakeHub:
    def __init__(self) -> None:
        self.repos: dict[str, dict[str, Served]] = {}
        self.commit = hashlib.sha1(b"fake commit").hexdigest()
        self.requests: list[Request] = []
        self._cuts: dict[str, int] = {}
        self._failures: dict[str, list[int]] = {}
        self._lock = threading.Lock()
        self._servers = {role: _Server(self, role) for role in ("hub", "cdn")}
        self._threads: list[threading.Thread] = []

    # -- setup ---------------------------------------------------------------------------------

    def add(
        self,
        repo: str,
        filename: str,
        content: bytes,
        *,
        sha256: str | None = None,
        lfs: bool = True,
    ) -> Served:
        served = Served(content, sha256 or hashlib.sha256(content).hexdigest(), lfs)
        self.repos.setdefault(repo, {})[filename] = served
        return served

    def cut_once(self, repo: str, filename: str, after: int) -> None:
        """The next CDN GET of this file sends ``after`` body bytes, then drops the connection."""
        self._cuts[f"{repo}/{filename}"] = after

    def fail_next(self, repo: str, filename: str, *statuses: int) -> None:
        """The next CDN GETs of this file answer these statuses, in order (after a pending cut)."""
        self._failures.setdefault(f"{repo}/{filename}", []).extend(statuses)

    # -- inspection ----------------------------------------------------------------------------

    @property
    def endpoint(self) -> str:
        return self._servers["hub"].url

    def cdn_gets(self, filename: str) -> list[Request]:
        return [
            r
            for r in self.requests
            if r.server == "cdn" and r.method == "GET" and r.path.endswith(quote(filename))
        ]

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self) -> FakeHub:
        for server in self._servers.values():
            thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        for server in self._servers.values():
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)

    # -- used by the handler -------------------------------------------------------------------

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def take_cut(self, key: str) -> int | None:
        with self._lock:
            return self._cuts.pop(key, None)

    def cut_pending(self, key: str) -> bool:
        with self._lock:
            return key in self._cuts

    def take_failure(self, key: str) -> int | None:
        with self._lock:
            queue = self._failures.get(key)
            return queue.pop(0) if queue else None

    def cdn_url(self, repo: str, filename: str) -> str:
        return f"{self._servers['cdn'].url}/cdn/{repo}/{quote(filename)}"


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fake: FakeHub, role: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake, self.role = fake, role

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hangs up mid-response is expected here


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_HEAD(self) -> None:
        self._dispatch(head=True)

    def do_GET(self) -> None:
        self._dispatch(head=False)

    def _dispatch(self, head: bool) -> None:
        self._record = Request(
            self.server.role, self.command, urlsplit(self.path).path, self.headers.get("Range")
        )
        self.server.fake.record(self._record)
        if self.server.role == "cdn":
            self._cdn(head)
        elif self.path.startswith("/api/models/"):
            self._tree()
        else:
            self._resolve(head)

    # -- hub -----------------------------------------------------------------------------------

    def _resolve(self, head: bool) -> None:
        fake = self.server.fake
        match = re.fullmatch(r"/([^/]+/[^/]+)/resolve/([^/]+)/(.+)", urlsplit(self.path).path)
        if match is None:
            return self._error(404, None, "Not found", head)
        repo, revision, filename = match[1], unquote(match[2]), unquote(match[3])
        if repo not in fake.repos:
            return self._error(404, "RepoNotFound", "Repository not found", head)
        if revision not in ("main", fake.commit):
            return self._error(404, "RevisionNotFound", "Invalid rev id", head)
        served = fake.repos[repo].get(filename)
        if served is None:
            return self._error(404, "EntryNotFound", "Entry not found", head, commit=True)
        if served.lfs:
            self.send_response(302)
            self.send_header("Location", fake.cdn_url(repo, filename))
            self.send_header("X-Repo-Commit", fake.commit)
            self.send_header("X-Linked-Etag", f'"{served.sha256}"')
            self.send_header("X-Linked-Size", str(len(served.content)))
            self.send_header("ETag", f'"{served.sha256}"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        return self._content(served.content, served.git_sha1, head, f"{repo}/{filename}")

    def _tree(self) -> None:
        fake = self.server.fake
        match = re.fullmatch(
            r"/api/models/([^/]+/[^/]+)/tree/([^/]+)(/.*)?", urlsplit(self.path).path
        )
        if match is None or match[1] not in fake.repos:
            return self._error(404, "RepoNotFound", "Repository not found", head=False)
        entries = []
        for path, served in sorted(fake.repos[match[1]].items()):
            entry: dict[str, Any] = {
                "type": "file",
                "oid": served.git_sha1,
                "size": len(served.content),
                "path": path,
            }
            if served.lfs:
                entry["lfs"] = {
                    "oid": served.sha256,
                    "size": len(served.content),
                    "pointerSize": 134,
                }
            entries.append(entry)
        body = json.dumps(entries).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def _error(
        self, status: int, code: str | None, message: str, head: bool, commit: bool = False
    ) -> None:
        body = json.dumps({"error": message}).encode()
        self.send_response(status)
        if code:
            self.send_header("X-Error-Code", code)
        self.send_header("X-Error-Message", message)
        if commit:
            self.send_header("X-Repo-Commit", self.server.fake.commit)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    # -- cdn -----------------------------------------------------------------------------------

    def _cdn(self, head: bool) -> None:
        fake = self.server.fake
        match = re.fullmatch(r"/cdn/([^/]+/[^/]+)/(.+)", urlsplit(self.path).path)
        if match is None:
            return self._error(404, None, "Not found", head)
        repo, filename = match[1], unquote(match[2])
        served = fake.repos.get(repo, {}).get(filename)
        if served is None:
            return self._error(404, None, "No such blob", head)
        key = f"{repo}/{filename}"
        status = None if head or fake.cut_pending(key) else fake.take_failure(key)
        if status is not None:
            return self._error(status, None, "Service unavailable", head)
        return self._content(served.content, served.sha256, head, key)

    def _content(self, data: bytes, etag: str, head: bool, key: str) -> None:
        fake = self.server.fake
        start, end = 0, len(data) - 1
        ranged = self.headers.get("Range")
        if ranged:
            match = re.fullmatch(r"bytes=(\d+)-(\d*)", ranged.strip())
            if match is None or int(match[1]) >= len(data):
                return self._error(416, None, "Range not satisfiable", head)
            start = int(match[1])
            end = min(int(match[2]), end) if match[2] else end
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        else:
            self.send_response(200)
        if self.server.role == "hub":
            self.send_header("X-Repo-Commit", fake.commit)
        self.send_header("ETag", f'"{etag}"')
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        if head:
            return None
        body = data[start : end + 1]
        cut = fake.take_cut(key)
        if cut is not None and cut < len(body):
            body = body[:cut]
            self.close_connection = True  # the client sees the body end early
        self.wfile.write(body)
        self.wfile.flush()
        self._record.sent = len(body)
        return None
