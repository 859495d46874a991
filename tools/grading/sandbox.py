"""Run a command in a bubblewrap sandbox with resource limits (used by tools/grading/).

The sandbox sees read-only copies of the system (/usr, /etc), the Python
installation and virtual environment, the course's ``helpers`` and ``data`` and
the grading worker, plus an empty, size-limited tmpfs as its working
directory. It has no network, its own PID, IPC and UTS namespaces, and no
other file of the machine: no course folder, gradebook, source notebooks or
other students. As root the command runs as an unprivileged user of its own
(so the process limit applies and nothing root-owned is writable); as another
user, in an unprivileged user namespace. Killing the bwrap process (its
session) ends every process inside: bwrap's init is PID 1 of the namespace.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]   # tools/grading/sandbox.py
BWRAP = shutil.which("bwrap") or "/usr/bin/bwrap"
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
WORKDIR = "/home/student"
GRADER_DIR = "/opt/grader"
SANDBOX_UID_BASE = 61000   # uids used for sandboxes when grading as root (one per slot and role)


@dataclass
class Limits:
    memory: int = 3 * 1024**3         # bytes of address space (RLIMIT_AS)
    processes: int = 64               # tasks (processes and threads) of the sandbox's user
    file_size: int = 64 * 1024**2     # bytes per file written
    tmpfs: int = 256 * 1024**2        # bytes of the working directory
    cpu: int = 600                    # CPU seconds (the wall-clock limit is the grader's)
    open_files: int = 512


def available() -> str | None:
    """None when sandboxes work here, else the reason they do not."""
    if not Path(BWRAP).is_file():
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    try:
        probe = subprocess.run(command(["/bin/true"], uid=SANDBOX_UID_BASE + 999), capture_output=True,
                               timeout=30, preexec_fn=limiter(Limits()))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap failed to start: {exc}"
    if probe.returncode != 0:
        error = probe.stderr.decode(errors="replace").strip()
        return f"bwrap cannot create a sandbox here: {error[:300]}" + userns_advice(error)
    return None


def userns_advice(error: str) -> str:
    """What to change when bwrap, run by a user other than root, may not create a user namespace (empty when
    ``error`` is another failure)."""
    if os.geteuid() == 0 or not re.search(r"uid map|user namespace|new namespace|Operation not permitted|"
                                          r"Permission denied", error):
        return ""
    return ("; unprivileged user namespaces are blocked on this machine. Ubuntu 23.10 and later: allow them "
            "for bubblewrap with an AppArmor profile (/etc/apparmor.d/bwrap: `abi <abi/4.0>, include "
            "<tunables/global>, profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`, then "
            "`apparmor_parser -r /etc/apparmor.d/bwrap`) or for everyone with `sysctl "
            "kernel.apparmor_restrict_unprivileged_userns=0`; Debian 10 and older: `sysctl "
            "kernel.unprivileged_userns_clone=1`; any: user.max_user_namespaces above 0. Or grade as root")


def _ro_paths() -> list[Path]:
    paths = [Path(sys.base_prefix).resolve(), Path(sys.prefix)]
    if Path(sys.prefix).resolve() != Path(sys.prefix):
        # reached through a symlink (the hub's students' environment, /opt/model-evaluation -> one build of
        # /opt/model-evaluation.d/): its .pth files name the real folder, so that is bound too
        paths.append(Path(sys.prefix).resolve())
    real_python = Path(sys.executable).resolve()
    if not any(real_python.is_relative_to(p) for p in paths):
        paths.append(real_python.parent.parent)
    paths += [REPO / "helpers", REPO / "data"]
    return paths


def command(argv: list[str], uid: int, limits: Limits | None = None, worker: Path | None = None) -> list[str]:
    """The bwrap command line running ``argv`` in a fresh sandbox."""
    limits = limits or Limits()
    root = os.geteuid() == 0
    cmd = [BWRAP, "--die-with-parent", "--new-session", "--unshare-ipc", "--unshare-pid", "--unshare-net",
           "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
    if not root:
        cmd += ["--unshare-user"]
    for target in ("/usr",):
        cmd += ["--ro-bind", target, target]
    for link in ("bin", "sbin", "lib", "lib64", "lib32", "libx32"):
        if os.path.islink(f"/{link}"):
            cmd += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
    cmd += ["--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev",
            "--perms", "1777", "--size", str(limits.tmpfs), "--tmpfs", "/tmp"]
    made = {"/", "/usr", "/etc", "/proc", "/dev", "/tmp"}
    mounts = [(p, p) for p in _ro_paths()]
    if worker is not None:
        mounts.append((worker, Path(GRADER_DIR) / worker.name))
    for source, target in mounts:
        for parent in reversed(Path(target).parents):
            if str(parent) not in made and not str(parent).startswith("/usr"):
                cmd += ["--perms", "0755", "--dir", str(parent)]
                made.add(str(parent))
        cmd += ["--ro-bind", str(source), str(target)]
        made.add(str(target))
    cmd += ["--perms", "0755", "--dir", "/home", "--perms", "1777", "--size", str(limits.tmpfs),
            "--tmpfs", WORKDIR, "--chdir", WORKDIR,
            "--setenv", "HOME", "/tmp", "--setenv", "XDG_CACHE_HOME", "/tmp/.cache", "--setenv", "MPLCONFIGDIR", "/tmp/matplotlib",
            "--setenv", "MPLBACKEND", "Agg", "--setenv", "OPENBLAS_NUM_THREADS", "1",
            "--setenv", "OMP_NUM_THREADS", "1", "--setenv", "MKL_NUM_THREADS", "1",
            "--setenv", "PYTHONHASHSEED", "0", "--setenv", "PATH", f"{sys.prefix}/bin:/usr/bin:/bin",
            "--setenv", "JOBLIB_MULTIPROCESSING", "0", "--setenv", "LANG", "C.UTF-8"]
    for var in ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONUSERBASE", "JUPYTER_CONFIG_DIR", "IPYTHONDIR", "VIRTUAL_ENV"):
        cmd += ["--unsetenv", var]
    cmd += ["--setenv", "IPYTHONDIR", "/tmp/ipython"]
    if root:   # drop to an unprivileged user of the sandbox's own (no capabilities left)
        cmd += [SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
                "--bounding-set=-all", "--no-new-privs"]
    return cmd + list(argv)


def limiter(limits: Limits, cgroup: "Cgroup | None" = None):
    """preexec_fn setting the resource limits (inherited through bwrap by everything inside)."""
    def apply():
        if cgroup is not None:
            cgroup.join()
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size, limits.file_size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 5))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
        if os.geteuid() != 0:   # counted per user: the teacher's own processes count too
            current = len([p for p in os.listdir("/proc") if p.isdigit()])
            resource.setrlimit(resource.RLIMIT_NPROC, (current + limits.processes,) * 2)
        else:                   # root is exempt; the limit binds the sandbox's uid after setpriv
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    return apply


# --------------------------------------------------------------------------- cgroups (v1)

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _own_cgroup(controller: str) -> Path:
    """This process's cgroup folder of a v1 controller (new groups nest in it, within its limits)."""
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controller in controllers.split(","):
                return CGROUP_ROOT / controller / path.lstrip("/")
    except (OSError, ValueError):
        pass
    return CGROUP_ROOT / controller


