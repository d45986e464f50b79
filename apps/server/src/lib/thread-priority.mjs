// Background threads (long reads, checkpoints) give way to the threads that answer: on two cores at full load the
// scheduler otherwise shares the CPU evenly, and the main thread's event loop waits its turn behind a year-long
// report. Linux only (a thread's nice value is set through its own id); elsewhere nothing changes.
// Plain JavaScript so the plain-JavaScript workers can use it.
import fs from 'node:fs';
import os from 'node:os';

/** Sets this thread's nice value (0 normal … 19 lowest); answers whether it took effect. */
export function lowerThisThread(nice) {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid)) return false;
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
