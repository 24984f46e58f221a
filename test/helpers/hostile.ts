/**
 * Hostile values for the entry-point property tests: numbers that are finite but absurd (or break
 * DynamoDB and safe-integer arithmetic), and strings that are not one clean line of Unicode.
 */
import fc from 'fast-check';

/** Finite numbers no real host, flavor or sample has; each once broke a reader or a writer. */
const HOSTILE_NUMBERS = [4e15, 1e200, 1e306, -1e200, Number.MAX_SAFE_INTEGER, 2 ** 60, -5e15];

/** Ids and names that must be refused wherever they enter. */
export const HOSTILE_STRINGS = [
  '\ud800',
  'cmp\udfff-1',
  'a\r\nx-injected: yes',
  'nul\u0000',
  '\u001b]0;pwned\u0007',
  'bell\u0007',
  'del\u007f',
  'c1\u009b31m',
  'line\u2028sep',
  'x'.repeat(256),
  '',
];

/** A hostile number or string, mostly from the lists above, sometimes freshly generated. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.double({ min: 1e16, max: 1e300, noNaN: true }),
  fc.double({ min: -1e300, max: -1e16, noNaN: true }),
);

/** A string with at least one control character or lone surrogate somewhere in it. */
export const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.oneof(
        fc.integer({ min: 0, max: 0x1f }),
        fc.integer({ min: 0x7f, max: 0x9f }),
        fc.integer({ min: 0xd800, max: 0xdfff }),
      ),
      fc.string({ maxLength: 8 }),
    )
    .map(([a, code, b]) => `${a}${String.fromCharCode(code)}${b}`),
);

/** Numeric fields of a hypervisor report (paths as they appear in the document). */
const HOST_NUMBER_FIELDS = [
  'vcpus_total',
  'vcpus_used',
  'total_usable_ram_mb',
  'free_ram_mb',
  'total_usable_disk_gb',
  'free_disk_mb',
  'disk_mb_used',
  'cpu_allocation_ratio',
  'ram_allocation_ratio',
  'disk_allocation_ratio',
  'num_io_ops',
] as const;

/** String fields of a hypervisor report that are ids or names. */
const HOST_STRING_FIELDS = ['host', 'nodename', 'availability_zone'] as const;

/** Numeric fields of a request's flavor. */
export const FLAVOR_NUMBER_FIELDS = ['vcpus', 'memory_mb', 'root_gb', 'ephemeral_gb', 'swap'] as const;

/** One hostile change to a hypervisor report: which field, what value, and the path an error must name. */
export const hostileHostChange = fc.oneof(
  fc.record({ field: fc.constantFrom(...HOST_NUMBER_FIELDS), value: hostileNumber as fc.Arbitrary<unknown> }),
  fc.record({ field: fc.constantFrom(...HOST_STRING_FIELDS), value: hostileString as fc.Arbitrary<unknown> }),
);
