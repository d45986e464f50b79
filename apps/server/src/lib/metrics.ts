/**
 * The Prometheus text exposition format (version 0.0.4), written by hand: families of samples, and a histogram with
 * labels. No client library: these few lines are all /metrics needs.
 */
export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  /** appended to the family's name (`_bucket`, `_sum`, `_count`) */
  suffix?: string;
  labels?: Labels;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  samples: Sample[];
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const labelText = (labels: Labels | undefined) => {
  const entries = Object.entries(labels ?? {});
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
};
const valueText = (v: number) => (Number.isNaN(v) ? 'NaN' : v === Infinity ? '+Inf' : v === -Infinity ? '-Inf' : String(v));

export function exposition(families: Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) out.push(`${f.name}${s.suffix ?? ''}${labelText(s.labels)} ${valueText(s.value)}`);
  }
  return `${out.join('\n')}\n`;
}

/** A histogram per label set: upper bounds ascending (+Inf added), counts kept per bucket and summed on output. */
export function createHistogram(bounds: readonly number[]) {
  const series = new Map<string, { labels: Labels; counts: Float64Array; sum: number; count: number }>();
  return {
    observe(labels: Labels, value: number) {
      const key = JSON.stringify(labels);
      let s = series.get(key);
      if (!s) series.set(key, (s = { labels, counts: new Float64Array(bounds.length), sum: 0, count: 0 }));
      const i = bounds.findIndex((b) => value <= b);
      if (i >= 0) s.counts[i]!++;
      s.sum += value;
      s.count++;
    },
    samples(): Sample[] {
      const out: Sample[] = [];
      for (const s of series.values()) {
        let cumulative = 0;
        bounds.forEach((b, i) => {
          cumulative += s.counts[i]!;
          out.push({ suffix: '_bucket', labels: { ...s.labels, le: String(b) }, value: cumulative });
        });
        out.push({ suffix: '_bucket', labels: { ...s.labels, le: '+Inf' }, value: s.count });
        out.push({ suffix: '_sum', labels: s.labels, value: s.sum });
        out.push({ suffix: '_count', labels: s.labels, value: s.count });
      }
      return out;
    },
  };
}

export type Histogram = ReturnType<typeof createHistogram>;
