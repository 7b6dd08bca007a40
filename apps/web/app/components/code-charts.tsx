/**
 * A code's charts on its console page (ADR 046), drawn with visx: scales, bars and axes as plain
 * SVG elements, so the server renders the whole chart into the HTML (no measuring, no effects)
 * at a fixed size that scales with the page (viewBox). Each chart is an image with a title and a
 * description; the same figures follow in a table for whoever cannot see it. Only this admin
 * route imports the module, so its code loads with that route alone.
 */
import { AxisBottom, AxisLeft } from '@visx/axis';
import type { TickRendererProps } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';

const INK = '#0a0a0a';

/**
 * Tick labels as plain <text>: visx's own <Text> wraps each in an <svg style="overflow: visible">,
 * and the site's Content Security Policy allows no inline style.
 */
function Tick({ x, y, dx, dy, formattedValue, textAnchor, fontSize }: TickRendererProps) {
  return (
    <text x={x} y={y} dx={dx} dy={dy} textAnchor={textAnchor} fontSize={fontSize} fill={INK}>
      {formattedValue}
    </text>
  );
}
const STONE = '#5c5c5c';

export interface DaySeries {
  day: string;
  visits: number;
  registrations: number;
  activations: number;
}

type SeriesKey = 'visits' | 'registrations' | 'activations';
/** Three series told apart without colour: solid black, solid grey, black outline. */
const SERIES: { key: SeriesKey; fill: string; stroke: string }[] = [
  { key: 'visits', fill: INK, stroke: INK },
  { key: 'registrations', fill: STONE, stroke: STONE },
  { key: 'activations', fill: '#ffffff', stroke: INK },
];

const DAYS_SIZE = { width: 560, height: 240, top: 12, right: 28, bottom: 34, left: 40 };

export function DaysChart({
  days,
  labels,
  title,
  description,
  dayLabel,
}: {
  days: DaySeries[];
  labels: Record<SeriesKey, string>;
  title: string;
  description: string;
  dayLabel: (day: string) => string;
}) {
  const { width, height, top, right, bottom, left } = DAYS_SIZE;
  const innerWidth = width - left - right;
  const innerHeight = height - top - bottom;
  const max = Math.max(1, ...days.flatMap((d) => [d.visits, d.registrations, d.activations]));
  const x = scaleBand<string>({ domain: days.map((d) => d.day), range: [0, innerWidth], padding: 0.2 });
  const inner = scaleBand<SeriesKey>({ domain: SERIES.map((s) => s.key), range: [0, x.bandwidth()], padding: 0.1 });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  return (
    <figure>
      {/* On a phone the chart keeps a readable size and scrolls sideways, by keyboard too. */}
      <div className="overflow-x-auto" role="region" aria-label={title} tabIndex={0}>
        <svg role="img" aria-labelledby="days-chart-title days-chart-desc" viewBox={`0 0 ${width} ${height}`} className="w-full min-w-[32rem]" data-testid="days-chart">
          <title id="days-chart-title">{title}</title>
          <desc id="days-chart-desc">{description}</desc>
          <Group left={left} top={top}>
            {days.map((d) => (
              <Group key={d.day} left={x(d.day) ?? 0}>
                {SERIES.map((s) => {
                  const h = innerHeight - y(d[s.key]);
                  return (
                    <Bar key={s.key} x={inner(s.key) ?? 0} y={innerHeight - h} width={inner.bandwidth()} height={h} fill={s.fill} stroke={s.stroke} strokeWidth={h > 0 ? 1 : 0} />
                  );
                })}
              </Group>
            ))}
            <AxisLeft tickComponent={Tick} scale={y} tickValues={y.ticks(4).filter(Number.isInteger)} tickFormat={(v) => String(v)} stroke={INK} tickStroke={INK} tickLabelProps={{ fontSize: 13, textAnchor: 'end', dx: -4, dy: 4 }} />
            <AxisBottom
              tickComponent={Tick}
              top={innerHeight}
              scale={x}
              // Every seventh day back from today.
              tickValues={days.filter((_, i) => (days.length - 1 - i) % 7 === 0).map((d) => d.day)}
              tickFormat={dayLabel}
              stroke={INK}
              tickStroke={INK}
              tickLabelProps={{ fontSize: 13, textAnchor: 'middle', dy: 4 }}
            />
          </Group>
        </svg>
      </div>
      <figcaption className="mt-3 flex flex-wrap gap-5 text-sm">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-2">
            <svg aria-hidden="true" width="14" height="14"><rect x="0.5" y="0.5" width="13" height="13" fill={s.fill} stroke={s.stroke} /></svg>
            {labels[s.key]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

const FUNNEL_SIZE = { width: 560, row: 30, left: 190, right: 48, bottom: 30 };

export function FunnelChart({ steps, title, description }: { steps: { label: string; sessions: number }[]; title: string; description: string }) {
  const { width, row, left, right, bottom } = FUNNEL_SIZE;
  const innerWidth = width - left - right;
  const innerHeight = steps.length * row;
  const y = scaleBand<string>({ domain: steps.map((s) => s.label), range: [0, innerHeight], padding: 0.25 });
  const x = scaleLinear<number>({ domain: [0, Math.max(1, ...steps.map((s) => s.sessions))], range: [0, innerWidth], nice: true });
  return (
    <div className="overflow-x-auto" role="region" aria-label={title} tabIndex={0}>
      <svg role="img" aria-labelledby="funnel-chart-title funnel-chart-desc" viewBox={`0 0 ${width} ${innerHeight + bottom + 8}`} className="w-full min-w-[32rem]" data-testid="code-funnel-chart">
        <title id="funnel-chart-title">{title}</title>
        <desc id="funnel-chart-desc">{description}</desc>
        <Group left={left} top={4}>
          {steps.map((s) => (
            <Group key={s.label}>
              <Bar x={0} y={y(s.label) ?? 0} width={Math.max(x(s.sessions), 1)} height={y.bandwidth()} fill={INK} />
              <text x={Math.max(x(s.sessions), 1) + 6} y={(y(s.label) ?? 0) + y.bandwidth() / 2 + 4} fontSize={13} fill={INK}>{s.sessions}</text>
            </Group>
          ))}
          <AxisLeft tickComponent={Tick} scale={y} hideTicks stroke={INK} tickLabelProps={{ fontSize: 13, textAnchor: 'end', dx: -6, dy: 4 }} />
          <AxisBottom tickComponent={Tick} top={innerHeight} scale={x} tickValues={x.ticks(4).filter(Number.isInteger)} tickFormat={(v) => String(v)} stroke={INK} tickStroke={INK} tickLabelProps={{ fontSize: 13, textAnchor: 'middle', dy: 4 }} />
        </Group>
      </svg>
    </div>
  );
}
