/**
 * placid_nova against a hostile stand-in for Placid, through Nova 26's own HostFilterHandler and
 * HostWeightHandler: whatever the endpoint does, the boot neither fails nor stalls, and anything
 * but a well-formed answer is no answer (the fail policy decides, the failure is counted).
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Asked, answerBody, answerRaw, HostileServer, stream } from './hostileServer.js';
import { PluginDriver } from './pythonDriver.js';
import { sigV4Problem } from './sigv4.js';

/** Two hosts whose node is the host (as libvirt's), one ironic-style host with a node of its own. */
const HOSTS: [string, string][] = [
  ['cmp0', 'cmp0'],
  ['cmp1', 'cmp1'],
  ['bm', 'node-a'],
];

let server: HostileServer;
let driver: PluginDriver;
let dir: string;

beforeAll(async () => {
  [server, driver, dir] = await Promise.all([
    HostileServer.start(),
    PluginDriver.start(),
    mkdtemp(join(tmpdir(), 'placid-nova-hostile-')),
  ]);
}, 60_000);

afterAll(async () => {
  driver?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

let requests = 0;
const place = (conf: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, by = driver) =>
  by.run({
    conf: { endpoint: server.url, timeout: 0.5, ...conf },
    hosts: HOSTS,
    request: {
      request_id: `req-hostile-${++requests}`,
      vcpus: 1,
      memory_mb: 512,
      instance_uuid: '0a3c5e7f-1b2d-4c6e-8f0a-2b4c6d8e0f1a',
    },
    ...extra,
  });

/** A verdict per asked candidate, from `verdict(host)`, in the answer's usual shape. */
const answerWith = (asked: Asked, verdict: (host: string) => Record<string, unknown>, more = {}) =>
  JSON.stringify({
    request_id: 'x',
    advisory: true,
    candidates: asked.candidates.map((c) => ({ ...c, ...verdict(c.host) })),
    unknown: [],
    selected: [],
    ...more,
  });

const everyHostFailedOpen = (answer: Awaited<ReturnType<typeof place>>, kind: string) => {
  expect(answer.passed).toEqual(HOSTS);
  expect(answer.order.map(([, , w]) => w)).toEqual([0, 0, 0]);
  expect(answer.stats).toMatchObject({ calls: 1, answered: 0, failed: 1, [`failed_${kind}`]: 1 });
  expect(answer.stats.fail_open_decisions).toBe(1);
};

describe('answers that used to raise into Nova fail open instead', () => {
  const raw = (text: string | Buffer) => () => {
    server.behaviour = (socket) => answerRaw(socket, text);
  };
  const body = (text: string | Buffer) => () => {
    server.behaviour = (socket) => answerBody(socket, text);
  };
  const cases: [string, () => void, string][] = [
    ['a JSON list', body('[]'), 'bad_answer'],
    ['a JSON string', body('"yes"'), 'bad_answer'],
    ['JSON null', body('null'), 'bad_answer'],
    ['candidates that is not a list', body('{"candidates": {"cmp0": true}}'), 'bad_answer'],
    ['a candidate that is not an object', body('{"candidates": [1]}'), 'bad_answer'],
    [
      'JSON nested 100,000 deep',
      body(`{"candidates": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
      'bad_answer',
    ],
    [
      'invalid UTF-8 in the body',
      body(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
      'bad_answer',
    ],
    [
      'a lone surrogate for a host name',
      body('{"candidates": [{"host": "\\udc80", "passes": true, "weight": 1}]}'),
      'bad_answer',
    ],
    ['a truncated body', raw('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"candidates": ['), 'protocol'],
    [
      'a bad chunk',
      raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'),
      'protocol',
    ],
    ['a bad status line', raw('HELLO THERE\r\n\r\n{}'), 'protocol'],
    ['a header line over 64 KiB', raw(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`), 'protocol'],
    ['more than 100 headers', raw(`HTTP/1.1 200 OK\r\n${'X-A: b\r\n'.repeat(101)}\r\n{}`), 'protocol'],
    ['an empty reply', raw(''), 'protocol'],
    ['HTTP 503', raw('HTTP/1.1 503 Busy\r\nRetry-After: 1\r\nContent-Length: 4\r\n\r\nbusy'), 'http_status'],
  ];
  it.each(cases)('%s', async (_name, arrange, kind) => {
    // Prepare
    arrange();
    // Act
    const answer = await place();
    // Assess
    everyHostFailedOpen(answer, kind);
  });
});

describe('wrong values are no answer', () => {
  const weights: [string, string][] = [
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['-Infinity', '-Infinity'],
    ['±1e308', '1e308'],
    ['a string', '"1"'],
    ['null', 'null'],
    ['a boolean', 'true'],
  ];
  it.each(weights)('a weight of %s', async (_name, weight) => {
    // Prepare: the second host's weight is the mirror image, so ±1e308 spans an infinite range
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, () => ({ passes: true, weight: 'W' }))
          .replace('"W"', weight)
          .replace('"W"', weight === '1e308' ? '-1e308' : weight)
          .replace('"W"', '0.5'),
      );
    // Act
    const answer = await place();
    // Assess: Nova's own total weights stay finite, Placid's advice is dropped
    everyHostFailedOpen(answer, 'bad_answer');
  });

  it('"passes": "false" passes nothing past a closed fail policy', async () => {
    // Prepare
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, () => ({ passes: 'false' })),
      );
    // Act
    const answer = await place({ fail_open: false });
    // Assess
    expect(answer.passed).toEqual([]);
    expect(answer.stats).toMatchObject({ failed_bad_answer: 1, fail_closed_decisions: 1 });
  });

  it('a verdict on a host Nova did not send is no answer', async () => {
    // Prepare
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        JSON.stringify({
          candidates: [...asked.candidates, { host: 'elsewhere', nodename: 'elsewhere' }].map((c) => ({
            ...c,
            passes: c.host === 'elsewhere',
            weight: 1,
          })),
        }),
      );
    // Act
    const answer = await place();
    // Assess
    everyHostFailedOpen(answer, 'bad_answer');
  });

  it("takes a missing nodename as the host's own, and no other node", async () => {
    // Prepare: cmp0 without nodename is cmp0/cmp0; bm without nodename would be bm/bm, not asked
    const verdicts = (withBm: boolean) => (socket: Parameters<HostileServer['behaviour']>[0]) =>
      answerBody(
        socket,
        JSON.stringify({
          candidates: [
            { host: 'cmp0', passes: false },
            { host: 'cmp1', nodename: 'cmp1', passes: true, weight: 2 },
            ...(withBm ? [{ host: 'bm', passes: true, weight: 1 }] : []),
          ],
        }),
      );
    server.behaviour = verdicts(false);
    // Act
    const answer = await place();
    server.behaviour = verdicts(true);
    const mismatched = await place();
    // Assess
    expect(answer.passed).toEqual([HOSTS[1], HOSTS[2]]);
    expect(answer.stats).toMatchObject({ answered: 1, failed: 0 });
    everyHostFailedOpen(mismatched, 'bad_answer');
  });
});

