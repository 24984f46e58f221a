import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../../lib/config/options.js';
import { PASS, PASS_ALL, rejectionMessage } from '../../../lib/engine/filter.js';
import { ImagePropertiesFilter } from '../../../lib/engine/filters/ImagePropertiesFilter.js';
import { RequestError } from '../../../lib/model/errors.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

const filter = ImagePropertiesFilter;
type Props = Record<string, string | number | boolean>;
type HostInput = Partial<HostStateInput>;

function imageSpec(properties: Props | null): RequestSpec {
  return makeSpec({ image: properties ? { id: 'img', properties } : null });
}

function prepare(props: Props | null, config: SchedulerConfig = makeConfig()) {
  const spec = imageSpec(props);
  const ctx = makeContext(config);
  return { spec, ctx, state: filter.prepare?.(spec, ctx) };
}

function passes(props: Props | null, host: HostInput, config?: SchedulerConfig): boolean {
  const { spec, ctx, state } = prepare(props, config);
  if (state === PASS_ALL) return true;
  return filter.check(makeHost(host), spec, state as never, ctx) === PASS;
}

const kvmHost: HostInput = {
  supported_instances: [['x86_64', 'kvm', 'hvm']],
  hypervisor_version: 6000000,
  cpu_info: { maxphysaddr: { bits: 46 } },
};

