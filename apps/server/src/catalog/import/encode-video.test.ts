import { describe, expect, it } from 'vitest';
import { encodeVideo, planTimeline, playedDelayMs } from './encode-video.ts';

/** How many steps each source frame is shown for. */
const runsOf = (sequence: readonly number[]) =>
  sequence.reduce<number[]>((counts, frame) => {
    counts[frame] = (counts[frame] ?? 0) + 1;
    return counts;
  }, []);

describe('planTimeline', () => {
  it('shows each frame once when the delays share a step of 20 ms or more', () => {
    expect(planTimeline([100, 100, 100])).toEqual({ unitMs: 100, sequence: [0, 1, 2] });
    expect(planTimeline([40, 80, 40])).toEqual({ unitMs: 40, sequence: [0, 1, 1, 2] });
  });

  it('plays delays of 10 ms or less at 100 ms, as browsers do', () => {
    expect(playedDelayMs(0)).toBe(100);
    expect(playedDelayMs(10)).toBe(100);
    expect(playedDelayMs(20)).toBe(20);
    expect(planTimeline([0, 10, 100])).toEqual({ unitMs: 100, sequence: [0, 1, 2] });
  });

  it('rounds a screen recording’s odd timings to a coarser step, keeping the total', () => {
    // 30, 70 and 130 ms have 10 ms in common: 100 fps would repeat frames ten times over.
    const delays = [30, 70, 130, 30, 70, 130];
    const { unitMs, sequence } = planTimeline(delays);
    expect(unitMs).toBeGreaterThanOrEqual(20);
    expect(sequence.length).toBeLessThanOrEqual(4 * delays.length);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(Math.abs(sequence.length * unitMs - total)).toBeLessThanOrEqual(unitMs / 2);
    // Every frame still shows, in order.
    expect([...new Set(sequence)]).toEqual([0, 1, 2, 3, 4, 5]);
    // Each frame starts within half a step of its own time.
    let start = 0;
    delays.forEach((delay, frame) => {
      const shownAt = sequence.indexOf(frame) * unitMs;
      expect(Math.abs(shownAt - start)).toBeLessThanOrEqual(unitMs / 2 + 1);
      start += delay;
    });
  });

  it('repeats the whole animation for a loop of several plays', () => {
    const once = planTimeline([100, 200]);
    const thrice = planTimeline([100, 200], 3);
    expect(thrice.sequence).toEqual([...once.sequence, ...once.sequence, ...once.sequence]);
    expect(runsOf(once.sequence)).toEqual([1, 2]);
  });
});

describe('encodeVideo', () => {
  it('refuses frames of odd size or too few bytes before starting ffmpeg', async () => {
    const frames = { data: Buffer.alloc(3 * 2 * 4), width: 3, height: 2, frames: 1, delays: [100] };
    await expect(
      encodeVideo({ ffmpegPath: '/nonexistent', codec: 'h264', frames, outputFile: '/tmp/x.mp4' }),
    ).rejects.toThrow('even dimensions');
    await expect(
      encodeVideo({
        ffmpegPath: '/nonexistent',
        codec: 'h264',
        frames: { ...frames, width: 4, data: Buffer.alloc(10) },
        outputFile: '/tmp/x.mp4',
      }),
    ).rejects.toThrow('fewer bytes');
  });
});
