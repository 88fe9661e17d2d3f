import { readFileSync } from 'node:fs';

/**
 * This process's peak RSS in MiB: VmHWM of /proc/self/status, which counts this program
 * only. getrusage's maxRSS would also hold the parent's peak at the fork (Linux keeps it
 * across fork and exec), so a benchmark that seeds data and then runs a step in a child
 * would see the seeding's memory in the step's figure.
 */
export function peakRssMiB(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux: the other figure, with its caveat
  }
  return process.resourceUsage().maxRSS / 1024;
}
