"""A TCP forwarder that a test can cut and restore, to make real outages of Redis or PostgreSQL.

The app is pointed at the proxy's port instead of the service's. ``cut()`` closes every open
connection and stops accepting new ones (clients see a reset or a refused connection, as when a
network link goes down); ``restore()`` accepts again on the same port. Nothing is mocked: the
bytes that pass are the real protocol's.
"""

import selectors
import socket
import threading


class TcpProxy:
    def __init__(self, target_host: str, target_port: int, listen_port: int = 0):
        self.target = (target_host, target_port)
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._listener = self._listen(listen_port)
        self.port = self._listener.getsockname()[1]
        self._cut = False
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"proxy:{self.port}", daemon=True)
        self._thread.start()

    def url(self, scheme_and_rest: str) -> str:
        """e.g. ``proxy.url("redis://127.0.0.1:{port}/15")``."""
        return scheme_and_rest.format(port=self.port)

    @staticmethod
    def _listen(port: int) -> socket.socket:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(128)
        listener.setblocking(False)
        return listener

    def cut(self) -> None:
        """Drop every connection and refuse new ones until ``restore()``."""
        with self._lock:
            self._cut = True
            self._listener.close()
            for a, b in self._pairs:
                for s in (a, b):
                    try:
                        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
                    except OSError:
                        pass
                    s.close()
            self._pairs.clear()

    def restore(self) -> None:
        with self._lock:
            if not self._cut:
                return
            self._listener = self._listen(self.port)
            self._cut = False

    def stop(self) -> None:
        self.cut()
        self._stopped.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        buffers: dict[socket.socket, socket.socket] = {}
        while not self._stopped.is_set():
            with self._lock:
                listener = None if self._cut else self._listener
                live = [(a, b) for a, b in self._pairs if a.fileno() >= 0 and b.fileno() >= 0]
                self._pairs = live
                buffers = {a: b for a, b in live} | {b: a for a, b in live}
            readable = [s for s in buffers] + ([listener] if listener else [])
            if not readable:
                self._stopped.wait(0.05)
                continue
            sel = selectors.DefaultSelector()
            try:
                for s in readable:
                    try:
                        sel.register(s, selectors.EVENT_READ)
                    except (ValueError, OSError):
                        pass
                events = sel.select(timeout=0.05)
            finally:
                sel.close()
            for key, _ in events:
                sock = key.fileobj
                if sock is listener:
                    self._accept(listener)
                else:
                    self._forward(sock, buffers.get(sock))

    def _accept(self, listener: socket.socket) -> None:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError:
            client.close()
            return
        with self._lock:
            if self._cut:
                client.close()
                upstream.close()
                return
            self._pairs.append((client, upstream))

    def _forward(self, source: socket.socket, sink: socket.socket | None) -> None:
        try:
            data = source.recv(65536)
            if data and sink is not None:
                sink.sendall(data)
                return
        except OSError:
            pass
        with self._lock:
            for pair in list(self._pairs):
                if source in pair:
                    self._pairs.remove(pair)
                    for s in pair:
                        s.close()
