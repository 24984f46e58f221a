/**
 * The fleet store: every read and write the stages need, bound to one client, one set of table
 * names and one clock. Each method is a thin call into a small module, so each stays testable alone.
 */
import type { HypervisorReport, InstanceReport, ReportMessage } from '../model/reports.js';
import type { BatchWriteStats } from './batchWriter.js';
import { type ClaimLimits, type ClaimRequest, claimResources } from './claims.js';
import { mapLimit } from './concurrency.js';
import { type StoreContext, type StoreOptions, storeContext } from './context.js';
import { type DecisionRecord, getDecision, putDecision } from './decisions.js';
import type { StoredHost } from './hostItems.js';
import { getHost, type HostChanges, hostsChangedSince, listHosts } from './hostReads.js';
import { putHostReport, type WriteOutcome } from './hostWrites.js';
import {
  getInstance,
  instancesByHost,
  listInstances,
  putInstanceReport,
  type StoredInstance,
} from './instances.js';
import { acquireLease, type Lease, releaseLease } from './leases.js';
import { releaseClaim } from './releaseClaim.js';
import { putSamples, type SampleEntity, type StoredSample, samplesFor } from './samples.js';

export interface StateCounts {
  /** Reports that replaced (or created) the stored state. */
  stored: number;
  /** Reports as old as or older than the stored one: changed nothing (duplicates, out of order). */
  stale: number;
}

export interface IngestOutcome {
  hosts: StateCounts;
  instances: StateCounts;
  samples: BatchWriteStats;
}

export class FleetStore {
  readonly ctx: StoreContext;

  constructor(options: StoreOptions) {
    this.ctx = storeContext(options);
  }

  /**
   * Stores a validated message: samples first (idempotent), then each state with its conditional
   * write. Safe to repeat: a redelivered message rewrites identical samples and finds every state stale.
   */
  async putReports(message: Pick<ReportMessage, 'hypervisors' | 'instances'>): Promise<IngestOutcome> {
    const samples = await this.putSamples(message.hypervisors, message.instances);
    const hosts = await this.count(message.hypervisors, (r) => this.putHostReport(r));
    const instances = await this.count(message.instances, (r) => this.putInstanceReport(r));
    return { hosts, instances, samples };
  }

  putHostReport(report: HypervisorReport): Promise<WriteOutcome> {
    return putHostReport(this.ctx, report);
  }
  putInstanceReport(report: InstanceReport): Promise<WriteOutcome> {
    return putInstanceReport(this.ctx, report);
  }
  putSamples(
    hypervisors: readonly HypervisorReport[],
    instances: readonly InstanceReport[],
  ): Promise<BatchWriteStats> {
    return putSamples(this.ctx, hypervisors, instances);
  }

  getHost(host: string, nodename = host): Promise<StoredHost | undefined> {
    return getHost(this.ctx, host, nodename);
  }
  listHosts(pageSize?: number): Promise<StoredHost[]> {
    return listHosts(this.ctx, pageSize);
  }
  hostsChangedSince(cursor?: string): Promise<HostChanges> {
    return hostsChangedSince(this.ctx, cursor);
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

  samplesFor(entity: SampleEntity, from: Date, to: Date): Promise<StoredSample[]> {
    return samplesFor(this.ctx, entity, from, to);
  }

  claimResources(
    host: string,
    nodename: string,
    request: ClaimRequest,
    limits: ClaimLimits,
  ): Promise<boolean> {
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

  private async count<R>(
    reports: readonly R[],
    write: (r: R) => Promise<WriteOutcome>,
  ): Promise<StateCounts> {
    const outcomes = await mapLimit(reports, this.ctx.concurrency, write);
    const stored = outcomes.filter((o) => o === 'stored').length;
    return { stored, stale: outcomes.length - stored };
  }
}
