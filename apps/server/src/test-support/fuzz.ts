/**
 * Runs and seed of the property-based tests (docs/testing.md, "Fuzzing"): `STICKY_FUZZ_RUNS`
 * sets the runs (12, or 60 under CI; `npm run stress` asks for many more), `STICKY_FUZZ_SEED`
 * replays a run. The seed is printed every time, so any failure can be replayed.
 */
export function readFuzzSettings(label: string): { runs: number; seed: number } {
  const runs = Number(process.env.STICKY_FUZZ_RUNS ?? (process.env.CI ? 60 : 12));
  const seed = process.env.STICKY_FUZZ_SEED
    ? Number(process.env.STICKY_FUZZ_SEED)
    : Math.floor(Math.random() * 2 ** 31);
  console.info(`${label}: STICKY_FUZZ_SEED=${seed} STICKY_FUZZ_RUNS=${runs}`);
  return { runs, seed };
}
