/** Where a simulation's time goes: wall and CPU time (this process) per phase. */
import { performance } from 'node:perf_hooks';

export type SimPhase = 'setup' | 'baseline' | 'world' | 'ingest' | 'detector' | 'workflow' | 'wind-down';

export interface PhaseTime {
  wallMs: number;
  cpuMs: number;
}

export class PhaseTimer {
  readonly phases = new Map<SimPhase, PhaseTime>();

  /** Times `work` under `phase` (phases may repeat; their times add up). */
  async time<T>(phase: SimPhase, work: () => T | Promise<T>): Promise<T> {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    try {
      return await work();
    } finally {
      const used = process.cpuUsage(cpu);
      const t = this.phases.get(phase) ?? { wallMs: 0, cpuMs: 0 };
      t.wallMs += performance.now() - wall;
      t.cpuMs += (used.user + used.system) / 1000;
      this.phases.set(phase, t);
    }
  }

  /** One line per phase, e.g. `ingest 41.2 s wall, 38.0 s CPU`. */
  summary(): string[] {
    return [...this.phases].map(
      ([phase, t]) =>
        `${phase.padEnd(9)} ${(t.wallMs / 1000).toFixed(1).padStart(6)} s wall ${(t.cpuMs / 1000).toFixed(1).padStart(6)} s CPU`,
    );
  }
}
