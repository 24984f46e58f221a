// Preloaded with `node --import` into a child placid process: moves its wall clock forward by
// PLACID_TEST_CLOCK_OFFSET_MS, as if the command ran that much later (years after the examples' dates).
const offset = Number(process.env.PLACID_TEST_CLOCK_OFFSET_MS ?? 0);
const RealDate = Date;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = ShiftedDate;