describe('ImagePropertiesFilter', () => {
  it('runs once per request and on rebuild', () => {
    // Assess
    expect(filter.runFilterOncePerRequest).toBe(true);
    expect(filter.runOnRebuild).toBe(true);
  });

  it.each([
    ['no image', null],
    ['an image without properties', {}],
    ['only a version requirement (not checked alone)', { img_hv_requested_version: '>=99' }],
    ['only an address width (not checked alone)', { hw_maxphysaddr_bits: 64 }],
    ['only custom properties', { foo: 'bar' }],
  ])('passes every host for %s', (_name, props) => {
    // Act
    const { state } = prepare(props);
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it.each<[string, Props, HostInput, boolean]>([
    [
      'all three match one tuple',
      { hw_architecture: 'x86_64', img_hv_type: 'kvm', hw_vm_mode: 'hvm' },
      kvmHost,
      true,
    ],
    ['the architecture differs', { hw_architecture: 'aarch64' }, kvmHost, false],
    ['the hypervisor type differs', { img_hv_type: 'xen' }, kvmHost, false],
    ['the VM mode differs', { hw_vm_mode: 'xen' }, kvmHost, false],
    ['only the architecture is requested', { hw_architecture: 'x86_64' }, kvmHost, true],
    [
      'membership in the tuple counts, not position',
      { hw_architecture: 'x86_64', hw_vm_mode: 'hvm' },
      { supported_instances: [['hvm', 'kvm', 'x86_64']] },
      true,
    ],
    [
      'a host without supported_instances fails',
      { hw_architecture: 'x86_64' },
      { supported_instances: [] },
      false,
    ],
    [
      'any one tuple may match everything',
      { hw_architecture: 'aarch64', img_hv_type: 'qemu' },
      {
        supported_instances: [
          ['x86_64', 'kvm', 'hvm'],
          ['aarch64', 'qemu', 'hvm'],
        ],
      },
      true,
    ],
    [
      'the values must all be in the same tuple',
      { hw_architecture: 'aarch64', img_hv_type: 'kvm' },
      {
        supported_instances: [
          ['x86_64', 'kvm', 'hvm'],
          ['aarch64', 'qemu', 'hvm'],
        ],
      },
      false,
    ],
    ['amd64 means x86_64', { architecture: 'amd64' }, kvmHost, true],
    ['i386 means i686', { hw_architecture: 'i386' }, { supported_instances: [['i686', 'kvm', 'hvm']] }, true],
    [
      'xapi means xen',
      { hypervisor_type: 'XAPI' },
      { supported_instances: [['x86_64', 'xen', 'xen']] },
      true,
    ],
    ['pv means xen', { vm_mode: 'pv' }, { supported_instances: [['x86_64', 'xen', 'xen']] }, true],
    ['hv means hvm', { hw_vm_mode: 'hv' }, kvmHost, true],
    ['baremetal means hvm', { hw_vm_mode: 'baremetal' }, kvmHost, true],
    [
      'host tuples are canonicalised too',
      { hw_architecture: 'x86_64', img_hv_type: 'qemu', hw_vm_mode: 'hvm' },
      { supported_instances: [['AMD64', 'QEMU', 'HVM']] },
      true,
    ],
  ])('%s', (_name, props, host, expected) => {
    // Act
    const result = passes(props, host);
    // Assess
    expect(result).toBe(expected);
  });

  it.each<[string, Props, HostInput, boolean]>([
    [
      'applies to images without an architecture',
      { img_hv_type: 'kvm' },
      { supported_instances: [['aarch64', 'kvm', 'hvm']] },
      false,
    ],
    ['is satisfied by a matching host', { img_hv_type: 'kvm' }, kvmHost, true],
    ['alone makes the filter check hosts', {}, { supported_instances: [['aarch64', 'kvm', 'hvm']] }, false],
    [
      'yields to the image architecture',
      { hw_architecture: 'aarch64' },
      { supported_instances: [['aarch64', 'kvm', 'hvm']] },
      true,
    ],
  ])('image_properties_default_architecture %s', (_name, props, host, expected) => {
    // Prepare
    const config = makeConfig({ filter_scheduler: { image_properties_default_architecture: 'X86_64' } });
    // Act
    const result = passes(props, host, config);
    // Assess
    expect(result).toBe(expected);
  });

  it.each([
    ['a range includes its lower bound', '>=6.0,<6.2', 6000000, true],
    ['a range excludes its upper bound', '>=6.0,<6.2', 6002000, false],
    ['spaces around the comparisons are allowed', ' >= 6.0 , < 6.2 ', 6001005, true],
    ['"==6.2" matches 6.2.0', '==6.2', 6002000, true],
    ['"==6.2" does not match 6.2.1', '==6.2', 6002001, false],
    ['"<=4" rejects 4.2.1', '<=4', 4002001, false],
    ['"!=" excludes one version', '!=6.0', 6000000, false],
    ['">" is strict', '>6.0', 6000000, false],
    ['a two-group version reads as major.minor', '>=5.0', 5000, true],
    ['a final release is after its release candidate', '>6.0rc1', 6000000, true],
    ['a final release is after its dev release', '>6.0.dev3', 6000000, true],
    ['a post release is after the final release', '<6.0.post1', 6000000, true],
    ['a local version label sorts after the plain version', '<6.0+local.1', 6000000, true],
    ['a version with an epoch is later', '<1!1.0', 6000000, true],
    ['a "v" prefix is allowed', '>=v6', 6000000, true],
  ])('img_hv_requested_version: %s', (_name, predicate, version, expected) => {
    // Act
    const result = passes(
      { hw_architecture: 'x86_64', img_hv_requested_version: predicate },
      { ...kvmHost, hypervisor_version: version },
    );
    // Assess
    expect(result).toBe(expected);
  });

  it('does not check the version of a host that does not report one', () => {
    // Act
    const result = passes(
      { hw_architecture: 'x86_64', img_hv_requested_version: '>=99' },
      { ...kvmHost, hypervisor_version: null },
    );
    // Assess
    expect(result).toBe(true);
  });

  it.each([['6.0'], ['>=abc'], ['>=6.0,'], ['~=6.0']])(
    'raises a RequestError for the malformed version requirement %j',
    (predicate) => {
      // Act
      const act = () => prepare({ hw_architecture: 'x86_64', img_hv_requested_version: predicate });
      // Assess
      expect(act).toThrow(RequestError);
      expect(act).toThrow(`img_hv_requested_version='${predicate}'`);
    },
  );

  it.each([
    ['a wide enough host passes', 42, { maxphysaddr: { bits: 46 } }, true],
    ['an equal width passes', 46, { maxphysaddr: { bits: 46 } }, true],
    ['a narrower host fails', 48, { maxphysaddr: { bits: 46 } }, false],
    ['a host without cpu_info passes', 48, null, true],
    ['a host without maxphysaddr passes', 48, { vendor: 'Intel' }, true],
    ['a zero requirement is not checked', 0, { maxphysaddr: { bits: 46 } }, true],
  ])('hw_maxphysaddr_bits (cpu_info parsed from JSON): %s', (_name, bits, cpuInfo, expected) => {
    // Act
    const result = passes(
      { hw_architecture: 'x86_64', hw_maxphysaddr_bits: bits },
      { ...kvmHost, cpu_info: cpuInfo },
    );
    // Assess
    expect(result).toBe(expected);
  });

  it('reads the address width from cpu_info given as a JSON string, as real hosts report it', () => {
    // Act
    const result = passes(
      { hw_architecture: 'x86_64', hw_maxphysaddr_bits: 48 },
      { ...kvmHost, cpu_info: '{"maxphysaddr": {"bits": 40}}' },
    );
    // Assess
    expect(result).toBe(false);
  });

  it('raises a RequestError for a non-integer hw_maxphysaddr_bits in a hand-built spec', () => {
    // Prepare
    const spec = makeSpec({ image: { id: 'img', properties: { hw_architecture: 'x86_64' } } });
    spec.image!.properties.hw_maxphysaddr_bits = 'wide';
    // Act
    const act = () => filter.prepare?.(spec, makeContext());
    // Assess
    expect(act).toThrow(/hw_maxphysaddr_bits='wide'/);
  });

  it.each<[string, Props, HostInput, string]>([
    [
      'lists the supported tuples when none fits',
      { hw_architecture: 'aarch64', img_hv_type: 'kvm' },
      kvmHost,
      'image requires architecture aarch64, hypervisor type kvm, but host1 supports only (x86_64, kvm, hvm)',
    ],
    [
      'says when the host reports no supported_instances',
      { hw_vm_mode: 'hvm' },
      { supported_instances: [] },
      'image requires VM mode hvm, but host1 reports no supported_instances',
    ],
    [
      'gives the requested and the host version',
      { hw_architecture: 'x86_64', img_hv_requested_version: '>=7.1' },
      kvmHost,
      "image requires hypervisor version '>=7.1' (img_hv_requested_version), but host1 runs 6.0.0",
    ],
    [
      'gives the requested and the host address width',
      { hw_architecture: 'x86_64', hw_maxphysaddr_bits: 52 },
      kvmHost,
      "image requires hw_maxphysaddr_bits >= 52, but host1's cpu_info reports maxphysaddr.bits = 46",
    ],
  ])('explain %s', (_name, props, host, expected) => {
    // Prepare
    const { spec, ctx, state } = prepare(props);
    // Act
    const reason = rejectionMessage(filter, makeHost(host), spec, state as never, ctx);
    // Assess
    expect(reason).toBe(expected);
  });
});
