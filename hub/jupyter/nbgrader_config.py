"""nbgrader's exchange for the course's hub: read by every single-user server and `nbgrader` command
the hub starts (hub/jupyterhub_config.py puts this folder on JUPYTER_CONFIG_PATH).

The exchange is one folder all accounts share (created once by root:
``mkdir -p /srv/nbgrader/exchange && chmod 1777 /srv/nbgrader/exchange``);
nbgrader sets the modes inside it: students can drop submissions in
``inbound/`` but not list it, and can read only their own feedback.
"""

import os

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "model-evaluation"   # tools/grading's COURSE_ID
c.Exchange.root = os.environ.get("COURSE_EXCHANGE", "/srv/nbgrader/exchange")
