// Preloaded with `--import` into every timed CLI run: writes to BENCH_CPU_LOG the process's CPU
// time (user + system, ms) when it sends its first POST (the first model request), through
// undici's diagnostics channel. CPU time, unlike wall time, hardly moves with a busy machine.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_CPU_LOG;
if (file) {
  const onRequest = ({ request }) => {
    if (request.method !== 'POST') return;
    const { user, system } = process.cpuUsage();
    writeFileSync(file, `${(user + system) / 1000}\n`);
    unsubscribe('undici:request:create', onRequest);
  };
  subscribe('undici:request:create', onRequest);
}
