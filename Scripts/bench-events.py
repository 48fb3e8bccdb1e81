#!/usr/bin/env python3
"""Event streams of `praykit serve` (GET /sync/v1/events): cost of idle streams and fan-out of a push.

Starts a server on a SQLite store in a temporary folder, pairs DEVICES devices of one user, opens
STREAMS streams (four a device at most), then prints the server's threads and RSS before and with
the streams, its CPU over IDLE seconds of pings, and how long after one push every other stream
had its event (p50, p99, max). Standard library only.

    python3 Scripts/bench-events.py [--binary .build/release/praykit] [--streams 1000] [--idle 60]
"""
import argparse, json, os, re, selectors, socket, subprocess, sys, tempfile, time, urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("--binary", default=".build/debug/praykit")
parser.add_argument("--streams", type=int, default=1000)
parser.add_argument("--idle", type=float, default=60)
parser.add_argument("--port", type=int, default=18778)
arguments = parser.parse_args()
folder = tempfile.mkdtemp(prefix="praykit-events-")
store = "sqlite:" + os.path.join(folder, "store.sqlite")
binary = os.path.abspath(arguments.binary)
devices = (arguments.streams + 3) // 4
subprocess.run([binary, "serve", "sync", "users", "add", "amina", "--sync-store", store], capture_output=True, check=True)
server = subprocess.Popen(
    [binary, "serve", "--port", str(arguments.port), "--threads", "2", "--sync-store", store,
     "--max-connections", str(arguments.streams * 2 + 100), "--max-connections-per-address", "0"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
server.stdout.readline()
base = "http://127.0.0.1:%d" % arguments.port


def status():
    fields = open("/proc/%d/status" % server.pid).read()
    threads = re.search(r"Threads:\s+(\d+)", fields).group(1)
    rss = re.search(r"VmRSS:\s+(\d+)", fields).group(1)
    return int(threads), int(rss)


def cpu():
    stat = open("/proc/%d/stat" % server.pid).read().split()
    return (int(stat[13]) + int(stat[14])) / os.sysconf("SC_CLK_TCK")


try:
    tokens = []
    for index in range(devices):
        out = subprocess.run([binary, "serve", "sync", "pair", "amina", "--sync-store", store],
                             capture_output=True, text=True).stdout
        code = re.search(r": ([A-Z0-9]{5}-[A-Z0-9]{5}) ", out).group(1)
        request = urllib.request.Request(base + "/sync/v1/devices", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"code": code, "deviceName": "d%d" % index}).encode())
        tokens.append(json.load(urllib.request.urlopen(request))["token"])
    threads, rss = status()
    print("server before the streams: %d threads, RSS %d KB" % (threads, rss))
    selector = selectors.DefaultSelector()
    buffers = {}
    for index in range(arguments.streams):
        connection = socket.create_connection(("127.0.0.1", arguments.port))
        connection.sendall(("GET /sync/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n"
                            % tokens[index // 4]).encode())
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ, index // 4)
        buffers[connection] = b""
    guard = time.time() + 120
    while time.time() < guard and sum(b"event: space" in text for text in buffers.values()) < arguments.streams:
        for key, _ in selector.select(1):
            buffers[key.fileobj] += key.fileobj.recv(65536)
    threads2, rss2 = status()
    print("with %d idle streams: %d threads, RSS %d KB (%.1f KB a stream)"
          % (arguments.streams, threads2, rss2, (rss2 - rss) / arguments.streams))
    before = cpu()
    time.sleep(arguments.idle)
    print("server CPU over %.0f s of idle streams (pings every 25 s): %.3f s" % (arguments.idle, cpu() - before))
    for connection in buffers:
        buffers[connection] = b""
    client = "c_0123456789abcdef0123456789abcdef"
    push = {"protocol": 2, "schema": 3, "clientID": client, "mutations": [
        {"id": 1, "collection": "log", "key": "2026-12-01/fajr", "op": "put",
         "hlc": "001795953600001:0000:" + client,
         "value": {"status": "prayed", "recordedAt": "2026-12-01T05:41:12.345Z"}}]}
    request = urllib.request.Request(base + "/sync/v1/push", data=json.dumps(push).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + tokens[0]})
    start = time.time()
    urllib.request.urlopen(request).read()
    others = [key.fileobj for key in selector.get_map().values() if key.data != 0]
    heard = {}
    while time.time() < start + 60 and len(heard) < len(others):
        for key, _ in selector.select(1):
            connection = key.fileobj
            buffers[connection] += connection.recv(65536)
            if key.data != 0 and connection not in heard and b'"version"' in buffers[connection]:
                heard[connection] = time.time() - start
    delays = sorted(heard.values())
    print("a push heard by %d of %d other streams: p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (
        len(delays), len(others), 1000 * delays[len(delays) // 2], 1000 * delays[int(len(delays) * 0.99)],
        1000 * delays[-1]))
finally:
    server.terminate()
    server.wait()
