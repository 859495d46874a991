"""Sizing a class on one machine: N students log in to the hub at once and run notebook 01 up to its first slider.

    sudo .venv/bin/python bench/bench_hub.py [--n 25] [--timeout 900]

As root, on loopback only, bounded: makes N throwaway Unix accounts (a group of their own), starts the
hub of hub/jupyterhub_config.py on free ports (its state in a temporary folder, the students' environment
of ``make hub-student-env``, idle culling off), then each student at the same time logs in through the
hub's login form, has their server started, starts a kernel and runs 01_metrics's code cells up to the
first ``fbeta_explorer()`` (the nbgrader answer and test cells left out) over the kernel's websocket.
Prints: seconds until every kernel had run to the slider (and per student: median, slowest), the hub's
failures and, apart, the benchmark's own client timeouts (every request, the kernel's websocket included,
allows REQUEST_TIMEOUT seconds: a timeout is this client giving up, not the hub failing),
the peak memory of the students' processes together and per student, the peak and mean CPU use of the
machine, and the sizing those figures give. Everything it made (accounts, homes, processes, ports) is
removed at the end, on failure too. Figures depend on the machine and its load: printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import http.cookiejar
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import nbformat
import psutil

ROOT = Path(__file__).resolve().parent.parent
STUDENT_ENV = Path(os.environ.get("COURSE_STUDENT_ENV", "/opt/model-evaluation"))
NOTEBOOK = ROOT / "notebooks" / "01_metrics.ipynb"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cells_to_slider() -> list[str]:
    """01's code cells up to and including the first fbeta_explorer(), without nbgrader's cells."""
    cells = []
    for cell in nbformat.read(NOTEBOOK, as_version=4).cells:
        if cell.cell_type != "code" or cell.metadata.get("nbgrader"):
            continue
        cells.append(cell.source)
        if cell.source.strip() == "fbeta_explorer()":
            return cells
    raise SystemExit(f"no fbeta_explorer() cell in {NOTEBOOK}")


REQUEST_TIMEOUT = 300   # seconds any one request of a student waits, the kernel's websocket too (tornado: 20 s)


def failure_kind(exc: BaseException) -> str:
    """'client timeout' when this benchmark gave up waiting (its own limit: a browser would wait and
    reconnect), else 'hub failure' (an error answer, a closed socket, a failed cell)."""
    from tornado.simple_httpclient import HTTPTimeoutError
    reason = getattr(exc, "reason", None)
    if isinstance(exc, (HTTPTimeoutError, TimeoutError, socket.timeout)) or isinstance(reason, (TimeoutError,
                                                                                              socket.timeout)):
        return "client timeout"
    return "hub failure"


def websocket_request(url: str, headers: dict[str, str]):
    """The kernel websocket's handshake request, allowed REQUEST_TIMEOUT like every other request (tornado's
    default, 20 s to connect and 20 s for the handshake, failed a student whose server was up under load)."""
    from tornado.httpclient import HTTPRequest
    return HTTPRequest(url, headers=headers, connect_timeout=REQUEST_TIMEOUT, request_timeout=REQUEST_TIMEOUT)


async def run_kernel(base: str, user: str, cookies: http.cookiejar.CookieJar, opener, cells: list[str]) -> None:
    from tornado.websocket import websocket_connect

    xsrf = next(c.value for c in cookies if c.name == "_xsrf" and c.path.startswith(f"/user/{user}"))
    request = urllib.request.Request(f"{base}/user/{user}/api/kernels", data=b"{}", method="POST",
                                     headers={"X-XSRFToken": xsrf, "Content-Type": "application/json"})
    kernel = json.load(opener.open(request, timeout=REQUEST_TIMEOUT))["id"]
    header = "; ".join(f"{c.name}={c.value}" for c in cookies if c.path.startswith(f"/user/{user}") or c.path == "/")
    url = base.replace("http://", "ws://") + f"/user/{user}/api/kernels/{kernel}/channels"
    socket_ = await websocket_connect(websocket_request(url, {"Cookie": header, "X-XSRFToken": xsrf}))
    session = uuid.uuid4().hex
    for source in cells:
        msg_id = uuid.uuid4().hex
        socket_.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": user, "session": session,
                       "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": source, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        while True:
            message = await socket_.read_message()
            if message is None:
                raise RuntimeError("the kernel's websocket closed")
            if isinstance(message, bytes):   # a message with binary buffers (the widgets'): not a reply
                continue
            reply = json.loads(message)
            if reply.get("parent_header", {}).get("msg_id") == msg_id and reply["header"]["msg_type"] == "execute_reply":
                if reply["content"]["status"] != "ok":
                    raise RuntimeError(f"{reply['content'].get('ename')}: {reply['content'].get('evalue')}")
                break
    socket_.close()


def student_session(base: str, user: str, password: str, cells: list[str], start: float) -> float:
    """Log in, start the server, run the cells; seconds from the common start until the slider cell ran."""
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    page = opener.open(f"{base}/hub/login", timeout=REQUEST_TIMEOUT).read().decode()
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
    form = {"username": user, "password": password, **({"_xsrf": xsrf.group(1)} if xsrf else {})}
    opener.open(f"{base}/hub/login", data=urllib.parse.urlencode(form).encode(), timeout=REQUEST_TIMEOUT)
    print(f"{user}: logged in after {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    deadline = start + 600
    while True:   # the spawn, then the OAuth handshake with the student's server (redirects, cookies)
        try:
            # a page: the OAuth handshake gives the server's cookie; the hub answers the spawn-pending page until then
            if opener.open(f"{base}/user/{user}/lab", timeout=60).geturl().startswith(f"{base}/user/{user}/"):
                break
            time.sleep(1)
        except OSError as error:
            if time.monotonic() > deadline:
                raise
            if os.environ.get("BENCH_DEBUG"):
                print(f"{user}: {error!r}", file=sys.stderr, flush=True)
            time.sleep(1)
    print(f"{user}: server up after {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    asyncio.run(run_kernel(base, user, cookies, opener, cells))
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=25, help="students logging in at once (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds before giving up (default: %(default)s)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("the benchmark makes Unix accounts and starts servers as their users: run it as root")
    if not list(STUDENT_ENV.glob(".installed-*")):
        raise SystemExit(f"{STUDENT_ENV} is missing: make hub-student-env")
    cells = cells_to_slider()
    prefix = "mevb" + secrets.token_hex(2)
    group, users = f"{prefix}-s", [f"{prefix}{i:02d}" for i in range(args.n)]
    passwords = {u: secrets.token_urlsafe(12) for u in users}
    work = Path(tempfile.mkdtemp(prefix="bench-hub-"))
    made: list[str] = []
    server = None
    samples: list[tuple[float, float]] = []
    try:
        subprocess.run(["groupadd", group], check=True)
        for user in users:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", "--gid", group, user], check=True)
            made.append(user)
            os.chmod(pwd.getpwnam(user).pw_dir, 0o700)   # private, as tools/hub_accounts.py makes them
        subprocess.run(["chpasswd"], input="".join(f"{u}:{p}\n" for u, p in passwords.items()), text=True, check=True)
        uids = {pwd.getpwnam(u).pw_uid for u in users}
        ports = [free_port() for _ in range(3)]
        env = {"PATH": f"{ROOT / '.venv' / 'bin'}:/usr/bin:/bin", "HOME": str(work), "LANG": "C.UTF-8",
               "COURSE_HUB_STUDENTS": group, "COURSE_HUB_TEACHERS": group, "COURSE_EXCHANGE": str(work / "exchange"),
               "COURSE_STUDENT_ENV": str(STUDENT_ENV), "COURSE_HUB_STATE": str(work / "state"),
               "COURSE_IDLE_MINUTES": "0"}
        log = (work / "hub.log").open("w")
        server = subprocess.Popen([str(ROOT / ".venv" / "bin" / "jupyterhub"), "-f", str(ROOT / "hub" / "jupyterhub_config.py"),
                                   f"--JupyterHub.bind_url=http://127.0.0.1:{ports[0]}",
                                   f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{ports[1]}",
                                   f"--JupyterHub.hub_port={ports[2]}", "--Spawner.start_timeout=600",
                                   "--Spawner.http_timeout=600"],
                                  cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{ports[0]}"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/hub/api", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the hub did not start:\n{(work / 'hub.log').read_text()[-3000:]}")
                time.sleep(0.5)
        stop = threading.Event()
        psutil.cpu_percent()

        def sample() -> None:
            while not stop.wait(0.5):
                rss = 0
                for proc in psutil.process_iter(["uids", "memory_info"]):
                    try:
                        if proc.info["uids"] and proc.info["uids"].real in uids:
                            rss += proc.info["memory_info"].rss
                    except (psutil.Error, TypeError):
                        continue
                samples.append((rss, psutil.cpu_percent()))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        start = time.monotonic()
        times: dict[str, float] = {}
        failures: dict[str, str] = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.n) as pool:
            futures = {pool.submit(student_session, base, u, passwords[u], cells, start): u for u in users}
            try:
                for future in concurrent.futures.as_completed(futures, timeout=args.timeout):
                    user = futures[future]
                    try:
                        times[user] = future.result()
                    except Exception as exc:  # noqa: BLE001 (reported)
                        failures[user] = f"{failure_kind(exc)}: {type(exc).__name__}: {exc}"[:200]
            except concurrent.futures.TimeoutError:
                failures |= {u: f"client timeout: not ready after {args.timeout:g} s" for u in users
                             if u not in times and u not in failures}
                pool.shutdown(wait=False, cancel_futures=True)
        stop.set()
        sampler.join()
        peak_rss = max((s[0] for s in samples), default=0)
        cpu = [s[1] for s in samples]
        memory = psutil.virtual_memory().total
        print(f"{args.n} students at once, {len(cells)} cells of 01_metrics up to its first slider, "
              f"{os.cpu_count()} cores, {memory / 1024**3:.0f} GiB, load average before the end "
              f"{os.getloadavg()[0]:.1f}")
        if times:
            print(f"every kernel at the slider after {max(times.values()):.0f} s (median student "
                  f"{statistics.median(times.values()):.0f} s, slowest {max(times.values()):.0f} s)")
        hub = {u: m for u, m in failures.items() if m.startswith("hub failure")}
        print(f"hub failures: {len(hub)}" + "".join(f"\n  {u}: {m}" for u, m in sorted(hub.items())))
        print(f"client timeouts (the benchmark's own {REQUEST_TIMEOUT} s per request or --timeout, not the hub): "
              f"{len(failures) - len(hub)}" + "".join(f"\n  {u}: {m}" for u, m in sorted(failures.items())
                                                    if u not in hub))
        if failures:
            print("the hub's log ends with:\n" + (work / "hub.log").read_text()[-3000:])
        print(f"peak memory of the students' processes: {peak_rss / 1024**3:.2f} GiB "
              f"({peak_rss / max(1, args.n) / 1024**2:.0f} MiB per student)")
        if cpu:
            print(f"machine CPU: peak {max(cpu):.0f} %, mean {statistics.mean(cpu):.0f} % over {len(cpu) / 2:.0f} s")
        per = peak_rss / max(1, args.n)
        print(f"sizing: memory for a class of 25 with every kernel at the slider ~ {25 * per / 1024**3:.1f} GiB "
              f"plus the system; of 50 ~ {50 * per / 1024**3:.1f} GiB")
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=120)
            except subprocess.TimeoutExpired:
                server.kill()
        for user in made:
            subprocess.run(["pkill", "--signal", "KILL", "--uid", user], capture_output=True)
        time.sleep(1)
        for user in made:
            subprocess.run(["userdel", "--remove", user], capture_output=True)
        subprocess.run(["groupdel", group], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
