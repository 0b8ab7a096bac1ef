/** The chain client libraries, whose console reports tests provoke on purpose. */
const CHAIN_CLIENTS = /[/\\]node_modules[/\\]@polkadot(?:-api)?[/\\]/;

/**
 * polkadot.js reports every failed, refused or dropped chain call on the console (and warns about
 * real metadata's unknown signed extensions); polkadot-api reports its sockets' halts. Tests make
 * chains fail, refuse and drop on purpose. The service turns those reports into JSON log lines
 * (`routeConsoleTo` in src/logger.ts, tested with the built server); test apps log nothing, so
 * the reports are dropped here too. Console output from anywhere else (a test, another library)
 * still shows.
 */
export function dropChainClientReports(): void {
  for (const method of ['error', 'warn', 'info', 'log', 'debug'] as const) {
    const write = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      // [0] "Error", [1] this function, [2] the caller.
      const caller = new Error().stack?.split('\n')[2] ?? '';
      if (!CHAIN_CLIENTS.test(caller)) write(...args);
    };
  }
}
