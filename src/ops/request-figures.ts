// The request counter and duration histogram, kept in plain numbers per (route, method, status)
// and read by prom-client at scrape time. prom-client's own children hash, validate and copy their
// label object on every observation (1 µs of a cached lookup's 30); here an answer adds to a
// series found by one Map lookup, and the scrape shows the same names, labels and values.
import { Counter, Histogram, type Registry } from 'prom-client';

type Label = 'route' | 'method' | 'status';
type Labels = Record<Label, string>;

interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), one per upper bound; those above the last are only in `count`. */
  buckets: number[];
}

type CounterFigures = Awaited<ReturnType<Counter<Label>['get']>>;
type HistogramFigures = Awaited<ReturnType<Histogram<Label>['get']>>;
type HistogramValue = HistogramFigures['values'][number];

interface Named {
  name: string;
  help: string;
  registry: Registry;
}

/**
 * What prom-client's own get() returns and its registry reads (name, help, type, values, aggregator);
 * its typings also ask for a `collect` it does not return.
 */
function figures<T>(type: 'counter' | 'histogram', { name, help }: Named, values: T[]) {
  return { name, help, type, values, aggregator: 'sum' as const };
}

/** The counter, read from the series: only `RequestFigures.record` counts. */
class RequestCounter extends Counter<Label> {
  constructor(
    private readonly named: Named,
    private readonly series: Map<string, Series>,
  ) {
    super({ name: named.name, help: named.help, labelNames: ['route', 'method', 'status'], registers: [named.registry] });
  }

  override get(): Promise<CounterFigures> {
    const values = [...this.series.values()].map((s) => ({ value: s.count, labels: s.labels }));
    return Promise.resolve(figures('counter', this.named, values) as unknown as CounterFigures);
  }
}

/** The histogram, read from the series as prom-client writes one: cumulative buckets, +Inf, sum, count. */
class RequestDurations extends Histogram<Label> {
  constructor(
    private readonly named: Named,
    private readonly bounds: readonly number[],
    private readonly series: Map<string, Series>,
  ) {
    super({ name: named.name, help: named.help, labelNames: ['route', 'method', 'status'], buckets: [...bounds], registers: [named.registry] });
  }

  override get(): Promise<HistogramFigures> {
    const { name } = this.named;
    const bucket = `${name}_bucket`;
    const values: HistogramValue[] = [];
    for (const { labels, count, sum, buckets } of this.series.values()) {
      let seen = 0;
      this.bounds.forEach((le, i) => {
        seen += buckets[i];
        values.push({ value: seen, metricName: bucket, labels: { le, ...labels } as HistogramValue['labels'] });
      });
      values.push({ value: count, metricName: bucket, labels: { le: '+Inf', ...labels } as HistogramValue['labels'] });
      values.push({ value: sum, metricName: `${name}_sum`, labels }, { value: count, metricName: `${name}_count`, labels });
    }
    return Promise.resolve(figures('histogram', this.named, values) as unknown as HistogramFigures);
  }

  /** The registry's text format reads this when the metric has it (prom-client's histogram does). */
  getForPromString(): Promise<HistogramFigures> {
    return this.get();
  }
}

/** Answers counted and timed by route template, method and status. */
export class RequestFigures {
  private readonly series = new Map<string, Series>();
  readonly requests: Counter<Label>;
  readonly duration: Histogram<Label>;

  constructor(
    registry: Registry,
    names: { requests: string; duration: string },
    private readonly bounds: readonly number[],
  ) {
    this.requests = new RequestCounter({ name: names.requests, help: 'HTTP requests answered, by route template, method and status', registry }, this.series);
    this.duration = new RequestDurations({ name: names.duration, help: 'Time to answer an HTTP request, by route template, method and status', registry }, bounds, this.series);
  }

  /** Counts one answer that took `seconds`. */
  record(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let found = this.series.get(key);
    if (!found) {
      found = { labels: { route, method, status: String(status) }, count: 0, sum: 0, buckets: new Array<number>(this.bounds.length).fill(0) };
      this.series.set(key, found);
    }
    found.count += 1;
    found.sum += seconds;
    const i = this.bounds.findIndex((le) => seconds <= le);
    if (i >= 0) found.buckets[i] += 1;
  }
}
