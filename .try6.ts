const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const arr = Array.from({length: 20000}, (_, i) => ({ uuid: `vm-${String(i).padStart(6,'0')}`, x: i }));
for (let k = 0; k < 5; k++) { const c = cpu(); const m = new Map(arr.map(a => [a.uuid, a])); let s = 0; for (const a of arr) s += m.get(a.uuid)!.x; console.log('map20k', (cpu()-c).toFixed(2), s); }
