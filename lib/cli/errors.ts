import { PlacidError } from '../model/errors.js';

/** An input file the CLI cannot read or that is not JSON; names the file and the problem. */
export class InputError extends PlacidError {}
