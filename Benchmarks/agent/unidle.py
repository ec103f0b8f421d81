#!/usr/bin/env python3
"""The agent's long work with and without the idle policy, with one binary (issue 35): for DURATION
seconds, every thread of a process named COMM (the binary's file name, 15 characters at most) seen
under SCHED_IDLE is put back under SCHED_OTHER within a millisecond; root only (a thread may not
leave SCHED_IDLE by itself). --dry: the same scanning, nothing moved (the control run, paying the
scanner's CPU too). Run beside load.py, never by the tests:

    sudo python3 Benchmarks/agent/unidle.py pwtui 60 [--dry] & python3 Benchmarks/agent/load.py BINARY 10000 --without writer
"""
import os, sys, time
comm, duration, dry = sys.argv[1], float(sys.argv[2]), "--dry" in sys.argv
end, moved, pids, found_at = time.time() + duration, 0, [], 0
while time.time() < end:
    if time.time() - found_at > 0.2:
        pids, found_at = [], time.time()
        for pid in os.listdir("/proc"):
            try:
                if pid.isdigit() and open(f"/proc/{pid}/comm").read().strip() == comm: pids.append(pid)
            except OSError:
                pass
    for pid in pids:
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                if os.sched_getscheduler(int(tid)) == os.SCHED_IDLE:
                    moved += 1
                    if not dry: os.sched_setscheduler(int(tid), os.SCHED_OTHER, os.sched_param(0))
        except OSError:
            pass
    time.sleep(0.001)
print(f"unidle{' (dry)' if dry else ''}: {moved} idle-policy sightings")
