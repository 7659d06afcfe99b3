"""The floor of a move's cost for the game server's design: a stand-in server that does only its transport.

``bench_server.py --floor`` runs its clients against this process as well as against ``gouji serve``, in the
same minutes.  It speaks just enough of the server's API for them — ``POST /api/tables``, ``POST
/api/tables/{code}/join``, the WebSocket of play with ``hello`` and ``act`` — on the same stack as the
server's way in and out (uvloop; one asyncio protocol a connection; a whole masked text frame cut from the
bytes read; each frame written in place with ``transport.write``), and answers every move with a frame of
the server's size and shape to each of the table's six connections.  What it leaves out is the game: no
rules engine, no views made from a state, no decision windows, no database and so no acknowledgement to
wait for.  So the gap between its figures and the server's is what the game's work costs a move, and its
own figures are what no Python server of this design gets past on this machine at that moment.

    .venv/bin/python benchmarks/floor_server.py PORT
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import struct
import sys

import orjson

from gouji.engine.seats import SEATS

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 1.3
_HEAD_16 = struct.Struct(">BBH").pack

FRAME_BYTES = 2680
"""About the size of the server's frame of a move (``make bench-table``: 16,847 bytes of frames a move, 6.28
frames)."""

_TABLE = (
    '{"code":"FLOOR","status":"playing","seats":['
    + ",".join(
        f'{{"index":{i},"nickname":"p{i}","bot":null,"auto":false,"connected":true,"team":{i % 2}}}'
        for i in range(SEATS)
    )
    + '],"ready":null,"deals_over":0,"set_scores":[0,0,0,0,0,0],"last_deal":null}'
)


class Table:
    """A table of six seats that take turns in order; every accepted move sends each seat a frame."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.conns: list[Conn | None] = [None] * SEATS
        self.state = 0
        self.to_act = 0
        self.hellos = 0

    def send_frames(self) -> None:
        head = f'{{"type":"state","v":1,"state":{self.state},"full":false,"table":{_TABLE},"deal":0'
        public_turn = f'{{"seat":{self.to_act},"decision":{self.state},"deadline":null,"auto":false}}'
        events = f'[{{"type":"play","seat":{(self.to_act - 1) % SEATS},"action":"3x3","deal":0}}]'
        pad = "x" * (FRAME_BYTES - len(head) - len(public_turn) - len(events) - 60)
        for seat, conn in enumerate(self.conns):
            if conn is None:
                continue
            turn = public_turn
            if seat == self.to_act:
                turn = (
                    f'{{"seat":{seat},"decision":{self.state},"deadline":null,"auto":false,"legal_count":3,'
                    '"can_pass":true,"can_yield":false,"burn_offer":false,"choices":["pass","4","5x2"]}'
                )
            view = f'{{"seat":{seat},"players":"{pad}","hand":"3x2 4x2"}}'
            data = f'{head},"view":{view},"turn":{turn},"events":{events}}}'.encode()
            conn.transport.write(_HEAD_16(0x81, 126, len(data)) + data)

    def act(self, seat: int, decision: object) -> None:
        if seat == self.to_act and decision == self.state:
            self.state += 1
            self.to_act = (self.to_act + 1) % SEATS
            self.send_frames()


TABLES: dict[str, Table] = {}
TOKENS: dict[str, tuple[Table, int]] = {}


class Conn(asyncio.Protocol):
    """One connection: HTTP requests (kept alive) until a WebSocket upgrade, then the frames of play."""

    transport: asyncio.Transport

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.websocket = False
        self.table: Table | None = None
        self.seat = -1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.websocket:
            self._frames()
        else:
            self._requests()

    def _requests(self) -> None:
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            lines = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
            size = int(headers.get("content-length", "0"))
            if len(self.buffer) < end + 4 + size:
                return
            body = bytes(self.buffer[end + 4 : end + 4 + size])
            del self.buffer[: end + 4 + size]
            if headers.get("upgrade", "").lower() == "websocket":
                key = headers["sec-websocket-key"].encode()
                accept = base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode()
                self.transport.write(
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Accept: {accept}\r\n\r\n".encode()
                )
                self.websocket = True
                self._frames()
                return
            parts = path.split("/")
            if method == "POST" and path == "/api/tables":
                code = f"F{len(TABLES)}"
                TABLES[code] = Table(code)
                out: dict[str, str] = {"code": code}
            elif method == "POST" and len(parts) == 5 and parts[4] == "join" and parts[3] in TABLES:
                token = f"{parts[3]}-{orjson.loads(body)['seat']}"
                TOKENS[token] = (TABLES[parts[3]], int(token.rsplit("-", 1)[1]))
                out = {"token": token}
            else:
                self.transport.write(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
                continue
            text = orjson.dumps(out)
            self.transport.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (len(text), text)
            )

    def _frames(self) -> None:
        buf, at = self.buffer, 0
        while len(buf) - at >= 2:
            n, head = buf[at + 1] & 0x7F, at + 2
            if n == 126:
                if len(buf) - at < 4:
                    break
                n, head = int.from_bytes(buf[at + 2 : at + 4], "big"), at + 4
            elif n == 127:
                if len(buf) - at < 10:
                    break
                n, head = int.from_bytes(buf[at + 2 : at + 10], "big"), at + 10
            stop = head + 4 + n
            if len(buf) < stop:
                break
            opcode = buf[at] & 0x0F
            mask = int.from_bytes(bytes(buf[head : head + 4]) * (n // 4 + 1), "big") >> (8 * (4 - n % 4))
            payload = (int.from_bytes(buf[head + 4 : stop], "big") ^ mask).to_bytes(n, "big")
            at = stop
            if opcode == 1:
                self._message(orjson.loads(payload))
            elif opcode == 8:
                self.transport.close()
                break
        del buf[:at]

    def _message(self, message: dict[str, object]) -> None:
        if message.get("type") == "hello":
            self.table, self.seat = TOKENS[str(message["token"])]
            self.table.conns[self.seat] = self
            self.table.hellos += 1
            if self.table.hellos == SEATS:
                self.table.send_frames()
        elif message.get("type") == "act" and self.table is not None:
            self.table.act(self.seat, message.get("decision"))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.table is not None and self.table.conns[self.seat] is self:
            self.table.conns[self.seat] = None


async def serve(port: int) -> None:
    server = await asyncio.get_running_loop().create_server(Conn, "127.0.0.1", port, backlog=2048)
    await server.serve_forever()


def main() -> None:
    import uvloop

    uvloop.run(serve(int(sys.argv[1])))


if __name__ == "__main__":
    main()
