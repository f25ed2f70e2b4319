"""The browser client is served from server/static at / and needs nothing from elsewhere."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from server.app import STATIC, Server
from server.settings import Settings


async def _get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


async def test_the_page_its_script_and_its_styles_are_served(tmp_path: Path) -> None:
    settings = Settings(
        host="127.0.0.1", port=0, db_url=f"sqlite:///{tmp_path}/t.db", bot_workers=0
    )
    server = Server(settings)
    await server.start()
    try:
        for path, kind in (
            ("/", "text/html"),
            ("/app.js", "text/javascript"),
            ("/games.js", "text/javascript"),
            ("/style.css", "text/css"),
        ):
            status, headers, body = await _get(server.port, path)
            assert status == 200, path
            assert headers["content-type"].startswith(kind)
            assert body == (STATIC / ("index.html" if path == "/" else path[1:])).read_bytes()
    finally:
        await server.stop()


def test_the_client_loads_nothing_from_other_hosts() -> None:
    # No CDN, no web fonts: the page must work on a machine without internet access.
    html = (STATIC / "index.html").read_text()
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == ["/style.css", "/games.js", "/app.js"]
    for name in ("games.js", "app.js", "style.css"):
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://", text), name
        assert "@import" not in text and "url(" not in text.replace("URLSearchParams(", "")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("name", ["app.js", "games.js"])
def test_the_scripts_parse(name: str) -> None:
    # A syntax error would leave the page blank with no server-side symptom.
    done = subprocess.run(["node", "--check", str(STATIC / name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
