import * as z from 'zod';
import { parseWith } from '../../model/schema.js';

const positiveMs = z.number().int().positive();

/** Defaults follow kubectl where it has one (force off, 1 s polling); kubectl's timeout is infinite, Placid's is not. */
export const drainOptionsSchema = z
  .object({
    force: z.boolean().default(false),
    timeoutMs: positiveMs.default(300_000),
    gracePeriodSeconds: z.number().int().nonnegative().optional(),
    initialRetryDelayMs: positiveMs.default(1_000),
    maxRetryDelayMs: positiveMs.default(10_000),
    pollIntervalMs: positiveMs.default(1_000),
  })
  .strict()
  .refine((o) => o.maxRetryDelayMs >= o.initialRetryDelayMs, {
    path: ['maxRetryDelayMs'],
    message: 'must be at least initialRetryDelayMs',
  });

export type ResolvedDrainOptions = z.output<typeof drainOptionsSchema>;

export const resolveDrainOptions = (input: unknown): ResolvedDrainOptions =>
  parseWith(drainOptionsSchema, input ?? {}, 'drain options');
