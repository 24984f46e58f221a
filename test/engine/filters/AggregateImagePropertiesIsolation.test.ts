import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../../lib/config/options.js';
import { PASS, PASS_ALL, rejectionMessage } from '../../../lib/engine/filter.js';
import { AggregateImagePropertiesIsolation } from '../../../lib/engine/filters/AggregateImagePropertiesIsolation.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

const filter = AggregateImagePropertiesIsolation;
type Props = Record<string, string | number | boolean>;

function imageSpec(properties: Props | null): RequestSpec {
  return makeSpec({ image: properties ? { id: 'img', properties } : null });
}

function hostIn(...metadata: Record<string, string>[]): HostState {
  return makeHost({ aggregates: metadata.map((m, i) => ({ name: `agg${i}`, metadata: m })) });
}

function passes(props: Props | null, host: HostState, config: SchedulerConfig = makeConfig()): boolean {
  const spec = imageSpec(props);
  const ctx = makeContext(config);
  const state = filter.prepare?.(spec, ctx);
  if (state === PASS_ALL) return true;
  return filter.check(host, spec, state as never, ctx) === PASS;
}

describe('AggregateImagePropertiesIsolation', () => {
  it('runs once per request and on rebuild', () => {
    // Assess
    expect(filter.runFilterOncePerRequest).toBe(true);
    expect(filter.runOnRebuild).toBe(true);
  });

  it.each([
    ['a request without an image', null],
    ['an image without properties', {}],
    ['an image with only custom properties (Nova drops them)', { foo: 'bar' }],
    ['an image whose only property is a false boolean', { hw_qemu_guest_agent: 'no' }],
  ])('passes every host for %s', (_name, props) => {
    // Act
    const state = filter.prepare?.(imageSpec(props), makeContext());
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it.each([
    ['a property listed by the aggregate passes', { hw_vm_mode: 'hvm' }, [{ hw_vm_mode: 'hvm' }], true],
    ['a property the aggregate does not list fails', { hw_vm_mode: 'hvm' }, [{ hw_vm_mode: 'xen' }], false],
    ['aggregate values are comma-split', { hw_vm_mode: 'hvm' }, [{ hw_vm_mode: 'xen, hvm' }], true],
    [
      'values are unioned across aggregates',
      { hw_vm_mode: 'hvm' },
      [{ hw_vm_mode: 'xen' }, { hw_vm_mode: 'hvm' }],
      true,
    ],
    ['a host without that metadata key passes', { hw_vm_mode: 'hvm' }, [{ ssd: 'true' }], true],
    ['a host without aggregates passes', { hw_vm_mode: 'hvm' }, [], true],
    ['an image lacking the property passes', { os_distro: 'ubuntu' }, [{ hw_vm_mode: 'xen' }], true],
    ['custom keys are never compared', { foo: 'bar', os_distro: 'ubuntu' }, [{ foo: 'baz' }], true],
    [
      'a boolean image value is True, not true',
      { hw_qemu_guest_agent: 'true' },
      [{ hw_qemu_guest_agent: 'true' }],
      false,
    ],
    [
      'a boolean image value matches True',
      { hw_qemu_guest_agent: 'yes' },
      [{ hw_qemu_guest_agent: 'True' }],
      true,
    ],
    [
      'a false boolean is not checked',
      { hw_qemu_guest_agent: 'no' },
      [{ hw_qemu_guest_agent: 'True' }],
      true,
    ],
    [
      'a legacy name is renamed and canonicalised',
      { architecture: 'AMD64' },
      [{ hw_architecture: 'x86_64' }],
      true,
    ],
    ['the canonical value is compared', { hw_architecture: 'amd64' }, [{ hw_architecture: 'amd64' }], false],
    [
      'an integer compares as its str()',
      { hw_maxphysaddr_bits: ' 042' },
      [{ hw_maxphysaddr_bits: '42' }],
      true,
    ],
    [
      'every matching key must list the value',
      { hw_vm_mode: 'hvm', os_distro: 'rhel' },
      [{ hw_vm_mode: 'hvm', os_distro: 'ubuntu' }],
      false,
    ],
  ])('%s', (_name, props, metadata, expected) => {
    // Act
    const result = passes(props, hostIn(...metadata));
    // Assess
    expect(result).toBe(expected);
  });

  it.each([
    ['ignores keys outside the namespace', 'hw', '_', true],
    ['checks keys inside the namespace', 'os', '_', false],
    ['uses the configured separator', 'hw', '.', true],
  ])('with a namespace, %s', (_name, namespace, separator, expected) => {
    // Prepare
    const config = makeConfig({
      filter_scheduler: {
        aggregate_image_properties_isolation_namespace: namespace,
        aggregate_image_properties_isolation_separator: separator,
      },
    });
    const host = hostIn({ hw_vm_mode: 'hvm', os_distro: 'windows' });
    // Act
    const result = passes({ hw_vm_mode: 'hvm', os_distro: 'ubuntu' }, host, config);
    // Assess
    expect(result).toBe(expected);
  });

  it('fails without a namespace when any image property conflicts', () => {
    // Act
    const result = passes(
      { hw_vm_mode: 'hvm', os_distro: 'ubuntu' },
      hostIn({ hw_vm_mode: 'hvm', os_distro: 'windows' }),
    );
    // Assess
    expect(result).toBe(false);
  });

  it('does not reuse answers across requests', () => {
    // Prepare
    const host = hostIn({ os_distro: 'ubuntu' });
    passes({ os_distro: 'ubuntu' }, host);
    // Act
    const result = passes({ os_distro: 'rhel' }, host);
    // Assess
    expect(result).toBe(false);
  });

  it('explains which property the aggregates do not allow', () => {
    // Prepare
    const spec = imageSpec({ os_distro: 'ubuntu' });
    const ctx = makeContext();
    const state = filter.prepare?.(spec, ctx);
    // Act
    const reason = rejectionMessage(filter, hostIn({ os_distro: 'rhel,windows' }), spec, state as never, ctx);
    // Assess
    expect(reason).toBe(
      "image property os_distro=ubuntu is not among host1's aggregate metadata values os_distro=rhel,windows",
    );
  });
});
