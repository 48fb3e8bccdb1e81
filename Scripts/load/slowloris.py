"""A slowloris client for Scripts/load-test.sh: holds CONNECTIONS connections to 127.0.0.1:PORT, each
sending an endless request head one byte a second, and opens a new one whenever the server ends one.
Runs for SECONDS, then prints what happened on one line:

    SLOWLORIS connections=300 seconds=25 bytes_sent=7200 cut_by_server=300 refused=0

Usage: python3 slowloris.py PORT CONNECTIONS SECONDS   (loopback only)
"""

import socket
import sys
import time

port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
HEAD = b"GET /v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def open_connection():
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    connection.setblocking(False)
    return [connection, 0]


connections, sent, cut, refused = [], 0, 0, 0
for _ in range(count):
    try:
        connections.append(open_connection())
    except OSError:
        refused += 1
end = time.monotonic() + seconds
while time.monotonic() < end:
    started = time.monotonic()
    for entry in connections:
        connection, position = entry
        byte = HEAD[position:position + 1] if position < len(HEAD) else b"a"
        try:
            # A closed connection shows as a reset on send, or as end of file on read.
            connection.send(byte)
            try:
                if connection.recv(1, socket.MSG_PEEK) == b"":
                    raise ConnectionResetError
            except BlockingIOError:
                pass
            entry[1] += 1
            sent += 1
        except OSError:
            cut += 1
            connection.close()
            try:
                entry[0], entry[1] = open_connection()
            except OSError:
                refused += 1
    time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
for connection, _ in connections:
    connection.close()
print(f"SLOWLORIS connections={count} seconds={seconds:.0f} bytes_sent={sent} cut_by_server={cut} refused={refused}")
