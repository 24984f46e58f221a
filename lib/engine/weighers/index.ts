import type { HostWeigher } from '../weigher.js';
import { BuildFailureWeigher } from './BuildFailureWeigher.js';
import { CPUWeigher } from './CPUWeigher.js';
import { CrossCellWeigher } from './CrossCellWeigher.js';
import { DiskWeigher } from './DiskWeigher.js';
import { HypervisorVersionWeigher } from './HypervisorVersionWeigher.js';
import { ImagePropertiesWeigher } from './ImagePropertiesWeigher.js';
import { IoOpsWeigher } from './IoOpsWeigher.js';
import { MetricsWeigher } from './MetricsWeigher.js';
import { NumInstancesWeigher } from './NumInstancesWeigher.js';
import { PCIWeigher } from './PCIWeigher.js';
import { RAMWeigher } from './RAMWeigher.js';
import { ServerGroupSoftAffinityWeigher } from './ServerGroupSoftAffinityWeigher.js';
import { ServerGroupSoftAntiAffinityWeigher } from './ServerGroupSoftAntiAffinityWeigher.js';

/** Nova's 13 weighers, registered by class name (their dotted Nova paths resolve too). */
export const NOVA_WEIGHERS: Readonly<Record<string, HostWeigher<unknown>>> = {
  BuildFailureWeigher: BuildFailureWeigher as HostWeigher<unknown>,
  CPUWeigher: CPUWeigher as HostWeigher<unknown>,
  CrossCellWeigher: CrossCellWeigher as HostWeigher<unknown>,
  DiskWeigher: DiskWeigher as HostWeigher<unknown>,
  HypervisorVersionWeigher: HypervisorVersionWeigher as HostWeigher<unknown>,
  ImagePropertiesWeigher: ImagePropertiesWeigher as HostWeigher<unknown>,
  IoOpsWeigher: IoOpsWeigher as HostWeigher<unknown>,
  MetricsWeigher: MetricsWeigher as HostWeigher<unknown>,
  NumInstancesWeigher: NumInstancesWeigher as HostWeigher<unknown>,
  PCIWeigher: PCIWeigher as HostWeigher<unknown>,
  RAMWeigher: RAMWeigher as HostWeigher<unknown>,
  ServerGroupSoftAffinityWeigher: ServerGroupSoftAffinityWeigher as HostWeigher<unknown>,
  ServerGroupSoftAntiAffinityWeigher: ServerGroupSoftAntiAffinityWeigher as HostWeigher<unknown>,
};
