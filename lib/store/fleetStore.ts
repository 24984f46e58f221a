/**
 * The fleet store: every read and write the stages need, bound to one client, one set of table
 * names and one clock. Each method is a thin call into a small module, so each stays testable alone;
 * plans and migration records have their own repositories (`plans`, `migrations`). No module outside
 * lib/store sends DynamoDB commands: consumers take the narrow slice of this class they use.
 */

import type { HypervisorReport, InstanceReport, ReportMessage } from '../model/reports.js';
import { type ClaimLimits, type ClaimRequest, claimResources } from './claims.js';
import { mapLimit } from './concurrency.js';
import { checkHeartbeats, type StoreContext, type StoreOptions, storeContext } from './context.js';
import { type DecisionRecord, getDecision, putDecision } from './decisions.js';
import { DetectorStateRepository } from './detectorState.js';
import { type FleetWindows, fleetWindows } from './fleetWindows.js';
import { nodeKey, type StoredHost } from './hostItems.js';
import { getHost, type HostChanges, hasNode, hostsChangedSince, listHosts } from './hostReads.js';
import { putSightings, type Sighting, sightingItems } from './hostSightings.js';
import { type HostWriteOutcome, putHostReport } from './hostWrites.js';
import { ingestWatermark, noteIngested } from './ingestWatermark.js';
import { getInstance, instancesByHost, listInstances, type StoredInstance } from './instances.js';
import { type InstanceWriteOutcome, putInstanceReport } from './instanceWrites.js';
import { acquireLease, heldLeases, type Lease, releaseLease } from './leases.js';
import { markMigrated } from './markMigrated.js';
import { MigrationRecordRepository } from './migrationRecords.js';
import { PlanRepository } from './plans.js';
import { releaseClaim } from './releaseClaim.js';
import { messagePages, type PageWrite } from './samplePages.js';
import { type NodeWindow, nodeWindow, type SampleEntity, type StoredSample, samplesFor } from './samples.js';
import { type PageWriteResult, putSamples, type SampleWriteStats, writePages } from './sampleWrites.js';
import { digestsWrittenSince } from './windowCoverage.js';
import { HOST_MEMO_SIZE, StateWriteMemo } from './writeMemo.js';

export interface StateCounts {
  /** Reports that replaced (or created) the stored state. */
  stored: number;
  /**
   * Newer reports of a state this store wrote less than a heartbeat ago, not written again: only
   * their `reported_at` differed (for a host, also: that write left no pending claim).
   */
  unchanged: number;
  /** Reports as old as or older than the stored one: changed nothing (duplicates, out of order). */
  stale: number;
}

export interface IngestOutcome {
  hosts: StateCounts;
  instances: StateCounts;
  /** `written` counts sample pages, `samples` the samples in them. */
  samples: SampleWriteStats;
}

export class FleetStore {
  readonly ctx: StoreContext;
  readonly plans: PlanRepository;
  readonly migrations: MigrationRecordRepository;
  readonly detectorState: DetectorStateRepository;
  /** States this store wrote, per warm container: unchanged ones are not rewritten. */
  private readonly instanceMemo: StateWriteMemo;
  private readonly hostMemo: StateWriteMemo;
  /** digestsWrittenSince, once it is recorded. */
  private digestsSince: string | null = null;

  constructor(options: StoreOptions) {
    this.ctx = storeContext(options);
    checkHeartbeats(this.ctx);
    this.instanceMemo = new StateWriteMemo(this.ctx.instanceHeartbeatMs);
    this.hostMemo = new StateWriteMemo(this.ctx.hostHeartbeatMs, HOST_MEMO_SIZE);
    this.plans = new PlanRepository(this.ctx);
    this.migrations = new MigrationRecordRepository(this.ctx);
    this.detectorState = new DetectorStateRepository(this.ctx);
  }

  /** The store's clock: what stamps its writes and judges expiry. */
  now(): Date {
    return new Date(this.ctx.clock.now());
  }

