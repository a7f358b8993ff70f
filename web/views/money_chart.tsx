/**
 * Money's charts as SVG drawn on the server: spending by category (a bar each, a tick at the
 * average of the months before) and spending per month. No script and no inline style (the
 * page's CSP stays `style-src 'self'`): colours come from classes in style.css, and every label
 * is JSX text, so a category or payee can never become markup.
 */
import { type CurrencyReport, formatMoney } from "../../src/money/mod.ts";

const width = 640;
const labelWidth = 130;
const valueWidth = 110;
const barArea = width - labelWidth - valueWidth;
const rowHeight = 24;

/** A bar's length in pixels (presentation only: the amounts themselves stay integers). */
function scaled(minor: number, max: number, area: number): number {
  return max > 0 ? Math.round((minor / max) * area * 10) / 10 : 0;
}

/** Spending by category this month, with the average of the compared months as a tick. */
export function CategoryChart(props: { part: CurrencyReport; month: string }) {
  const { part } = props;
  const lines = part.categories.filter((line) =>
    line.spentMinor > 0 || (line.averageMinor ?? 0) > 0
  );
  if (!lines.length) return <p class="muted">No spending in {props.month}.</p>;
  const max = Math.max(...lines.map((line) => Math.max(line.spentMinor, line.averageMinor ?? 0)));
  const height = lines.length * rowHeight + 8;
  return (
    <svg
      class="money-chart"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={`Spending by category in ${props.month} (${part.currency})`}
    >
      <title>Spending by category in {props.month} ({part.currency})</title>
      {lines.map((line, index) => {
        const y = index * rowHeight + 4;
        const average = line.averageMinor === undefined
          ? undefined
          : labelWidth + scaled(line.averageMinor, max, barArea);
        return (
          <g class="money-row" data-category={line.category}>
            <text x={labelWidth - 8} y={y + 15} text-anchor="end" class="money-label">
              {line.category}
            </text>
            <rect
              x={labelWidth}
              y={y + 3}
              width={scaled(line.spentMinor, max, barArea)}
              height={rowHeight - 8}
              class={line.category === "uncategorized" ? "money-bar money-bar-other" : "money-bar"}
            />
            {average === undefined ? null : (
              <line
                x1={average}
                x2={average}
                y1={y}
                y2={y + rowHeight - 2}
                class="money-average"
              />
            )}
            <text x={width - valueWidth + 6} y={y + 15} class="money-value">
              {formatMoney(line.spentMinor, part.currency)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Spending and income per month (the compared months and this one). */
export function MonthChart(props: { part: CurrencyReport }) {
  const { part } = props;
  const chartHeight = 140;
  const barWidth = 36;
  const gap = 40;
  const max = Math.max(
    1,
    ...part.months.flatMap((month) => [month.spentMinor, month.receivedMinor]),
  );
  const chartWidth = part.months.length * (2 * barWidth + gap) + gap;
  return (
    <svg
      class="money-chart"
      viewBox={`0 0 ${chartWidth} ${chartHeight + 40}`}
      width={chartWidth}
      height={chartHeight + 40}
      role="img"
      aria-label={`Spent and received per month (${part.currency})`}
    >
      <title>Spent and received per month ({part.currency})</title>
      {part.months.map((month, index) => {
        const x = gap + index * (2 * barWidth + gap);
        const bars = [
          { minor: month.spentMinor, label: "spent", class: "money-bar" },
          { minor: month.receivedMinor, label: "received", class: "money-bar money-bar-in" },
        ];
        return (
          <g data-month={month.month}>
            {bars.map((bar, side) => {
              const height = scaled(bar.minor, max, chartHeight);
              return (
                <rect
                  x={x + side * barWidth}
                  y={chartHeight - height + 4}
                  width={barWidth}
                  height={height}
                  class={bar.class}
                >
                  <title>{bar.label} {formatMoney(bar.minor, part.currency)}</title>
                </rect>
              );
            })}
            <text x={x + barWidth} y={chartHeight + 24} text-anchor="middle" class="money-label">
              {month.month}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
