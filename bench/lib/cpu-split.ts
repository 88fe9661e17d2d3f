import { readdirSync, readFileSync } from 'node:fs';

// Where the machine's cores went during a measurement: CPU seconds of groups of processes
// (this load generator, each `serve` instance, PostgreSQL's processes), read from
// /proc/<pid>/stat before and after, and the machine's idle, disk-wait and steal time from
// /proc/stat (Linux; elsewhere the figures are 0). It answers "what bounds this figure"
// with the same run's numbers rather than a separate profile.

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** utime + stime of a process in seconds, or 0 once it is gone. */
function cpuOf(pid: number): number {
  try {
    // the fields after the command name, which may itself hold spaces and parentheses
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime (fields 14 and 15)
  } catch {
    return 0;
  }
}

/** utime + stime of these processes in seconds, summed (a process gone counts 0). */
export const cpuSecondsOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuOf(pid), 0);

/** The machine's CPU seconds by state, from the first line of /proc/stat. */
function machine(): { busy: number; idle: number; iowait: number; steal: number } {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number) as number[];
    return { busy: (user! + nice! + system! + irq! + softirq!) / TICKS, idle: idle! / TICKS, iowait: iowait! / TICKS, steal: steal! / TICKS };
  } catch {
    return { busy: 0, idle: 0, iowait: 0, steal: 0 };
  }
}

/** Processes whose name (/proc/<pid>/comm) is `name`. */
export function pidsNamed(name: string): number[] {
  try {
    return readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === name;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Runs `work` and returns, per group, the CPU seconds its processes used meanwhile, the
 * rest of the machine's time, and the CPU seconds the run had (`cores` x wall time). A
 * group's processes are looked up before and after (a PostgreSQL connection opened during
 * the run counts from its start; one closed during it loses its last figures).
 */
export async function cpuSplit<T>(groups: Record<string, () => number[]>, cores: number, work: () => Promise<T>) {
  const before = new Map<number, number>();
  for (const pids of Object.values(groups)) for (const pid of pids()) before.set(pid, cpuOf(pid));
  const machineBefore = machine();
  const started = performance.now();
  const result = await work();
  const wall = (performance.now() - started) / 1000;
  const machineAfter = machine();
  const seconds: Record<string, number> = {};
  for (const [name, pids] of Object.entries(groups)) {
    seconds[name] = pids().reduce((sum, pid) => sum + cpuOf(pid) - (before.get(pid) ?? 0), 0);
  }
  const ours = Object.values(seconds).reduce((a, b) => a + b, 0);
  const delta = (k: keyof ReturnType<typeof machine>) => machineAfter[k] - machineBefore[k];
  // the rest of the machine: busy time no group accounts for (other processes, interrupts),
  // time the cores sat idle or waited for the disk, and time the hypervisor took (steal)
  const rest = { 'other busy': Math.max(0, delta('busy') - ours), idle: delta('idle'), 'disk wait': delta('iowait'), steal: delta('steal') };
  return { result, available: cores * wall, seconds, rest };
}

/**
 * One line: each group's share of the cores the run had, then the rest of the machine,
 * e.g. `postgres 41%, serve 38%, …; other busy 3%, idle 14%, disk wait 2%, steal 0%`.
 */
export function formatSplit(split: { available: number; seconds: Record<string, number>; rest: Record<string, number> }): string {
  const shares = (o: Record<string, number>) => Object.entries(o).map(([name, s]) => `${name} ${Math.round((100 * s) / split.available)}%`).join(', ');
  return `${shares(split.seconds)}; ${shares(split.rest)}`;
}

type Split = { available: number; seconds: Record<string, number>; rest: Record<string, number> };

/** CPU seconds the run spent in all: every group, and the rest of the machine's busy time. */
export const busySeconds = (split: Split) => Object.values(split.seconds).reduce((a, b) => a + b, 0) + (split.rest['other busy'] ?? 0);

/**
 * How many times its throughput a run could reach on this machine if each request kept its
 * CPU cost: the cores' time (less what the hypervisor took) over the time the run kept busy.
 * A run that already keeps 84% of the cores busy can go 1.19x as fast at most, however many
 * processes share the work.
 */
export const throughputCeiling = (split: Split) => (split.available - (split.rest.steal ?? 0)) / busySeconds(split);
