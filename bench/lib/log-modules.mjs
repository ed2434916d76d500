// Preloaded with `--import` into a profiled CLI run: appends "<epoch ms> <url>" to the file in
// BENCH_MODULE_LOG for every module Node loads, so the bench can list what loaded before the
// first model request.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { performance } from 'node:perf_hooks';

const file = process.env.BENCH_MODULE_LOG;
if (file) {
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      appendFileSync(file, `${(performance.timeOrigin + performance.now()).toFixed(2)} ${url}\n`);
      return loaded;
    },
  });
}
