/** The report's stylesheet, inlined: system fonts only, so the file needs no network. */
import { HEAT_COLOURS } from '../scale.js';

const heatClasses = HEAT_COLOURS.map((c, i) => `.q${i}{fill:${c}}.sw.q${i}{background:${c}}`).join('');

export const STYLES = `
:root{--ink:#1d2433;--muted:#5d6676;--faint:#8b93a1;--line:#e2e6ed;--bg:#f5f6f8;--card:#fff;
--placid:#2563eb;--baseline:#e2813b;--good:#1d8a4b;--bad:#c62828;--warn:#b7791f;
--ok:#2f9e5b;--failed:#d64545;--rolled:#e0a21a;--running:#3b7dd8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-variant-numeric:tabular-nums}
main{max-width:1220px;margin:0 auto;padding:28px 24px 48px}
h1{font-size:24px;margin:0 0 4px;letter-spacing:-.01em}
h2{font-size:17px;margin:0 0 4px}
h3{font-size:14px;margin:0 0 6px}
p{margin:0 0 8px}
.muted{color:var(--muted)}.small{font-size:12px}
.meta{color:var(--muted);margin:6px 0 0}.meta span{white-space:nowrap}.meta span:not(:last-child)::after{content:"·";margin:0 3px 0 8px;color:var(--faint)}
section,.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin:18px 0}
.section-head{display:flex;align-items:baseline;justify-content:space-between;gap:16px;flex-wrap:wrap;margin-bottom:10px}
.kpis{display:grid;grid-template-columns:repeat(4,1fr);gap:14px;margin:20px 0}
.kpi{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}
.kpi .label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.kpi .value{font-size:28px;font-weight:650;margin:2px 0}
.kpi .sub{color:var(--muted);font-size:12.5px}
.good{color:var(--good)}.bad{color:var(--bad)}
.alarm{background:#fdecec;border:2px solid var(--bad);color:#7f1616}
.alarm h2{color:var(--bad)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.03em}
td.num,th.num{text-align:right;white-space:nowrap}
th.group{text-align:center;border-bottom:1px solid var(--line)}
tr.sub td:first-child{padding-left:28px;color:var(--muted)}
.trend-better{color:var(--good);font-weight:600}.trend-worse{color:var(--bad);font-weight:600}
.trend-same{color:var(--faint)}.trend-alarm{color:#fff;background:var(--bad);font-weight:700}
tr.alarm-row td{background:#fdecec;font-weight:600}tr.alarm-row td.trend-alarm{background:var(--bad);color:#fff}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:18px;margin:18px 0}.cols>section{margin:0}
.chart{display:block;max-width:100%;height:auto;font-size:10.5px}.line-chart{width:100%;font-size:11px}
.chart text{fill:var(--muted)}
.chart .zone-label{font-weight:700;fill:var(--ink);font-size:11px}
.chart .host-label{text-anchor:end;font-size:9.5px}
.chart .tick{text-anchor:middle}.chart .tick.y{text-anchor:end}.chart .tick.day{font-weight:600;fill:var(--ink)}
.chart .grid{stroke:#edf0f4}.chart .tick-mark{stroke:#b9c0cc}
.chart .lane{fill:#f7f8fa}
.chart .threshold{stroke:var(--bad);stroke-dasharray:4 3;stroke-width:1}
.chart .threshold-label{text-anchor:end;fill:var(--bad);font-size:10px}
.chart .line{fill:none;stroke-width:1.8;stroke-linejoin:round}
.s-placid{stroke:var(--placid)}.s-baseline{stroke:var(--baseline)}
.chart .hover{fill:transparent}.chart .hover:hover{fill:rgba(37,99,235,.08)}
.mk{stroke:#fff;stroke-width:.8}
.bar:hover,.mk:hover{stroke:var(--ink);stroke-width:1.2}
.st-succeeded{fill:var(--ok)}.st-failed{fill:var(--failed)}.st-rolled_back{fill:var(--rolled)}.st-running{fill:var(--running)}.st-unknown{fill:#888}
${heatClasses}
.legend{display:flex;flex-wrap:wrap;align-items:center;gap:6px 14px;font-size:12px;color:var(--muted);margin:6px 0 10px}
.legend .item{display:inline-flex;align-items:center;gap:5px}
.sw{display:inline-block;width:12px;height:12px;border-radius:2px}
.sw.line{height:3px;width:16px;border-radius:2px}
.sw.placid{background:var(--placid)}.sw.baseline{background:var(--baseline)}
.sw.st-succeeded{background:var(--ok)}.sw.st-failed{background:var(--failed)}.sw.st-rolled_back{background:var(--rolled)}.sw.st-running{background:var(--running)}
.scale{display:inline-flex;align-items:flex-start}.scale .step{display:flex;flex-direction:column;align-items:flex-start;font-size:10.5px;min-width:46px}
.scale .step .sw{width:100%;height:12px;border-radius:0}
.scale .step.at-threshold{border-left:2px solid var(--bad)}
.toggle>input{position:absolute;opacity:0;pointer-events:none}
.segmented{display:inline-flex;border:1px solid var(--line);border-radius:8px;overflow:hidden}
.segmented label{padding:5px 14px;cursor:pointer;font-size:13px;color:var(--muted);user-select:none}
.segmented label+label{border-left:1px solid var(--line)}
#hm-run-placid:checked~.section-head label[for=hm-run-placid],#hm-run-baseline:checked~.section-head label[for=hm-run-baseline]{background:var(--ink);color:#fff}
.hm-view{display:none}#hm-run-placid:checked~.hm-placid,#hm-run-baseline:checked~.hm-baseline{display:block}
.bars .row{display:grid;grid-template-columns:210px 1fr 64px 52px;gap:10px;align-items:center;padding:3px 0}
.bars .track{background:#eef1f5;border-radius:4px;height:10px}.bars .fill{background:var(--faint);height:10px;border-radius:4px}
.bars .row.moved .fill{background:var(--good)}
.badge{display:inline-block;padding:1px 7px;border-radius:10px;font-size:11.5px;background:#eef1f5;color:var(--muted);white-space:nowrap}
.badge.moved{background:#e3f4ea;color:var(--good)}
details>summary{cursor:pointer;font-weight:600;font-size:15px}
details .log-tools{margin:10px 0}
#decision-log td{font-size:12.5px;padding:4px 10px}#decision-log td:first-child{white-space:nowrap}#decision-log td.vm{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
#tip{position:fixed;z-index:10;max-width:420px;padding:7px 9px;background:#1d2433;color:#fff;border-radius:6px;font-size:12px;line-height:1.45;white-space:pre-wrap;pointer-events:none;box-shadow:0 4px 14px rgba(0,0,0,.2)}
footer{color:var(--faint);font-size:12px;text-align:center;margin-top:24px}
@media print{.hm-view{display:block!important}.segmented{display:none}#tip{display:none}}
@media (max-width:900px){.kpis{grid-template-columns:1fr 1fr}.cols{grid-template-columns:1fr}}
`;
