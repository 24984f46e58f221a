import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import {
  canonicalArch,
  canonicalHvType,
  canonicalImageProperties,
  canonicalVmMode,
  isKnownImageProperty,
  isTruthyImageProperty,
} from '../../lib/model/imageMeta.js';
import { makeSpec } from '../helpers/factories.js';

describe('canonicalImageProperties', () => {
  it.each([
    ['architecture becomes hw_architecture', 'architecture', 'x86_64', 'hw_architecture', 'x86_64'],
    ['hypervisor_type becomes img_hv_type', 'hypervisor_type', 'kvm', 'img_hv_type', 'kvm'],
    ['vm_mode becomes hw_vm_mode', 'vm_mode', 'hvm', 'hw_vm_mode', 'hvm'],
    [
      'hypervisor_version_requires becomes img_hv_requested_version',
      'hypervisor_version_requires',
      '>=6.0',
      'img_hv_requested_version',
      '>=6.0',
    ],
    ['owner_id becomes img_owner_id', 'owner_id', 'p1', 'img_owner_id', 'p1'],
    ['vmware_ostype becomes os_distro', 'vmware_ostype', 'ubuntu', 'os_distro', 'ubuntu'],
    ['auto_disk_config becomes hw_auto_disk_config', 'auto_disk_config', 'x', 'hw_auto_disk_config', 'x'],
  ])('renames a legacy key: %s', (_name, legacy, value, current, expected) => {
    // Act
    const props = canonicalImageProperties({ [legacy]: value });
    // Assess
    expect(props).toEqual({ [current]: expected });
  });

  it('lets the current name win over the legacy one', () => {
    // Act
    const props = canonicalImageProperties({ architecture: 'aarch64', hw_architecture: 'x86_64' });
    // Assess
    expect(props).toEqual({ hw_architecture: 'x86_64' });
  });

  it.each([
    ['hw_architecture', 'X86_64', 'x86_64'],
    ['hw_architecture', 'amd64', 'x86_64'],
    ['hw_architecture', 'i386', 'i686'],
    ['hw_architecture', 'x86_32', 'i686'],
    ['hw_emulation_architecture', 'AArch64', 'aarch64'],
    ['img_hv_type', 'QEMU', 'qemu'],
    ['img_hv_type', 'XAPI', 'xen'],
    ['hw_vm_mode', 'PV', 'xen'],
    ['hw_vm_mode', 'hv', 'hvm'],
    ['hw_vm_mode', 'baremetal', 'hvm'],
    ['hw_vm_mode', 'HVM', 'hvm'],
    ['os_type', 'Linux', 'linux'],
    ['hw_vif_model', 'VirtualE1000', 'e1000'],
    ['hw_scsi_model', 'lsiLogicSAS', 'lsisas1068'],
    ['hw_disk_bus', 'virtio', 'virtio'],
  ])('canonicalises %s=%s to %s', (key, value, expected) => {
    // Act
    const props = canonicalImageProperties({ [key]: value });
    // Assess
    expect(props[key]).toBe(expected);
  });

  it('canonicalises the value of a renamed legacy key', () => {
    // Act
    const props = canonicalImageProperties({ architecture: 'AMD64', hypervisor_type: 'xapi', vm_mode: 'pv' });
    // Assess
    expect(props).toEqual({ hw_architecture: 'x86_64', img_hv_type: 'xen', hw_vm_mode: 'xen' });
  });

  it.each([
    ['yes', 'True'],
    ['no', 'False'],
    ['true', 'True'],
    ['FALSE', 'False'],
    ['1', 'True'],
    ['0', 'False'],
    ['on', 'True'],
    ['off', 'False'],
    ['t', 'True'],
    ['n', 'False'],
    [' Yes ', 'True'],
    ['maybe', 'False'],
    [true, 'True'],
    [false, 'False'],
    [1, 'True'],
    [2, 'False'],
  ])('turns the boolean value %j into %s', (value, expected) => {
    // Act
    const props = canonicalImageProperties({ hw_qemu_guest_agent: value });
    // Assess
    expect(props.hw_qemu_guest_agent).toBe(expected);
  });

  it.each([
    ['42', '42'],
    [' 042 ', '42'],
    ['-3', '-3'],
    [42.7, '42'],
    [true, '1'],
  ])('turns the integer value %j into %s', (value, expected) => {
    // Act
    const props = canonicalImageProperties({ hw_maxphysaddr_bits: value });
    // Assess
    expect(props.hw_maxphysaddr_bits).toBe(expected);
  });

  it.each(['abc', '4.2', ''])('rejects the non-integer %j for an integer field', (value) => {
    // Act
    const act = () => canonicalImageProperties({ hw_numa_nodes: value }, 'req.json');
    // Assess
    expect(act).toThrow(ValidationError);
    expect(act).toThrow(/req\.json: image\.properties\.hw_numa_nodes: must be an integer/);
  });

  it.each([
    ['ide', { hw_disk_bus: 'ide' }],
    ['lsiLogic', { hw_disk_bus: 'scsi', hw_scsi_model: 'lsilogic' }],
    ['paravirtual', { hw_disk_bus: 'scsi', hw_scsi_model: 'vmpvscsi' }],
  ])('translates vmware_adaptertype=%s', (adapter, expected) => {
    // Act
    const props = canonicalImageProperties({ vmware_adaptertype: adapter });
    // Assess
    expect(props).toEqual(expected);
  });

  it('lets hw_disk_bus win over vmware_adaptertype', () => {
    // Act
    const props = canonicalImageProperties({ vmware_adaptertype: 'ide', hw_disk_bus: 'virtio' });
    // Assess
    expect(props.hw_disk_bus).toBe('virtio');
  });

  it('keeps unknown keys, stringified like Python, for custom filters', () => {
    // Act
    const props = canonicalImageProperties({
      foo: 'Bar',
      size: 10,
      flag: true,
      'trait:CUSTOM_X': 'required',
    });
    // Assess
    expect(props).toEqual({ foo: 'Bar', size: '10', flag: 'True', 'trait:CUSTOM_X': 'required' });
  });

  it('stringifies values of string fields without changing them', () => {
    // Act
    const props = canonicalImageProperties({ os_distro: 'Ubuntu', hw_video_ram: 64, hw_mem_page_size: 2048 });
    // Assess
    expect(props).toEqual({ os_distro: 'Ubuntu', hw_video_ram: '64', hw_mem_page_size: '2048' });
  });

  it('is applied when a request spec is parsed', () => {
    // Act
    const spec = makeSpec({
      image: { id: 'img', properties: { architecture: 'AMD64', hw_boot_menu: 'yes' } },
    });
    // Assess
    expect(spec.image?.properties).toEqual({ hw_architecture: 'x86_64', hw_boot_menu: 'True' });
  });
});

