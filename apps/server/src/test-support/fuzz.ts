/**
 * The seed every property-based test uses unless `STICKY_FUZZ_SEED` names another: CI and a
 * developer draw the same cases, so a red run is red again on any machine (docs/testing.md,
 * "Fuzzing").
 */
export const defaultFuzzSeed = 20_260_107;

/**
 * Runs and seed of the property-based tests (docs/testing.md, "Fuzzing"): `STICKY_FUZZ_RUNS`
 * sets the runs (12, or 60 under CI; `npm run stress` asks for many more), `STICKY_FUZZ_SEED`
 * another seed than the fixed one. Both are printed every time, so any run can be repeated.
 */
export function readFuzzSettings(label: string): { runs: number; seed: number } {
  const runs = readWholeNumber('STICKY_FUZZ_RUNS', process.env.CI ? 60 : 12, 1);
  // fast-check's seeds are 32-bit integers, as it prints them on a failure.
  const seed = readWholeNumber('STICKY_FUZZ_SEED', defaultFuzzSeed, -(2 ** 31));
  console.info(`${label}: STICKY_FUZZ_SEED=${seed} STICKY_FUZZ_RUNS=${runs}`);
  return { runs, seed };
}

function readWholeNumber(name: string, fallback: number, min: number): number {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!/^\s*-?\d+\s*$/.test(text) || value < min || value >= 2 ** 31) {
    throw new Error(
      `${name} must be a whole number from ${min} to ${2 ** 31 - 1}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}
