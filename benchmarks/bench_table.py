"""What a move costs the server's table code, in process: no sockets, no database, no other process.

``bench_server.py`` measures the whole server on loopback, and on a shared machine its figures swing by a
third from one quarter of an hour to the next.  This runs the code a move goes through on the event loop —
the intent parsed and checked, the window answered and resolved, the engine, the commit's writes packed as
the writer process gets them, the six seats' frames made and framed for the socket — for ``--tables``
tables of six people's seats played by a seeded random player, and prints the CPU time and the frame bytes
per move.  The run is deterministic (the same seed plays the same moves), so ``--instructions`` can also
count the machine instructions a move takes, under ``valgrind --tool=cachegrind`` (two runs, the
difference of their counts over the difference of their moves): a figure the machine's load does not move,
to compare two versions of the code by.

    .venv/bin/python benchmarks/bench_table.py [--tables 20] [--moves 20000] [--seed 1] [--instructions]
        [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import orjson

import gouji
from gouji.server.config import TableConfig
from gouji.server.http.connection import Connection
from gouji.server.http.fast_send import ws_text_frame
from gouji.server.messages import protocol as P
from gouji.server.storage import Op
from gouji.server.storage.writer_process import _pack, _to_wire
from gouji.server.tables.table import Room, token_hash


class PackingWriter:
    """Stands for the writer process: packs each commit's writes as they go over its socket, and calls back
    (the change is "stored") when :meth:`ack` is called, after each move."""

    backlog = 0

    def __init__(self) -> None:
        self.done: list[Callable[[], None]] = []
        self.bytes = 0

    def commit(self, ops: list[Op], done: Callable[[], None]) -> None:
        self.bytes += len(_pack(("c", [_to_wire(ops)])))
        self.done.append(done)

    def ack(self) -> None:
        done, self.done = self.done, []
        for f in done:
            f()


def seated_room(
    room_id: int,
    config: TableConfig,
    write_now: Callable[[str], bool],
    token: Callable[[int], str],
    writer: PackingWriter | None = None,
) -> tuple[Room, list[Connection]]:
    """A table of six people's seats (seat ``s``'s token ``token(s)``), each with a connection that writes
    every frame at once with ``write_now``, its set started."""

    async def send(text: str) -> None:  # (never used: every frame is written at once)
        raise AssertionError("a frame waited")

    room = Room(room_id, f"T{room_id:05d}", config, "x" * 64, writer)  # type: ignore[arg-type]
    conns = []
    for s in range(6):
        room.commit("join", s, {"nickname": f"p{s}", "token_hash": token_hash(token(s))})
        conn = Connection(limit=10_000, send=send, write_now=write_now)
        room.attach(conn, s, token_hash(token(s)))
        conns.append(conn)
    room.commit("start")
    return room, conns


async def play(tables: int, moves: int, seed: int, preset: str) -> dict[str, Any]:
    rng = random.Random(seed)
    writer = PackingWriter()
    sent = [0]

    def write_now(text: str) -> bool:
        sent[0] += len(ws_text_frame(text))
        return True

    rooms: list[tuple[Room, list[Connection]]] = []
    rules = gouji.RuleSet.preset(preset).to_dict()
    for t in range(tables):
        config = TableConfig(preset, rules, seed * 1000 + t, 20, None, 0.0, (None,) * 6)
        room, conns = seated_room(t, config, write_now, lambda s, t=t: f"token-{t}-{s}", writer)
        writer.ack()
        rooms.append((room, conns))
    sent[0] = writer.bytes = 0
    done = 0
    cpu = time.process_time()
    while done < moves:
        progressed = False
        for room, conns in rooms:
            if room.status != "playing":
                continue
            if room.ready is not None:  # between two deals every seat says it is ready
                for s in range(6):
                    if room.ready is not None and not room.ready[s]:
                        text = orjson.dumps({"type": "ready", "token": f"token-{room.id}-{s}"}).decode()
                        room.mark_ready(conns[s], P.parse_client(text))
                writer.ack()
                progressed = True
                continue
            window = room.window
            if window is None or not window.asked:
                continue
            s = min(window.asked)
            legal = room.match.current.legal_actions_of(s)
            options = legal.texts() if len(legal) <= 64 else [str(a) for a in legal[:16]]
            plays = [a for a in options if a not in ("pass", "yield")]
            action = rng.choice(plays) if plays and rng.random() < 0.7 else options[0]
            intent = {"type": "act", "action": action, "decision": room.decision, "token": f"token-{room.id}-{s}"}
            room.intent(conns[s], P.parse_client(orjson.dumps(intent).decode()))
            writer.ack()
            done += 1
            progressed = True
            if done == moves:
                break
        if not progressed:
            raise RuntimeError("no table has a move to make: every set is over (ask for fewer moves)")
    cpu = time.process_time() - cpu
    return {
        "tables": tables,
        "moves": done,
        "cpu_us_per_move": round(cpu / done * 1e6, 1),
        "frame_bytes_per_move": round(sent[0] / done),
        "writer_bytes_per_move": round(writer.bytes / done),
    }


def instructions(args: argparse.Namespace) -> int:
    """Machine instructions per move: two runs under cachegrind, ``moves / 5`` and ``moves`` moves (the
    process's start-up is taken out by the difference, to within some 15 million instructions that it varies
    by from one run to the next: ask for thousands of moves for a figure to compare code by)."""
    counts = []
    moves = int(args.moves)
    few = max(1, moves // 5)
    for n in (few, moves):
        cmd = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--tables",
            str(args.tables),
            "--moves",
            str(n),
            "--seed",
            str(args.seed),
            "--preset",
            args.preset,
            "--json",
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if found is None:
            raise RuntimeError(f"cachegrind printed no instruction count: {out.stderr[-500:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[1] - counts[0]) // (moves - few)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="qingdao", choices=sorted(gouji.PRESETS))
    parser.add_argument("--instructions", action="store_true", help="also count instructions per move (needs valgrind)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.tables <= 1000:
        parser.error(f"--tables is 1 to 1000, not {args.tables}")
    if not 5 <= args.moves <= 10_000_000:
        parser.error(f"--moves is 5 to 10,000,000, not {args.moves}")
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt install valgrind)")
    result = asyncio.run(play(args.tables, args.moves, args.seed, args.preset))
    if args.instructions:
        result["instructions_per_move"] = instructions(args)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['tables']} tables ({args.preset}), {result['moves']} moves: {result['cpu_us_per_move']} µs of CPU "
        f"a move; {result['frame_bytes_per_move']} bytes of frames and {result['writer_bytes_per_move']} bytes to "
        "the writer a move"
        + (f"; {result['instructions_per_move']:,} instructions a move" if args.instructions else "")
    )


if __name__ == "__main__":
    main()
