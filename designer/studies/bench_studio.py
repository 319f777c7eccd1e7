"""The studio's benchmark: a studio started as a user starts it (``studio_server``), and the seconds
its live figures take to answer over real HTTP, for sketches of each size (``bench_studio``)."""

from __future__ import annotations

import json
import signal
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager

from designer.core.control import die_with_parent
from designer.core.errors import DesignerError
from designer.studies.bench import solvable_random_level


@contextmanager
def studio_server():
    """``designer studio --no-browser`` started as a user starts it, for as long as the block runs:
    its (port, token); stopped with Ctrl-C after."""
    import re

    server = subprocess.Popen(
        [sys.executable, "-m", "designer", "studio", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=die_with_parent(signal.SIGTERM),
    )
    assert server.stdout is not None and server.stderr is not None  # both piped
    try:
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
        if found is None:
            raise DesignerError(
                f"designer studio did not start: {(line + server.stderr.read()).strip()[:200]}"
            )
        yield int(found[1]), found[2]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def bench_studio(
    requests: int = 200,
    clients: int = 20,
    height: int = 20,
    width: int = 20,
    density: float = 0.2,
    seed: int = 0,
) -> dict:
    """Live analysis under load: ``designer studio`` started as a user starts it, and ``requests``
    calls of its live figures (``POST /api/figures``, a random solvable level of HxW) sent by
    ``clients`` threads at once, over real HTTP. Each call's wall time, from sending to the whole
    answer read; the median, the 95th percentile and the slowest, and how many were not answered
    with 200."""
    import http.client
    from concurrent.futures import ThreadPoolExecutor

    level = solvable_random_level(height, width, density, seed)
    body = json.dumps({"rows": level.rows()}).encode()
    with studio_server() as (port, token):
        headers = {
            "Host": f"127.0.0.1:{port}",
            "Origin": f"http://127.0.0.1:{port}",
            "X-Studio-Token": token,
            "Content-Type": "application/json",
        }

        def call(_: int) -> tuple[float, int]:
            t0 = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("POST", "/api/figures", body, headers)
            response = conn.getresponse()
            response.read()
            conn.close()
            return time.perf_counter() - t0, response.status

        call(0)  # warm: the first call loads the analysis
        with ThreadPoolExecutor(clients) as pool:
            results = list(pool.map(call, range(requests)))
    times = sorted(seconds for seconds, _ in results)
    return {
        "size": f"{height}x{width}",
        "rock_density": density,
        "requests": requests,
        "clients": clients,
        "not_ok": sum(status != 200 for _, status in results),
        "ms_median": round(1000 * statistics.median(times), 1),
        "ms_p95": round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 1),
        "ms_max": round(1000 * times[-1], 1),
    }