describe('isKnownImageProperty', () => {
  it.each([
    ['hw_architecture', true],
    ['img_hv_requested_version', true],
    ['hw_maxphysaddr_bits', true],
    ['os_type', true],
    ['traits_required', true],
    ['architecture', false],
    ['foo', false],
    ['trait:CUSTOM_X', false],
    ['hw_numa_cpus.0', false],
  ])('says %s is %s', (key, known) => {
    // Act
    const result = isKnownImageProperty(key);
    // Assess
    expect(result).toBe(known);
  });
});

describe('isTruthyImageProperty', () => {
  it.each([
    ['a False boolean is false', 'hw_boot_menu', 'False', false],
    ['a True boolean is true', 'hw_boot_menu', 'True', true],
    ['a zero integer is false', 'hw_numa_nodes', '0', false],
    ['a non-zero integer is true', 'hw_numa_nodes', '2', true],
    ['a "0" string field is true', 'os_distro', '0', true],
    ['an empty string is false', 'os_distro', '', false],
    ['a missing value is false', 'os_distro', undefined, false],
  ])('%s', (_name, key, value, expected) => {
    // Act
    const result = isTruthyImageProperty(key, value);
    // Assess
    expect(result).toBe(expected);
  });
});

describe('canonical value helpers', () => {
  it.each([
    ['canonicalArch', canonicalArch, 'i586', 'i686'],
    ['canonicalArch', canonicalArch, 'x86_32p', 'i686'],
    ['canonicalArch', canonicalArch, 'PPC64LE', 'ppc64le'],
    ['canonicalHvType', canonicalHvType, 'xapi', 'xen'],
    ['canonicalHvType', canonicalHvType, 'KVM', 'kvm'],
    ['canonicalVmMode', canonicalVmMode, 'Baremetal', 'hvm'],
    ['canonicalVmMode', canonicalVmMode, 'exe', 'exe'],
  ])('%s maps %s to %s', (_name, canonical, value, expected) => {
    // Act
    const result = canonical(value);
    // Assess
    expect(result).toBe(expected);
  });
});
