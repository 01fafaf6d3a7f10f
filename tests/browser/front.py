"""A door in front of the test server that can be shut and opened again.

The browser talks to the door; the door passes every byte on to the live server.
Shut, it refuses every connection and breaks the open ones, as a stopped server
does, while the phone's own network stays up (``navigator.onLine`` is true and
requests made by the service worker fail as well). Opened again, it answers on the
same address, so the pages and the worker the phone keeps still belong to it."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


class Front:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.open()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def open(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.1)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def shut(self) -> None:
        """Refuse new connections and break the open ones."""
        with self._lock:
            listener, self._listener = self._listener, None
            connections, self._open = self._open, set()
        if listener is not None:
            listener.close()
        for connection in connections:
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)  # the pumps see it end and close it

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                shut = self._listener is not listener  # shut while this one was let in
                if not shut:
                    self._open.update((client, server))
            if shut:
                client.close()
                server.close()
                return
            pumps = [2]  # the second of the pair to finish closes both ends
            threading.Thread(target=self._pump, args=(client, server, pumps), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, pumps), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, pumps: list[int]) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        for end in (source, sink):
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
        with self._lock:
            pumps[0] -= 1
            last = pumps[0] == 0
            if last:
                self._open.discard(source)
                self._open.discard(sink)
        if last:
            source.close()
            sink.close()


@contextmanager
def front_of(live_server_url: str) -> Iterator[Front]:
    host, port = live_server_url.removeprefix("http://").rsplit(":", 1)
    door = Front((host, int(port)))
    try:
        yield door
    finally:
        door.shut()
