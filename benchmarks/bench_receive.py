"""What a client's message costs the server's way in: the WebSocket frame read, unmasked and handed on.

``gouji serve`` runs :class:`~gouji.server.http.play_socket.PlaySocket`, which cuts the bytes a client sends
into frames itself and takes a whole masked text frame without the websockets library's parser (every other
frame goes to the library whole).  This opens ``--connections`` of them in process (a handshake each, on a
transport that keeps what is written), sets each one's direct handler, then feeds every connection in turn
one intent-sized text frame, ``--rounds`` times — as a busy server gets one move's message from one of many
connections after another — and prints the microseconds a message, with the protocol's framing and with
every byte given to the library's parser (as before the framing), alternately, ``--repeat`` times each.

    .venv/bin/python benchmarks/bench_receive.py [--connections 600] [--rounds 30] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

import uvicorn
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode

from gouji.server.http.play_socket import PlaySocket

HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nhost: 127.0.0.1:8000\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
    b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
)


class _Transport(asyncio.Transport):
    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 4321), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: Any) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _app(scope: Any, receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def per_message(connections: int, rounds: int, framing: bool) -> float:
    """Microseconds a message over ``connections`` fed in turn, ``rounds`` messages each."""
    config = uvicorn.Config(_app, ws=PlaySocket, ws_max_size=64 * 1024, lifespan="off", log_level="critical")
    config.load()
    loop = asyncio.get_running_loop()
    sockets = []
    for _ in range(connections):
        sock = PlaySocket(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        sock.connection_made(_Transport())
        sock.data_received(HANDSHAKE)
        sockets.append(sock)
    for _ in range(20):
        await asyncio.sleep(0)  # the apps accept
    taken = [0]

    def handler(text: str) -> None:
        taken[0] += 1

    for sock in sockets:
        if not sock._framing:
            raise RuntimeError("a connection did not start framing after its handshake")
        sock.on_text = handler
        if not framing:
            sock._framing = False  # every byte to the library's parser
    messages = [
        Frame(
            Opcode.TEXT, json.dumps({"type": "act", "action": "3344", "decision": i, "token": "x" * 32}).encode()
        ).serialize(mask=True, extensions=[])
        for i in range(connections)
    ]
    start = time.perf_counter()
    for _ in range(rounds):
        for sock, message in zip(sockets, messages, strict=True):
            sock.data_received(message)
    seconds = time.perf_counter() - start
    if taken[0] != connections * rounds:
        raise RuntimeError(f"the handler took {taken[0]} messages of {connections * rounds}")
    for sock in sockets:
        sock.connection_lost(None)
    return seconds / (connections * rounds) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.connections <= 100_000 or not 1 <= args.rounds <= 10_000 or not 1 <= args.repeat <= 100:
        parser.error("--connections 1-100,000, --rounds 1-10,000, --repeat 1-100")
    runs: dict[str, list[float]] = {"framing": [], "library": []}
    for _ in range(args.repeat):
        for kind in ("library", "framing"):
            runs[kind].append(asyncio.run(per_message(args.connections, args.rounds, kind == "framing")))
    result = {
        "connections": args.connections,
        "rounds": args.rounds,
        "us_per_message": {k: round(statistics.median(v), 2) for k, v in runs.items()},
        "runs": {k: [round(x, 2) for x in v] for k, v in runs.items()},
    }
    if args.json:
        print(json.dumps(result))
        return
    med = result["us_per_message"]
    print(
        f"{args.connections} connections × {args.rounds} messages, median of {args.repeat}: "
        f"{med['framing']} µs a message with PlaySocket's framing, {med['library']} µs through the websockets "
        "library's parser"
    )


if __name__ == "__main__":
    main()
