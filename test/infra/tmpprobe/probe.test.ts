import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import { it } from 'vitest';
import { synthTemplate } from '../synth.js';
it('probe', () => {
  const t0 = performance.now();
  const t = synthTemplate();
  console.log('synth ms', performance.now() - t0);
  require('node:fs').writeFileSync('/tmp/template.json', JSON.stringify(t.toJSON(), null, 1));
});