describe('the timeout bounds the whole call', () => {
  it('an endpoint that drips one byte a second is cut off at the deadline', async () => {
    // Prepare
    server.behaviour = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write(' ')), 1000);
      socket.on('close', () => clearInterval(drip));
    };
    // Act
    const answer = await place({ timeout: 0.5 });
    // Assess: filter and weigher together, one wait (generous slack: the machine is shared)
    expect(answer.elapsed[0]).toBeLessThan(2);
    everyHostFailedOpen(answer, 'timeout');
  });

  it('headers dripped one byte a second are cut off too', async () => {
    // Prepare
    server.behaviour = (socket) => {
      const head = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
      let i = 0;
      const drip = setInterval(
        () => (socket.destroyed ? clearInterval(drip) : socket.write(head.subarray(i, ++i))),
        200,
      );
      socket.on('close', () => clearInterval(drip));
    };
    // Act
    const answer = await place({ timeout: 0.5 });
    // Assess
    expect(answer.elapsed[0]).toBeLessThan(2);
    everyHostFailedOpen(answer, 'timeout');
  });

  it('a TLS handshake that never completes is cut off at the deadline', async () => {
    // Prepare: the stand-in speaks plain TCP and waits for a request that never comes
    server.behaviour = () => {};
    // Act
    const answer = await place({ endpoint: server.url.replace('http:', 'https:'), timeout: 0.5 });
    // Assess
    expect(answer.elapsed[0]).toBeLessThan(2);
    everyHostFailedOpen(answer, 'timeout');
  });

  it('a hanging endpoint costs one timeout for the filter and the weigher together', async () => {
    // Prepare
    server.behaviour = () => {};
    // Act
    const answer = await place({ timeout: 0.5 });
    // Assess
    expect(answer.elapsed[0]).toBeLessThan(2);
    everyHostFailedOpen(answer, 'timeout');
  });
});

