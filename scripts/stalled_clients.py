#!/usr/bin/env python3
"""Stalled clients against a running compute example (docs/reliability.md).

Holds STALLED connections that never finish what they start, while a
well-behaved client sends GOOD requests, and reports:

- every good request's answer (all must be 2xx) and its latency;
- when the server closed each stalled connection, by kind, and what it
  answered first (408 for a stalled head or body):
  - slow head: a request head sent one byte a second, never finished;
  - slow body: a complete head declaring 1,000 bytes of JSON body, then
    one byte a second;
  - idle keep-alive: one complete request, answered, then silence.

Loopback only; exits non-zero if a good request failed or a stalled
connection outlived its bound. Driven by scripts/stalled_clients.sh.
"""

import argparse
import asyncio
import json
import statistics
import sys
import time

KINDS = ("slow-head", "slow-body", "idle-keep-alive")


async def read_response(reader):
    """One HTTP/1.1 response: (status, body bytes)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = await reader.readexactly(length) if length else b""
    return status, body


async def stalled(kind, host, port, bound, results):
    """Opens one stalled connection; records (kind, seconds until closed, first status)."""
    started = time.monotonic()
    first_status = None
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as e:
        results.append((kind, None, f"connect failed: {e}"))
        return
    try:
        if kind == "idle-keep-alive":
            writer.write(b"GET /v2.1/flavors/1 HTTP/1.1\r\nHost: h\r\nOpenStack-API-Version: compute 2.61\r\n\r\n")
            await writer.drain()
            first_status, _ = await read_response(reader)
            started = time.monotonic()  # idle from here
            trickle = b""
        elif kind == "slow-head":
            trickle = b"POST /v2.1/flavors HTTP/1.1\r\nHost: h\r\n" + b"X-Padding: " + b"a" * 10_000
        else:
            writer.write(
                b"POST /v2.1/flavors HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                b"OpenStack-API-Version: compute 2.61\r\nContent-Length: 1000\r\n\r\n"
            )
            await writer.drain()
            trickle = b'{"flavor": {"name": "' + b"a" * 1000

        async def feed():
            for byte in trickle:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(1)
            await asyncio.sleep(bound * 2)

        feeder = asyncio.ensure_future(feed())
        try:
            while True:
                chunk = await asyncio.wait_for(reader.read(65536), timeout=bound)
                if not chunk:
                    break
                if first_status is None and chunk.startswith(b"HTTP/1.1 "):
                    first_status = int(chunk[9:12])
        except (ConnectionError, OSError):
            pass
        except asyncio.TimeoutError:
            results.append((kind, None, f"still open after {bound} s"))
            return
        finally:
            feeder.cancel()
        results.append((kind, time.monotonic() - started, first_status))
    except (ConnectionError, OSError, asyncio.IncompleteReadError) as e:
        results.append((kind, time.monotonic() - started, first_status or f"{type(e).__name__}"))
    finally:
        writer.close()


async def good_client(host, port, count, latencies, failures):
    """Sequential keep-alive requests, 50 a connection."""
    requests = [
        b"GET /v2.1/flavors/1 HTTP/1.1\r\nHost: h\r\nOpenStack-API-Version: compute 2.61\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: h\r\n\r\n",
        b"GET /v2.1/flavors/detail?limit=3 HTTP/1.1\r\nHost: h\r\nOpenStack-API-Version: compute 2.75\r\n\r\n",
    ]
    done = 0
    while done < count:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as e:
            failures.append(f"connect: {e}")
            done += 1
            continue
        try:
            for _ in range(min(50, count - done)):
                request = requests[done % len(requests)]
                started = time.monotonic()
                writer.write(request)
                await writer.drain()
                status, body = await asyncio.wait_for(read_response(reader), timeout=30)
                latencies.append(time.monotonic() - started)
                done += 1
                if not 200 <= status < 300:
                    failures.append(f"status {status}: {body[:200]!r}")
        except Exception as e:  # noqa: BLE001 - every failure is reported
            failures.append(f"{type(e).__name__}: {e}")
            done += 1
        finally:
            writer.close()


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--stalled", type=int, default=2000)
    parser.add_argument("--good", type=int, default=5000)
    parser.add_argument("--good-clients", type=int, default=4)
    parser.add_argument("--bound", type=float, default=60, help="seconds a stalled connection may stay open")
    args = parser.parse_args()
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        sys.exit("loopback only")

    results, latencies, failures = [], [], []
    started = time.monotonic()
    tasks = []
    for i in range(args.stalled):
        kind = KINDS[i % len(KINDS)]
        tasks.append(asyncio.ensure_future(stalled(kind, args.host, args.port, args.bound, results)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # let the accept queue drain
    opened = time.monotonic() - started
    await asyncio.sleep(1)
    good_started = time.monotonic()
    per = args.good // args.good_clients
    await asyncio.gather(
        *(good_client(args.host, args.port, per, latencies, failures) for _ in range(args.good_clients))
    )
    good_time = time.monotonic() - good_started
    open_during_good = args.stalled - len(results)
    await asyncio.gather(*tasks)
    total = time.monotonic() - started

    report = {
        "stalled": args.stalled,
        "opened_in_s": round(opened, 2),
        "stalled_still_open_when_good_client_finished": open_during_good,
        "good": {
            "requests": len(latencies) + len([f for f in failures if f.startswith(("connect", "Timeout"))]),
            "answered_2xx": len(latencies) - len([f for f in failures if f.startswith("status")]),
            "failures": len(failures),
            "seconds": round(good_time, 2),
            "p50_ms": round(statistics.median(latencies) * 1000, 2) if latencies else None,
            "p99_ms": round(pct(latencies, 0.99) * 1000, 2) if latencies else None,
            "max_ms": round(max(latencies) * 1000, 2) if latencies else None,
        },
        "closed": {},
        "total_s": round(total, 1),
    }
    for kind in KINDS:
        mine = [r for r in results if r[0] == kind]
        times = [r[1] for r in mine if r[1] is not None]
        statuses = {}
        for r in mine:
            statuses[str(r[2])] = statuses.get(str(r[2]), 0) + 1
        report["closed"][kind] = {
            "connections": len(mine),
            "closed": len(times),
            "first_answer": statuses,
            "min_s": round(min(times), 2) if times else None,
            "median_s": round(statistics.median(times), 2) if times else None,
            "max_s": round(max(times), 2) if times else None,
        }
    print(json.dumps(report, indent=2))
    for f in failures[:10]:
        print("good request failed:", f, file=sys.stderr)
    unclosed = [r for r in results if r[1] is None]
    for r in unclosed[:10]:
        print("stalled connection:", r, file=sys.stderr)
    if failures or unclosed or len(results) != args.stalled:
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main())
