/** Names of the ingest counters (ingest_counter rows, summed over every process). */
export type CounterName =
  | 'messages_received'
  | 'messages_stored'
  | 'points_stored'
  | 'points_duplicate'
  | 'acks'
  | 'malformed'
  | 'fields_dropped'
  | 'fields_unknown'
  | 'fields_out_of_range'
  | 'clock_fixed'
  | 'unknown_device'
  | 'refused_client_id'
  | 'refused_anonymous'
  | 'refused_auth'
  | 'refused_acl_publish'
  | 'refused_acl_subscribe'
  | 'oversize';

export interface RejectSample {
  tenantId: number | null;
  deviceCode: string | null;
  topic: string;
  reason: string;
  detail: string;
}

export interface CounterDeltas {
  counters: [CounterName, number][];
  rejects: (RejectSample & { at: number })[];
  undo(): void;
}

const SAMPLE_EVERY_MS = 60_000;

/**
 * In-memory deltas, written by the batch writer inside its transaction (so counting costs no extra statement
 * per message). Refused messages are also sampled into ingest_reject: one row per device and reason per minute,
 * so a misbehaving device cannot flood the table.
 */
export function createIngestCounters() {
  let deltas = new Map<CounterName, number>();
  let samples: (RejectSample & { at: number })[] = [];
  const lastSample = new Map<string, number>();

  return {
    add(name: CounterName, n = 1) {
      deltas.set(name, (deltas.get(name) ?? 0) + n);
    },
    reject(sample: RejectSample, counter: CounterName) {
      deltas.set(counter, (deltas.get(counter) ?? 0) + 1);
      const now = Date.now();
      const key = `${sample.reason}:${sample.deviceCode ?? ''}`;
      if ((lastSample.get(key) ?? 0) > now - SAMPLE_EVERY_MS) return;
      lastSample.set(key, now);
      if (lastSample.size > 50_000) lastSample.clear();
      samples.push({ ...sample, topic: sample.topic.slice(0, 200), detail: sample.detail.slice(0, 200), at: now });
    },
    /** counts made elsewhere (the broker thread), already sampled there */
    merge(from: Pick<CounterDeltas, 'counters' | 'rejects'>) {
      for (const [name, n] of from.counters) deltas.set(name, (deltas.get(name) ?? 0) + n);
      samples.push(...from.rejects);
    },
    dirty() {
      return deltas.size > 0 || samples.length > 0;
    },
    /**
     * Hands the deltas (plus `extra`, counts that belong to one batch only) to a batch transaction; `undo` puts the
     * deltas back when that transaction fails.
     */
    take(extra: Partial<Record<CounterName, number>> = {}): CounterDeltas {
      const taken = deltas;
      const takenSamples = samples;
      deltas = new Map();
      samples = [];
      const all = new Map(taken);
      for (const [k, v] of Object.entries(extra) as [CounterName, number][]) if (v) all.set(k, (all.get(k) ?? 0) + v);
      return {
        counters: [...all],
        rejects: takenSamples,
        undo: () => {
          for (const [k, v] of taken) deltas.set(k, (deltas.get(k) ?? 0) + v);
          samples.unshift(...takenSamples);
        },
      };
    },
  };
}

export type IngestCounters = ReturnType<typeof createIngestCounters>;
