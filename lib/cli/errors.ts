import { PlacidError } from '../model/errors.js';

/** An input file the CLI cannot read or that is not JSON; names the file and the problem. */
export class InputError extends PlacidError {}

/** `--data-dir ""` (an unset variable) would otherwise store into memory and report success. */
export function refuseEmptyDataDir(options: { dataDir?: unknown }): void {
  if (typeof options.dataDir === 'string' && options.dataDir.trim() === '') {
    throw new InputError('--data-dir is empty (an unset variable?): name the directory of the local store');
  }
}