def cgroups_available() -> str | None:
    """None when each sandbox can get its own memory and pids cgroup (v1, as root), else why not."""
    if os.geteuid() != 0:
        return "not root"
    for controller in ("memory", "pids"):
        base = _own_cgroup(controller)
        if not (base / "cgroup.procs").is_file():
            return f"no cgroup v1 {controller} controller at {CGROUP_ROOT / controller}"
        probe = base / f"grading-probe-{os.getpid()}"
        try:
            probe.mkdir()
            probe.rmdir()
        except OSError as exc:
            return f"cannot create a {controller} cgroup ({exc.strerror})"
    return None


def remove_stale_cgroups() -> None:
    """Cgroups left by a grading process that was killed (grading-PID-...): emptied and removed."""
    for controller in ("memory", "pids"):
        for path in _own_cgroup(controller).glob("grading-*"):
            try:
                pid = int(path.name.split("-")[1])
                os.kill(pid, 0)
                continue   # its grading is still running
            except (ValueError, IndexError):
                continue
            except ProcessLookupError:
                pass
            except PermissionError:
                continue
            group = Cgroup.__new__(Cgroup)
            group.dirs = [path]
            group.close()


class Cgroup:
    """A memory cgroup (limit on memory and swap, OOM killer off: the grader stops it) and a pids
    cgroup, holding one sandbox; ``close`` kills every process in them and removes them."""

    def __init__(self, name: str, memory: int, processes: int):
        self.dirs = []
        self.memory = memory
        for controller in ("memory", "pids"):
            path = _own_cgroup(controller) / name
            path.mkdir()
            self.dirs.append(path)
        mem, pids = self.dirs
        (mem / "memory.limit_in_bytes").write_text(str(memory))
        if (mem / "memory.memsw.limit_in_bytes").is_file():
            (mem / "memory.memsw.limit_in_bytes").write_text(str(memory))
        (mem / "memory.oom_control").write_text("1")   # over the cap, processes wait to be stopped
        (pids / "pids.max").write_text(str(processes))

    def join(self) -> None:
        """Put the calling process (a sandbox before exec) in the cgroups."""
        for path in self.dirs:
            with open(path / "cgroup.procs", "w") as handle:
                handle.write(str(os.getpid()))

    def over_memory(self) -> bool:
        """True while its processes wait at the memory cap (the grader then stops them)."""
        try:
            return "under_oom 1" in (self.dirs[0] / "memory.oom_control").read_text()
        except OSError:
            return False

    def pids(self) -> list[int]:
        found = set()
        for path in self.dirs:
            try:
                found.update(int(p) for p in (path / "cgroup.procs").read_text().split())
            except (OSError, ValueError):
                pass
        return sorted(found)

    def kill(self, timeout: float = 10) -> None:
        """SIGKILL every process in the cgroups until none is left."""
        import time
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.02)

    def close(self) -> None:
        self.kill()
        for path in self.dirs:
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    import time
                    time.sleep(0.05)


def unsandboxed_command(argv: list[str]) -> list[str]:
    """--no-sandbox: the same worker without isolation (resource limits still apply)."""
    return list(argv)


def popen(argv: list[str], uid: int, limits: Limits, worker: Path, sandboxed: bool = True,
          cgroup: Cgroup | None = None) -> subprocess.Popen:
    cmd = command(argv, uid, limits, worker) if sandboxed else unsandboxed_command(argv)
    env = None
    if not sandboxed:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "IPYTHON"))}
        env.update(MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True, preexec_fn=limiter(limits, cgroup), env=env,
                            cwd="/tmp" if not sandboxed else None)


def kill(process: subprocess.Popen) -> None:
    """Kill the sandbox: bwrap's session, hence its PID namespace and everything in it."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    for stream in (process.stdin, process.stdout):
        try:
            if stream:
                stream.close()
        except OSError:
            pass
