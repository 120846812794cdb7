/** The preview page's stylesheet: Slack's light theme, close enough to judge a message by. */
export const PREVIEW_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f8f8f8;color:#1d1c1d;font:15px/1.46668 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"DejaVu Sans",Helvetica,Arial,sans-serif}
main{max-width:860px;margin:0 auto;padding:24px 16px 64px}
h1{font-size:22px;margin:0 0 6px}
.summary{background:#fff;border:1px solid #ddd;border-radius:8px;padding:16px 20px;margin-bottom:20px}
.stats{margin:4px 0;font-size:15px}.generated{margin:4px 0;color:#616061;font-size:13px}
.ok{color:#007a5a}.bad{color:#e01e5a}
.toc{margin:10px 0 0;padding-left:20px;columns:2;font-size:13px}.toc a{color:#1264a3;text-decoration:none}
.failures{color:#e01e5a;font-size:13px}
.channel{background:#fff;border:1px solid #ddd;border-radius:8px;overflow:hidden}
.entry{padding:14px 20px 18px;border-bottom:1px solid #eee}
.entry.failed{background:#fff5f7}
.entry-head{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap;margin-bottom:8px;font-size:12px;color:#616061}
.entry-title{font-weight:700;color:#1d1c1d}.entry-files{margin-left:auto}.entry-files a{color:#1264a3}
.tag{display:inline-block;background:#f0f0f0;border-radius:4px;padding:0 6px;font-size:11px;color:#454245;text-transform:uppercase;letter-spacing:.03em}
.msg{display:flex;gap:8px}
.avatar{flex:0 0 36px;height:36px;border-radius:6px;background:#0072b2;color:#fff;font-weight:700;display:flex;align-items:center;justify-content:center;font-size:14px}
.msg-body{flex:1;min-width:0}
.msg-meta{font-size:15px;margin-bottom:2px}.msg-meta .app{background:#eee;color:#616061;font-size:10px;font-weight:700;border-radius:2px;padding:1px 3px;margin:0 6px}.msg-meta .time{color:#616061;font-size:12px}
.b-header{font-size:18px;font-weight:900;margin:6px 0 4px}
.b-section{margin:6px 0}
.b-text{white-space:normal;overflow-wrap:anywhere}
.b-fields{display:grid;grid-template-columns:1fr 1fr;gap:10px 16px;margin-top:4px}
.b-field{overflow-wrap:anywhere}
.b-context{color:#616061;font-size:12px;margin:4px 0;display:flex;gap:8px;flex-wrap:wrap;align-items:center}
.b-context-img{width:16px;height:16px}
.b-image{margin:8px 0}.b-image img.chart{display:block;max-width:100%;width:520px;height:auto;border-radius:6px;border:1px solid #e8e8e8}
.b-image-title{font-size:13px;color:#616061;margin-bottom:4px}
.missing{padding:24px;background:#fafafa;border:1px dashed #ccc;color:#888;font-size:13px}
.b-table{overflow-x:auto;margin:6px 0}
.b-table table{border-collapse:collapse;font-size:13px;min-width:50%}
.b-table th,.b-table td{border:1px solid #ddd;padding:4px 8px;text-align:left;white-space:nowrap}
.b-table th{background:#f6f6f6;font-weight:700}
.b-table .num{text-align:right;font-variant-numeric:tabular-nums}
.b-actions{display:flex;gap:8px;flex-wrap:wrap;margin:10px 0 2px}
.btn{font:inherit;font-size:13px;font-weight:700;padding:3px 12px;min-height:28px;border:1px solid #bbb;border-radius:4px;background:#fff;color:#1d1c1d;cursor:default}
.btn-primary{background:#007a5a;border-color:#007a5a;color:#fff}.btn-danger{background:#e01e5a;border-color:#e01e5a;color:#fff}
code{font:12px/1.5 Menlo,Monaco,"DejaVu Sans Mono",monospace;color:#c01343;background:#f7f7f9;border:1px solid #e8e8e8;border-radius:3px;padding:0 3px}
pre{font:12px/1.5 Menlo,Monaco,"DejaVu Sans Mono",monospace;background:#f8f8f8;border:1px solid #e2e2e2;border-radius:4px;padding:8px;overflow-x:auto;margin:4px 0}
a{color:#1264a3}.mention{background:#e8f5fa;color:#1264a3;border-radius:3px;padding:0 2px}
.thread{margin:10px 0 0 44px;border-left:3px solid #e8e8e8;padding-left:12px}
.thread-label{font-size:12px;color:#1264a3;font-weight:700;margin-bottom:6px}
.dot{font-size:13px}.dot-good{color:#2eb67d}.dot-bad{color:#e01e5a}.dot-neutral{color:#9a9a9a}
.emoji{font-family:"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji",sans-serif}
hr.b-divider{border:0;border-top:1px solid #e8e8e8}
@media (max-width:600px){.b-fields{grid-template-columns:1fr 1fr}.toc{columns:1}main{padding:8px}}
`;
