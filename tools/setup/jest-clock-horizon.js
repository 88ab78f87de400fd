// The whole test suite runs a year ahead of the calendar (RNA_TEST_CLOCK_SHIFT_DAYS, default 365).
// A test whose fixed data would fall out of a date window (the 3-year totals, the 36-month de minimis
// series, the 10-year sync scope, a same-day rule) while it still reads the real clock then fails
// today, a year before the calendar would break main, instead of on the day it starts failing.
// Tests that pin their clock (harness clocks, RNA_TEST_NOW for child processes) are not affected.
// RNA_TEST_CLOCK_SHIFT_DAYS=0 runs the suite on the calendar's date.
'use strict';

const shiftDays = Number(process.env.RNA_TEST_CLOCK_SHIFT_DAYS ?? 365);
if (!Number.isFinite(shiftDays)) throw new Error('RNA_TEST_CLOCK_SHIFT_DAYS must be a number of days');
const shiftMs = Math.round(shiftDays * 86_400_000);

// Processes the tests start with this environment move their clocks the same way (processClock).
process.env.RNA_TEST_CLOCK_SHIFT_DAYS = String(shiftDays);

if (shiftMs !== 0 && !globalThis.Date.__rnaShifted) {
  const RealDate = globalThis.Date;
  const now = () => RealDate.now() + shiftMs;
  // A function rather than a subclass: `Date()` without `new` must still return a string, and dates
  // made here are plain Dates (same prototype), so `instanceof Date` holds both ways.
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
  }
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = now;
  ShiftedDate.__rnaShifted = true;
  globalThis.Date = ShiftedDate;
}
