#!/usr/bin/env python3
"""Load on `grundy serve` over loopback: simulated teams hold the live event
stream open, read the scoreboard and their page, and submit a mix of
accepted, wrong and too slow programs on a catalog problem. Prints request
latencies (p50/p99), submission-to-verdict latencies, the server's CPU (in
all and by part: web side, judging, password checks) and memory, and whether every submission was stored and judged; then the same
load with judging paused, to see what judging costs the web side.

Python standard library only. Bounded: every phase has a duration, every
wait a deadline. See bench/serve_load.sh for the usage.
"""

import argparse
import csv
import http.client
import io
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

PROBLEM = "nim"
SOURCES = {  # kind -> file of the catalog problem's own submissions
    "AC": "accepted/solution.cpp",
    "WA": "wrong_answer/misere_rule.c",
    "TLE": "time_limit_exceeded/game_tree.py",
}
MIX = ["AC"] * 5 + ["WA"] * 3 + ["TLE"] * 2


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


class Conn:
    """One keep-alive connection with a cookie jar."""

    def __init__(self, port):
        self.port = port
        self.cookies = {}
        self.c = None

    def request(self, method, path, body=None, headers=None):
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            if self.c is None:
                self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
            try:
                self.c.request(method, path, body=body, headers=h)
                r = self.c.getresponse()
                data = r.read()
                break
            except (http.client.HTTPException, OSError):
                self.c.close()
                self.c = None
                if attempt:
                    raise
        for k, v in r.getheaders():
            if k.lower() == "set-cookie":
                pair = v.split(";")[0]
                name, _, value = pair.partition("=")
                if value and "Max-Age=0" not in v:
                    self.cookies[name] = value
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), data


def csrf_of(html):
    m = re.search(rb'name="csrf" value="([^"]+)"', html)
    return m.group(1).decode() if m else None


def login(conn, user, password):
    _, _, page = conn.request("GET", "/login")
    token = csrf_of(page)
    body = f"csrf={token}&login={user}&password={password}"
    st, _, _ = conn.request(
        "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"}
    )
    if st != 303:
        raise SystemExit(f"{user} cannot sign in ({st})")


