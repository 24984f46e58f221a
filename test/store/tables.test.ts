import { describe, expect, it } from 'vitest';
import { createTableInput } from '../../lib/store/createTables.js';
import {
  LOGICAL_TABLES,
  TABLES,
  type TableDefinition,
  tableEnvVar,
  tableNames,
  tableNamesFromEnv,
} from '../../lib/store/tables.js';

const definitions: TableDefinition[] = Object.values(TABLES);

describe('table definitions', () => {
  it.each(definitions.map((d) => [d.logicalName, d]))(
    '%s: is keyed under its own logical name',
    (name, def) => {
      // Assess
      expect(TABLES[name as keyof typeof TABLES]).toBe(def);
    },
  );

  it.each(definitions.map((d) => [d.logicalName, d]))('%s: bills on demand', (_name, def) => {
    // Assess
    expect(def.billingMode).toBe('PAY_PER_REQUEST');
  });

  it('expires samples, instances, decisions and leases by the shared expires_at attribute', () => {
    // Act
    const withTtl = definitions
      .filter((d) => d.timeToLiveAttribute === 'expires_at')
      .map((d) => d.logicalName);
    // Assess
    expect(withTtl).toEqual(expect.arrayContaining(['samples', 'instances', 'decisions', 'leases']));
  });

  it('never expires host states', () => {
    // Assess
    expect(TABLES.hosts).not.toHaveProperty('timeToLiveAttribute');
  });
});

describe('createTableInput', () => {
  it('declares each key attribute once, even when a table key is reused by an index', () => {
    // Act
    const input = createTableInput(TABLES.instances, 'placid-instances');
    // Assess
    expect(input.AttributeDefinitions).toEqual([
      { AttributeName: 'uuid', AttributeType: 'S' },
      { AttributeName: 'host', AttributeType: 'S' },
    ]);
  });

  it('maps the host change index to a HASH/RANGE key schema with its projection', () => {
    // Act
    const input = createTableInput(TABLES.hosts, 'placid-hosts');
    // Assess
    expect(input.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'byChange',
        KeySchema: [
          { AttributeName: 'change_shard', KeyType: 'HASH' },
          { AttributeName: 'updated_at', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
  });

  it('leaves GlobalSecondaryIndexes out for a table without indexes', () => {
    // Act
    const input = createTableInput(TABLES.leases, 'placid-leases');
    // Assess
    expect(input).not.toHaveProperty('GlobalSecondaryIndexes', expect.anything());
  });

  it('maps an INCLUDE projection with its attributes', () => {
    // Prepare
    const def: TableDefinition = {
      ...TABLES.samples,
      globalSecondaryIndexes: [
        {
          indexName: 'byHost',
          partitionKey: { name: 'host', type: 'S' },
          projection: { type: 'INCLUDE', nonKeyAttributes: ['steal_percent'] },
        },
      ],
    };
    // Act
    const input = createTableInput(def, 'x-samples');
    // Assess
    expect(input.GlobalSecondaryIndexes?.[0].Projection).toEqual({
      ProjectionType: 'INCLUDE',
      NonKeyAttributes: ['steal_percent'],
    });
  });
});

describe('table names', () => {
  it('prefixes every logical name', () => {
    // Act
    const names = tableNames('test-');
    // Assess
    expect(Object.values(names)).toEqual(LOGICAL_TABLES.map((t) => `test-${t}`));
  });

  it('takes a physical name from the environment over the prefix', () => {
    // Prepare
    const env = { [tableEnvVar('hosts')]: 'Stack-HostsTable-ABC' };
    // Act
    const names = tableNamesFromEnv(env);
    // Assess
    expect(names).toMatchObject({ hosts: 'Stack-HostsTable-ABC', samples: 'placid-samples' });
  });

  it('names the environment variable after the table', () => {
    // Assess
    expect(tableEnvVar('migrations')).toBe('PLACID_TABLE_MIGRATIONS');
  });
});
