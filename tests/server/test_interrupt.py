"""`make run` stops cleanly on Ctrl-C: ``gouji serve``, interrupted (SIGINT) while a table of bots plays and a
spectator is connected, shuts down and exits without a traceback."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from ..helpers import wait_until

GOUJI = Path(sys.executable).parent / "gouji"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT as Ctrl-C sends it is a POSIX signal")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 0.2).close()
    except OSError:
        return False
    return True


def test_gouji_serve_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    cmd = [str(GOUJI), "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'g.db'}"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: listening(port) or proc.poll() is not None, 60, "the server listening")
        assert proc.poll() is None, proc.communicate()[1]
        body = json.dumps({"bots": ["heuristic"] * 6, "bot_delay": 0, "turn_seconds": None}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables", data=body, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            code = json.loads(answer.read())["code"]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{code}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "v": 1}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            # the bots are playing and the spectator is watching: now Ctrl-C
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode in (0, 130), err
    assert "Traceback" not in err, err
    assert "Application shutdown complete" in err
