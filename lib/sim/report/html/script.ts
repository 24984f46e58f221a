/**
 * The page's only script, inlined: a tooltip for anything with `data-tip`, heat-map cell tooltips
 * computed from the row's values (so cells carry no text of their own), and the decision-log filter.
 * Everything it shows goes through textContent, never innerHTML.
 */
export const SCRIPT = `
(() => {
  const tip = document.getElementById('tip');
  const formats = new Map();
  const format = (tz, withDay) => {
    const key = tz + withDay;
    if (!formats.has(key)) formats.set(key, new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(withDay ? { month: 'short', day: 'numeric' } : {}) }));
    return formats.get(key);
  };
  const cellText = (cell) => {
    const row = cell.parentNode;
    const svg = cell.ownerSVGElement;
    const i = Number(cell.getAttribute('x'));
    const step = Number(svg.dataset.step);
    const from = Number(svg.dataset.start) + i * step;
    const tz = svg.dataset.tz;
    return row.dataset.host + ' (' + row.dataset.zone + ')\\n' + format(tz, true).format(from) + '\\u2013' + format(tz, false).format(from + step) +
      '\\nmean steal ' + row.dataset.v.split(',')[i] + '%';
  };
  document.addEventListener('mousemove', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-tip], .hm-row > rect') : null;
    if (!target) { tip.hidden = true; return; }
    tip.textContent = target.dataset.tip ?? cellText(target);
    tip.hidden = false;
    const box = tip.getBoundingClientRect();
    const x = event.clientX + 14 + box.width > innerWidth ? event.clientX - box.width - 10 : event.clientX + 14;
    const y = event.clientY + 16 + box.height > innerHeight ? event.clientY - box.height - 10 : event.clientY + 16;
    tip.style.left = Math.max(4, x) + 'px';
    tip.style.top = Math.max(4, y) + 'px';
  });
  const filter = document.getElementById('decision-filter');
  if (filter) filter.addEventListener('change', () => {
    for (const row of document.querySelectorAll('#decision-log tbody tr')) row.hidden = filter.value !== '' && row.dataset.d !== filter.value;
  });
})();
`;
