"""Runs a command in a pseudo-terminal and plays a script against it.

Usage: pty_session.py STEPS_JSON COMMAND... ; STEPS_JSON is a list of ["expect", text] (wait until
the output contains text, consuming it) and ["send", text] (type text). Prints everything the
command wrote, exits with its exit code (99 on a timeout).
"""
import json
import os
import pty
import select
import sys
import time

steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])

transcript = b""
unread = b""


def read_some(deadline):
    global transcript, unread
    ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
    if not ready:
        return False
    try:
        data = os.read(fd, 4096)
    except OSError:
        data = b""
    if not data:
        return None
    transcript += data
    unread += data
    return True


for kind, text in steps:
    if kind == "send":
        os.write(fd, text.encode())
        continue
    deadline = time.time() + 30
    while text.encode() not in unread:
        got = read_some(deadline)
        if not got:
            sys.stdout.write(transcript.decode(errors="replace"))
            sys.stdout.write(f"\n[pty_session: {'timeout' if got is False else 'exit'} waiting for {text!r}]\n")
            if got is False:
                os.kill(pid, 9)
            sys.exit(99)
    unread = unread[unread.index(text.encode()) + len(text.encode()):]

deadline = time.time() + 30
while read_some(deadline):
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(transcript.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
