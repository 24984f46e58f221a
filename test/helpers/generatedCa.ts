/**
 * A throwaway CA and a 127.0.0.1 server certificate it signed, generated per test run with the
 * openssl CLI (about 0.1 s), so no key lives in the repository for this. Without openssl the
 * committed test-only fixture (test/drivers/kubernetes/tlsFixture.ts) stands in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_CA_CERT, TEST_SERVER_CERT, TEST_SERVER_KEY } from '../drivers/kubernetes/tlsFixture.js';

export interface GeneratedCa {
  ca: string;
  cert: string;
  key: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function generateCa(): GeneratedCa {
  const dir = mkdtempSync(join(tmpdir(), 'placid-ca-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    openssl(
      'req',
      '-x509',
      ...EC,
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.crt'),
      '-days',
      '2',
      '-subj',
      '/CN=Placid test CA',
    );
    openssl('req', ...EC, '-keyout', at('srv.key'), '-out', at('srv.csr'), '-subj', '/CN=127.0.0.1');
    writeFileSync(at('ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl(
      'x509',
      '-req',
      '-in',
      at('srv.csr'),
      '-CA',
      at('ca.crt'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at('srv.crt'),
      '-days',
      '2',
      '-extfile',
      at('ext'),
    );
    const read = (name: string) => readFileSync(at(name), 'utf8');
    return { ca: read('ca.crt'), cert: read('srv.crt'), key: read('srv.key') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { ca: TEST_CA_CERT, cert: TEST_SERVER_CERT, key: TEST_SERVER_KEY };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
