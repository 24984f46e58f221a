import { PlacidError } from '../model/errors.js';

/**
 * A part of the inventory the reports cannot do without (hypervisors, servers, aggregates, server
 * groups, migrations) could not be read after retries. Nothing is sent then: a host report without
 * its aggregates or instances would state things that are not true.
 */
export class InventoryUnavailableError extends PlacidError {
  constructor(
    readonly part: string,
    cause: unknown,
  ) {
    super(
      `nova inventory: could not read ${part}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}
