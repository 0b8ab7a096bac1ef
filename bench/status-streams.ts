// Open `/x-transfer/status` streams, for the benches that weigh them (status.ts) or set a watch
// against them (watch.ts).

export interface OpenStreams {
  /** Ends every stream (the client side goes away). */
  close(): Promise<void>;
}

/**
 * Opens `count` streams of `body` and resolves once each has sent its first `legs` legs (the
 * stream then waits on a chain): what it holds from then on is what an open stream costs.
 */
export async function openStatusStreams(statusUrl: string, body: string, count: number, legs = 2): Promise<OpenStreams> {
  const abort = new AbortController();
  const readers = await Promise.all(
    Array.from({ length: count }, async () => {
      const res = await fetch(statusUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body, signal: abort.signal });
      if (res.status !== 200) throw new Error(`stream: ${res.status} ${await res.text()}`);
      const reader = res.body!.getReader();
      let text = '';
      while ((text.match(/event: leg/g) ?? []).length < legs) text += new TextDecoder().decode((await reader.read()).value);
      return reader;
    }),
  );
  return {
    close: async () => {
      abort.abort();
      await Promise.all(readers.map((r) => r.cancel().catch(() => undefined)));
    },
  };
}
