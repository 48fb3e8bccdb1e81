#!/usr/bin/env python3
"""Event streams of `praykit serve` (GET /sync/v1/events): the cost of idle streams, and how long
after a push every follower has heard it and has *pulled* it (SYNC.md §9, I17).

One server on a SQLite store (--servers 1, the default), or N servers on one throwaway PostgreSQL
cluster behind HAProxy (--servers 3), each `praykit serve --threads 2`. `praykit-bench --sync-pair`
pairs the devices of one user through the server (or HAProxy); each device opens --per-device
streams. The script prints the servers' threads and RSS before and with the streams, their CPU over
--idle seconds of idle streams (the pings), then makes --pushes pushes, one second apart, each by
device 0 (one log row): every other device's client here hears the `space` event on its stream, pulls
(POST /sync/v1/pull from its cursor, a new connection each time, as a phone after a network change),
and notes when the pull that brought the row was answered. The figures: p50, p99 and max over every
follower and every push, counted from the moment the push was sent, for "heard" and for "pulled".
With --cycles C, every stream is then closed and opened again C times (60 s apart, so that the
servers' pings find the closed ones), and the servers' RSS printed each time: memory stays flat.
Standard library only (asyncio); HAProxy and PostgreSQL's server for --servers > 1.

    python3 Scripts/bench-events.py [--binary .build/debug/praykit] [--servers 1] [--streams 1000]
                                    [--per-device 1] [--idle 60] [--pushes 5] [--cycles 0] [--max-head n]
"""
import argparse, asyncio, glob, json, os, re, shutil, socket, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("--binary", default=".build/debug/praykit")
parser.add_argument("--servers", type=int, default=1)
parser.add_argument("--streams", type=int, default=1000)
parser.add_argument("--per-device", type=int, default=1, help="streams a device holds (at most 4)")
parser.add_argument("--idle", type=float, default=60)
parser.add_argument("--pushes", type=int, default=5)
parser.add_argument("--cycles", type=int, default=0, help="times every stream is closed and opened again")
parser.add_argument("--max-head", type=int, help="the servers' --max-head (their connection pool is 4 times it)")
arguments = parser.parse_args()
binary = os.path.abspath(arguments.binary)
bench = os.path.join(os.path.dirname(binary), "praykit-bench")
devices = (arguments.streams + arguments.per_device - 1) // arguments.per_device
folder = tempfile.mkdtemp(prefix="praykit-events-")
children = []
postgres = None


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def as_postgres(command):
    return (["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []) + command


def start_postgres():
    """A throwaway cluster on a Unix socket in its own folder (as Scripts/bench-postgres-cluster.sh)."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(path.split("/")[-2]))[-1]
    data = tempfile.mkdtemp(prefix="praykit-events-pg-")
    os.chmod(data, 0o700)
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    subprocess.run(as_postgres([binaries + "/initdb", "-D", data + "/data", "-U", "postgres", "--auth=trust",
                                "--no-sync", "-E", "UTF8", "--locale=C"]), check=True, capture_output=True)
    subprocess.run(as_postgres([binaries + "/pg_ctl", "-D", data + "/data", "-l", data + "/server.log", "-w", "-o",
                                "-k %s -c listen_addresses='' -c max_connections=200" % data, "start"]),
                   check=True, capture_output=True)
    subprocess.run(["psql", "-X", "-q", "-d", "postgresql:///postgres?host=%s&user=postgres" % data, "-c",
                    "CREATE DATABASE events"], check=True)
    return binaries, data


def stop_postgres():
    if postgres:
        binaries, data = postgres
        subprocess.run(as_postgres([binaries + "/pg_ctl", "-D", data + "/data", "-m", "immediate", "-w", "stop"]),
                       capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def status(pid):
    fields = open("/proc/%d/status" % pid).read()
    return int(re.search(r"Threads:\s+(\d+)", fields).group(1)), int(re.search(r"VmRSS:\s+(\d+)", fields).group(1))


def descriptors(pids):
    return sum(len(os.listdir("/proc/%d/fd" % pid)) for pid in pids)


def cpu(pid):
    stat = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


refusals = {}  # status → pulls refused with it
tasks = set()  # every task started: the event loop keeps only weak references


def start(coroutine):
    task = asyncio.get_running_loop().create_task(coroutine)
    tasks.add(task)
    task.add_done_callback(tasks.discard)


def percentile(values, share):
    return values[min(len(values) - 1, int(len(values) * share))]


async def request(port, method, path, token, body=None):
    """One HTTP/1.1 request on a new connection (Connection: close): status and JSON body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    writer.write(("%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"
                  "Content-Length: %d\r\nConnection: close\r\n\r\n" % (method, path, token, len(data))).encode() + data)
    answer = await reader.read()
    writer.close()
    head, _, rest = answer.partition(b"\r\n\r\n")
    if b"chunked" in head.lower():
        body, rest = b"", rest
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            size = int(size, 16)
            if size == 0:
                break
            body, rest = body + rest[:size], rest[size + 2:]
        rest = body
    return int(head.split()[1]), (json.loads(rest) if rest else {})


class Follower:
    """A device's client: holds its streams, pulls from its cursor for each new version it hears."""

    def __init__(self, index, token, client):
        self.index, self.token, self.client = index, token, client
        self.cursor = None
        self.pulling = False
        self.again = False
        self.heard = {}   # version → when first heard
        self.pulled = {}  # version → when the pull that brought it was answered
        self.ready = asyncio.Event()
        self.writers = []

    async def hold(self, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        self.writers.append(writer)
        writer.write(("GET /sync/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n"
                      % self.token).encode())
        while True:
            try:
                line = await reader.readline()
            except ConnectionError:
                return
            if not line:
                return
            match = re.search(rb'"version":"([0-9a-f]+)\.(\d+)"', line)
            if not match:
                continue
            version = int(match.group(2))
            if self.cursor is None:
                self.cursor = "%s.%d" % (match.group(1).decode(), version)
            self.ready.set()
            if version > int(self.cursor.split(".")[1]):
                self.heard.setdefault(version, time.time())
                start(self.pull(port))

    def close(self):
        for writer in self.writers:
            writer.close()
        self.writers = []
        self.ready = asyncio.Event()

    async def pull(self, port):
        if self.pulling:
            self.again = True
            return
        self.pulling = True
        try:
            while True:
                self.again = False
                try:
                    status_code, answer = await request(port, "POST", "/sync/v1/pull", self.token,
                                                        {"protocol": 2, "schema": 3, "clientID": self.client,
                                                         "cursor": self.cursor, "limit": 500})
                except (OSError, ValueError, IndexError) as error:
                    status_code, answer = type(error).__name__, {}
                if status_code == 200:
                    self.cursor = answer["cursor"]
                    if answer.get("rows"):
                        self.pulled.setdefault(int(self.cursor.split(".")[1]), time.time())
                else:
                    # Refused (503 busy, 429): as PrayKit's client does, wait and pull again.
                    refusals[status_code] = refusals.get(status_code, 0) + 1
                    await asyncio.sleep(1)
                    self.again = True
                if not self.again:
                    return
        finally:
            self.pulling = False


async def measure(port, pids, tokens):
    followers = [Follower(index, token, client) for index, (token, client) in enumerate(tokens)]
    before = [status(pid) for pid in pids]
    print("servers before the streams: %d threads, RSS %d KB, %d descriptors open"
          % (sum(t for t, _ in before), sum(r for _, r in before), descriptors(pids)))
    for follower in followers:
        for _ in range(arguments.per_device):
            start(follower.hold(port))
    await asyncio.wait_for(asyncio.gather(*(follower.ready.wait() for follower in followers)), 300)
    await asyncio.sleep(1)
    with_streams = [status(pid) for pid in pids]
    threads = sum(t for t, _ in with_streams)
    rss = sum(r for _, r in with_streams)
    streams = len(followers) * arguments.per_device
    print("with %d idle streams: %d threads, RSS %d KB (%.1f KB a stream), %d descriptors open"
          % (streams, threads, rss, (rss - sum(r for _, r in before)) / streams, descriptors(pids)))
    start_cpu = sum(cpu(pid) for pid in pids)
    await asyncio.sleep(arguments.idle)
    print("servers' CPU over %.0f s of idle streams (pings every 25 s): %.3f s"
          % (arguments.idle, sum(cpu(pid) for pid in pids) - start_cpu))
    pusher, others = followers[0], followers[1:]
    base = int(pusher.cursor.split(".")[1])
    heard, pulled, worst, server_cpu = [], [], [], []
    for push in range(1, arguments.pushes + 1):
        body = {"protocol": 2, "schema": 3, "clientID": pusher.client, "mutations": [
            {"id": push, "collection": "log", "key": "2026-11-%02d/fajr" % push, "op": "put",
             "hlc": "001795953600%03d:0000:%s" % (push, pusher.client),
             "value": {"status": "prayed", "recordedAt": "2026-11-01T05:41:12.345Z"}}]}
        sent = time.time()
        start_cpu = sum(cpu(pid) for pid in pids)
        status_code, answer = await request(port, "POST", "/sync/v1/push", pusher.token, body)
        assert status_code == 200, answer
        # The user's space had version `base` when the streams began; each push adds one.
        version = base + push
        deadline = time.time() + 60
        while time.time() < deadline and not all(version in f.pulled for f in others):
            await asyncio.sleep(0.005)
        missing = [f.index for f in others if version not in f.pulled]
        if missing:
            print("push %d: %d followers did not pull it within 60 s" % (push, len(missing)))
            continue
        server_cpu.append(sum(cpu(pid) for pid in pids) - start_cpu)
        heard += [f.heard[version] - sent for f in others if version in f.heard]
        pulled += [f.pulled[version] - sent for f in others]
        worst.append(max(f.pulled[version] - sent for f in others))
        await asyncio.sleep(1)
    heard.sort()
    pulled.sort()
    print("%d pushes, each to %d followers: heard p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (
        len(worst), len(others), 1000 * percentile(heard, 0.5), 1000 * percentile(heard, 0.99), 1000 * heard[-1]))
    print("pulled p50 %.1f ms, p99 %.1f ms, max %.1f ms; every follower had pulled a push after %s ms" % (
        1000 * percentile(pulled, 0.5), 1000 * percentile(pulled, 0.99), 1000 * pulled[-1],
        ", ".join("%.0f" % (1000 * w) for w in worst)))
    print("servers' CPU from a push until every follower had pulled it: %s s; pulls refused: %s" % (
        ", ".join("%.2f" % c for c in server_cpu), refusals or "none"))
    # Memory flat: every stream closed and opened again. A server notices a closed stream when it
    # writes to it, and the first ping into a socket its client closed may still be taken by the
    # kernel: two pings' time (60 s) before the servers are measured and the streams open again.
    for cycle in range(1, arguments.cycles + 1):
        for follower in followers:
            follower.close()
        await asyncio.sleep(60)
        closed = sum(r for _, r in (status(pid) for pid in pids))
        closed_descriptors = descriptors(pids)
        for follower in followers:
            for _ in range(arguments.per_device):
                start(follower.hold(port))
        await asyncio.wait_for(asyncio.gather(*(follower.ready.wait() for follower in followers)), 300)
        await asyncio.sleep(1)
        print("cycle %d: RSS %d KB and %d descriptors with the streams closed, %d KB and %d open again"
              % (cycle, closed, closed_descriptors, sum(r for _, r in (status(pid) for pid in pids)),
                 descriptors(pids)))


def main():
    global postgres
    if arguments.servers > 1:
        postgres = start_postgres()
        store = "postgresql:///events?host=%s&user=postgres" % postgres[1]
    else:
        store = "sqlite:" + os.path.join(folder, "store.sqlite")
    limit = arguments.streams * 2 + 500
    ports = []
    for _ in range(arguments.servers):
        server = subprocess.Popen(
            [binary, "serve", "--port", "0", "--threads", "2", "--sync-store", store, "--max-connections", str(limit),
             "--max-connections-per-address", "0"] + (["--max-head", str(arguments.max_head)] if arguments.max_head else []),
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        children.append(server)
        ports.append(int(re.search(r":(\d+)\n", server.stdout.readline()).group(1)))
    port = ports[0]
    if arguments.servers > 1:
        port = free_port()
        config = os.path.join(folder, "haproxy.cfg")
        with open(config, "w") as file:
            file.write("global\n    maxconn %d\ndefaults\n    mode http\n    timeout connect 5s\n"
                       "    timeout client 60s\n    timeout server 60s\n    maxconn %d\n"
                       "frontend events\n    bind 127.0.0.1:%d\n    default_backend praykit\n"
                       "backend praykit\n    balance roundrobin\n    option http-server-close\n%s"
                       % (limit * 2, limit, port, "".join("    server s%d 127.0.0.1:%d maxconn %d\n" % (i, p, limit)
                                                          for i, p in enumerate(ports))))
        children.append(subprocess.Popen(["haproxy", "-db", "-f", config], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL))
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.02)
    tokens_file = os.path.join(folder, "tokens")
    subprocess.run([bench, "--sync-pair", "http://127.0.0.1:%d" % port, "--store", store, "--users", "1",
                    "--devices", str(devices), "--tokens", tokens_file], check=True, stdout=subprocess.DEVNULL)
    tokens = [tuple(line.split()[:2]) for line in open(tokens_file) if line.strip()]
    print("%d server(s)%s, %d devices, %d streams" % (
        arguments.servers, " behind HAProxy on PostgreSQL" if arguments.servers > 1 else " on SQLite", len(tokens),
        len(tokens) * arguments.per_device))
    asyncio.run(measure(port, [child.pid for child in children[:arguments.servers]], tokens))


try:
    main()
finally:
    for child in children:
        child.terminate()
    for child in children:
        child.wait()
    stop_postgres()
    shutil.rmtree(folder, ignore_errors=True)