  /**
   * Stores a validated message: samples first (idempotent pages), then each state with its
   * conditional write. Safe to repeat: a redelivered message rewrites the same pages and finds
   * every state stale. (The ingest stage writes a whole batch's pages at once instead: putStates,
   * then putSamplePages.)
   */
  async putReports(message: Pick<ReportMessage, 'hypervisors' | 'instances'>): Promise<IngestOutcome> {
    const samples = await this.putSamples(message.hypervisors, message.instances);
    const sighted: Sighting[] = [];
    const states = await this.putStates(message, sighted);
    await this.putSightings(sighted);
    return { ...states, samples };
  }

  /**
   * The state writes of a message: each host and instance report, written only if newer and
   * changed. Hosts skipped as unchanged are appended to `sighted`: write them with putSightings
   * (once per batch), or they read as down between heartbeats.
   */
  async putStates(
    message: Pick<ReportMessage, 'hypervisors' | 'instances'>,
    sighted: Sighting[] = [],
  ): Promise<Omit<IngestOutcome, 'samples'>> {
    const hosts = await this.count(message.hypervisors, async (r) => {
      const outcome = await this.putHostReport(r);
      if (outcome === 'unchanged')
        sighted.push({ host: r.host, nodename: r.nodename, reported_at: r.reported_at });
      return outcome;
    });
    const instances = await this.count(message.instances, (r) => this.putInstanceReport(r));
    return { hosts, instances };
  }

  /**
   * Records hosts seen reporting an unchanged state (one item per call, hostSightings.ts). When it
   * fails the memo forgets them, so the redelivered reports are written rather than found stale.
   */
  async putSightings(sighted: readonly Sighting[]): Promise<void> {
    try {
      await putSightings(this.ctx, sighted);
    } catch (error) {
      this.forgetSighted(sighted);
      throw error;
    }
  }

  /** Unwritten sightings: their hosts' next reports must be written, not skipped as unchanged. */
  private forgetSighted(sighted: readonly Sighting[]): void {
    for (const s of sighted) this.hostMemo.forget(nodeKey(s.host, s.nodename));
  }

  putHostReport(report: HypervisorReport): Promise<HostWriteOutcome> {
    return putHostReport(this.ctx, report, this.hostMemo);
  }
  putInstanceReport(report: InstanceReport): Promise<InstanceWriteOutcome> {
    return putInstanceReport(this.ctx, report, this.instanceMemo);
  }
  /** Writes the samples of one message: a page per compute node (more for a very large one). */
  putSamples(
    hypervisors: readonly HypervisorReport[],
    instances: readonly InstanceReport[],
  ): Promise<SampleWriteStats> {
    return putSamples(this.ctx, hypervisors, instances);
  }
  /** The sample pages of one message, to write later with others (putSamplePages). */
  samplePages(message: Pick<ReportMessage, 'hypervisors' | 'instances'>): PageWrite[] {
    return messagePages(message.hypervisors, message.instances, this.ctx.sampleRetentionSeconds);
  }
  /** Writes pages of many messages, 25 per call; reports (does not throw for) pages left unwritten. */
  putSamplePages(pages: readonly PageWrite[]): Promise<PageWriteResult> {
    return writePages(this.ctx, pages);
  }
  /**
   * putSamplePages with the batch's host sightings in the same BatchWriteItem calls. When the
   * sightings stay unwritten (`alongsideError`), the memo forgets their hosts, as putSightings does.
   */
  async putSamplePagesAndSightings(
    pages: readonly PageWrite[],
    sighted: readonly Sighting[],
  ): Promise<PageWriteResult> {
    let result: PageWriteResult;
    try {
      result = await writePages(this.ctx, pages, sightingItems(this.ctx, sighted));
    } catch (error) {
      this.forgetSighted(sighted);
      throw error;
    }
    if (result.alongsideError !== undefined) this.forgetSighted(sighted);
    return result;
  }

  /** Called once per ingest batch, after its writes: the newest `reported_at` it stored. Only moves forward. */
  noteIngested(newestReportAt: string): Promise<void> {
    return noteIngested(this.ctx, newestReportAt);
  }
  /** The newest `reported_at` ingested so far (null before any batch): "has anything new arrived?". */
  ingestWatermark(): Promise<string | null> {
    return ingestWatermark(this.ctx);
  }

