import './nodeRuntime.js';
import { handleOutputErrors } from '../lib/cli/io.js';
import { main } from '../lib/cli/main.js';

handleOutputErrors(process.stdout, process.stderr);
// No top-level await: the bundle is a CommonJS script (scripts/build-cli.mjs).
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
