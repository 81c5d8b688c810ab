// Facts about the machine a run happened on, and the kernel's view of a process's memory.
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export interface MachineFacts {
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  date: string;
}

export function machineFacts(): MachineFacts {
  const list = cpus();
  return {
    cores: list.length,
    cpu: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  };
}

/** Resident memory of a process from the kernel (VmRSS in /proc/<pid>/status), in bytes. */
export function residentBytes(pid: number | 'self' = 'self'): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) * 1024;
}

/** The soft limit on open files of this process (inherited by the workers it starts). */
export function openFilesLimit(): number {
  const line = /Max open files\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
  return !line || line[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line[1]);
}
