/** The console's style sheet: system fonts, no images, readable in light and dark mode. */
export const CONSOLE_STYLE = `
:root { color-scheme: light dark; --line: #8884; --accent: #2563eb; --ok: #15803d; --bad: #b91c1c; font: 14px/1.45 system-ui, sans-serif; }
body { margin: 0; }
header { padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.1rem; margin: 0; }
h2 { font-size: 1rem; }
nav[role=tablist] { display: flex; gap: .25rem; padding: .5rem 1rem 0; border-bottom: 1px solid var(--line); }
[role=tab] { font: inherit; padding: .4rem .9rem; border: 1px solid transparent; border-bottom: none; background: none; color: inherit; cursor: pointer; border-radius: 4px 4px 0 0; }
[role=tab][aria-selected=true] { border-color: var(--line); font-weight: 600; }
[role=tab]:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
[role=tabpanel] { padding: 1rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
code, pre, textarea, .mono { font-family: ui-monospace, monospace; font-size: 13px; }
pre { white-space: pre-wrap; word-break: break-all; background: #8881; padding: .5rem; margin: .25rem 0; max-height: 24rem; overflow: auto; }
textarea { width: 100%; min-height: 6rem; box-sizing: border-box; }
input[type=text] { min-width: 20rem; }
label { display: block; margin: .4rem 0; }
fieldset { border: 1px solid var(--line); margin: .5rem 0; }
.method { font-weight: 600; }
.status-ok { color: var(--ok); font-weight: 600; }
.status-bad { color: var(--bad); font-weight: 600; }
.note { opacity: .75; }
.error { color: var(--bad); }
.banner { background: var(--bad); color: #fff; padding: .5rem 1rem; font-weight: 600; }
button.link { background: none; border: none; padding: 0; color: var(--accent); text-decoration: underline; cursor: pointer; font: inherit; }
.inbox-message { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; margin: .5rem 0; }
.inbox-subject { font-weight: 600; margin: .25rem 0; }
.inbox-email { width: 100%; height: 24rem; border: 1px solid var(--line); background: #fff; }
.inbox-bubble { display: inline-block; background: #8882; border-radius: 12px; padding: .4rem .75rem; margin: .25rem 0; white-space: pre-wrap; }
`;