def multipart(fields, file_name, data):
    b = "----grundy-load-boundary"
    out = io.BytesIO()
    for k, v in fields.items():
        out.write(f'--{b}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode())
    out.write(
        f'--{b}\r\nContent-Disposition: form-data; name="file"; filename="{file_name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
    )
    out.write(data + b"\r\n")
    out.write(f"--{b}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={b}"


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.lat = {"scoreboard": [], "team page": [], "submit POST": [], "status poll": [], "verdict": []}
        self.errors = []
        self.submitted = []  # (id, kind)

    def add(self, what, seconds):
        with self.lock:
            self.lat[what].append(seconds)

    def error(self, text):
        with self.lock:
            self.errors.append(text)


def watch(port, cookies, pending, stats, stop):
    """The team's live stream: when told a submission changed, asks its
    status; a judged one records its submission-to-verdict time."""
    try:
        follow(port, cookies, pending, stats, stop)
    except (OSError, http.client.HTTPException, ValueError):
        if not stop.is_set():
            stats.error("an event stream broke off")


def follow(port, cookies, pending, stats, stop):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    c.request("GET", "/events", headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
    r = c.getresponse()
    status = Conn(port)
    status.cookies = dict(cookies)
    event = None
    while not stop.is_set():
        try:
            line = r.fp.readline()
        except OSError:
            break
        if not line:
            break
        line = line.decode(errors="replace").strip()
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:") and event in ("submission", "reload"):
            for sid, t0 in list(pending.items()):
                t1 = time.monotonic()
                st, _, body = status.request("GET", f"/submissions/{sid}/status")
                stats.add("status poll", time.monotonic() - t1)
                if st == 200 and json.loads(body).get("done"):
                    stats.add("verdict", time.monotonic() - t0)
                    pending.pop(sid, None)
    c.close()


def team(port, user, password, sources, args, stats, stop, t_end):
    conn = Conn(port)
    login(conn, user, password)
    pending = {}
    threading.Thread(
        target=watch, args=(port, dict(conn.cookies), pending, stats, stop), daemon=True
    ).start()
    now = time.monotonic()
    span = max(1.0, t_end - now)
    submit_at = sorted(now + random.random() * span for _ in range(args.submissions))
    next_page = now + random.random() * args.page_every
    while time.monotonic() < t_end:
        t = time.monotonic()
        if submit_at and t >= submit_at[0]:
            submit_at.pop(0)
            t0 = time.monotonic()
            st, _, page = conn.request("GET", "/team")
            stats.add("team page", time.monotonic() - t0)
            kind = random.choice(MIX)
            name, data = sources[kind]
            body, ctype = multipart({"csrf": csrf_of(page) or "", "problem": PROBLEM}, name, data)
            t0 = time.monotonic()
            st, h, _ = conn.request("POST", "/submit", body, {"Content-Type": ctype})
            t1 = time.monotonic()
            stats.add("submit POST", t1 - t0)
            if st != 303:
                stats.error(f"{user}: submit {st}")
                continue
            sid = int(h["location"].rsplit("/", 1)[1])
            pending[sid] = t1
            with stats.lock:
                stats.submitted.append((sid, kind))
        elif t >= next_page:
            next_page = t + args.page_every
            t0 = time.monotonic()
            st, _, _ = conn.request("GET", "/scoreboard/table")
            stats.add("scoreboard", time.monotonic() - t0)
            if st != 200:
                stats.error(f"{user}: scoreboard {st}")
            t0 = time.monotonic()
            st, _, _ = conn.request("GET", "/team")
            stats.add("team page", time.monotonic() - t0)
        else:
            wake = min([next_page] + submit_at[:1])
            time.sleep(max(0.0, min(wake - time.monotonic(), 1.0)))


def proc_cpu(pid):
    """(own CPU seconds, children's CPU seconds) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tck = os.sysconf("SC_CLK_TCK")
    own = (int(fields[11]) + int(fields[12])) / tck
    kids = (int(fields[13]) + int(fields[14])) / tck
    return own, kids


# What spends the server's CPU, by thread name (Linux keeps 15 bytes of it;
# a thread started without a name has its creator's, so the threads a judge
# worker starts count as judging).
PARTS = [
    ("web", ("web", "tokio-", "grundy-serve")),  # the runtime's workers and blocking pool; main
    ("judging", ("judge-", "grundy-zygotes")),  # the judge workers and the sandbox's spawner
    ("passwords", ("password-",)),  # argon2 checks of sign-ins
]


def part_of(comm):
    for part, prefixes in PARTS:
        if comm.startswith(prefixes):
            return part
    return "other"


def task_ticks(pid):
    """{thread id: (name, CPU clock ticks)} of a process's threads now."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                text = f.read()
        except OSError:
            continue  # ended meanwhile
        comm = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        out[tid] = (comm, int(fields[11]) + int(fields[12]))
    return out


class ThreadCpu:
    """The server's CPU per part (see PARTS), from its threads' counters
    read every `period` seconds: threads come and go (the blocking pool's),
    so each one's CPU since the last reading is added to its part; a thread
    first seen counts from zero. What a thread spent between its last
    reading and its end is missed: the process total is printed beside."""

    def __init__(self, pid, period=0.5):
        self.pid, self.period = pid, period
        self.ticks = {}
        self.by_name = {}
        self.last = task_ticks(pid)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def read(self):
        now = task_ticks(self.pid)
        for tid, (comm, t) in now.items():
            before = self.last.get(tid)
            spent = t - before[1] if before and before[1] <= t else t
            self.ticks[part_of(comm)] = self.ticks.get(part_of(comm), 0) + spent
            self.by_name[comm] = self.by_name.get(comm, 0) + spent
        self.last = now

    def run(self):
        while not self.stop.wait(self.period):
            self.read()

    def end(self):
        """Stops and takes a last reading; {part: CPU seconds}."""
        self.stop.set()
        self.thread.join()
        self.read()
        tck = os.sysconf("SC_CLK_TCK")
        return {k: v / tck for k, v in self.ticks.items()}


def proc_mem(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                out[k] = int(v.split()[0]) / 1024.0
    return out


def sample(pid, db, peaks, stop):
    """Every second: the server's threads, open database files and
    memory, and the size of the database's write-ahead log; keeps peaks."""
    while not stop.wait(1.0):
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    k, _, v = line.partition(":")
                    if k in ("Threads", "VmRSS"):
                        n = int(v.split()[0])
                        peaks[k] = max(peaks.get(k, 0), n)
            fds = 0
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}").startswith(db):
                        fds += 1
                except OSError:
                    pass
            peaks["db files"] = max(peaks.get("db files", 0), fds)
            wal = os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0
            peaks["wal"] = max(peaks.get("wal", 0), wal)
        except OSError:
            return


def phase(name, port, pid, people, sources, args, stats, db):
    stop = threading.Event()
    t_end = time.monotonic() + args.minutes * 60
    stats.peaks = {}
    threading.Thread(target=sample, args=(pid, db, stats.peaks, stop), daemon=True).start()
    load0 = os.getloadavg()
    parts = ThreadCpu(pid)
    cpu0, wall0, ms0 = proc_cpu(pid), time.monotonic(), int(time.time() * 1000)
    threads = [
        threading.Thread(target=team, args=(port, u, p, sources, args, stats, stop, t_end), daemon=True)
        for u, p in people
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, t_end - time.monotonic()) + 120)
    cpu1, wall1 = proc_cpu(pid), time.monotonic()
    stats.parts = {k: v / (wall1 - wall0) * 100 for k, v in parts.end().items()}
    stats.load = (load0, os.getloadavg())
    stop.set()
    own = (cpu1[0] - cpu0[0]) / (wall1 - wall0) * 100
    # The judged programs' CPU time as the judge measured it (the runs are
    # reaped by the sandbox, so the server's children times miss them).
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    ran = con.execute("SELECT IFNULL(SUM(time_ms), 0), COUNT(*) FROM runs WHERE at_ms BETWEEN ? AND ?",
                      (ms0, int(time.time() * 1000))).fetchone()
    con.close()
    stats.runs = ran[1]
    kids = ran[0] / 1000.0 / (wall1 - wall0) * 100
    return own, kids


def report(name, stats, own, kids, mem):
    print(f"\n== {name}")
    for what, xs in stats.lat.items():
        if xs:
            print(f"{what:>12}: n={len(xs):5d}  p50={pct(xs, 50) * 1000:8.1f} ms  p99={pct(xs, 99) * 1000:8.1f} ms")
        else:
            print(f"{what:>12}: n=    0")
    print(f"server CPU: {own:.1f} % of one core (its own threads); judged programs: {kids:.1f} % "
          f"({getattr(stats, 'runs', 0)} test runs; their CPU time as measured)")
    parts = getattr(stats, "parts", {})
    if parts:
        named = "  ".join(f"{k} {parts.get(k, 0.0):.1f} %" for k in [p for p, _ in PARTS] + ["other"])
        print(f"server CPU by part (% of one core): {named}; sum {sum(parts.values()):.1f} %, "
              f"process total {own:.1f} % (the rest: threads that ended between two readings, "
              f"such as a judging's own)")
    print(f"server memory: RSS {mem.get('VmRSS', 0):.0f} MiB, peak {mem.get('VmHWM', 0):.0f} MiB")
    p = getattr(stats, "peaks", {})
    print(f"server peaks: {p.get('Threads', 0)} threads, {p.get('db files', 0)} open database files, "
          f"write-ahead log {p.get('wal', 0) / 2**20:.1f} MiB")
    if hasattr(stats, "load"):
        (a0, _, _), (a1, b1, _) = stats.load
        print(f"machine load average: {a0:.1f} at the start, {a1:.1f} (1 min) / {b1:.1f} (5 min) at the end")
    if stats.errors:
        print(f"errors: {len(stats.errors)} (first: {stats.errors[:3]})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grundy", required=True)
    ap.add_argument("--problems", required=True)
    ap.add_argument("--teams", type=int, default=300)
    ap.add_argument("--submissions", type=int, default=10, help="per team per phase")
    ap.add_argument("--minutes", type=float, default=5.0, help="per phase")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--page-every", type=float, default=10.0, help="seconds between a team's page reads")
    ap.add_argument("--drain", type=float, default=600.0, help="seconds to wait for the queue to empty")
    ap.add_argument("--quiet-runs", type=int, default=5)
    ap.add_argument("--keep-db", metavar="FILE", help="copy the contest database here at the end")
    ap.add_argument("--no-paused", action="store_true", help="skip the phase without judging")
    ap.add_argument("--paused-only", action="store_true",
                    help="only the phase without judging (the web side alone, e.g. to profile it)")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="grundy-load-")
    try:
        run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args, work):
    logins = [f"t{i:03d}" for i in range(1, args.teams + 1)]
    contest = os.path.join(work, "load.yaml")
    with open(contest, "w") as f:
        f.write(f"title: load\nproblems: [{PROBLEM}]\nstart: now-10m\nduration: 5h\n")
        f.write("teams: [" + ", ".join(logins) + "]\n")
    people = os.path.join(work, "people.csv")
    with open(people, "w") as f:
        f.write("login,name,role\n" + "".join(f"{l},{l},team\n" for l in logins) + "judge,Judge,jury\n")
    db = os.path.join(work, "load.sqlite")
    cache = os.path.join(work, "cache")
    out = subprocess.run(
        [args.grundy, "serve", "accounts", contest, "--csv", people, "--db", db],
        check=True, capture_output=True, text=True,
    ).stdout
    pw = {row[0]: row[-1] for row in csv.reader(out.splitlines()[1:]) if row}
    sources = {}
    for kind, rel in SOURCES.items():
        path = os.path.join(args.problems, PROBLEM, "submissions", rel)
        with open(path, "rb") as f:
            sources[kind] = (os.path.basename(rel), f.read())
    server = subprocess.Popen(
        [args.grundy, "serve", contest, "--db", db, "--port", "0", "--jobs", str(args.jobs),
         "--problems", args.problems, "--cache", cache],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        port = None
        deadline = time.monotonic() + 600
        while port is None and time.monotonic() < deadline:
            line = server.stdout.readline()
            if not line:
                raise SystemExit("the server stopped before listening")
            m = re.match(r"grundy serve: http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        measure(args, port, server.pid, pw, sources, db, logins)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def measure(args, port, pid, pw, sources, db, logins):
    print(f"grundy serve load: {args.teams} teams, {args.submissions} submissions each per phase, "
          f"{args.minutes} min per phase, --jobs {args.jobs}, problem {PROBLEM} "
          f"(mix {'/'.join(MIX)}), pages every {args.page_every} s per team; server pid {pid}",
          flush=True)
    people = [(l, pw[l]) for l in logins]
    if args.paused_only:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        paused(args, port, pid, pw, people, sources, db, con)
        return
    # Submission to verdict with an empty queue (the first compiles).
    quiet = Stats()
    c = Conn(port)
    login(c, logins[0], pw[logins[0]])
    for i in range(args.quiet_runs):
        _, _, page = c.request("GET", "/team")
        name, data = sources["AC"]
        body, ctype = multipart({"csrf": csrf_of(page), "problem": PROBLEM}, name, data)
        st, h, _ = c.request("POST", "/submit", body, {"Content-Type": ctype})
        t0 = time.monotonic()
        sid = int(h["location"].rsplit("/", 1)[1])
        while True:
            _, _, s = c.request("GET", f"/submissions/{sid}/status")
            if json.loads(s).get("done"):
                quiet.add("verdict", time.monotonic() - t0)
                break
            if time.monotonic() - t0 > 300:
                quiet.error(f"quiet {sid} not judged in 300 s")
                break
            time.sleep(0.02)
    v = quiet.lat["verdict"]
    tests = json.loads(c.request("GET", f"/api/contests/load/problems/{PROBLEM}")[2]).get("test_data_count", "?")
    print(f"\nempty queue, {PROBLEM} ({tests} tests), AC in C++: submission to verdict "
          f"first (compiles) {v[0] * 1000:.0f} ms; the next {len(v) - 1}: p50 {pct(v[1:], 50) * 1000:.0f} ms, "
          f"max {max(v[1:] or [0]) * 1000:.0f} ms (20 ms polling)")

    loaded = Stats()
    own, kids = phase("judging", port, pid, people, sources, args, loaded, db)
    report("with judging (--jobs %d)" % args.jobs, loaded, own, kids, proc_mem(pid))
    # Nothing lost: every submission stored, each judged once when the queue empties.
    deadline = time.monotonic() + args.drain
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    while time.monotonic() < deadline:
        left = con.execute("SELECT COUNT(*) FROM jobs WHERE state != 'done'").fetchone()[0]
        if left == 0:
            break
        time.sleep(1)
    ids = [s for s, _ in loaded.submitted]
    stored = con.execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
    judged = con.execute(
        "SELECT COUNT(DISTINCT submission_id) FROM judgings WHERE valid = 1").fetchone()[0]
    twice = con.execute(
        "SELECT COUNT(*) FROM (SELECT job_id FROM judgings WHERE finished_ms IS NOT NULL GROUP BY job_id HAVING COUNT(*) > 1)").fetchone()[0]
    left = con.execute("SELECT COUNT(*) FROM jobs WHERE state != 'done'").fetchone()[0]
    print(f"nothing lost: {len(ids)} accepted by the server in the phase, {stored} stored in all "
          f"(with {args.quiet_runs} before), {judged} with a final judging, {left} still queued after "
          f"{args.drain:.0f} s of draining, {twice} jobs finished twice")

    if args.keep_db:
        with sqlite3.connect(args.keep_db) as out:
            con.backup(out)
    if not args.no_paused:
        paused(args, port, pid, pw, people, sources, db, con)
    con.close()


def paused(args, port, pid, pw, people, sources, db, con):
    """The same load, judging paused: what the web side costs alone."""
    admin = Conn(port)
    login(admin, "judge", pw["judge"])
    _, _, page = admin.request("GET", "/jury")
    st, _, _ = admin.request("POST", "/jury/queue", f"csrf={csrf_of(page)}&action=pause",
                             {"Content-Type": "application/x-www-form-urlencoded"})
    idle = Stats()
    own, kids = phase("paused", port, pid, people, sources, args, idle, db)
    idle.lat.pop("verdict")
    report("without judging (paused)", idle, own, kids, proc_mem(pid))
    if args.keep_db:
        with sqlite3.connect(args.keep_db) as out:
            con.backup(out)


if __name__ == "__main__":
    sys.exit(main())
