import { defineFilter, PASS, PASS_ALL } from '../filter.js';

/** Passes every host: for deployments that want placement decided by the weighers alone. */
export const AllHostsFilter = defineFilter<undefined>({
  name: 'AllHostsFilter',
  runFilterOncePerRequest: true,
  prepare: () => PASS_ALL,
  check: () => PASS,
});
