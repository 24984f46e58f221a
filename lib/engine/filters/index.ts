import type { HostFilter } from '../filter.js';
import { AggregateCoreFilter } from './AggregateCoreFilter.js';
import { AggregateDiskFilter } from './AggregateDiskFilter.js';
import { AggregateImagePropertiesIsolation } from './AggregateImagePropertiesIsolation.js';
import { AggregateInstanceExtraSpecsFilter } from './AggregateInstanceExtraSpecsFilter.js';
import { AggregateIoOpsFilter } from './AggregateIoOpsFilter.js';
import { AggregateMultiTenancyIsolation } from './AggregateMultiTenancyIsolation.js';
import { AggregateNumInstancesFilter } from './AggregateNumInstancesFilter.js';
import { AggregateRamFilter } from './AggregateRamFilter.js';
import { AggregateTypeAffinityFilter } from './AggregateTypeAffinityFilter.js';
import { AllHostsFilter } from './AllHostsFilter.js';
import { AvailabilityZoneFilter } from './AvailabilityZoneFilter.js';
import { ComputeCapabilitiesFilter } from './ComputeCapabilitiesFilter.js';
import { ComputeFilter } from './ComputeFilter.js';
import { CoreFilter } from './CoreFilter.js';
import { DifferentHostFilter } from './DifferentHostFilter.js';
import { DiskFilter } from './DiskFilter.js';
import { ImagePropertiesFilter } from './ImagePropertiesFilter.js';
import { IoOpsFilter } from './IoOpsFilter.js';
import { IsolatedHostsFilter } from './IsolatedHostsFilter.js';
import { JsonFilter } from './JsonFilter.js';
import { MetricsFilter } from './MetricsFilter.js';
import { NUMATopologyFilter } from './NUMATopologyFilter.js';
import { NumInstancesFilter } from './NumInstancesFilter.js';
import { PciPassthroughFilter } from './PciPassthroughFilter.js';
import { RamFilter } from './RamFilter.js';
import { SameHostFilter } from './SameHostFilter.js';
import { ServerGroupAffinityFilter } from './ServerGroupAffinityFilter.js';
import { ServerGroupAntiAffinityFilter } from './ServerGroupAntiAffinityFilter.js';
import { SimpleCIDRAffinityFilter } from './SimpleCIDRAffinityFilter.js';

/** Nova's filters (and the removed resource filters), registered by class name. */
export const NOVA_FILTERS: Readonly<Record<string, HostFilter<unknown>>> = {
  AggregateCoreFilter: AggregateCoreFilter as HostFilter<unknown>,
  AggregateDiskFilter: AggregateDiskFilter as HostFilter<unknown>,
  AggregateImagePropertiesIsolation: AggregateImagePropertiesIsolation as HostFilter<unknown>,
  AggregateInstanceExtraSpecsFilter: AggregateInstanceExtraSpecsFilter as HostFilter<unknown>,
  AggregateIoOpsFilter: AggregateIoOpsFilter as HostFilter<unknown>,
  AggregateMultiTenancyIsolation: AggregateMultiTenancyIsolation as HostFilter<unknown>,
  AggregateNumInstancesFilter: AggregateNumInstancesFilter as HostFilter<unknown>,
  AggregateRamFilter: AggregateRamFilter as HostFilter<unknown>,
  AggregateTypeAffinityFilter: AggregateTypeAffinityFilter as HostFilter<unknown>,
  AllHostsFilter: AllHostsFilter as HostFilter<unknown>,
  AvailabilityZoneFilter: AvailabilityZoneFilter as HostFilter<unknown>,
  ComputeCapabilitiesFilter: ComputeCapabilitiesFilter as HostFilter<unknown>,
  ComputeFilter: ComputeFilter as HostFilter<unknown>,
  CoreFilter: CoreFilter as HostFilter<unknown>,
  DifferentHostFilter: DifferentHostFilter as HostFilter<unknown>,
  DiskFilter: DiskFilter as HostFilter<unknown>,
  ImagePropertiesFilter: ImagePropertiesFilter as HostFilter<unknown>,
  IoOpsFilter: IoOpsFilter as HostFilter<unknown>,
  IsolatedHostsFilter: IsolatedHostsFilter as HostFilter<unknown>,
  JsonFilter: JsonFilter as HostFilter<unknown>,
  MetricsFilter: MetricsFilter as HostFilter<unknown>,
  NUMATopologyFilter: NUMATopologyFilter as HostFilter<unknown>,
  NumInstancesFilter: NumInstancesFilter as HostFilter<unknown>,
  PciPassthroughFilter: PciPassthroughFilter as HostFilter<unknown>,
  RamFilter: RamFilter as HostFilter<unknown>,
  SameHostFilter: SameHostFilter as HostFilter<unknown>,
  ServerGroupAffinityFilter: ServerGroupAffinityFilter as HostFilter<unknown>,
  ServerGroupAntiAffinityFilter: ServerGroupAntiAffinityFilter as HostFilter<unknown>,
  SimpleCIDRAffinityFilter: SimpleCIDRAffinityFilter as HostFilter<unknown>,
};
