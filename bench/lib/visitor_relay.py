"""bench/visitor's slow-4G network: a TCP relay on loopback that every connection goes through, the latency half
each way and the down- and upload rates shared by the connections in turn."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading

from visitor_conditions import DOWNLOAD_BYTES_PER_S, LATENCY_MS, UPLOAD_BYTES_PER_S


class Link:
    """One direction of the emulated link: a shared bandwidth, served to the connections in turn (chunk by chunk, as
    DevTools shares its throughput among the requests in flight), then a one-way delay."""

    CHUNK = 4096  # 20 ms at 1.6 Mbit/s: the grain of the sharing
    CATCH_UP_S = 0.02  # a chunk this late still leaves at the link's clock; later than that the link was idle

    def __init__(self, bytes_per_s: float, delay_s: float):
        self.rate = bytes_per_s
        self.delay = delay_s
        self.flows: list["Flow"] = []
        self.ready = asyncio.Event()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        clock = loop.time()
        turn = 0
        while True:
            waiting = [f for f in self.flows if f.pending]
            if not waiting:
                self.ready.clear()
                await self.ready.wait()
                clock = loop.time()
                continue
            flow = waiting[turn % len(waiting)]
            turn += 1
            data = flow.pending.popleft()
            if data:  # serialization at the link's rate, on a clock of its own: a late wake-up is made up for
                now = loop.time()
                clock = (clock if now - clock < self.CATCH_UP_S else now) + len(data) / self.rate
                await asyncio.sleep(max(0.0, clock - loop.time()))
            flow.out.put_nowait((loop.time() + self.delay, data))


class Flow:
    """One direction of one TCP connection through a Link: read, queued for the link, written after its delay."""

    def __init__(self, link: Link, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.link, self.reader, self.writer = link, reader, writer
        self.pending: collections.deque[bytes] = collections.deque()
        self.out: asyncio.Queue = asyncio.Queue()

    async def run(self) -> None:
        self.link.flows.append(self)
        try:
            await asyncio.gather(self._read(), self._write())
        finally:
            self.link.flows.remove(self)

    async def _read(self) -> None:
        while True:
            try:
                data = await self.reader.read(Link.CHUNK)
            except (ConnectionError, OSError):
                data = b""
            self.pending.append(data)
            self.link.ready.set()
            if not data:
                return

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            release, data = await self.out.get()
            await asyncio.sleep(max(0.0, release - loop.time()))
            try:
                if not data:
                    if self.writer.can_write_eof():
                        self.writer.write_eof()
                    return
                self.writer.write(data)
                await self.writer.drain()
            except (ConnectionError, OSError):
                return


class SlowLink:
    """A TCP relay on loopback in front of the server that makes every connection the browser opens a slow-4G one:
    the round trip's latency (half each way) and the down- and upload rates, shared by all connections.

    DevTools' own emulation (Network.emulateNetworkConditions) applies to the pages it is set on: chromedriver's
    page alone let a page that Speculation Rules prerender load at full speed (a 131 KB photo in 15-28 ms, measured).
    EveryPage now sets it on every page, but a request no page makes (a prefetch the browser makes, a service worker)
    would still escape it; every request goes through the relay, whoever makes it."""

    def __init__(self, upstream_port: int):
        self.upstream = upstream_port
        self.port = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.down = Link(DOWNLOAD_BYTES_PER_S, LATENCY_MS / 2000)
        self.up = Link(UPLOAD_BYTES_PER_S, LATENCY_MS / 2000)

    def start(self, timeout: float = 10) -> None:
        started = threading.Event()

        async def serve() -> None:
            server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            # Held here: the event loop keeps weak references to its tasks only.
            self.links = [asyncio.ensure_future(self.down.run()), asyncio.ensure_future(self.up.run())]
            started.set()
            async with server:
                try:
                    await asyncio.Event().wait()  # until stop() cancels this task
                finally:  # the links, and the connections a browser left open
                    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
                    for task in others:
                        task.cancel()
                    await asyncio.gather(*others, return_exceptions=True)

        self.loop = asyncio.new_event_loop()
        self.task = self.loop.create_task(serve())
        self.thread = threading.Thread(target=self._run, name="slow-link", daemon=True)
        self.thread.start()
        if not started.wait(timeout):
            raise RuntimeError(f"the slow-link relay did not start within {timeout} s")

    def _run(self) -> None:
        try:
            with contextlib.suppress(asyncio.CancelledError):
                self.loop.run_until_complete(self.task)
        finally:
            self.loop.close()

    async def _connection(self, client_reader, client_writer) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            client_writer.close()
            return
        try:
            await asyncio.gather(Flow(self.up, client_reader, server_writer).run(),
                                 Flow(self.down, server_reader, client_writer).run())
        finally:
            for writer in (client_writer, server_writer):
                writer.close()

    def stop(self) -> None:
        if self.loop and self.thread and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.task.cancel)
            self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"
