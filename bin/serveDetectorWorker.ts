// The detector thread of `placid serve` (lib/cli/serveDetectorThread.ts starts it): a thread has
// globals of its own, so it gets the entry points' Node 20 set-up before the detector loads.
import './nodeRuntime.js';
import '../lib/cli/serveDetectorWorker.js';