describe('under eventlet, as nova-scheduler runs', () => {
  let green: PluginDriver;
  beforeAll(async () => {
    green = await PluginDriver.start({ eventlet: true });
  }, 180_000); // importing Nova under eventlet is slow on a busy machine
  afterAll(() => green?.close());

  it('the deadline holds with green sockets: a drip, then a well-formed answer', async () => {
    // Prepare
    server.behaviour = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write(' ')), 200);
      socket.on('close', () => clearInterval(drip));
    };
    // Act
    const dripped = await place({ timeout: 0.5 }, {}, green);
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, (h) => ({ passes: h !== 'cmp0', weight: 1 })),
      );
    const answered = await place({ timeout: 0.5 }, {}, green);
    // Assess
    expect(dripped.elapsed[0]).toBeLessThan(2);
    everyHostFailedOpen(dripped, 'timeout');
    expect(answered.passed).toEqual([HOSTS[1], HOSTS[2]]);
  });
});

describe('the 8 MiB body cap', () => {
  it('refuses a declared 200 MB body without reading it', async () => {
    // Prepare
    const before = server.bytesWritten;
    server.behaviour = (socket) =>
      stream(
        socket,
        `HTTP/1.1 200 OK\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n`,
        Buffer.alloc(1 << 20, 0x20),
      );
    // Act
    const answer = await place({ timeout: 5 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Assess
    everyHostFailedOpen(answer, 'too_large');
    expect(server.bytesWritten - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('stops reading an endless chunked body past 8 MiB', async () => {
    // Prepare
    const before = server.bytesWritten;
    const chunk = Buffer.concat([
      Buffer.from('100000\r\n'),
      Buffer.alloc(1 << 20, 0x20),
      Buffer.from('\r\n'),
    ]);
    server.behaviour = (socket) =>
      stream(socket, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', chunk);
    // Act
    const answer = await place({ timeout: 5 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Assess
    everyHostFailedOpen(answer, 'too_large');
    expect(server.bytesWritten - before).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('credentials', () => {
  /** The environment that leaves botocore only the config file `config`. */
  const onlyConfig = (config: string) => ({
    AWS_ACCESS_KEY_ID: null,
    AWS_SECRET_ACCESS_KEY: null,
    AWS_SESSION_TOKEN: null,
    AWS_PROFILE: null,
    AWS_CONFIG_FILE: config,
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  const configFile = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const cases: [string, string][] = [
    [
      'a credential process that fails (CredentialRetrievalError)',
      '[default]\ncredential_process = /bin/false\n',
    ],
    ['a config file botocore cannot parse (ConfigParseError)', '[default\ncredential_process = /bin/true\n'],
    [
      'a credential process that prints no JSON (JSONDecodeError)',
      '[default]\ncredential_process = /bin/echo not-json\n',
    ],
  ];
  it.each(cases)('%s fails open without asking Placid', async (name, text) => {
    // Prepare
    const config = await configFile(`config-${cases.findIndex(([n]) => n === name)}`, text);
    const before = server.connections;
    // Act
    const answer = await place({ region: 'eu-west-1' }, { env: onlyConfig(config) });
    // Assess
    everyHostFailedOpen(answer, 'credentials');
    expect(server.connections).toBe(before);
  });

  it('are resolved once, not per boot, and sign every request', async () => {
    // Prepare: a credential process that counts its runs
    const runs = join(dir, 'runs');
    const script = join(dir, 'creds.sh');
    await writeFile(
      script,
      `#!/bin/sh\necho run >> ${runs}\necho '{"Version": 1, "AccessKeyId": "AKIDPROCESS", "SecretAccessKey": "process-secret"}'\n`,
    );
    await chmod(script, 0o755);
    const config = await configFile('config-process', `[default]\ncredential_process = ${script}\n`);
    const problems: (string | null)[] = [];
    server.behaviour = (socket, asked, { headers, body }) => {
      problems.push(
        sigV4Problem({ method: 'POST', path: '/', headers, body }, 'process-secret', 'eu-west-1'),
      );
      answerBody(
        socket,
        answerWith(asked, () => ({ passes: true, weight: 1 })),
      );
    };
    // Act
    // A deadline a loaded machine cannot miss: the first call imports botocore and runs the process.
    const answer = await place({ region: 'eu-west-1', timeout: 10 }, { env: onlyConfig(config), repeat: 3 });
    // Assess
    expect(answer.stats).toMatchObject({ calls: 3, answered: 3, failed: 0 });
    expect((await readFile(runs, 'utf8')).trim().split('\n')).toEqual(['run']);
    expect(problems).toEqual([null, null, null]);
  });
});

describe("hosts Placid does not judge are Nova's call", () => {
  it('a stale host passes with a neutral weight, even with fail_open = false', async () => {
    // Prepare: the server's answer for a host whose last report is old
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, (h) =>
          h === 'cmp0'
            ? { passes: false, stale: true, report_age_seconds: 300 }
            : { passes: true, weight: h === 'cmp1' ? 3 : 1 },
        ),
      );
    // Act
    const answer = await place({ fail_open: false });
    // Assess: passes, and ranks with Placid's lowest choice, never above the host it prefers
    expect(answer.passed).toEqual(HOSTS);
    expect(answer.order.map(([h]) => h)[0]).toBe('cmp1');
    const weightOf = (host: string) => answer.order.find(([h]) => h === host)?.[2];
    expect(weightOf('cmp0')).toBe(weightOf('bm'));
    expect(answer.stats).toMatchObject({ answered: 1, stale_hosts: 1, failed: 0 });
  });

  it('every host stale: all pass and Placid changes no order', async () => {
    // Prepare
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, () => ({ passes: false, stale: true, report_age_seconds: 900 })),
      );
    // Act
    const answer = await place({ fail_open: false });
    // Assess
    expect(answer.passed).toEqual(HOSTS);
    expect(answer.order.map(([, , w]) => w)).toEqual([0, 0, 0]);
  });

  it('refused and unknown candidates pass; the others are decided as usual', async () => {
    // Prepare
    server.behaviour = (socket) =>
      answerBody(
        socket,
        JSON.stringify({
          candidates: [{ host: 'cmp0', nodename: 'cmp0', passes: false }],
          unknown: [{ host: 'cmp1', nodename: 'cmp1' }],
          refused: [
            { host: 'bm', nodename: 'node-a', reason: 'a name Placid refuses' },
            { host: 'x'.repeat(300), nodename: 'x', reason: 'over 255 characters' },
          ],
          some_future_field: { ignored: true },
        }),
      );
    // Act
    const answer = await place({ fail_open: false });
    // Assess
    expect(answer.passed).toEqual([HOSTS[1], HOSTS[2]]);
    expect(answer.stats).toMatchObject({ answered: 1, unknown_hosts: 1, refused_hosts: 1 });
  });

  it("sends this Nova's release, or the one the operator pins", async () => {
    // Prepare
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, () => ({ passes: true, weight: 1 })),
      );
    // Act
    await place();
    const own = server.requests.at(-1)?.asked.nova_release;
    await place({ nova_release: '25.0.0' });
    const pinned = server.requests.at(-1)?.asked.nova_release;
    // Assess
    expect(own).toMatch(/^26\.\d+\.\d+/);
    expect(pinned).toBe('25.0.0');
  });
});

describe('weigher-only adoption', () => {
  it('PlacidWeigher without PlacidFilter reorders but never removes a host', async () => {
    // Prepare: Placid eliminates cmp1 and prefers bm
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, (h) =>
          h === 'cmp1' ? { passes: false } : { passes: true, weight: h === 'bm' ? 2 : 1 },
        ),
      );
    // Act
    const answer = await place({}, { weigher_only: true });
    // Assess
    expect(answer.passed).toEqual(HOSTS);
    expect(answer.order.map(([h]) => h)).toEqual(['bm', 'cmp0', 'cmp1']);
  });
});

describe('the circuit breaker', () => {
  it('stops calling after repeated failures, then lets one probe through', async () => {
    // Prepare
    server.behaviour = (socket) => answerRaw(socket, 'HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n');
    const before = server.connections;
    // Act: five boots against a failing Placid
    const open = await place({ breaker_failures: 2, breaker_cooldown: 60 }, { repeat: 5 });
    const tried = server.connections - before;
    // then, Placid well again and the cool-down over: the next boot probes and closes it
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, () => ({ passes: true, weight: 1 })),
      );
    const probed = await place({ breaker_failures: 2, breaker_cooldown: 0 }, { keep_state: true });
    // Assess
    expect(tried).toBe(2);
    expect(open.stats).toMatchObject({
      calls: 2,
      failed_http_status: 2,
      breaker_skips: 3,
      breaker_opened: 1,
      fail_open_decisions: 5,
      breaker: 'open',
    });
    expect(open.passed).toEqual(HOSTS);
    expect(open.log.filter((l) => l.includes('not asked for 60 s'))).toHaveLength(1);
    expect(server.connections - before).toBe(3);
    expect(probed.stats).toMatchObject({ calls: 3, answered: 1, breaker: 'closed' });
  });

  it('a failed probe opens it again', async () => {
    // Prepare
    server.behaviour = () => {};
    // Act
    const first = await place({ breaker_failures: 1, breaker_cooldown: 60, timeout: 0.2 });
    const probe = await place(
      { breaker_failures: 1, breaker_cooldown: 0, timeout: 0.2 },
      { keep_state: true },
    );
    // Assess
    expect(first.stats.breaker).toBe('open');
    expect(probe.stats).toMatchObject({ calls: 2, failed_timeout: 2, breaker: 'open' });
  });
});

describe('what operators see', () => {
  it('a refused request logs one ERROR a minute, not one per boot', async () => {
    // Prepare
    server.behaviour = (socket) =>
      answerRaw(socket, 'HTTP/1.1 400 Bad Request\r\nContent-Length: 20\r\n\r\n{"error":"bad spec"}');
    // Act
    const answer = await place({ breaker_failures: 100 }, { repeat: 4 });
    // Assess
    expect(answer.stats).toMatchObject({ calls: 4, failed_http_4xx: 4 });
    expect(answer.log.filter((l) => l.startsWith('ERROR'))).toHaveLength(1);
    expect(answer.log.join('\n')).toMatch(
      /ERROR Placid gave no usable answer \(http_4xx: HTTP 400: \{"error":"bad spec"\}/,
    );
  });

  it('an INFO summary of the counters, at most once a minute', async () => {
    // Prepare
    server.behaviour = (socket, asked) =>
      answerBody(
        socket,
        answerWith(asked, () => ({ passes: true, weight: 1 })),
      );
    // Act: the driver moves the clock a minute on after the boots
    const answer = await place({}, { repeat: 2, summarise: true });
    // Assess
    const summaries = answer.log.filter((l) => l.startsWith('INFO Placid plug-in:'));
    expect(summaries).toEqual([
      expect.stringMatching(
        /^INFO Placid plug-in: 2 calls, 2 answered, 0 failed \(none\), 0 fail-open .* breaker \(closed\)/,
      ),
    ]);
  });
});
