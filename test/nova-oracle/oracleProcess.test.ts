import { describe, expect, it } from 'vitest';
import { NovaOracle, NovaUnavailableError } from './oracleProcess.js';

describe('NovaOracle without Nova', () => {
  it('fails with what to install when the Python it needs is missing, rather than skipping', async () => {
    // Act
    const started = NovaOracle.start('/nonexistent/python3');
    // Assess
    await expect(started).rejects.toThrow(NovaUnavailableError);
    await expect(started).rejects.toThrow(/apt-get install -y --no-install-recommends python3-nova/);
  });
});
