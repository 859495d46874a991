"""Create the class's Unix accounts for the hub from the roster, and remove them at the end of term.

    sudo .venv/bin/python tools/hub_accounts.py create --roster roster.csv [--group course-students]
         [--passwords build/hub/passwords.csv]
    sudo .venv/bin/python tools/hub_accounts.py remove --roster roster.csv [--group course-students]

(``make hub-accounts ROSTER=...``, ``make hub-accounts-remove ROSTER=...``.) The roster is the one
``make grade`` reads (tools/grading/export.py: the course's CSV, Canvas's gradebook export or
Moodle's participants download); each student's account is named by their submission name
(``submission``), else their SIS Login ID or Moodle username, else the part of their e-mail before
the @. ``create`` makes each account (``useradd``, the students' group, a private home, mode 700)
with a random password, and writes the passwords to ``--passwords`` (mode 600) for the teacher
to hand out; an existing account is left as it is (said). The hub's PAM login cannot ask for a new
password, so passwords are not expired (``chage -d 0`` would lock students out). Under the service
(hub/jupyterhub.service, ``ProtectSystem=full``) /etc is read-only to students' servers, so ``passwd``
in their terminal fails: the teacher resets a password as root (``passwd NAME``). ``remove`` deletes the accounts and homes of
the roster's students, and only those in the students' group: back up first (``make hub-backup``).
"""

from __future__ import annotations

import argparse
import csv
import grp
import os
import pwd
import re
import secrets
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from grading import read_roster  # noqa: E402  (the roster of make grade)

sys.path.pop(0)

# a Unix account name useradd accepts everywhere (Debian's NAME_REGEX, lower case)
ACCOUNT = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


def account_names(roster: list[dict[str, str]]) -> list[tuple[str, dict[str, str]]]:
    """(account, roster row) of every student: the submission name, else the SIS Login ID or Moodle
    username, else the e-mail's user part. Raises ValueError naming every row without a usable name."""
    accounts, problems = [], []
    for row in roster:
        email = row.get("email", "")
        name = (row.get("submission") or row.get("sis_login_id") or row.get("username")
                or (email.partition("@")[0] if "@" in email else "")).strip().lower()
        if not ACCOUNT.match(name):
            problems.append(f"line {row['line']} ({row.get('name') or 'no name'}): {name!r} is not a Unix account "
                            "name (lower-case letters, digits, _ and -, 32 at most, not starting with a digit)")
        else:
            accounts.append((name, row))
    names = [a for a, _ in accounts]
    problems += [f"account {n!r} twice in the roster" for n in sorted({n for n in names if names.count(n) > 1})]
    if problems:
        raise ValueError("roster: " + "; ".join(problems))
    return accounts


def exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def create(roster: list[dict[str, str]], group: str, passwords: Path) -> list[str]:
    """Make the accounts; write the new ones' passwords; return the accounts made."""
    accounts = account_names(roster)
    try:
        grp.getgrnam(group)
    except KeyError:
        subprocess.run(["groupadd", group], check=True)
    made, lines = [], []
    for name, row in accounts:
        if exists(name):
            print(f"{name}: the account exists; left as it is")
            continue
        comment = re.sub(r"[:,\n]", " ", row.get("name", ""))[:60]
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", "--gid", group, "--comment", comment, name],
                       check=True)
        home = Path(pwd.getpwnam(name).pw_dir)
        home.chmod(0o700)
        password = secrets.token_urlsafe(9)
        subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True)
        made.append(name)
        lines.append([name, row.get("name", ""), row.get("email", ""), password])
    if lines:
        passwords.parent.mkdir(parents=True, exist_ok=True)
        new = not passwords.exists()
        fd = os.open(passwords, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            if new:
                writer.writerow(["account", "name", "email", "password"])
            writer.writerows(lines)
        os.chmod(passwords, 0o600)
        print(f"{len(made)} account(s) made; their passwords are in {passwords} (mode 600): hand them out, then "
              "delete the file")
    return made


def remove(roster: list[dict[str, str]], group: str) -> list[str]:
    """Delete the roster students' accounts and homes (only accounts whose group is ``group``)."""
    gid = grp.getgrnam(group).gr_gid
    removed = []
    for name, _ in account_names(roster):
        if not exists(name):
            print(f"{name}: no such account")
            continue
        if pwd.getpwnam(name).pw_gid != gid:
            print(f"{name}: not in the group {group}; left as it is")
            continue
        subprocess.run(["pkill", "--signal", "KILL", "--uid", name], check=False)   # their servers and kernels
        subprocess.run(["userdel", "--remove", name], check=True, capture_output=True)
        removed.append(name)
    print(f"{len(removed)} account(s) removed")
    return removed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["create", "remove"])
    parser.add_argument("--roster", type=Path, required=True, help="the class roster (as for make grade)")
    parser.add_argument("--group", default=os.environ.get("COURSE_HUB_STUDENTS", "course-students"),
                        help="the students' Unix group (default: %(default)s)")
    parser.add_argument("--passwords", type=Path, default=Path("build/hub/passwords.csv"),
                        help="where create writes the new accounts' passwords (default: %(default)s)")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        raise SystemExit("accounts are made and removed as root: sudo")
    try:
        roster = read_roster(args.roster)
        create(roster, args.group, args.passwords) if args.command == "create" else remove(roster, args.group)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None


if __name__ == "__main__":
    main()