  getHost(host: string, nodename = host): Promise<StoredHost | undefined> {
    return getHost(this.ctx, host, nodename);
  }
  listHosts(pageSize?: number): Promise<StoredHost[]> {
    return listHosts(this.ctx, pageSize);
  }
  hostsChangedSince(cursor?: string, overlapMs?: number): Promise<HostChanges> {
    return hostsChangedSince(this.ctx, cursor, overlapMs);
  }
  /** Whether the store holds this compute node (a consistent read of its key only). */
  hasNode(host: string, nodename: string): Promise<boolean> {
    return hasNode(this.ctx, host, nodename);
  }

  getInstance(uuid: string): Promise<StoredInstance | undefined> {
    return getInstance(this.ctx, uuid);
  }
  instancesByHost(host: string): Promise<StoredInstance[]> {
    return instancesByHost(this.ctx, host);
  }
  listInstances(): Promise<StoredInstance[]> {
    return listInstances(this.ctx);
  }
  /** Records a VM's move (`last_migrated_at`, and its new host when given) on its instance item. */
  markMigrated(uuid: string, at: string, host?: string): Promise<void> {
    return markMigrated(this.ctx, uuid, at, host);
  }

  /** A host's samples, or an instance's on the node(s) named, with `from <= ts <= to`, oldest first. */
  samplesFor(entity: SampleEntity, from: Date, to: Date): Promise<StoredSample[]> {
    return samplesFor(this.ctx, entity, from, to);
  }
  /** Every sample reported on a node in `[from, to]` (its own and its VMs'), one Query. */
  nodeWindow(host: string, nodename: string, from: Date, to: Date): Promise<NodeWindow> {
    return nodeWindow(this.ctx, host, nodename, from, to);
  }

  /** Every node's samples in `[from, to]` from the window digests: a few Queries per minute, not one per node. */
  fleetWindows(from: Date, to: Date): Promise<FleetWindows> {
    return fleetWindows(this.ctx, from, to);
  }
  /**
   * When ingest started writing window digests (ISO-8601), or null: windows before it need
   * nodeWindow. Written once and never changed, so a warm container reads it until it is there, then no more.
   */
  async digestsWrittenSince(): Promise<string | null> {
    this.digestsSince ??= await digestsWrittenSince(this.ctx);
    return this.digestsSince;
  }

  claimResources(
    host: string,
    nodename: string,
    request: ClaimRequest,
    limits: ClaimLimits,
  ): Promise<boolean> {
    // A claim changes what the next report must write (it may retire or expire it): never skip
    // that write. (The memo cannot see claims made by other processes; docs/store.md.)
    this.hostMemo.forget(nodeKey(host, nodename));
    return claimResources(this.ctx, host, nodename, request, limits);
  }
  releaseClaim(host: string, nodename: string, claimId: string): Promise<boolean> {
    return releaseClaim(this.ctx, host, nodename, claimId);
  }

  putDecision(requestId: string, decision: unknown): Promise<boolean> {
    return putDecision(this.ctx, requestId, decision);
  }
  getDecision<D = unknown>(requestId: string): Promise<DecisionRecord<D> | undefined> {
    return getDecision<D>(this.ctx, requestId);
  }

  acquireLease(name: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return acquireLease(this.ctx, name, owner, ttlMs);
  }
  releaseLease(name: string, owner: string): Promise<boolean> {
    return releaseLease(this.ctx, name, owner);
  }
  /** The names of the leases held now, sorted. */
  heldLeases(): Promise<string[]> {
    return heldLeases(this.ctx);
  }

  private async count<R>(
    reports: readonly R[],
    write: (r: R) => Promise<InstanceWriteOutcome | HostWriteOutcome>,
  ): Promise<StateCounts> {
    const outcomes = await mapLimit(reports, this.ctx.concurrency, write);
    const counts: StateCounts = { stored: 0, unchanged: 0, stale: 0 };
    for (const outcome of outcomes) counts[outcome]++;
    return counts;
  }
}
