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

Settings a class changes come from the environment (defaults in brackets):

    COURSE_HUB_STUDENTS   Unix group of the students          [course-students]
    COURSE_HUB_TEACHERS   Unix group of the teachers (admins)  [course-teachers]
    COURSE_EXCHANGE       nbgrader's exchange folder           [/srv/nbgrader/exchange]
    COURSE_VENV           the environment every server runs    [.venv of this repository]

Every Unix user must be able to run that environment's Python: build ``.venv``
from a system Python (``make install PYTHON=/usr/bin/python3.11``) in a folder
everyone can read (e.g. /opt/model-evaluation), or, where ``.venv``'s Python is
private (pyenv's under /root, as on the project's CI), ``make hub-env`` puts
the same installed packages on /usr/bin/python3.11 in build/hub/venv; then
``COURSE_VENV=build/hub/venv``.

The hub listens on 127.0.0.1:8000 only: put a TLS reverse proxy (nginx, Caddy)
in front of it for a class, or change ``bind_url``. Its database and cookie
secret are written to the working directory (run it from e.g. /srv/jupyterhub).
Command-line options override this file (the test gives random free ports).
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub's config loader defines it)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VENV = Path(os.environ.get("COURSE_VENV", REPO / ".venv"))   # build/hub/venv where .venv's Python is private
PROXY = REPO / "build" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"   # make hub-proxy

STUDENTS = os.environ.get("COURSE_HUB_STUDENTS", "course-students")
TEACHERS = os.environ.get("COURSE_HUB_TEACHERS", "course-teachers")
EXCHANGE = os.environ.get("COURSE_EXCHANGE", "/srv/nbgrader/exchange")

# -- network: loopback only; the proxy is configurable-http-proxy pinned by hub/package-lock.json
c.JupyterHub.bind_url = "http://127.0.0.1:8000"
c.JupyterHub.hub_ip = "127.0.0.1"
c.ConfigurableHTTPProxy.command = [str(PROXY)]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:8001"

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
    "JUPYTER_CONFIG_PATH": str(HERE / "jupyter"),
    "COURSE_EXCHANGE": EXCHANGE,
}
# stop every single-user server and the proxy when the hub stops (the defaults, said explicitly)
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
