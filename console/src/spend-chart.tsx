// Spend per day as a bar chart (uPlot), with the same figures as a table for screen readers.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { SpendSummary } from "./types";

export function SpendChart({ byDay }: { byDay: SpendSummary["byDay"] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = byDay.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const ys = byDay.map((d) => d.credits);
    const width = Math.max(280, el.clientWidth);
    const chart = new uPlot(
      {
        width,
        height: 220,
        legend: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] } },
        series: [{}, { label: "credits", stroke: "#1f5fbf", fill: "rgba(31,95,191,0.35)", paths: uPlot.paths.bars!({ size: [0.7, 40] }) }],
        axes: [{}, { label: "credits" }],
      },
      [xs, ys],
      el,
    );
    const resize = () => chart.setSize({ width: Math.max(280, el.clientWidth), height: 220 });
    addEventListener("resize", resize);
    return () => {
      removeEventListener("resize", resize);
      chart.destroy();
    };
  }, [byDay]);
  return (
    <figure class="chart">
      <div ref={host} aria-hidden="true" />
      <figcaption class="sr-only">
        <table>
          <caption>Credits spent per day</caption>
          <tbody>
            {byDay.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td>{d.credits}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
