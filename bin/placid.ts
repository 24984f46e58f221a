import './nodeRuntime.js';
import { handleOutputErrors } from '../lib/cli/io.js';
import { main } from '../lib/cli/main.js';

handleOutputErrors(process.stdout, process.stderr);
process.exitCode = await main(process.argv.slice(2));
