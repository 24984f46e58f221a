/**
 * dynalite in a child process, as DynamoDB runs outside the Lambda: in the same process its CPU
 * work would queue behind the caller's on one event loop and blur what a design saves. Its CPU time
 * is read from /proc, so a benchmark can charge both sides of every request.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

export interface DynaliteProcess {
  endpoint: string;
  child: ChildProcess;
}

/** dynalite, in memory, in its own process; resolves with its endpoint. */
export async function startDynaliteProcess(): Promise<DynaliteProcess> {
  const script =
    "const s=require('dynalite')({createTableMs:0,deleteTableMs:0,updateTableMs:0});" +
    "s.listen(0,'127.0.0.1',()=>console.log(s.address().port))";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { endpoint: `http://127.0.0.1:${Number.parseInt(chunk.toString(), 10)}`, child };
}

export async function withDynalite<T>(run: (dynalite: DynaliteProcess) => Promise<T>): Promise<T> {
  const dynalite = await startDynaliteProcess();
  try {
    return await run(dynalite);
  } finally {
    dynalite.child.kill();
  }
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on Linux for x86 and arm64). */
const TICKS_PER_SECOND = 100;

/** User + system CPU milliseconds a child has used so far (10 ms resolution), or NaN off Linux. */
export function childCpuMs(child: ChildProcess): number {
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3; utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** This process's user + system CPU milliseconds so far. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
