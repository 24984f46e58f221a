import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../lib/cli/planText.js';
import { planRebalance } from '../../lib/rebalance/planner.js';
import { settingsWith } from './fixtures.js';
import { contendedFleet } from './planFixtures.js';

describe('formatPlan', () => {
  it('flags a block migration that needs approval in approve mode', async () => {
    // Prepare
    const plan = await planRebalance({
      fleet: contendedFleet(['d1'], { shared: false }),
      settings: settingsWith({ mode: 'approve', max_block_migration_gb: 10 }),
    });
    // Act
    const text = formatPlan(plan);
    // Assess
    expect(text).toContain('(approve mode: waits for `placid approve PLAN_ID`)');
    expect(text).toMatch(/src → d1 .* NEEDS APPROVAL/);
  });

  it('says which suffering VMs the lower bound covers', async () => {
    // Prepare
    const plan = await planRebalance({ fleet: contendedFleet(), settings: settingsWith() });
    // Act
    const text = formatPlan(plan);
    // Assess
    expect(text).toContain(
      '8.0 GiB (8.0 GiB of it from the 1 host it relieves fully, lower bound 8.0 GiB for their 3 suffering VMs)',
    );
  });

  it('says there is nothing to move, then lists the VMs not moved under their reason', async () => {
    // Prepare
    const plan = await planRebalance({
      fleet: contendedFleet(['d1']),
      settings: settingsWith({ min_benefit_percent: 90 }),
    });
    // Act
    const text = formatPlan(plan);
    // Assess
    expect(text).toContain('\n\nNothing to move.\n\n');
    expect(text).toContain('Not moved (3):\n  Too little benefit (3)\n    web-1 on src: too little benefit');
  });
});
