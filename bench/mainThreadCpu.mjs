// Preloaded into a benchmarked `node` (--import): at exit, prints the main thread's own CPU time
// (Linux /proc), so a run whose store works in a worker thread can say which thread the time went to.
import { readFileSync } from 'node:fs';

process.on('exit', () => {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 a second)
    process.stderr.write(`main-thread-cpu-ms ${ticks * 10}\n`);
  } catch {
    // not Linux: the line is simply missing
  }
});
