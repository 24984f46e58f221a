import './nodeRuntime.js';
import { dropOutputOnClosedReader } from '../lib/cli/io.js';
import { main } from '../lib/cli/main.js';

dropOutputOnClosedReader(process.stdout);
process.exitCode = await main(process.argv.slice(2));
