import { candidateDraws } from './advisory.js';
import { generateHosts } from './placement.js';
const hosts = generateHosts(10000);
const draw = candidateDraws(hosts);
const body = JSON.stringify({ request_id: 'x', advisory: true, flavor: { name: 'm1.small', vcpus: 1, memory_mb: 1024, root_gb: 10 }, candidates: draw() });
console.log('body bytes', body.length, body.slice(0, 300));
const key = (h: string, n: string) => `${h}\u0000${n}`;
const index = new Map(hosts.map((h) => [key(h.host, h.nodename), h]));
for (let r = 0; r < 5; r++) {
  const bodies = Array.from({ length: 50 }, () => JSON.stringify({ candidates: draw() }));
  let t0 = performance.now();
  const docs = bodies.map((b) => JSON.parse(b));
  const tParse = (performance.now() - t0) / 50;
  t0 = performance.now();
  let found = 0;
  for (const d of docs) for (const c of d.candidates) if (index.get(key(c.host, c.nodename))) found++;
  const tLook = (performance.now() - t0) / 50;
  console.log(`parse ${tParse.toFixed(3)} ms, lookup ${tLook.toFixed(3)} ms per request (${found})`);
}
