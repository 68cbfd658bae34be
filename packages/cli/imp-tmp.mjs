const t0 = performance.now(); const c0 = process.cpuUsage();
for (const m of process.argv.slice(2)) await import(m);
const c = process.cpuUsage(c0);
console.log(process.argv.slice(2).join(' ').replace(/file:\/\/\/work\/h-launch\/packages\//g,''), 'wall', (performance.now() - t0).toFixed(0), 'cpu', ((c.user + c.system) / 1000).toFixed(0), 'boot', t0.toFixed(0));
