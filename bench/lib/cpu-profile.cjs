// Preloaded into the API child by `npm run bench -- --profile` (node -r). SIGWINCH starts the V8 CPU
// profiler; the next SIGWINCH stops it and writes the profile to $BENCH_CPU_PROFILE (a .cpuprofile
// file for Chrome DevTools / speedscope). Unlike --cpu-prof, it covers only the measured load and does
// not depend on how the server exits. (Not SIGUSR2: Nest's enableShutdownHooks() stops the app on it.)
'use strict';
const inspector = require('node:inspector');
const fs = require('node:fs');

const file = process.env.BENCH_CPU_PROFILE;
if (file) {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 500 }));
  process.on('SIGWINCH', () => {
    if (!running) {
      running = true;
      session.post('Profiler.start');
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (err) console.error('cpu profile failed', err);
      else fs.writeFileSync(file, JSON.stringify(result.profile));
      fs.writeFileSync(file + '.done', '');
    });
  });
}
