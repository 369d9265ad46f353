import type { DayCount } from '@sticky/contracts';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';
import { formatDay } from '../format.ts';

const width = 640;
const height = 220;
const margin = { top: 12, right: 12, bottom: 28, left: 40 };
const axisColor = '#a1a1aa'; // zinc-400: 7:1 on the page's background
const barColor = '#8b5cf6'; // violet-500
const chosenColor = '#f472b6'; // pink-400

interface DayChartProps {
  title: string;
  /** What one count is, singular and plural: "upload", "uploads". */
  noun: [one: string, many: string];
  days: DayCount[];
}

/**
 * A bar a day (docs/web.md, "Admin overview"). The chart is a slider over its days for the
 * keyboard (arrows, Home, End) and the mouse; the numbers are also a table, hidden until asked
 * for but always read by screen readers. Nothing moves: no transition to reduce.
 */
export function DayChart({ title, noun, days }: DayChartProps) {
  const id = useId();
  const [chosen, setChosen] = useState(days.length - 1);
  const [isTableShown, setIsTableShown] = useState(false);
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const busiest = days.reduce((top, day) => (day.count > top.count ? day : top), days[0]!);
  const countOf = (count: number) =>
    `${count.toLocaleString('en-US')} ${noun[count === 1 ? 0 : 1]}`;
  const chosenDay = days[chosen] ?? days[days.length - 1]!;
  const chosenText = `${formatDay(chosenDay.day)}: ${countOf(chosenDay.count)}`;

  // A tick a week, ending on today.
  const weekTicks = days
    .filter((_, index) => (days.length - 1 - index) % 7 === 0)
    .map((day) => day.day);
  const x = scaleBand({
    domain: days.map((day) => day.day),
    range: [0, width - margin.left - margin.right],
    padding: 0.2,
  });
  const y = scaleLinear({
    domain: [0, Math.max(4, busiest.count)],
    range: [height - margin.top - margin.bottom, 0],
    nice: true,
  });

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowLeft: chosen - 1,
      ArrowDown: chosen - 1,
      ArrowRight: chosen + 1,
      ArrowUp: chosen + 1,
      Home: 0,
      End: days.length - 1,
      PageUp: chosen + 7,
      PageDown: chosen - 7,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setChosen(Math.min(days.length - 1, Math.max(0, next)));
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h2 id={`${id}-title`} className="text-xl font-bold">
        {title}
      </h2>
      <p className="text-sm text-gray-300">
        {total === 0
          ? `No ${noun[1]} in the last 30 days.`
          : `${countOf(total)} in the last 30 days; the most on ${formatDay(busiest.day)} (${busiest.count.toLocaleString('en-US')}).`}
      </p>
      <div
        role="slider"
        tabIndex={0}
        aria-label={`${title}: choose a day`}
        aria-valuemin={1}
        aria-valuemax={days.length}
        aria-valuenow={chosen + 1}
        aria-valuetext={chosenText}
        onKeyDown={onKeyDown}
        className="rounded-lg border border-white/10 bg-white/5 p-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
      >
        <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" aria-hidden="true">
          <Group left={margin.left} top={margin.top}>
            {days.map((day, index) => {
              const barHeight = y(0) - y(day.count);
              return (
                <Bar
                  key={day.day}
                  x={x(day.day)}
                  y={y(day.count)}
                  width={x.bandwidth()}
                  height={Math.max(0, barHeight)}
                  rx={2}
                  fill={index === chosen ? chosenColor : barColor}
                  onMouseEnter={() => setChosen(index)}
                />
              );
            })}
            <AxisLeft
              scale={y}
              numTicks={4}
              tickFormat={(value) => Number(value).toLocaleString('en-US')}
              stroke={axisColor}
              tickStroke={axisColor}
              tickLabelProps={{ fill: axisColor, fontSize: 11 }}
            />
            <AxisBottom
              top={height - margin.top - margin.bottom}
              scale={x}
              tickValues={weekTicks}
              tickFormat={(day) => formatDay(day)}
              stroke={axisColor}
              tickStroke={axisColor}
              tickLabelProps={{ fill: axisColor, fontSize: 11 }}
            />
          </Group>
        </svg>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-gray-100">{chosenText}</p>
        <button
          type="button"
          className={buttonStyles.smallSecondary}
          aria-expanded={isTableShown}
          aria-controls={`${id}-table`}
          onClick={() => setIsTableShown((isShown) => !isShown)}
        >
          {isTableShown ? 'Hide the numbers' : 'Show the numbers'}
        </button>
      </div>
      <table id={`${id}-table`} className={isTableShown ? 'w-full text-left text-sm' : 'sr-only'}>
        <caption className="sr-only">{title}, by day</caption>
        <thead>
          <tr className="border-b border-white/15 text-gray-300">
            <th scope="col" className="py-1 font-semibold">
              Day
            </th>
            <th scope="col" className="py-1 text-right font-semibold">
              {noun[1].charAt(0).toUpperCase() + noun[1].slice(1)}
            </th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day} className="border-b border-white/5">
              <td className="py-1">{formatDay(day.day)}</td>
              <td className="py-1 text-right tabular-nums">{day.count.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
