"""JupyterHub for a class taking the Model Evaluation course (tests/test_hub.py runs this file).

    sudo .venv/bin/jupyterhub -f hub/jupyterhub_config.py     (or: sudo make hub)

One machine, one Unix account per person (The Littlest JupyterHub's model):
the hub runs as root, logs people in with their Unix password (PAM) and starts
each person's JupyterLab as that person's own Unix user, in their home folder,
so students cannot read each other's files. The single-user server is
``jupyterhub-singleuser`` of the course's pinned ``.venv`` (``make install``),
so every student runs exactly the locked stack, ``helpers`` included. Every
account in the students' or the teachers' Unix group may log in; teachers are
the hub's admins. nbgrader's exchange (a shared folder, ``hub/jupyter/nbgrader_config.py``)
carries assignments, submissions and feedback between their accounts.

Privacy: the instructor clone (solutions, hidden tests, the gradebook) is the
teacher's and nobody else's (``chmod 700``). Students' servers run from the
students' environment, ``make hub-student-env`` (default /opt/model-evaluation,
root-owned, world-readable): the locked packages, a copy of ``helpers`` and
``data``, nbgrader's exchange settings, never a notebook. The hub's own state
(its database, cookie secret and the proxy's pid file) lives in its state
folder (default /srv/jupyterhub, mode 0700), never in the clone.

Settings a class changes come from the environment (defaults in brackets):

    COURSE_HUB_STUDENTS   Unix group of the students          [course-students]
    COURSE_HUB_TEACHERS   Unix group of the teachers (admins)  [course-teachers]
    COURSE_EXCHANGE       nbgrader's exchange folder           [/srv/nbgrader/exchange]
    COURSE_STUDENT_ENV    what every server runs               [/opt/model-evaluation]
    COURSE_HUB_STATE      the hub's database, secret, pid file [/srv/jupyterhub]
    COURSE_HUB_URL        where the hub listens                [http://127.0.0.1:8000]
    COURSE_HUB_API_URL    the proxy's API                      [http://127.0.0.1:8001]
    COURSE_HUB_PORT       the hub's own port (for the proxy)   [8081]
    COURSE_IDLE_MINUTES   stop a server idle this long (0: never) [60]

The hub listens on 127.0.0.1:8000 only, behind nginx for TLS
(hub/nginx-jupyterhub.conf) and run by systemd (hub/jupyterhub.service).
Command-line options override this file (the test gives random free ports).
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub's config loader defines it)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
STUDENT_ENV = Path(os.environ.get("COURSE_STUDENT_ENV", "/opt/model-evaluation"))   # make hub-student-env
VENV = STUDENT_ENV / "venv"
STATE = Path(os.environ.get("COURSE_HUB_STATE", "/srv/jupyterhub"))
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
PROXY = REPO / "build" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"   # make hub-proxy

STUDENTS = os.environ.get("COURSE_HUB_STUDENTS", "course-students")
TEACHERS = os.environ.get("COURSE_HUB_TEACHERS", "course-teachers")
EXCHANGE = os.environ.get("COURSE_EXCHANGE", "/srv/nbgrader/exchange")

# -- network: loopback only; the proxy is configurable-http-proxy pinned by hub/package-lock.json
c.JupyterHub.bind_url = os.environ.get("COURSE_HUB_URL", "http://127.0.0.1:8000")
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("COURSE_HUB_PORT", "8081"))
c.ConfigurableHTTPProxy.command = [str(PROXY)]
c.ConfigurableHTTPProxy.api_url = os.environ.get("COURSE_HUB_API_URL", "http://127.0.0.1:8001")

# -- the hub's state in its own folder, never in the clone or the working directory
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")

# -- who logs in: local Unix accounts with their password (PAM), by group
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.allowed_groups = {STUDENTS, TEACHERS}
c.PAMAuthenticator.admin_groups = {TEACHERS}
c.PAMAuthenticator.create_system_users = False   # accounts are made by the class's admin (useradd)

# -- what runs for each person: the course's locked environment, as their own Unix user, in their home
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [str(VENV / "bin" / "jupyterhub-singleuser")]
c.Spawner.ip = "127.0.0.1"
c.Spawner.default_url = "/lab"
c.Spawner.notebook_dir = "~"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {
    # the venv's programs (nbgrader, python) first in a terminal; nbgrader's exchange settings
    "PATH": f"{VENV / 'bin'}:/usr/local/bin:/usr/bin:/bin",
    "JUPYTER_CONFIG_PATH": str(STUDENT_ENV / "jupyter"),
    "COURSE_EXCHANGE": EXCHANGE,
}
# -- idle culling (jupyterhub-idle-culler, a hub-managed service): a server with no activity for
# COURSE_IDLE_MINUTES (default 60; 0: never) is stopped, which frees its memory; the student's files stay
IDLE_MINUTES = int(os.environ.get("COURSE_IDLE_MINUTES", "60"))
if IDLE_MINUTES > 0:
    import sys

    c.JupyterHub.load_roles = [{
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }]
    c.JupyterHub.services = [{
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE_MINUTES * 60}",
                    f"--cull-every={max(60, IDLE_MINUTES * 6)}"],
    }]
# stop every single-user server and the proxy when the hub stops (the defaults, said explicitly)
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
