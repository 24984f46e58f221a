// The tests run library code the way the CLI does: after the entry points' Node 20 set-up.
import '../../bin/nodeRuntime.js';
