import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDataDir, startLocalDynamo } from '../../lib/local/dynalite.js';
import { createDynamoClient } from '../../lib/store/client.js';
import { LOGICAL_TABLES } from '../../lib/store/tables.js';

describe('startLocalDynamo', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('creates every table from the definitions, in memory, on a loopback port', async () => {
    // Act
    const local = await startLocalDynamo({ tablePrefix: 'mem-' });
    try {
      const { TableNames } = await local.dynamo.send(new ListTablesCommand({}));
      // Assess
      expect(local.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(TableNames?.sort()).toEqual(LOGICAL_TABLES.map((t) => `mem-${t}`).sort());
    } finally {
      await local.close();
    }
  });

  it('serves from a worker thread when asked: no listening socket in this thread, refused once closed', async () => {
    // Prepare
    const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    await new Promise((resolve) => setImmediate(resolve)); // let earlier tests' servers finish closing
    const before = servers();
    const local = await startLocalDynamo({ thread: true });
    // Act
    const during = servers();
    await local.client.send(
      new PutCommand({ TableName: local.tableNames.leases, Item: { name: 'threaded', owner: 'me' } }),
    );
    const { Item } = await local.client.send(
      new GetCommand({ TableName: local.tableNames.leases, Key: { name: 'threaded' } }),
    );
    await local.close();
    // Assess
    expect([during - before, Item]).toEqual([0, { name: 'threaded', owner: 'me' }]);
    const again = createDynamoClient({ endpoint: local.endpoint, maxAttempts: 1 });
    await expect(again.send(new ListTablesCommand({}))).rejects.toThrow(/ECONNREFUSED/);
    again.destroy();
  });

  it('flushes an on-disk store served from a worker thread when closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'placid-dynalite-'));
    dirs.push(dir);
    const first = await startLocalDynamo({ path: dir, thread: true });
    await first.client.send(
      new PutCommand({ TableName: first.tableNames.leases, Item: { name: 'kept', owner: 'thread' } }),
    );
    await first.close();
    const second = await startLocalDynamo({ path: dir });
    try {
      const { Item } = await second.client.send(
        new GetCommand({ TableName: second.tableNames.leases, Key: { name: 'kept' } }),
      );
      expect(Item).toEqual({ name: 'kept', owner: 'thread' });
    } finally {
      await second.close();
    }
  });

  it('keeps items on disk across a restart when given a path', async () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'placid-dynalite-'));
    dirs.push(dir);
    const first = await startLocalDynamo({ path: dir });
    await first.client.send(
      new PutCommand({ TableName: first.tableNames.leases, Item: { name: 'kept', owner: 'me' } }),
    );
    await first.close();
    // Act
    const second = await startLocalDynamo({ path: dir });
    try {
      const { Item } = await second.client.send(
        new GetCommand({ TableName: second.tableNames.leases, Key: { name: 'kept' } }),
      );
      // Assess
      expect(Item).toEqual({ name: 'kept', owner: 'me' });
    } finally {
      await second.close();
    }
  });

  it('defaults the data directory under XDG_DATA_HOME', () => {
    // Assess
    expect(defaultDataDir({ XDG_DATA_HOME: '/data' })).toBe('/data/placid/dynamo');
  });
});
