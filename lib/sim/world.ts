/**
 * The simulated world, minute by minute. Each VM's CPU demand is its typical use × its service's
 * load curve at the local time × slowly varying seeded noise (an AR(1) process, so a busy VM stays
 * busy for a while), or flat out while it is a noisy neighbour. A host delivers at most its vCPUs:
 * when demand D exceeds capacity C, every VM loses the same share (D − C) / D of its demand — the
 * proportional-share model the planner predicts with (lib/rebalance/stealModel.ts) — and its guest
 * sees that share of its own utilisation as steal (lib/rebalance/vmSteal.ts guestSteal). load5
 * follows delayed work: a 5-minute moving average of what is runnable, demand / (1 − lost share).
 * With the scenario's `contention_model: unequal` the shortfall is shared unequally instead, a model
 * the planner does not use (contention.ts).
 * Not modelled: the CPU a live migration itself costs, SMT/NUMA effects, housekeeping steal.
 */
import { type ContentionModel, unequalWeight, vmLostShare } from './contention.js';
import type { Layout } from './layout.js';
import { tabulateCurve } from './loadCurve.js';
import { patternLevel } from './noisyNeighbours.js';
import type { NoisyPlan } from './noisySchedule.js';
import { gaussian, type Random, stream } from './random.js';
import type { Scenario } from './scenario.js';

/** How long noise persists (minutes). */
const NOISE_MINUTES = 15;
const LOAD5_ALPHA = 1 - Math.exp(-1 / 5);

export class World {
  readonly vmCount: number;
  readonly hostCount: number;
  /** The host each VM runs on now; `move` changes it. */
  readonly hostOf: Int32Array;
  // The last stepped minute, per VM and per host.
  readonly demand: Float64Array;
  readonly steal: Float64Array;
  readonly cpu: Float64Array;
  readonly load5: Float64Array;
  readonly hostDemand: Float64Array;
  /** Share of demand lost on each host (0..1). */
  readonly hostLost: Float64Array;
  readonly hostLoad5: Float64Array;
  private readonly vcpus: Float64Array;
  private readonly base: Float64Array;
  private readonly curveOf: Uint8Array;
  private readonly curves: Float64Array[];
  private readonly noise: Float64Array;
  private readonly random: Random;
  private readonly noisyOf: (NoisyPlan | undefined)[];
  private readonly capacity: Float64Array;
  private readonly sigma: number;
  private readonly contention: ContentionModel;
  /** Per host: demand × unequalWeight summed over its VMs (the unequal world's sharing). */
  private readonly hostWeighted: Float64Array;
  private started = false;

  constructor(
    readonly layout: Layout,
    scenario: Scenario,
    noisy: readonly NoisyPlan[],
    private readonly local: Uint16Array,
  ) {
    const { vms, hosts } = layout;
    this.vmCount = vms.length;
    this.hostCount = hosts.length;
    this.hostOf = Int32Array.from(vms, (v) => v.host);
    const perVm = () => new Float64Array(vms.length);
    const perHost = () => new Float64Array(hosts.length);
    [this.demand, this.steal, this.cpu, this.load5, this.noise] = [
      perVm(),
      perVm(),
      perVm(),
      perVm(),
      perVm(),
    ];
    [this.hostDemand, this.hostLost, this.hostLoad5] = [perHost(), perHost(), perHost()];
    this.capacity = Float64Array.from(hosts, (h) => h.vcpus);
    this.vcpus = Float64Array.from(vms, (v) => v.flavor.vcpus);
    this.base = Float64Array.from(vms, (v) => v.flavor.vcpus * v.utilisation);
    const kinds = scenario.roles.map((r) => r.name);
    this.curves = [
      tabulateCurve(scenario.loadCurve),
      ...scenario.roles.map((r) => tabulateCurve(r.load_curve ?? scenario.loadCurve)),
    ];
    this.curveOf = Uint8Array.from(vms, (v) => 1 + kinds.indexOf(v.kind));
    this.random = stream(scenario.seed, 'world');
    this.sigma = scenario.demandNoise;
    this.contention = scenario.contentionModel;
    this.hostWeighted = perHost();
    this.noisyOf = vms.map(() => undefined);
    for (const n of noisy) this.noisyOf[n.vm] = n;
  }

  move(vm: number, host: number): void {
    this.hostOf[vm] = host;
  }

  /** Computes minute `m` (0-based) with the VMs where they are now. */
  step(m: number): void {
    const localMinute = this.local[m];
    const rho = Math.exp(-1 / NOISE_MINUTES);
    const sigma = this.sigma;
    const innovation = sigma * Math.sqrt(1 - rho * rho);
    this.hostDemand.fill(0);
    this.hostWeighted.fill(0);
    const unequal = this.contention === 'unequal';
    for (let i = 0; i < this.vmCount; i++) {
      // Drawn for every VM every minute, in VM order: the same numbers whatever Placid does.
      const draw = gaussian(this.random);
      this.noise[i] = this.started ? rho * this.noise[i] + innovation * draw : sigma * draw;
      const level = this.curves[this.curveOf[i]][localMinute];
      let d = this.base[i] * level * Math.exp(this.noise[i] - (sigma * sigma) / 2);
      const noisy = this.noisyOf[i];
      if (noisy) {
        const share = noisy.demand * patternLevel(noisy.pattern, m - noisy.startMinute, noisy.duration);
        d = Math.max(d, share * this.vcpus[i]);
      }
      d = Math.min(this.vcpus[i], d);
      this.demand[i] = d;
      this.hostDemand[this.hostOf[i]] += d;
      if (unequal) this.hostWeighted[this.hostOf[i]] += d * unequalWeight(this.vcpus[i]);
    }
    for (let h = 0; h < this.hostCount; h++) {
      const d = this.hostDemand[h];
      this.hostLost[h] = d > this.capacity[h] ? (d - this.capacity[h]) / d : 0;
    }
    this.hostLoad5.fill(0);
    for (let i = 0; i < this.vmCount; i++) {
      const h = this.hostOf[i];
      const lost = unequal
        ? vmLostShare('unequal', this.hostLost[h], this.hostDemand[h], this.hostWeighted[h], this.vcpus[i])
        : this.hostLost[h];
      const d = this.demand[i];
      this.cpu[i] = ((d * (1 - lost)) / this.vcpus[i]) * 100;
      this.steal[i] = ((lost * d) / this.vcpus[i]) * 100;
      const runnable = d / (1 - lost);
      this.load5[i] = this.started ? this.load5[i] + LOAD5_ALPHA * (runnable - this.load5[i]) : runnable;
      this.hostLoad5[h] += this.load5[i];
    }
    this.started = true;
  }

  /** Share of the host's capacity in use (0..1) in the last stepped minute. */
  hostBusy(h: number): number {
    return Math.min(1, this.hostDemand[h] / this.capacity[h]);
  }

  vcpusOf(vm: number): number {
    return this.vcpus[vm];
  }
}
