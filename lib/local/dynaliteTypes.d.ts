// dynalite 4 ships no type declarations; this covers the part Placid uses.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** LevelDB directory; in memory when absent. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    verbose?: boolean;
    debug?: boolean;
    ssl?: boolean;
  }

  function dynalite(options?: DynaliteOptions): Server;
  export = dynalite;
}
